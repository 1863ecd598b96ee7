"""The review draft on its own (no Flask requests): a scan's reading becomes a review,
a second photo is aligned and merged (any rotation), edits, mismatches, the engine's
verdict naming the first illegal tile, the final record in connected order, catalogue
suggestions, and the accepted photo formats (PNG, HEIC) through the upload route.

Reviews here are built from the known maps in ``sample_photos/*.dorf`` written as scan
JSON (the shape ``Scan.to_json()`` has), so the expected answers are known exactly.
"""

from __future__ import annotations

import io
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from PIL import Image

from companion.rules import Hex, Placement, format_placement, parse_record, replay, rotate
from companion.storage import photos as store
from companion.web.db import get_db
from companion.web.photos.review import (
    Review,
    ReviewError,
    ReviewTile,
    delete_tile,
    final_record,
    form_attributes,
    from_scan,
    merge_scan,
    rotate_values,
    set_tile,
    suggestions,
    verdict,
)
from tests.helpers.webtools import browser

SAMPLES = Path(__file__).resolve().parents[2] / "sample_photos"
TRUTH = SAMPLES / "wood-from-above.dorf"
CONFIDENCE = (0.9, 0.4, 0.95, 0.99, 0.97, 0.8)

if not TRUTH.exists():
    pytest.skip("sample_photos/ is missing: run python -m companion.vision.synth.render --samples "
                "sample_photos", allow_module_level=True)


def truth() -> list[Placement]:
    return parse_record(TRUTH.read_text()).placements


def as_scan(placements: list[Placement], steps: int = 0, shift: tuple[int, int] = (0, 0)
            ) -> dict[str, Any]:
    """Scan JSON of ``placements`` as a photo turned by ``steps`` and moved by ``shift``."""
    tiles = []
    for i, p in enumerate(placements):
        at = p.at.rotate(steps)
        line = format_placement(p).split()[3:]
        attributes: dict[str, Any] = {}
        for token in line:
            key, _sep, value = token.partition("=")
            attributes[key] = value or True
        tiles.append({"at": [at.q + shift[0], at.r + shift[1]], "code": rotate(p.code, steps),
                      "confidence": rotate_values(CONFIDENCE, steps),
                      "attributes": attributes, "center_px": [100.0 * i, 50.0],
                      "mismatch": []})
    return {"kind": "assembled", "tiles": tiles, "record": ""}


def test_from_scan_keeps_reading_and_positions() -> None:
    review = from_scan(as_scan(truth()), photo_id=7)
    assert review.photos == (7,)
    assert review.codes() == {p.at: p.code for p in truth()}
    first = review.tiles[truth()[0].at]
    assert first.seen == {7: (0.0, 50.0)} and first.doubtful() == [1]
    assert Review.from_json(review.to_json()) == review
    assert verdict(review).legal


@pytest.mark.parametrize("steps", range(6))
def test_merge_of_two_overlapping_photos_in_any_rotation(steps: int) -> None:
    tiles = truth()
    left, right = tiles[:14], tiles[9:]  # five tiles in both photos
    review = from_scan(as_scan(left), photo_id=1)
    merged = merge_scan(review, as_scan(right, steps, (4, -7)), photo_id=2)
    assert merged.codes() == {p.at: p.code for p in tiles}
    assert merged.photos == (1, 2)
    for p in tiles[9:14]:
        assert set(merged.tiles[p.at].seen) == {1, 2}
    for p in tiles[14:]:
        tile = merged.tiles[p.at]
        assert set(tile.seen) == {2}
        assert tile.confidence == CONFIDENCE  # turned back with the code
    assert "Photo 2 added 8 tiles" in merged.notes[0]


def test_merge_keeps_first_reading_and_marks_the_other() -> None:
    tiles = truth()
    review = from_scan(as_scan(tiles[:10]), photo_id=1)
    second = as_scan(tiles[5:])
    second["tiles"][0]["code"] = "MMMMMM"  # photo 2 misreads tiles[5]
    merged = merge_scan(review, second, photo_id=2)
    assert merged.tiles[tiles[5].at].code == tiles[5].code
    assert merged.tiles[tiles[5].at].alt == "MMMMMM"


