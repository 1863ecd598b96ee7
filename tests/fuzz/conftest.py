"""Fixtures of the fuzz suite: the real app on a fresh SQLite file, CSRF off (the fuzz
inputs are the forms' fields; the CSRF check itself is tested in tests/web), one game and
one campaign this client owns (``fuzz_strategies.FUZZ`` bounds each test's examples)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.web import create_app


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    folder: Path = tmp_path_factory.mktemp("fuzz")
    yield create_app({"TESTING": True, "DATABASE": str(folder / "fuzz.sqlite"),
                      "SECRET_KEY": "fuzz", "CSRF_ENABLED": False,
                      "PHOTO_SCAN_SECONDS": 5.0})


@pytest.fixture(scope="module")
def client(app: Flask) -> FlaskClient:
    c = app.test_client()
    with c.session_transaction() as s:
        s["owner"] = "fuzz-owner"
    return c


def _created_id(response_location: str, pattern: str) -> int:
    found = re.search(pattern, response_location)
    assert found, response_location
    return int(found.group(1))


@pytest.fixture(scope="module")
def game_id(client: FlaskClient) -> int:
    r = client.post("/games/new", data={"kind": "board-game", "players": "Ana"})
    assert r.status_code in (302, 303), r.status_code
    return _created_id(r.headers["Location"], r"/(?:play|games)/(\d+)")


@pytest.fixture(scope="module")
def campaign_id(client: FlaskClient) -> int:
    r = client.post("/campaigns", data={"name": "Fuzz table", "players": "Ana"})
    assert r.status_code in (302, 303), r.status_code
    return _created_id(r.headers["Location"], r"/campaigns/(\d+)")
