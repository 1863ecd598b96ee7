"""What the recorder page carries for recording offline (``#play-data``, built by
``companion/web/play/offline.py``, read by ``static/play-offline.js``), through the test
client: the edge-compatibility table the browser matches edges with is the engine's
``edges_can_meet`` for every pair of terrains, the map and the copies left are the
server's, the strings are in the page's language, and the service worker never answers a
fragment request with the offline page."""

from __future__ import annotations

import html as htmllib
import json
import re
from collections.abc import Iterator
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.rules import TERRAINS, canonical, edges_can_meet, load_position, tiles_left
from companion.web import create_app, records
from companion.web.db import get_db
from companion.web.play.offline import edge_table
from tests.helpers.webtools import HX

OWNER = "owner-of-the-offline-tests"
START = "game: board-game\n0 0 GGMTTM\n"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app({"TESTING": True, "DATABASE": str(tmp_path / "offline.sqlite"),
                      "CSRF_ENABLED": False, "SECRET_KEY": "test"})


@pytest.fixture()
def owner() -> str:
    return OWNER


def new_game(app: Flask, text: str) -> int:
    with app.app_context():
        return records.create_game(get_db(), text, OWNER)


def island(page: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="play-data">(.*?)</script>', page,
                      re.S)
    assert found, "the recorder carries no #play-data"
    data: dict[str, Any] = json.loads(htmllib.unescape(found.group(1))
                                      if "&#" in found.group(1) else found.group(1))
    return data


@pytest.mark.parametrize("headers", [{}, HX])
def test_the_pages_edge_table_is_the_engines_for_every_pair(
        app: Flask, client: FlaskClient, headers: dict[str, str]) -> None:
    gid = new_game(app, START)
    data = island(client.get(f"/play/{gid}", headers=headers).get_data(as_text=True))
    table = data["edges"]
    assert sorted(table) == sorted(TERRAINS)
    for a, b in product(TERRAINS, repeat=2):
        assert (b in table[a]) == edges_can_meet(a, b), (a, b)
    assert table == edge_table()
    assert data["dirs"] == [[0, -1], [1, -1], [1, 0], [0, 1], [-1, 1], [-1, 0]]


def test_the_page_carries_the_map_the_box_and_translated_strings(
        app: Flask, client: FlaskClient) -> None:
    gid = new_game(app, START + "1 -1 GGGGGG\n")
    data = island(client.get(f"/play/{gid}?at=0,-1").get_data(as_text=True))
    assert data["local"] is True and data["page"] == f"/play/{gid}"
    assert data["cells"] == [[0, 0, "GGMTTM", False], [1, -1, "GGGGGG", False]]
    assert data["sel"] == {"at": [0, -1], "tile": None, "rot": None}
    position = load_position(START + "1 -1 GGGGGG\n")
    left = tiles_left(position.record, position.board())
    for code, section, n, holds, playing in data["tiles"]:
        assert n == left.get((section, canonical(code)), 0) and holds >= max(n, 1)
        assert playing == (section in ("landscape", "task"))
    assert 'data-queue="place"' in data["place_form"] and 'name="task_type"' in data["place_form"]
    # the chooser comes along only when a tile is chosen (it is not on that page then)
    assert data["chooser"] == ""
    chosen = island(client.get(f"/play/{gid}?tile=FFFFFF").get_data(as_text=True))
    assert 'class="catalogue"' in chosen["chooser"]
    client.set_cookie("lang", "de")
    german = island(client.get(f"/play/{gid}").get_data(as_text=True))
    assert german["text"]["refused_place"] != data["text"]["refused_place"]
    assert "%(reason)s" in german["text"]["refused_place"]


def test_the_duel_carries_both_landscapes_and_their_turns(
        app: Flask, client: FlaskClient) -> None:
    duel = new_game(app, "game: duel\nplayer: red\n0 0 FFFFSS task=forest/4\nplayer: blue\n")
    data = island(client.get(f"/play/{duel}").get_data(as_text=True))
    assert data["local"] is True and data["duel"] is True and data["player"] == "blue"
    assert data["lands"] == [
        {"player": "red", "cells": [[0, 0, "FFFFSS", "forest/4", False, 1]]},
        {"player": "blue", "cells": []}]
    assert 'name="player"' in data["place_form"]
    # the end-of-game entry of a Duel is recorded turn by turn, online
    assert island(client.get(f"/play/{duel}/end").get_data(as_text=True))["local"] is False


def test_the_service_worker_never_swaps_the_offline_page_into_a_fragment() -> None:
    sw = (ROOT / "static" / "sw.js").read_text()
    fragment = sw[sw.index('request.headers.get("HX-Request")'):]
    assert "/offline" not in fragment and "X-Companion-Offline" in fragment
    assert '"/static/play-offline.js"' in sw


def test_the_reveal_order_inputs_follow_the_boxes_unlocked(
        app: Flask, client: FlaskClient) -> None:
    """``order``: what play-offline.js needs for the stack due after its own placements
    (tests/web/test_web_browser_offline.py compares it with the engine); none where the
    engine names no stack (the Duel); a split tile carries its split= areas."""
    base = new_game(app, "game: board-game\n")
    plain = island(client.get(f"/play/{base}").get_data(as_text=True))
    assert plain["order"] == {"first": 3, "min_active": 3, "landscape": 45, "tasks": 25}
    both = new_game(app, "game: board-game\nunlocked: box1, box2\n0 0 FMMFMM split=F:0/3\n")
    data = island(client.get(f"/play/{both}").get_data(as_text=True))
    assert data["order"] == {"first": 3, "min_active": 3, "landscape": 50, "tasks": 30}
    assert data["lands"][0]["cells"] == [[0, 0, "FMMFMM", "", False, 1, "F:0/3"]]
    duel = new_game(app, "game: duel\nplayer: red\nplayer: blue\n")
    assert island(client.get(f"/play/{duel}").get_data(as_text=True))["order"] is None