def test_merge_refuses_photos_that_do_not_overlap() -> None:
    tiles = truth()
    review = from_scan(as_scan(tiles[:8]), photo_id=1)
    with pytest.raises(ReviewError, match="does not overlap"):
        merge_scan(review, as_scan(tiles[8:9]), photo_id=2)
    with pytest.raises(ReviewError, match="loose tiles"):
        merge_scan(review, {"kind": "loose", "tiles": []}, photo_id=3)


def test_edits_and_mismatches() -> None:
    review = from_scan(as_scan(truth()), photo_id=1)
    assert review.mismatches() == {}
    at, e = next((h, e) for h, t in review.tiles.items() for e in range(6)
                 if t.code[e] == "T" and review.facing(h)[e] == "T")
    code = review.tiles[at].code
    broken = set_tile(review, at, code[:e] + "M" + code[e + 1:], {})
    assert broken.tiles[at].edited and broken.tiles[at].doubtful() == []
    assert broken.mismatches()[at] == [e]
    found = verdict(broken)
    assert not found.legal and found.at is not None
    assert (found.problem or "").startswith(f"Tile {found.at.q} {found.at.r} (")
    assert "track" in (found.problem or "")
    free = review.frontier()[0]
    added = set_tile(review, free, "mmmmmm", {})
    assert added.tiles[free].code == "MMMMMM"
    with pytest.raises(ReviewError):
        set_tile(review, Hex(50, 50), "MMMMMM", {})
    with pytest.raises(ReviewError):
        set_tile(review, at, "MMMXMM", {})
    smaller = delete_tile(review, at)
    assert at not in smaller.tiles and len(smaller.tiles) == len(review.tiles) - 1
    with pytest.raises(ReviewError):
        delete_tile(smaller, at)


def test_form_attributes_set_task_and_flag_and_keep_the_rest() -> None:
    old = {"heart": True, "task": "grain", "flag": "grain"}
    assert form_attributes(old, "forest", "5", "forest") == {
        "heart": True, "task": "forest/5", "flag": "forest"}
    assert form_attributes(old, "", "", "") == {"heart": True}
    assert form_attributes({}, "track", "", "") == {"task": "track"}


def test_verdict_names_a_tile_that_touches_nothing() -> None:
    review = from_scan(as_scan(truth()[:5]), photo_id=1)
    tiles = dict(review.tiles)
    tiles[Hex(40, 40)] = ReviewTile(Hex(40, 40), "MMMMMM")
    found = verdict(Review(tiles, review.photos))
    assert not found.legal and found.at == Hex(40, 40)
    assert "touches no other tile" in (found.problem or "")


def test_final_record_is_connected_and_keeps_the_header() -> None:
    review = from_scan(as_scan(list(reversed(truth()))), photo_id=1)
    game = "game: board-game\nplayers: Ana, Rui\ncompleted: forest/4\n0 0 MMMMMM\n"
    text = final_record(review, game)
    record = parse_record(text)
    assert record.players == ["Ana", "Rui"] and [t.value for t in record.completed] == [4]
    assert {p.at: p.code for p in record.placements} == {p.at: p.code for p in truth()}
    assert {p.at: p.task for p in record.placements} == {p.at: p.task for p in truth()}
    replay(record)
    duel = "game: duel\nplayer: red\n0 0 MMMMMM\nplayer: blue\n0 0 MMMMMM\n"
    with pytest.raises(ReviewError, match="whose landscape"):
        final_record(review, duel)  # a Duel photo belongs to one player's landscape
    red, blue = parse_record(final_record(replace(review, player="blue"), duel)).sections
    assert (red.player, [p.code for p in red.placements]) == ("red", ["MMMMMM"])
    assert blue.player == "blue"
    assert {p.at: p.code for p in blue.placements} == {p.at: p.code for p in truth()}


def test_suggestions_rank_the_nearest_catalogue_rotation() -> None:
    code = rotate("GGMTTM", 3)
    best = suggestions(list(code), [1.0] * 6, limit=3)
    assert best[0].code == code and best[0].agree == 6
    one_off = "S" + code[1:]
    near = suggestions(list(one_off), [0.1, 1, 1, 1, 1, 1], limit=5)
    assert code in [s.code for s in near]
    free = suggestions(["T", None, None, None, None, None], [1.0] * 6, limit=8)
    assert all(s.code[0] == "T" for s in free)


