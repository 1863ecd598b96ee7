"""A map the photo's frame cuts (a second photo of a large table, or a hurried one): the
table is modelled from the border segments that show it (``background.table_segments``),
not from the map and clutter the frame cuts through. Synthetic borders, and a held-out
real-table composite cropped through its map, read with real OpenCV."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import scan
from companion.vision.background import foreground_mask, table_segments
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.lab import lab_of
from companion.vision.synth.evaluate import _dist, _typical_spacing, composite_cases

WEIGHTS = np.array([DEFAULT_CONFIG.background.lightness_weight, 1.0, 1.0], np.float32)
FLOOR = DEFAULT_CONFIG.background.distance_min


def _table(seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.clip(rng.normal((60, 110, 70), 4, (600, 800, 3)), 0, 255).astype(np.uint8)


def _segments(image: np.ndarray, **tuned: object) -> np.ndarray:
    config = DEFAULT_CONFIG.tuned(**tuned)
    return table_segments(lab_of(image).astype(np.float32), config, WEIGHTS, FLOOR)


def test_a_border_all_table_keeps_every_segment() -> None:
    assert _segments(_table()).all()


def test_a_shadow_across_the_border_is_still_table() -> None:
    """A lamp's shadow darkens the table, it does not change its colour (render 25872,
    held out, gained two phantoms when segments were judged with their light)."""
    image = _table()
    image[:, :400] = (image[:, :400] * 0.45).astype(np.uint8)
    assert _segments(image).all()


def test_a_map_cut_by_the_left_edge_is_not_table() -> None:
    image = _table()
    image[150:450, :300] = (40, 200, 230)  # grain-yellow art across the left edge
    keep = _segments(image)
    parts = DEFAULT_CONFIG.background.border_segments
    left = keep[2 * parts:3 * parts]
    assert not left[1:3].any() and left[0] and left[3]
    assert keep[:2 * parts].all() and keep[3 * parts:].all()
    assert _segments(image, border_segments=0).all()


def test_the_colour_most_of_the_border_shows_is_the_table() -> None:
    """A map across most of the frame's border: its colour is the table's; a border
    of four colours, none near half of it, is all table."""
    image = _table()
    image[:, :600] = (40, 200, 230)
    keep = _segments(image)
    parts = DEFAULT_CONFIG.background.border_segments
    assert keep[:3].all() and not keep[3] and not keep[3 * parts:].any()
    patchwork = _table()
    patchwork[:300, :400] = (40, 200, 230)
    patchwork[:300, 400:] = (200, 60, 60)
    patchwork[300:, :400] = (230, 230, 230)
    assert _segments(patchwork).all()


def test_art_cut_by_the_frame_stays_foreground() -> None:
    """A yellow block cut by the left edge, a lamp's worth of tile art in the border:
    with the segments it is foreground; with the whole border as table it is not."""
    image = _table()
    image[100:500, :250] = (40, 200, 230)
    inside = (slice(150, 450), slice(20, 200))
    assert foreground_mask(image, DEFAULT_CONFIG)[inside].mean() > 250
    assert foreground_mask(image, DEFAULT_CONFIG.tuned(border_segments=0))[inside].mean() < 5


@pytest.mark.slow
def test_a_composite_cut_through_its_map_is_read() -> None:
    """Composite 25800 (held out, session 39) cropped through the middle of its map on
    a green mat: with the whole border as table, the map's meadows were table and the
    box lid read as one tile; the tiles whole in the crop are read."""
    from companion.vision.synth import composite

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    case = next(composite_cases(1, 25800, (4000, 3000), real_table=True))
    image = cv2.imdecode(np.frombuffer(case.photo, np.uint8), cv2.IMREAD_COLOR)
    xs = [t.centre[0] for t in case.truth]
    x0 = int(min(xs) + 0.5 * (max(xs) - min(xs)))
    spacing = _typical_spacing(case.truth)
    whole = [t for t in case.truth if t.centre[0] > x0 + 0.6 * spacing]
    crop = cv2.imencode(".jpg", image[:, x0:], [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
    result = scan(crop, DEFAULT_CONFIG.tuned(time_limit_s=120.0))
    centres = [(t.center_px[0] + x0, t.center_px[1]) for t in result.tiles]
    found = [t for t in whole if any(_dist(t.centre, c) < 0.45 * spacing for c in centres)]
    assert len(whole) >= 10 and len(found) >= len(whole) - 1
