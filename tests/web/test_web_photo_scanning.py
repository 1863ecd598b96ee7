"""The photo flow scans what the camera took (full resolution) through the bounded scan
pool: busy beyond it (503 + Retry-After, nothing lost), and at most PHOTOS_PER_GAME photos."""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.storage import photos as store
from companion.storage.limits import PHOTOS_PER_GAME
from companion.vision import DEFAULT_CONFIG, scan
from companion.web import create_app, scan_pool
from companion.web.db import get_db
from companion.web.photos.routes import game_scan_config
from tests.helpers.webtools import browser

PHOTO = Path(__file__).resolve().parents[2] / "sample_photos" / "wood-12mp-tilted-25.jpg"
if not PHOTO.exists():
    pytest.skip("sample_photos/ is missing", allow_module_level=True)


@pytest.fixture()
def app(tmp_path: Path) -> Flask:
    return create_app({"TESTING": True, "DATABASE": str(tmp_path / "db.sqlite"),
                       "SECRET_KEY": "test", "SCAN_WORKERS": 1, "SCAN_QUEUE": 0,
                       "SCAN_RETRY_AFTER_S": 7})


def _new_game(c: FlaskClient, tok: str) -> int:
    r = c.post("/games/new", data={"csrf_token": tok, "kind": "board-game", "players": "A"})
    return int(re.findall(r"\d+", r.headers["Location"])[-1])


def _upload(c: FlaskClient, tok: str, game_id: int, data: bytes) -> Any:
    return c.post(f"/games/{game_id}/photos",
                  data={"csrf_token": tok, "photo": (io.BytesIO(data), "table.jpg")},
                  content_type="multipart/form-data")


def test_the_upload_is_scanned_at_full_resolution_and_shown_on_the_stored_copy(
        app: Flask) -> None:
    c, tok = browser(app)
    game_id = _new_game(c, tok)
    data = PHOTO.read_bytes()
    assert _upload(c, tok, game_id, data).status_code == 303
    with app.app_context():
        photo = store.photos_of(get_db(), game_id)[0]
    # the scanner on the camera's file itself, among the base box's tiles (the game's)
    direct = scan(data, DEFAULT_CONFIG.tuned(sections=("landscape", "task"))).to_json()
    stored = photo["scan"]
    assert [(t["code"], t["attributes"]) for t in stored["tiles"]] == [
        (t["code"], t["attributes"]) for t in direct["tiles"]]
    assert max(photo["width"], photo["height"]) == 2000  # the stored copy is small
    scale = photo["width"] / 4000
    for mine, theirs in zip(stored["tiles"], direct["tiles"], strict=True):
        assert 0 <= mine["center_px"][0] <= photo["width"]
        assert mine["center_px"][0] == pytest.approx(theirs["center_px"][0] * scale, abs=0.2)


def test_beyond_the_pool_a_scan_is_told_to_retry_and_nothing_is_lost(app: Flask) -> None:
    c, tok = browser(app)
    game_id = _new_game(c, tok)
    release, holding = threading.Event(), threading.Event()

    def hold() -> None:
        holding.set()
        release.wait(10)

    worker = threading.Thread(target=scan_pool.of(app).run, args=(hold,))
    worker.start()
    try:
        holding.wait(5)
        r = c.post("/api/scan", data={"photo": (io.BytesIO(PHOTO.read_bytes()), "t.jpg")},
                   content_type="multipart/form-data")
        assert r.status_code == 503 and r.headers["Retry-After"] == "7"
        assert "nothing was lost" in r.get_json()["error"]
        r = _upload(c, tok, game_id, PHOTO.read_bytes())
        assert r.status_code == 503 and r.headers["Retry-After"] == "7"
        assert "Wait a few seconds" in r.get_data(as_text=True)
        with app.app_context():
            assert store.photos_of(get_db(), game_id) == []
    finally:
        release.set()
        worker.join(10)
    assert _upload(c, tok, game_id, PHOTO.read_bytes()).status_code == 303


def test_a_game_keeps_at_most_the_photo_limit(app: Flask) -> None:
    c, tok = browser(app)
    game_id = _new_game(c, tok)
    with app.app_context():
        db = get_db()
        for _ in range(PHOTOS_PER_GAME):
            store.add_photo(db, game_id, b"jpeg", 10, 10, None,
                            lambda _draft, _pid: ({"tiles": []}, None))
    r = _upload(c, tok, game_id, PHOTO.read_bytes())
    assert r.status_code == 422
    assert f"already keeps {PHOTOS_PER_GAME} photos" in r.get_data(as_text=True)


def test_the_pool_budgets_decoded_pixels_times_channels_from_the_header() -> None:
    from PIL import Image

    from companion.web.photos.image import decoded_bytes

    buf = io.BytesIO()
    Image.new("RGBA", (6300, 6300), (10, 200, 30, 255)).save(buf, "PNG")
    assert len(buf.getvalue()) < 1_000_000  # a tiny file that decodes to 159 MB
    assert decoded_bytes(buf.getvalue()) == 6300 * 6300 * 4


@pytest.mark.parametrize(("header", "sections"), [
    ("game: board-game\n", ("landscape", "task")),
    ("game: board-game\nunlocked: box1\n", ("landscape", "task", "box-1-task")),
    ("game: board-game\nunlocked: box1, box2\n",
     ("landscape", "task", "box-1-task", "box-2-landscape")),
])
def test_a_board_game_photo_is_read_among_the_boxes_the_game_plays_with(
        app: Flask, header: str, sections: tuple[str, ...]) -> None:
    with app.app_context():
        config = game_scan_config({"record": header})
    assert sorted(config.decode.sections) == sorted(sections)
    assert config.decode.use_inventory


def test_a_duel_photo_is_read_without_the_board_games_catalogue(app: Flask) -> None:
    with app.app_context():
        config = game_scan_config({"record": "game: duel\nplayer: red\nplayer: blue\n"})
    assert not config.decode.use_catalogue and not config.decode.use_inventory
