"""A lone tile whose mask has thin lines joined to it (a wood table's plank gaps) is still
one hexagon: a component that is no hexagon, or a notched one, is tried again without
its thin parts (``find.thin_part_frac``, ``find_tiles.blobs``). Real OpenCV on drawn
masks and on a rendered lone tile."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision import scan
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.find_tiles import blobs
from companion.vision.synth.render import render_record


def _hexagon(cx: float, cy: float, radius: float) -> np.ndarray:
    angles = np.radians(np.arange(6) * 60.0)
    return np.stack([cx + radius * np.cos(angles), cy + radius * np.sin(angles)],
                    axis=1).astype(np.int32)


def _mask_with_lines() -> np.ndarray:
    """A tile's hexagon (radius 400 px) with three plank gaps, 3 px wide, running off it."""
    mask = np.zeros((1200, 1600), np.uint8)
    cv2.fillPoly(mask, [_hexagon(650, 600, 400)], 255)
    for y0, y1 in ((380, 520), (700, 820), (900, 950)):
        cv2.line(mask, (860, y0), (1580, y1), 255, 3)
    return mask


def test_thin_lines_joined_to_a_tile_leave_it_a_hexagon() -> None:
    mask = _mask_with_lines()
    found = blobs(mask, DEFAULT_CONFIG)
    assert len(found) == 1 and found[0].hexagon is not None
    centre = found[0].hexagon.mean(axis=0)
    assert np.allclose(centre, (650, 600), atol=6)
    off = blobs(mask, DEFAULT_CONFIG.tuned(thin_part_frac=0.0))
    assert off[0].hexagon is None


def test_two_tiles_side_by_side_are_not_opened_into_one() -> None:
    """Tiles joined edge to edge are a cluster: no opening as narrow as a plank's gap
    parts them or makes them one hexagon."""
    mask = np.zeros((1200, 1800), np.uint8)
    r = 300.0
    for cx in (600.0, 600.0 + 1.5 * r):
        cy = 600.0 + (0.0 if cx == 600.0 else r * np.sqrt(3) / 2)
        cv2.fillPoly(mask, [_hexagon(cx, cy, r)], 255)
    found = blobs(mask, DEFAULT_CONFIG)
    assert len(found) == 1 and found[0].hexagon is None


def test_a_lone_tile_close_up_on_planks_is_one_loose_tile() -> None:
    """VVVVSS alone, close up on wood (seed 400, held out in session 34): the planks'
    gaps joined its mask, which was then no clean hexagon, and the photo was read as a
    map of 4-5 cells."""
    r = render_record("game: board-game\n0 0 VVVVSS\n", seed=400)
    photo = cv2.imencode(".jpg", r.image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()
    result = scan(photo)
    assert (result.kind, len(result.tiles)) == ("loose", 1)
    assert result.tiles[0].placement.code in {"VVVVSS"[i:] + "VVVVSS"[:i] for i in range(6)}
    off = scan(photo, DEFAULT_CONFIG.tuned(thin_part_frac=0.0))
    assert off.kind == "assembled" and len(off.tiles) > 1