# ------------------------------------------------- formats via the route
@pytest.mark.parametrize("fmt", ["PNG", "HEIF"])
def test_png_and_heic_photos_are_accepted(app: Flask, fmt: str) -> None:
    import pillow_heif

    pillow_heif.register_heif_opener()
    c, tok = browser(app)
    r = c.post("/games/new", data={"csrf_token": tok, "kind": "board-game"})
    game_id = int(re.findall(r"\d+", r.headers["Location"])[-1])
    out = io.BytesIO()
    Image.open(SAMPLES / "wood-from-above.jpg").save(out, fmt)
    r = c.post(f"/games/{game_id}/photos", content_type="multipart/form-data",
               data={"csrf_token": tok, "photo": (io.BytesIO(out.getvalue()), "t")})
    assert r.status_code == 303, r.get_data(as_text=True)
    with app.app_context():
        rows = store.photos_of(get_db(), game_id)
        data = store.photo_bytes(get_db(), game_id, rows[0]["id"])
    assert Image.open(io.BytesIO(data)).format == "JPEG"


def test_the_review_highlights_the_edges_the_scanner_marked_doubtful() -> None:
    scan = as_scan(truth())
    for i, tile in enumerate(scan["tiles"]):
        tile["confidence"] = [1.0] * 6  # the marks, not the confidences, decide
        tile["doubtful"] = [i % 6, (i + 2) % 6] if i % 2 else []
    review = Review.from_json(from_scan(scan, photo_id=1).to_json())  # stored and read back
    for tile in scan["tiles"]:
        at = Hex(*tile["at"])
        assert review.tiles[at].doubtful() == sorted(tile["doubtful"])


def test_a_second_photo_turned_keeps_its_marks_on_the_same_edges() -> None:
    first = from_scan(as_scan(truth()[:4]), photo_id=1)
    turned = as_scan(truth(), steps=2, shift=(3, -1))
    for tile in turned["tiles"]:
        tile["doubtful"] = [0]  # edge 0 of the turned photo
    merged = merge_scan(first, turned, photo_id=2)
    added = [t for t in merged.tiles.values() if t.at not in first.tiles]
    assert added and all(t.doubtful() == [4] for t in added)  # 2 steps back: edge 4 here


def test_a_photo_read_as_one_tile_is_said_in_the_review() -> None:
    """A reading of a single tile (a map whose tiles were not told from the table reads
    so): the review says only one tile was found, and keeps saying it once stored;
    more tiles say nothing. (A photo of one tile cannot be merged into a review: two
    tiles must overlap.)"""
    one = from_scan(as_scan(truth()[:1]), photo_id=1)
    assert len(one.notes) == 1 and "Photo 1: only one tile was found" in one.notes[0]
    assert Review.from_json(one.to_json()).notes == one.notes
    assert from_scan(as_scan(truth()[:6]), photo_id=1).notes == ()


def test_a_draft_without_marks_falls_back_to_low_confidence() -> None:
    scan = as_scan(truth()[:1])
    del scan["tiles"][0]["mismatch"]
    scan["tiles"][0]["confidence"] = [0.3, 1, 1, 1, 1, 1]
    assert from_scan(scan, photo_id=1).tiles[Hex(*scan["tiles"][0]["at"])].doubtful() == [0]


def test_a_photo_the_scanner_fitted_poorly_is_said_in_the_review() -> None:
    """``poor_fit`` in the scan (the tiles' outlines fit the lattice poorly): the review
    says so, for the first photo and for one merged later, and keeps saying it once
    stored; a good fit says nothing."""
    assert from_scan(as_scan(truth()), photo_id=1).notes == ()
    poor = {**as_scan(truth()), "fit": 0.12, "poor_fit": True}
    first = Review.from_json(from_scan(poor, photo_id=1).to_json())
    assert len(first.notes) == 1 and "Photo 1" in first.notes[0]
    assert "tile size" in first.notes[0]
    merged = merge_scan(from_scan(as_scan(truth()[:6]), photo_id=1), poor, photo_id=2)
    assert any("Photo 2" in n and "tile size" in n for n in merged.notes)
    fine = merge_scan(from_scan(as_scan(truth()[:6]), photo_id=1),
                      {**as_scan(truth()), "fit": 0.6, "poor_fit": False}, photo_id=2)
    assert not any("tile size" in n for n in fine.notes)
