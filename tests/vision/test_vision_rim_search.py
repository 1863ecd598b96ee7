"""Loose tiles the foreground missed are found by their rim (``rim_search.search``): a
tile in a cast shadow, or whose art has the table's colours. Drawn tiles with real
OpenCV, and loose composites of real crops."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.vision import scan
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.rim_search import search
from companion.vision.synth import composite
from companion.vision.synth.evaluate import run_case
from tests.helpers.held_out import loose_case

TABLE = (60, 80, 110)
RADIUS = 60
WHOLE = ((120.0, 120.0), (340.0, 120.0), (120.0, 340.0))
MISSED = (360.0, 350.0)


def _hexagon(centre: tuple[float, float], turn: float = 0.0) -> np.ndarray:
    return np.array([(centre[0] + RADIUS * math.cos(math.radians(60 * k + turn)),
                      centre[1] + RADIUS * math.sin(math.radians(60 * k + turn)))
                     for k in range(6)])


def _tile(image: np.ndarray, corners: np.ndarray, art: tuple[int, int, int],
          rim: tuple[int, int, int] = (30, 40, 50)) -> None:
    cv2.fillPoly(image, [np.round(corners).astype(np.int32)], rim)
    inner = corners.mean(axis=0) + (corners - corners.mean(axis=0)) * 0.92
    cv2.fillPoly(image, [np.round(inner).astype(np.int32)], art)


def _scene(missed_art: tuple[int, int, int] | None, grain: bool = False
           ) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """Three tiles in the foreground on a table (with oblique grain if asked), and,
    unless ``missed_art`` is None, a fourth turned by 20 degrees with that art, which
    the foreground missed."""
    rng = np.random.default_rng(3)
    image = np.clip(rng.normal(TABLE, 3, (520, 560, 3)), 0, 255).astype(np.uint8)
    if grain:
        for offset in range(-600, 600, 23):
            cv2.line(image, (offset, 0), (offset + 300, 520), (35, 50, 75), 3)
    mask = np.zeros(image.shape[:2], np.uint8)
    whole = [_hexagon(c) for c in WHOLE]
    for h in whole:
        _tile(image, h, (40, 170, 120))
        cv2.fillPoly(mask, [np.round(h).astype(np.int32)], 255)
    if missed_art is not None:
        _tile(image, _hexagon(MISSED, 20.0), missed_art, (15, 20, 25))
    return image, mask, whole


def test_a_tile_in_shadow_is_found_by_its_rim() -> None:
    image, mask, whole = _scene((20, 75, 55))  # the art at a third of its light
    found = search(image, mask, whole, DEFAULT_CONFIG)
    assert len(found) == 1
    assert np.linalg.norm(found[0].mean(axis=0) - MISSED) < 0.1 * RADIUS
    assert search(image, mask, whole, DEFAULT_CONFIG.tuned(rim_score_min=0.0)) == []
    assert search(image, mask, whole[:2], DEFAULT_CONFIG) == []  # no size to trust


def test_a_rim_round_the_table_colour_is_no_tile() -> None:
    """An outline with only table inside (``find.rim_unlike_min``)."""
    image, mask, whole = _scene(TABLE)
    assert search(image, mask, whole, DEFAULT_CONFIG) == []
    assert len(search(image, mask, whole, DEFAULT_CONFIG.tuned(rim_unlike_min=0.0))) == 1


def test_wood_grain_gives_no_outline() -> None:
    """Straight grain lines cross every place, at 60 degrees to two of a hexagon's
    three side directions; along a side they count against it."""
    image, mask, whole = _scene(None, grain=True)
    assert search(image, mask, whole, DEFAULT_CONFIG) == []


def test_foreground_already_judged_is_not_searched_again() -> None:
    """A tile the foreground covered was judged by its outline (``find.rim_fill_max``)."""
    image, mask, whole = _scene((20, 75, 55))
    cv2.fillPoly(mask, [np.round(_hexagon(MISSED, 20.0)).astype(np.int32)], 255)
    assert search(image, mask, whole, DEFAULT_CONFIG) == []


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_loose_tiles_in_a_shadow_band_are_found() -> None:
    """Loose composite 27013 (17 real crops on dark wood at -1 EV beside a score pad and a
    colourful blur): two tiles lie in a shadow band and are no part of the foreground."""
    case = loose_case(27013, 17, clutter=True, ev=-1.0)[0]
    before = run_case(case, lambda p: scan(p, DEFAULT_CONFIG.tuned(rim_score_min=0.0)))
    after = run_case(case, scan)
    assert before.placed_right <= 15
    assert after.placed_right == 17 and after.extra <= before.extra


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_a_loose_tile_with_the_table_colours_is_found() -> None:
    """Loose composite 26953 (16 real crops on wood, no clutter): a tile of forest and
    grain left a sliver of meadow in the foreground, too small to place."""
    case = loose_case(26953, 16)[0]
    before = run_case(case, lambda p: scan(p, DEFAULT_CONFIG.tuned(rim_score_min=0.0)))
    after = run_case(case, scan)
    assert before.placed_right == 15
    assert after.placed_right == 16 and after.extra == 0
