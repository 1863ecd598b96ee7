"""A flag the scanner is unsure of (``scan --json``'s ``flag_doubtful``) is kept in the
review draft and highlighted (overlay class ``flag-doubtful``, the editor's flag field)
until a person sets the tile."""

from __future__ import annotations

from typing import Any

from companion.rules import Hex
from companion.web.photos.overlay import overlay
from companion.web.photos.review import Review, from_scan, set_tile


def _scan() -> dict[str, Any]:
    tiles = [
        {"at": [0, 0], "code": "FFMMMM", "confidence": [1.0] * 6,
         "attributes": {"flag": "forest"}, "center_px": [100.0, 100.0], "mismatch": [],
         "doubtful": [], "flag_doubtful": True},
        {"at": [1, 0], "code": "GGMMMM", "confidence": [1.0] * 6, "attributes": {},
         "center_px": [260.0, 190.0], "mismatch": [], "doubtful": [], "flag_doubtful": False},
        {"at": [0, 1], "code": "MMMMMM", "confidence": [1.0] * 6, "attributes": {},
         "center_px": [100.0, 280.0], "mismatch": [], "doubtful": []},
    ]
    return {"kind": "assembled", "tiles": tiles, "record": ""}


def test_the_scanners_flag_doubt_survives_storage() -> None:
    review = Review.from_json(from_scan(_scan(), photo_id=1).to_json())
    assert review.tiles[Hex(0, 0)].flag_doubtful()
    assert not review.tiles[Hex(1, 0)].flag_doubtful()
    assert not review.tiles[Hex(0, 1)].flag_doubtful()  # a scan that did not say


def test_the_overlay_marks_the_tile_until_a_person_sets_it() -> None:
    review = from_scan(_scan(), photo_id=1)
    classes = {(t.q, t.r): t.classes for t in overlay(review, 1, 400, 400).tiles}
    assert "flag-doubtful" in classes[(0, 0)]
    assert "flag-doubtful" not in classes[(1, 0)]
    fixed = set_tile(review, Hex(0, 0), "FFMMMM", {"flag": "forest"})
    assert not fixed.tiles[Hex(0, 0)].flag_doubtful()
    classes = {(t.q, t.r): t.classes for t in overlay(fixed, 1, 400, 400).tiles}
    assert "flag-doubtful" not in classes[(0, 0)]
