"""Composite photos from real tile crops (need ../shared/tiles; skip cleanly without)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.rules import Hex, canonical, catalogue, rotate
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.edges import classify_edges
from companion.vision.rectify import rectify, standard_size
from companion.vision.synth import composite
from companion.vision.synth.render_records import LaidTile


def test_rotation_annotations_name_catalogue_tiles():
    notes = composite.load_annotations()
    for name, section, count in (("landscape-01-20.jpg", "landscape", 20),
                                 ("task-01-25.jpg", "task", 25)):
        codes = [t.code for t in catalogue() if t.section == section]
        tiles = notes[name]["tiles"]
        assert [t["number"] for t in tiles] == list(range(1, count + 1))
        assert all(t["code"] == codes[t["number"] - 1] for t in tiles)
        assert all(0 <= t["rotation"] < 6 for t in tiles)


def test_absent_shared_folder_is_reported_not_crashed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no ../shared/tiles from here
    assert composite.shared_tiles_dir() is None
    assert composite.shared_tiles_dir(tmp_path) is None
    with pytest.raises(FileNotFoundError, match="not there"):
        composite.composite_record(seed=1, size_px=(400, 300))
    with pytest.raises(FileNotFoundError, match=str(tmp_path)):
        composite.composite_record(seed=1, size_px=(400, 300), folder=tmp_path)


def test_the_tiles_folder_is_taken_from_the_caller_not_the_package(tmp_path, monkeypatch):
    """Installed from a wheel the package lies far from ../shared: the folder comes from
    the current directory or the argument, never from the package's own path."""
    here = composite.shared_tiles_dir()
    if here is None:
        pytest.skip("../shared/tiles is absent")
    monkeypatch.chdir(tmp_path)
    assert composite.shared_tiles_dir() is None
    assert composite.shared_tiles_dir(here) == here


needs_shared = pytest.mark.skipif(composite.shared_tiles_dir() is None,
                                  reason="../shared/tiles is absent")


@needs_shared
def test_crops_show_their_annotated_codes():
    tiles = composite.real_tiles()
    assert len(tiles) >= 40
    right = 0
    for t in tiles:
        small = cv2.resize(t.image, standard_size(DEFAULT_CONFIG.rectify.radius),
                           interpolation=cv2.INTER_AREA)
        code, _ = classify_edges(small)
        right += sum(a == b for a, b in zip(code, t.code, strict=True))
    # a wrong rotation would agree on far fewer edges
    assert right >= 0.85 * 6 * len(tiles)


@needs_shared
def test_composite_lays_real_tiles_by_a_record():
    r = composite.composite_record(seed=2, landscape=12, size_px=(1200, 900), tilt_deg=25)
    pool = {canonical(t.code) for t in composite.real_tiles()}
    assert r.kind == "composite" and len(r.tiles) == 12
    assert all(canonical(t.code) in pool for t in r.tiles)
    assert r.image.shape == (900, 1200, 3)
    for t in r.tiles:
        x, y = (int(v) for v in t.centre)
        assert 0 <= x < 1200 and 0 <= y < 900
    # each crop lies turned to its laid code: the scanner's edge reader, run on the tile
    # cut out at its true corners, agrees with the truth on most edges
    assert _edges_read_at_true_corners(r) >= 0.8 * 6 * len(r.tiles)


def _edges_read_at_true_corners(r: composite.Rendered) -> int:
    right = 0
    for t in r.tiles:
        tile = rectify(r.image, np.array(t.corners), DEFAULT_CONFIG.rectify.radius)
        code, _ = classify_edges(tile)
        right += sum(a == b for a, b in zip(code, t.code, strict=True))
    return right


@needs_shared
def test_loose_composite_lays_distinct_real_tiles_apart():
    r = composite.loose_composite_record(seed=5, count=9, size_px=(1600, 1200), tilt_deg=0)
    assert r.kind == "loose-composite" and len(r.tiles) == 9
    assert composite.LOOSE_SPREAD[0] <= r.params["spread"] <= composite.LOOSE_SPREAD[1]
    pool = sorted(canonical(t.code) for t in composite.real_tiles())
    laid = [canonical(t.code) for t in r.tiles]
    assert all(laid.count(c) <= pool.count(c) for c in laid)
    assert all(t.marker is None and t.flag is None for t in r.tiles)
    # apart: the nearest centre lies farther than a tile's width (corner to corner)
    centres = np.array([t.centre for t in r.tiles])
    width = np.median([np.linalg.norm(np.subtract(t.corners[0], t.corners[3]))
                       for t in r.tiles])
    d = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(d, np.inf)
    assert d.min(axis=1).min() > width
    assert _edges_read_at_true_corners(r) >= 0.8 * 6 * len(r.tiles)


@needs_shared
def test_a_record_with_a_tile_not_photographed_is_refused():
    with pytest.raises(ValueError, match="no real tile"):
        composite.composite_record("game: board-game\n0 0 MMMMMM\n", seed=1,
                                   size_px=(400, 300))


def test_crop_painter_turns_a_crop_to_the_laid_code():
    image = np.zeros((50, 60, 3), np.uint8)
    image[:5, 25:35] = (0, 0, 255)  # a red mark at the top edge (edge 0)
    tile = composite.RealTile("landscape", 1, "GMMMMM", image, (0.0, 0.0), np.zeros((6, 2)))
    painter = composite.CropPainter((tile,))
    bgr, alpha = painter(LaidTile(Hex(0, 0), rotate("GMMMMM", 3), None, None, None), 30.0,
                         np.random.default_rng(0))
    red = np.argwhere(bgr[..., 2] > 128)
    assert red.size and red[:, 0].mean() > bgr.shape[0] / 2  # the mark is now at the bottom
    assert alpha[bgr.shape[0] // 2, bgr.shape[1] // 2] == 255


@needs_shared
def test_crops_carry_the_art_not_the_light_of_their_photo():
    """The development photos are lit unevenly (the task photo's meadow is a third
    darker at the bottom); crops are flattened so a composite has one light."""
    from companion.vision.edges import meadow_reference

    tiles = composite.real_tiles()
    levels = [meadow_reference([t.image])[2] for t in tiles]
    assert max(levels) / min(levels) < 1.3
    raw = cv2.imread(str(composite.shared_tiles_dir() / "task-01-25.jpg"))
    first, last = (min(tiles, key=key) for key in (
        lambda t: t.centre_in_photo[1] if t.section == "task" else 1e9,
        lambda t: -t.centre_in_photo[1] if t.section == "task" else 1e9))
    assert first.section == last.section == "task"

    def raw_level(t: composite.RealTile) -> float:
        x, y = (int(v) for v in t.centre_in_photo)
        hsv = cv2.cvtColor(raw[y - 100:y + 100, x - 100:x + 100], cv2.COLOR_BGR2HSV)
        px = hsv.reshape(-1, 3)
        green = px[(px[:, 0] >= 24) & (px[:, 0] <= 40) & (px[:, 1] >= 90)]
        return float(np.percentile(green[:, 2], 75))

    assert raw_level(last) < 0.85 * raw_level(first)  # the photo itself is uneven
