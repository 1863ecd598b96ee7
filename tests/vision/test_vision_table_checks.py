"""A checked cloth is table wherever it shows (``background.table_checks``): windows whose
gradients run two ways at right angles and not one way. Synthetic patterns, the sample
renders' tile art, and held-out real-table renders on a checked cloth under a lamp,
read with real OpenCV."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision.background import foreground_mask, table_checks
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.io import load_photo
from companion.vision.synth.evaluate import _typical_spacing
from tests.helpers.held_out import held_out_case, read_held_out

SAMPLES = Path(__file__).resolve().parents[2] / "sample_photos"


SIDE = 1200
"""As the working image's short side: the window is 43 px."""


def _checkerboard(check: float, angle: float) -> np.ndarray:
    """A cream and salmon checked cloth, squares ``check`` px, turned ``angle`` degrees
    (drawn four times finer and shrunk, as a camera averages)."""
    fine = 4 * SIDE
    y, x = np.mgrid[0:fine, 0:fine].astype(np.float32) / 4.0
    a = np.deg2rad(angle)
    u, v = x * np.cos(a) + y * np.sin(a), -x * np.sin(a) + y * np.cos(a)
    light = ((np.floor(u / check) + np.floor(v / check)) % 2).astype(bool)
    image = np.empty((fine, fine, 3), np.uint8)
    image[light] = (170, 190, 235)   # cream
    image[~light] = (90, 100, 200)   # salmon
    return cv2.resize(image, (SIDE, SIDE), interpolation=cv2.INTER_AREA)


def _inside(share: np.ndarray, margin: int = 40) -> float:
    return float(share[margin:-margin, margin:-margin].mean())


@pytest.mark.parametrize("angle", [0.0, 17.0, 45.0])
def test_checks_are_table_at_any_turn(angle: float) -> None:
    board = _checkerboard(14.0, angle)
    assert _inside(table_checks(board, DEFAULT_CONFIG)) > 0.9


