"""Text responses are gzip-compressed for clients that accept it (the first page load
on a phone at the table), and left alone for clients that do not."""

from __future__ import annotations

import gzip

import pytest
from flask.testing import FlaskClient


@pytest.mark.parametrize("url", ["/", "/rules", "/static/htmx-2.0.11.min.js", "/static/app.css"])
def test_text_is_gzipped_when_accepted(client: FlaskClient, url: str) -> None:
    plain = client.get(url)
    packed = client.get(url, headers={"Accept-Encoding": "gzip, deflate"})
    assert plain.status_code == packed.status_code == 200
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    assert gzip.decompress(packed.data) == plain.data
    assert int(packed.headers["Content-Length"]) == len(packed.data) < len(plain.data)


def test_images_are_not_recompressed(client: FlaskClient) -> None:
    r = client.get("/static/icons/icon-192.png", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and "Content-Encoding" not in r.headers
