"""Loose tiles: those whose foreground broke are found again by their outline
(``broken_tiles.recover``), and tiles lying apart beside clutter larger than half of them
are read loose, not as a map (``find.apart_min``). Drawn tiles with real OpenCV, and
held-out loose composites of real crops."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.vision import scan
from companion.vision.broken_tiles import recover
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.synth import composite
from companion.vision.synth.evaluate import Case, _encode, run_case, truth_of_rendered

TABLE = (60, 80, 110)
RADIUS = 60


def _hexagon(centre: tuple[float, float], radius: float = RADIUS) -> np.ndarray:
    return np.array([(centre[0] + radius * math.cos(math.radians(60 * k)),
                      centre[1] + radius * math.sin(math.radians(60 * k)))
                     for k in range(6)])


def _scene(broken_rim: bool = True) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """Four tiles with dark rims on a table, three whole; the fourth's art is the
    table's colour but for two patches, so its mask is two fragments."""
    rng = np.random.default_rng(1)
    image = np.clip(rng.normal(TABLE, 3, (500, 700, 3)), 0, 255).astype(np.uint8)
    mask = np.zeros(image.shape[:2], np.uint8)
    whole = [_hexagon(c) for c in ((120.0, 120.0), (320.0, 120.0), (120.0, 330.0))]
    broken = _hexagon((330.0, 340.0))
    for h in [*whole, broken]:
        if h is not broken or broken_rim:
            cv2.fillPoly(image, [np.round(h).astype(np.int32)], (30, 40, 50))
        inner = h.mean(axis=0) + (h - h.mean(axis=0)) * 0.92
        colour = (40, 170, 120) if h is not broken else TABLE
        cv2.fillPoly(image, [np.round(inner).astype(np.int32)], colour)
        if h is not broken:
            cv2.fillPoly(mask, [np.round(h).astype(np.int32)], 255)
    for dx, dy in ((-22, -18), (18, 22)):
        cv2.circle(image, (330 + dx, 340 + dy), 25, (40, 170, 120), -1)
        cv2.circle(mask, (330 + dx, 340 + dy), 25, 255, -1)
    return image, mask, whole


def test_a_tile_in_fragments_is_found_at_its_outline() -> None:
    image, mask, whole = _scene()
    found = recover(image, mask, whole, DEFAULT_CONFIG)
    assert len(found) == 1
    assert np.linalg.norm(found[0].mean(axis=0) - (330, 340)) < 0.1 * RADIUS
    assert recover(image, mask, whole, DEFAULT_CONFIG.tuned(broken_close_frac=0.0)) == []
    assert recover(image, mask, whole[:2], DEFAULT_CONFIG) == []  # no size to trust


def test_fragments_with_no_tile_outline_round_them_are_left() -> None:
    """Two patches of art colour with no rim: no tile's outline lies there."""
    image, mask, whole = _scene(broken_rim=False)
    assert recover(image, mask, whole, DEFAULT_CONFIG) == []


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_a_held_out_loose_composite_keeps_every_tile() -> None:
    """Loose composite 26758 (held out: paired, never looked into), 8 real crops, no
    clutter: two tiles' foreground broke and they were not found; now all 8 are read."""
    r = composite.loose_composite_record(seed=26758, count=8, size_px=(4000, 3000),
                                         jpeg_quality=None, real_table=True, clutter=False)
    case = Case("loose-composite-26758", _encode(r.image, 90), truth_of_rendered(r.tiles),
                "loose")
    before = run_case(case, lambda p: scan(p, DEFAULT_CONFIG.tuned(broken_close_frac=0.0)))
    after = run_case(case, scan)
    assert before.placed_right <= 6
    assert after.placed_right == 8 and after.extra == 0 and after.edges_right == 48


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_loose_tiles_beside_clutter_larger_than_half_of_them_are_read_loose() -> None:
    """Loose composite 26754 (held out: paired, never looked into), 10 real crops beside
    a box lid, cards and markers: the clutter made the photo look assembled, and the map
    located, fitting its outlines poorly, brought phantoms; the tiles lying apart are
    read loose (``find.apart_min``)."""
    r = composite.loose_composite_record(seed=26754, count=10, size_px=(4000, 3000),
                                         jpeg_quality=None, real_table=True)
    assert "box lid" in r.params["real_table"]["clutter"]
    case = Case("loose-composite-26754", _encode(r.image, 90), truth_of_rendered(r.tiles),
                "loose")
    before = run_case(case, lambda p: scan(p, DEFAULT_CONFIG.tuned(apart_min=0.0)))
    after = run_case(case, scan)
    assert before.extra >= 5 and before.poor_fit == 1
    assert after.placed_right == 10 and after.extra == 0 and after.edges_right == 60
