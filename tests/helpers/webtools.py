"""Helpers shared by the web tests (the fixtures themselves are in ``conftest.py``).

Representation: plain functions and constants, importable as ``webtools`` (``tests/web``
is on pytest's ``pythonpath``). The test client side: ``HX`` (the htmx request
header), ``DATA`` / ``RECORD`` (a finished board game from ``tests/data``),
``csrf_token(client, url)`` (the token of the page's ``<meta name="csrf-token">``),
``browser(app)`` (a client with its own cookie identity and its token). The real
browser side: ``LiveServer`` (the app served on 127.0.0.1 in a thread, with read-backs
of what a game holds), the Chromium settings (``CHROMIUM``, ``ARGS``, ``VIEWPORT``),
``BROWSER`` (the marks of a browser test module: skipped cleanly without
``/usr/bin/chromium``) and ``shot(page, name)`` (a screenshot in ``test-artifacts/``).
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import parse_record
from companion.storage import photos as photo_store
from companion.storage.games import get_game
from companion.web.db import get_db
from companion.web.photos.review import Review

HX = {"HX-Request": "true"}
ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
RECORD = (DATA / "bg_flags_closed_open.dorf").read_text()

CHROMIUM = "/usr/bin/chromium"
"""Debian's Chromium; a downloaded browser is never used."""
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 390, "height": 844}
"""A phone's screen, in CSS pixels."""
ARTIFACTS = ROOT / "test-artifacts"
BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(),
                       reason=f"{CHROMIUM} is not installed (Debian package chromium)"),
]
"""``pytestmark`` of a module that drives the real browser."""

CSRF_META = re.compile(r'name="csrf-token" content="([^"]+)"')


def csrf_token(client: FlaskClient, url: str = "/") -> str:
    """The CSRF token of ``client``'s session, read from the page at ``url``."""
    found = CSRF_META.search(client.get(url).get_data(as_text=True))
    assert found, f"no csrf-token meta on {url}"
    return found.group(1)


def browser(app: Flask, url: str = "/") -> tuple[FlaskClient, str]:
    """A client with its own cookie identity, and its CSRF token."""
    c = app.test_client()
    return c, csrf_token(c, url)


class LiveServer:
    """``app`` served at ``url`` (127.0.0.1, a free port) by werkzeug in a thread."""

    def __init__(self, app: Flask) -> None:
        from werkzeug.serving import make_server

        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.server.shutdown()
        self.thread.join(timeout=5)

    def game(self, game_id: int) -> dict[str, Any]:
        with self.app.app_context():
            return dict(get_game(get_db(), game_id))

    def record(self, game_id: int) -> str:
        return str(self.game(game_id)["record"])

    def placements(self, game_id: int) -> int:
        return sum(len(s.placements) for s in parse_record(self.record(game_id)).sections)

    def review(self, game_id: int) -> Review:
        with self.app.app_context():
            found = photo_store.get_review(get_db(), game_id)
        assert found is not None
        return Review.from_json(found.state)


def wait_pending(page: Any, n: int, timeout: float = 30.0) -> None:
    """Wait until offline.js holds ``n`` waiting submissions (polled: the page's CSP
    forbids the eval behind ``wait_for_function``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if page.evaluate("() => window.companionQueue.pending()") == n:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"offline queue never held {n} submissions")


def shot(page: Any, name: str, full_page: bool = True) -> None:
    """Save a screenshot of ``page`` as ``test-artifacts/NAME.png``."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)
