"""A chunked body (no Content-Length) over the size limit is refused with 413, never cut
and used in part (the 614 KB chunked record that scored 0 and the import that stored
522 KB); under the limit it is read whole. Checked with a raw chunked request under
waitress (the server of ``make run``, which buffers and sizes chunked bodies itself) and
under werkzeug's server (which passes them on unsized: the case that was cut)."""

from __future__ import annotations

import http.client
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from waitress.server import create_server
from werkzeug.serving import make_server

from companion.web import create_app


@pytest.fixture(params=["waitress", "werkzeug"])
def served(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Flask, int]]:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"),
                      "SECRET_KEY": "chunked", "CSRF_ENABLED": False})
    if request.param == "waitress":
        server = create_server(app, host="127.0.0.1", port=0, threads=2)
        port, run, stop = int(server.effective_port), server.run, server.close  # type: ignore[union-attr]
    else:
        dev = make_server("127.0.0.1", 0, app, threaded=True)
        port, run, stop = dev.port, dev.serve_forever, dev.shutdown
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield app, port
    finally:
        stop()


def _chunked_post(port: int, path: str, body: bytes, content_type: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.putrequest("POST", path)
    conn.putheader("Transfer-Encoding", "chunked")
    conn.putheader("Content-Type", content_type)
    conn.endheaders()
    for i in range(0, len(body), 16384):
        chunk = body[i:i + 16384]
        conn.send(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
    conn.send(b"0\r\n\r\n")
    response = conn.getresponse()
    return response.status, response.read()


def _record(padding_lines: int) -> bytes:
    return ("game: board-game\n" + "# padding\n" * padding_lines +
            "0 0 GGGGGG task=grain/4\n").encode()


def test_a_chunked_record_under_the_limit_is_scored_whole(served: tuple[Flask, int]) -> None:
    _app, port = served
    status, body = _chunked_post(port, "/api/score", _record(1000), "text/plain")
    assert status == 200 and b'"grain"' in body


def test_a_chunked_record_over_the_limit_is_refused(served: tuple[Flask, int]) -> None:
    app, port = served
    body = _record(62_000)
    assert len(body) > app.config["RECORD_MAX_BYTES"]
    status, _ = _chunked_post(port, "/api/score", body, "text/plain")
    assert status == 413


def test_a_chunked_import_over_the_limit_stores_nothing(served: tuple[Flask, int]) -> None:
    app, port = served
    form = b"record=" + _record(62_000).replace(b"\n", b"%0A").replace(b" ", b"+")
    status, _ = _chunked_post(port, "/games/import", form, "application/x-www-form-urlencoded")
    assert status == 413
    with app.app_context():
        from companion.storage.games import list_games
        from companion.web.db import get_db

        assert list_games(get_db()) == []