def test_stripes_noise_and_flat_colour_are_not_checks() -> None:
    y, x = np.mgrid[0:SIDE, 0:SIDE]
    stripes = np.where(((x + y) // 9) % 2 == 0, 60, 200).astype(np.uint8)
    rng = np.random.default_rng(3)
    noise = rng.integers(0, 256, (SIDE, SIDE), np.uint8)
    flat = np.full((SIDE, SIDE), 128, np.uint8)
    for grey in (stripes, noise, flat):
        image = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
        assert _inside(table_checks(image, DEFAULT_CONFIG)) < 0.01


def test_the_corners_of_cards_and_a_lid_are_not_a_cloth() -> None:
    """Each corner of a card is two edges at right angles, checks over a window or two:
    only checks spreading over ``checks_min_area_frac`` of the image are a cloth."""
    table = np.full((SIDE, SIDE, 3), (60, 90, 140), np.uint8)
    for x, y, w, h in [(100, 100, 120, 180), (300, 120, 120, 180), (600, 500, 360, 360)]:
        cv2.rectangle(table, (x, y), (x + w, y + h), (235, 235, 235), -1)
        cv2.rectangle(table, (x, y), (x + w, y + h), (40, 40, 40), 3)
    wide = DEFAULT_CONFIG
    every = DEFAULT_CONFIG.tuned(checks_min_area_frac=0.0)
    assert table_checks(table, every).any()
    assert not table_checks(table, wide).any()


@pytest.mark.parametrize("name", ["wood-from-above", "cloth-tilted-30", "mat-glare-shadow"])
def test_tile_art_is_not_checks(name: str) -> None:
    """Tracks (rails and sleepers), roofs, grain stripes and fields: under 0.5 % of the
    tiles' pixels of a sample render."""
    photo = load_photo((SAMPLES / f"{name}.jpg").read_bytes(), DEFAULT_CONFIG)
    truth = json.loads((SAMPLES / f"{name}.truth.json").read_text("utf-8"))
    tiles = np.zeros(photo.image.shape[:2], np.uint8)
    for tile in truth["tiles"]:
        corners = np.array(tile["corners"], np.float64) / photo.scale
        cv2.fillPoly(tiles, [np.round(corners).astype(np.int32)], 255)
    checks = table_checks(photo.image, DEFAULT_CONFIG)
    assert tiles.any() and float(checks[tiles > 0].mean()) < 0.005


def test_checks_lit_brighter_than_the_border_leave_the_silhouette() -> None:
    """Render 18026: a lamp lights the middle of a checked cloth brighter than the border
    the table's colours are measured on, and washes its light checks out toward white:
    to the colour model alone they are foreground. As checks they are table, and the
    tiles' art stays foreground."""
    case = held_out_case(18000, 26)
    photo = load_photo(case.photo, DEFAULT_CONFIG)
    h, w = photo.image.shape[:2]
    y, x = np.mgrid[0:h, 0:w]
    spacing = _typical_spacing(case.truth) / photo.scale
    distance = np.full((h, w), np.inf)
    for tile in case.truth:
        cx, cy = np.asarray(tile.centre) / photo.scale
        distance = np.minimum(distance, np.hypot(x - cx, y - cy))
    colour_only = foreground_mask(photo.image, DEFAULT_CONFIG.tuned(checks_as_table=False),
                                  fill=False)
    with_checks = foreground_mask(photo.image, DEFAULT_CONFIG, fill=False)
    now_table = (colour_only > 0) & (with_checks == 0)
    assert float(now_table[distance > spacing].mean()) > 0.03
    assert float(now_table[distance < 0.45 * spacing].mean()) < 0.002


@pytest.mark.slow
@pytest.mark.parametrize(("first", "skip", "composite", "tiles"),
                         [(18200, 6, False, 24), (18000, 26, False, 27), (15700, 25, True, 20)])
def test_a_map_on_a_checked_cloth_under_a_lamp_or_in_dim_light_is_read(
        first: int, skip: int, composite: bool, tiles: int) -> None:
    """Renders 18206 and 18026 (fresh runs of session 28): a band or a pool of lamp
    light on the checked cloth joined the silhouette, and every lattice was placed over
    it at the wrong size. Composite 15725 (session 26): a checkerboard in dim light,
    every lattice half a tile wide. Without the checks as table: 18206 was 1 of 24 tiles
    right with 30 phantoms, 18026 5 of 27 with 160, 15725 141 cells (the last two said
    to fit poorly since). (Refitting a poor fit's runners-up, ``refit_poor_more``, mends
    18206 in part without the checks, 20 of 24 right with 8 phantoms: off here.)"""
    read, colour_only, count = read_held_out(first, skip, composite, checks_as_table=False,
                                             refit_poor_more=0)
    assert count == tiles
    assert read.placed_right == tiles and read.extra == 0
    assert read.edges_right >= 6 * tiles - 2
    assert colour_only.placed_right <= tiles // 2 or colour_only.extra >= 20


def test_a_photo_without_checks_is_judged_at_half_resolution_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The full-resolution judgement (three quarters of the work) is made only where
    the half-resolution one found a cloth; the large window is judged at a quarter."""
    import companion.vision.background as background

    sizes: list[tuple[int, ...]] = []
    judge = background._table_checks

    def counted(image: np.ndarray, config: object, frac: float) -> np.ndarray:
        sizes.append(image.shape[:2])
        return judge(image, DEFAULT_CONFIG, frac)

    monkeypatch.setattr(background, "_table_checks", counted)
    plain = load_photo((SAMPLES / "wood-from-above.jpg").read_bytes(), DEFAULT_CONFIG).image
    assert not background.table_checks(plain, DEFAULT_CONFIG).any()
    h, w = plain.shape[:2]
    assert sizes == [(h // 4, w // 4), (h // 2, w // 2)]
    sizes.clear()
    assert background.table_checks(_checkerboard(14.0, 0.0), DEFAULT_CONFIG).any()
    assert sizes == [(SIDE // 4, SIDE // 4), (SIDE // 2, SIDE // 2), (SIDE, SIDE)]


def _faint_checks(check: float, seed: int = 0) -> np.ndarray:
    """A pale grey checked cloth in soft light: squares ``check`` px, 25 grey levels
    apart, turned 15 degrees, with the sensor's noise (sigma 8)."""
    fine = 4 * SIDE
    y, x = np.mgrid[0:fine, 0:fine].astype(np.float32) / 4.0
    a = np.deg2rad(15.0)
    u, v = x * np.cos(a) + y * np.sin(a), -x * np.sin(a) + y * np.cos(a)
    light = ((np.floor(u / check) + np.floor(v / check)) % 2).astype(bool)
    grey = cv2.resize(np.where(light, np.float32(235), np.float32(210)), (SIDE, SIDE),
                      interpolation=cv2.INTER_AREA)
    noisy = grey[..., None] + np.random.default_rng(seed).normal(0, 8, (SIDE, SIDE, 3))
    return np.clip(noisy, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("check", [30.0, 45.0])
def test_faint_checks_larger_than_the_first_window_are_table(check: float) -> None:
    """Faint checks of 30-45 px in noise (render 20311's cloth under a lamp): at full
    and half resolution the noise's gradients drown the crossings in the 43 px window;
    the large window, pooled at a quarter of the resolution, finds them."""
    board = _faint_checks(check)
    assert table_checks(board, DEFAULT_CONFIG).mean() > 0.9
    one = DEFAULT_CONFIG.tuned(checks_large_window_frac=0.0)
    assert table_checks(board, one).mean() < 0.1


@pytest.mark.slow
def test_a_map_on_faint_large_checks_under_a_lamp_is_read() -> None:
    """Render 20311 on the checked cloth (``--table pattern``, a held-out run of session
    29): faint checks of about 48 px under a pool of lamp light. The 43 px window found
    none at full or half resolution (the noise's gradients drown them), the pool joined
    the silhouette, and the map came back 4 of 30 right with 8 phantoms, not said to
    fit poorly."""
    from companion.vision.scan import scan
    from companion.vision.synth.evaluate import rendered_cases, run_case

    case = next(rendered_cases(30, 20300, (4000, 3000), real_table=True, skip=11,
                               table="pattern"))
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    read = run_case(case, lambda photo: scan(photo, slow))
    one_window = run_case(case, lambda photo: scan(
        photo, slow.tuned(checks_large_window_frac=0.0)))
    count = len(case.truth)
    assert count == 30
    assert read.placed_right == count and read.extra == 0
    assert read.edges_right >= 6 * count - 2
    assert one_window.placed_right <= count // 2
