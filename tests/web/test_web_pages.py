"""Every page of the core web app through the test client, plain and with
``HX-Request: true``: a full page (``<html>`` with the layout) versus the fragment
alone, ``Vary: HX-Request`` always; plus the PWA files, static assets, 404 page and
security headers. Real app, real SQLite file in a temporary instance folder.
"""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import records
from companion.web.db import get_db
from tests.helpers.webtools import HX, RECORD

OWNER = "pages-owner"


@pytest.fixture()
def owner() -> str:
    return OWNER


def make_game(app: Flask, text: str = RECORD, owner: str = OWNER) -> int:
    with app.app_context():
        return records.create_game(get_db(), text, owner)


def pages(game_id: int) -> list[str]:
    return ["/", "/score", "/rules", "/rules?q=flag", "/offline", "/games/new",
            "/games/import", f"/games/{game_id}", f"/games/{game_id}/edit",
            f"/games/{game_id}/dispute", f"/games/{game_id}/dispute?q=1&r=1&code=GGGGGG"]


def test_every_page_full_and_fragment(app: Flask, client: FlaskClient) -> None:
    game_id = make_game(app)
    for url in pages(game_id):
        full = client.get(url)
        frag = client.get(url, headers=HX)
        assert full.status_code == 200, url
        assert frag.status_code == 200, url
        assert "HX-Request" in full.headers["Vary"] and "HX-Request" in frag.headers["Vary"]
        assert b"<html" in full.data and b'id="main"' in full.data, url
        assert b"<html" not in frag.data and b"<body" not in frag.data, url
        assert frag.data.strip(), url
        # the fragment is exactly what the full page holds inside <main>
        assert frag.data.strip()[:60] in full.data, url


def test_history_restore_gets_full_page(client: FlaskClient) -> None:
    r = client.get("/rules", headers={**HX, "HX-History-Restore-Request": "true"})
    assert b"<html" in r.data


def test_layout_has_bottom_actions_csrf_and_no_inline_script(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    assert re.search(r'<nav class="bottom-bar"', html)
    assert '<meta name="csrf-token" content="' in html
    assert 'hx-headers=\'{"X-CSRF-Token": "' in html
    assert "htmx-2.0.11.min.js" in html and "cdn" not in html.lower()
    for tag in re.findall(r"<script[^>]*>(.*?)</script>", html, re.S):
        assert tag.strip() == "", "inline script found"
    assert ' style="' not in html
    assert 'rel="manifest"' in html


def test_security_headers(client: FlaskClient) -> None:
    r = client.get("/")
    csp = r.headers["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert "frame-ancestors 'none'" in csp
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["Referrer-Policy"] == "same-origin"


def test_not_found_page_is_friendly(client: FlaskClient) -> None:
    for url in ("/nowhere", "/games/999", "/games/999.dorf", "/s/not-a-token"):
        r = client.get(url)
        assert r.status_code == 404, url
        assert b"Not found" in r.data and b"Traceback" not in r.data
        assert b"<html" in r.data
        frag = client.get(url, headers=HX)
        assert frag.status_code == 404 and b"<html" not in frag.data


def test_method_not_allowed_is_friendly(client: FlaskClient) -> None:
    r = client.get("/api/score")
    assert r.status_code == 405 and b"Not allowed" in r.data


def test_service_worker_served_at_root(client: FlaskClient) -> None:
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.mimetype in ("text/javascript", "application/javascript")
    assert r.headers["Service-Worker-Allowed"] == "/"
    assert "no-cache" in r.headers["Cache-Control"]
    body = r.get_data(as_text=True)
    assert "/offline" in body and "caches.open" in body


def test_manifest_served_with_its_type_and_icons_exist(client: FlaskClient) -> None:
    for url in ("/manifest.webmanifest", "/static/manifest.webmanifest"):
        r = client.get(url)
        assert r.status_code == 200
        assert r.mimetype == "application/manifest+json", url
    manifest = json.loads(client.get("/manifest.webmanifest").data)
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200 and got.mimetype == "image/png"
        assert got.data[:8] == b"\x89PNG\r\n\x1a\n"
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes


def test_static_scripts_served(client: FlaskClient) -> None:
    for name in ("app.js", "offline.js", "htmx-2.0.11.min.js", "app.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
    assert b"window.companionQueue" in client.get("/static/offline.js").data


def test_offline_page(client: FlaskClient) -> None:
    r = client.get("/offline")
    assert r.status_code == 200 and b"offline" in r.data.lower()


def test_home_lists_games_in_progress_and_finished(app: Flask, client: FlaskClient) -> None:
    playing = make_game(app, "game: board-game\nplayers: Ana, Rui\n0 0 GGGGGG\n")
    with app.app_context():
        finished = records.create_game(get_db(), RECORD, OWNER, finished=True)
        other = records.create_game(get_db(), "game: board-game\nplayers: Zed\n", "someone")
    html = client.get("/").get_data(as_text=True)
    progress, done = html.split("<h2>Finished</h2>")
    assert f"/games/{playing}" in progress or f"/play/{playing}" in progress
    assert "Ana, Rui" in progress
    assert f"/games/{finished}" in done
    assert "Zed" not in html and f"/games/{other}" not in html
