"""Serving beyond a laptop: settings from the environment, share links from the configured
base URL (never the Host header), ProxyFix only for trusted proxies, Secure cookies and HSTS
over https, and private responses that no cache keeps."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app
from companion.web.settings import SettingsError, from_environment

RECORD = "game: board-game\n0 0 GGGGGG task=grain/4\n"


def _app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **env: str) -> Flask:
    for key, value in env.items():
        monkeypatch.setenv(f"COMPANION_{key}", value)
    config: dict[str, object] = {"TESTING": True, "CSRF_ENABLED": False}
    if "SECRET_KEY" not in env:
        config["SECRET_KEY"] = "serving"
    if "DATABASE" not in env:
        config["DATABASE"] = str(tmp_path / "db.sqlite")
    return create_app(config)


def _imported_game_page(c: FlaskClient, host: str | None = None) -> str:
    headers = {"Host": host} if host else {}
    r = c.post("/games/import", data={"record": RECORD}, headers=headers)
    assert r.status_code == 303, r.data
    return c.get(r.headers["Location"], headers=headers).get_data(as_text=True)


def test_settings_come_from_the_environment(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "elsewhere.sqlite"
    app = _app(tmp_path, monkeypatch, SECRET_KEY="k" * 40, DATABASE=str(db),
               BASE_URL="https://dorf.example.org/", TRUSTED_PROXIES="1")
    assert app.config["SECRET_KEY"] == "k" * 40
    assert app.config["DATABASE"] == str(db)
    assert app.config["BASE_URL"] == "https://dorf.example.org"
    assert app.config["SESSION_COOKIE_SECURE"] is True


@pytest.mark.parametrize(("key", "value"), [("BASE_URL", "dorf.example.org"),
                                            ("BASE_URL", "ftp://x"),
                                            ("TRUSTED_PROXIES", "many")])
def test_bad_settings_are_refused_by_name(key: str, value: str) -> None:
    with pytest.raises(SettingsError, match=f"COMPANION_{key}"):
        from_environment({f"COMPANION_{key}": value})


def test_share_links_use_the_base_url_not_the_host_header(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app(tmp_path, monkeypatch, BASE_URL="https://dorf.example.org")
    page = _imported_game_page(app.test_client(), host="evil.example")
    links = re.findall(r'class="share-link" readonly value="([^"]+)"', page)
    assert len(links) == 2 and all(u.startswith("https://dorf.example.org/s/") for u in links)
    assert "evil.example" not in page


def test_without_a_base_url_a_forged_host_is_not_used(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    page = _imported_game_page(_app(tmp_path, monkeypatch).test_client(), host="evil.example")
    assert "evil.example" not in page
    page = _imported_game_page(_app(tmp_path, monkeypatch).test_client(),
                               host="192.168.1.20:5000")
    assert 'value="http://192.168.1.20:5000/s/' in page


def test_https_sends_hsts_and_a_secure_cookie(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app(tmp_path, monkeypatch, BASE_URL="https://dorf.example.org", TRUSTED_PROXIES="1")
    r = app.test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    assert r.headers["Strict-Transport-Security"].startswith("max-age=")
    assert "Secure" in r.headers["Set-Cookie"]
    monkeypatch.delenv("COMPANION_BASE_URL")
    plain = _app(tmp_path, monkeypatch).test_client().get("/")
    assert "Strict-Transport-Security" not in plain.headers
    assert "Secure" not in plain.headers.get("Set-Cookie", "")


def test_forwarded_headers_count_only_from_trusted_proxies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, str] = {}
    for trusted in ("0", "1"):
        app = _app(tmp_path, monkeypatch, TRUSTED_PROXIES=trusted)

        @app.get("/probe")
        def probe() -> str:
            from flask import request

            return request.remote_addr or ""

        r = app.test_client().get("/probe", headers={"X-Forwarded-For": "203.0.113.9"})
        seen[trusted] = r.get_data(as_text=True)
    assert seen == {"0": "127.0.0.1", "1": "203.0.113.9"}


def test_private_responses_are_never_cached(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    app = _app(tmp_path, monkeypatch)
    c = app.test_client()
    page = _imported_game_page(c)
    game = re.search(r'href="/games/(\d+)\.dorf"', page)
    assert game
    for url in ("/", f"/games/{game.group(1)}", f"/games/{game.group(1)}.dorf", "/campaigns",
                "/rules"):
        assert c.get(url).headers["Cache-Control"] == "private, no-store", url
    static = c.get("/static/app.css")
    assert "no-store" not in static.headers.get("Cache-Control", "")


def test_the_service_worker_keeps_only_what_offline_needs() -> None:
    sw = (Path(__file__).resolve().parents[2] / "static" / "sw.js").read_text()
    keep = re.search(r"function keptOffline\(url\) \{(.*?)\}", sw, re.S)
    assert keep and 'indexOf("/play/")' in keep.group(1)
    assert "keptOffline(new URL(request.url))" in sw
