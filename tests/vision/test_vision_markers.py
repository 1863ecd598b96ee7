"""Task markers: digits 3..7 read at any turn, on drawn tiles and in a rendered photo."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.vision.config import DEFAULT_CONFIG
from companion.vision.markers import MARKER_VALUES, find_marker, match_digit
from companion.vision.rectify import rectify
from companion.vision.synth.render_art import TileArt, draw_marker, draw_tile, hexagon

RADIUS = 100.0
"""Tile circumradius of the drawn test tiles (pixels): about a 12 MP photo's."""


def _rectified(art: TileArt, seed: int, blur: float = 0.0) -> tuple[np.ndarray, np.ndarray,
                                                                       np.ndarray]:
    """(tile rectified at the marker radius, the drawn canvas, the tile's corners in it)."""
    img, _ = draw_tile(art, RADIUS, np.random.default_rng(seed))
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    half = img.shape[0] / 2
    # hexagon() lists corners from angle 0 (east) clockwise on screen: standard order.
    corners = hexagon(RADIUS, (half, half)).astype(np.float32)
    return rectify(img, corners, DEFAULT_CONFIG.rectify.detail_radius), img, corners


@pytest.mark.parametrize("font", [cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
                                  cv2.FONT_ITALIC | cv2.FONT_HERSHEY_DUPLEX])
def test_digits_of_other_fonts_read_at_any_turn(font: int) -> None:
    rng = np.random.default_rng(font)
    wrong = []
    for value in MARKER_VALUES:
        for _ in range(4):
            angle = float(rng.uniform(0, 360))
            img = np.zeros((120, 120), np.uint8)
            (tw, th), _ = cv2.getTextSize(str(value), font, 2.5, 5)
            cv2.putText(img, str(value), ((120 - tw) // 2, (120 + th) // 2), font, 2.5, 255, 5,
                        cv2.LINE_AA)
            turned = cv2.warpAffine(img, cv2.getRotationMatrix2D((60, 60), angle, 1.0),
                                    (120, 120))
            reading = match_digit(turned > 127)
            if reading is None or reading.value != value:
                wrong.append((value, round(angle)))
    assert not wrong


@pytest.mark.parametrize("value", MARKER_VALUES)
def test_marker_on_a_drawn_task_tile(value: int) -> None:
    for seed in (1, 2):
        tile, canvas, corners = _rectified(TileArt("GGMTTM", "grain", value, None), seed,
                                           blur=1.2)
        marker = find_marker(tile, canvas, corners)
        assert marker is not None, f"seed {seed}: no marker found"
        assert marker.value == value
        assert 0.0 < marker.confidence <= 1.0


def test_marker_read_from_the_sharper_source() -> None:
    """The digit is read from the source image, not from a coarse search image."""
    tile, canvas, corners = _rectified(TileArt("MFFMSS", "forest", 7, None), 5)
    coarse = cv2.resize(cv2.resize(tile, None, fx=0.3, fy=0.3), (tile.shape[1], tile.shape[0]))
    marker = find_marker(coarse, canvas, corners)
    assert marker is not None and marker.value == 7


@pytest.mark.parametrize("task", ["forest", "grain", "village", "track", "stream"])
def test_no_marker_on_a_task_tile_without_one(task: str) -> None:
    tile, canvas, corners = _rectified(TileArt("VVMFFM", task, None, None), 3)
    assert find_marker(tile, canvas, corners) is None


def test_marker_position_is_where_it_was_drawn() -> None:
    img, _ = draw_tile(TileArt("MMMMMM", None, None, None), RADIUS, np.random.default_rng(0))
    half = img.shape[0] / 2
    spot = (half + 0.3 * RADIUS, half - 0.2 * RADIUS)
    draw_marker(img, "village", 3, spot, RADIUS, 137.0, "hex")
    corners = hexagon(RADIUS, (half, half)).astype(np.float32)
    tile = rectify(img, corners, DEFAULT_CONFIG.rectify.detail_radius)
    marker = find_marker(tile, img, corners)
    assert marker is not None and marker.value == 3
    scale = DEFAULT_CONFIG.rectify.detail_radius / RADIUS
    expected = (DEFAULT_CONFIG.rectify.detail_radius + 0.3 * RADIUS * scale,
                tile.shape[0] / 2 - 0.2 * RADIUS * scale)
    assert math.dist(marker.center, expected) < 0.06 * DEFAULT_CONFIG.rectify.detail_radius


RECORD = """game: board-game
0 0 GGMMMV task=grain/4
1 -1 MFFMGG flag=forest
0 -1 VVMMMV flag=village
-1 0 FFFMMM task=forest/7
0 1 GGGMMM
1 0 MMMVVV task=village/5
-1 1 MMSMMS task=stream
1 -2 MMFFFM task=forest/6
"""


@pytest.mark.parametrize("seed", [11, 12])
def test_tasks_and_markers_in_a_rendered_photo(seed: int) -> None:
    """Each tile of a photo-like render (perspective, light, blur, noise, JPEG), cut out
    at its true corners, shows its task type and marker value."""
    from companion.vision import edges
    from companion.vision.synth.render import render_record
    from companion.vision.tasks import read_task

    photo = render_record(RECORD, seed=seed, size_px=(3000, 2250), tilt_deg=25.0)
    tiles = [(t, np.array(t.corners, np.float32)) for t in photo.tiles]
    small = cv2.resize(photo.image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    coarse = [rectify(small, c * 0.5, DEFAULT_CONFIG.rectify.radius) for _, c in tiles]
    meadow = edges.meadow_reference(coarse)
    seen = []
    for (truth, corners), rect in zip(tiles, coarse, strict=True):
        detail = rectify(photo.image, corners, DEFAULT_CONFIG.rectify.detail_radius)
        kind, marker = read_task(detail, edges.tile_meadow(rect, meadow), photo.image, corners,
                                 DEFAULT_CONFIG, rect)
        seen.append((truth.task_type, truth.marker, kind, marker.value if marker else None))
    assert [(t, m) for t, m, _, _ in seen] == [(k, v) for _, _, k, v in seen]
