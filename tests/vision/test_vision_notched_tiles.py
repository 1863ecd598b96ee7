"""Loose tiles none of which stays a whole hexagon in the foreground (dark art at the rim
lost to a dark table) are sized by each other (``find_tiles.blobs``,
``find.notched_agree_min``) where they lie on bare table (``find.notched_ring_max``).
Drawn masks and a loose composite of real crops, real OpenCV."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.find_tiles import blobs
from companion.vision.scan import scan
from companion.vision.synth import composite
from companion.vision.synth.evaluate import run_case
from tests.helpers.held_out import loose_case
from tests.helpers.lit_table import RADIUS, SIZE, hexagon

APART = [(200.0, 200.0), (600.0, 220.0), (1000.0, 200.0), (300.0, 650.0), (800.0, 640.0)]
OFF = DEFAULT_CONFIG.tuned(notched_agree_min=0)


def _notched(centre: tuple[float, float], radius: float, side: int) -> np.ndarray:
    """A tile's hexagon with a bite out of one side (a forest at the rim, lost to the
    table): its hull is still the hexagon, its solidity well under a clear tile's."""
    mask = np.zeros((SIZE[1], SIZE[0]), np.uint8)
    cv2.fillPoly(mask, [hexagon(centre, radius)], 255)
    angle = math.radians(60 * side + 30)
    bite = (round(centre[0] + 0.8 * radius * math.cos(angle)),
            round(centre[1] + 0.8 * radius * math.sin(angle)))
    cv2.circle(mask, bite, round(0.45 * radius), 0, -1)
    return mask


def _drawn(*tiles: tuple[tuple[float, float], float]) -> np.ndarray:
    mask = np.zeros((SIZE[1], SIZE[0]), np.uint8)
    for i, (centre, radius) in enumerate(tiles):
        mask |= _notched(centre, radius, i % 6)
    return mask


def _hexagons(mask: np.ndarray, config: ScanConfig = DEFAULT_CONFIG) -> int:
    return sum(1 for b in blobs(mask, config) if b.hexagon is not None)


def test_the_drawn_bite_notches_a_tile_as_the_rule_means() -> None:
    one = _notched(APART[0], RADIUS, 0)
    contour = max(cv2.findContours(one, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0],
                  key=cv2.contourArea)
    solidity = cv2.contourArea(contour) / cv2.contourArea(cv2.convexHull(contour))
    assert solidity < DEFAULT_CONFIG.find.hexagon_solidity_min


def test_notched_tiles_of_one_size_are_tiles_without_a_clear_one() -> None:
    mask = _drawn(*((c, RADIUS) for c in APART))
    assert _hexagons(mask) == 5
    assert _hexagons(mask, OFF) == 0  # none clear: nothing sized them


def test_notched_hexagons_among_other_pieces_size_nothing() -> None:
    """Pieces of a map in dim light: each notched hexagon has other foreground round it
    (a tenth of the ring out to twice its size), not bare table (``find.notched_ring_max``)."""
    mask = _drawn(*((c, RADIUS) for c in APART))
    for cx, cy in APART:
        for k in range(4):
            a = math.radians(90 * k + 45)
            piece = (round(cx + 1.5 * RADIUS * math.cos(a)), round(cy + 1.5 * RADIUS * math.sin(a)))
            cv2.circle(mask, piece, round(0.25 * RADIUS), 255, -1)
    assert _hexagons(mask) == 0
    assert _hexagons(mask, DEFAULT_CONFIG.tuned(notched_ring_max=1.0)) == 5


def test_too_few_notched_hexagons_or_of_many_sizes_size_nothing() -> None:
    assert _hexagons(_drawn((APART[0], RADIUS), (APART[2], RADIUS))) == 0
    sizes = (0.6, 1.0, 1.5)  # hull areas 0.36 : 1 : 2.25, no three within 0.75-1.3
    assert _hexagons(_drawn(*((c, s * RADIUS) for c, s in zip(APART, sizes, strict=False)))) == 0


def test_beside_clear_tiles_the_clear_ones_size_the_notched() -> None:
    """Two clear tiles of the radius; notched ones twice as large are not tiles, however
    well they agree among themselves."""
    mask = _drawn(*((c, 2 * RADIUS * 0.6) for c in APART[2:]))
    for c in APART[:2]:
        cv2.fillPoly(mask, [hexagon(c, 0.6 * RADIUS)], 255)
    assert _hexagons(mask) == 2


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_a_loose_composite_with_no_whole_hexagon_is_read() -> None:
    """Loose composite 27002 (6 real crops at -1 EV on dark wood beside a box lid and a
    score pad): each tile's forest or track at the rim went into the table, so none is a
    whole hexagon. Sized by each other, all six are read; without, the lid sized a
    lattice and the photo read as one phantom cell."""
    case, _ = loose_case(27002, 6, clutter=True, ev=-1.0)
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    read = run_case(case, lambda photo: scan(photo, slow))
    assert (read.placed_right, read.extra, read.edges_right) == (6, 0, 36)
    off = run_case(case, lambda photo: scan(photo, slow.tuned(notched_agree_min=0)))
    assert off.placed_right == 0 and off.extra >= 1
