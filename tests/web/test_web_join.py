"""``/join``: the app's address as a QR code, for a second phone at the table."""

from __future__ import annotations

import re
from pathlib import Path

import segno
from flask.testing import FlaskClient

from companion.web import create_app

HX = {"HX-Request": "true"}


def test_join_page_shows_the_base_url_as_a_qr_code(tmp_path: Path) -> None:
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"),
                      "SECRET_KEY": "join", "BASE_URL": "http://192.168.1.20:5000"})
    c = app.test_client()
    page = c.get("/join").get_data(as_text=True)
    assert '<a href="http://192.168.1.20:5000/">http://192.168.1.20:5000/</a>' in page
    drawn = re.search(r"<svg[^>]*>.*?</svg>", page, re.S)
    expected = segno.make("http://192.168.1.20:5000/", error="m").svg_inline(
        scale=6, border=3, dark="#1d2a1d", light="#ffffff")
    assert drawn and drawn.group(0) == expected
    assert "style=" not in drawn.group(0)  # the CSP allows no inline styles
    fragment = c.get("/join", headers=HX).get_data(as_text=True)
    assert "<html" not in fragment and "<svg" in fragment


def test_every_page_links_to_join(client: FlaskClient) -> None:
    assert 'href="/join"' in client.get("/").get_data(as_text=True)
