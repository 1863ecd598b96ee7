"""A photo exposed well under what a camera gives is brought up before its tiles are
located (``io.brought_up``): by the gain that lifts its brightest 1 % to
``io.exposure_floor_grey``, at most ``io.photo_gain_max``; never a photo too dark to
read (``io.too_dark_grey``). Uniform greys, a loaded photo, and a real-tile composite at
-1.5 EV read with real OpenCV."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import scan
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.io import brought_up, exposure_gain, load_photo
from companion.vision.synth.evaluate import composite_cases, run_case

IO = DEFAULT_CONFIG.io


def _grey(value: int) -> np.ndarray:
    return np.full((120, 160, 3), value, np.uint8)


def test_only_a_photo_under_the_floor_is_brightened_and_never_past_the_cap() -> None:
    floor = IO.exposure_floor_grey
    assert exposure_gain(_grey(200)) == 1.0
    assert exposure_gain(_grey(int(floor))) == 1.0
    assert exposure_gain(_grey(50)) == pytest.approx(floor / 50)
    assert exposure_gain(_grey(int(IO.too_dark_grey) + 1)) == pytest.approx(
        min(IO.photo_gain_max, floor / (IO.too_dark_grey + 1)))
    assert exposure_gain(_grey(int(IO.too_dark_grey) - 1)) == 1.0
    assert exposure_gain(_grey(50), DEFAULT_CONFIG.tuned(exposure_floor_grey=0.0)) == 1.0


def test_the_brightest_one_percent_decides_not_the_table() -> None:
    """A dark table under a map whose white art is lit: nothing to bring up."""
    image = _grey(20)
    image[:30, :80] = 180
    assert exposure_gain(image) == 1.0


def test_the_working_image_and_the_detail_copy_are_brought_up_alike() -> None:
    rng = np.random.default_rng(3)
    dim = rng.integers(10, 60, (1800, 3400, 3), dtype=np.uint8)
    photo = load_photo(dim)
    up = brought_up(photo)
    gain = exposure_gain(photo.image)
    assert gain > 1.5
    expected = cv2.convertScaleAbs(photo.image, alpha=gain)
    assert np.array_equal(up.image, expected)
    assert up.scale == photo.scale and up.detail_size == photo.detail_size
    assert photo.detail is not None and up.detail is not None
    assert np.array_equal(up.detail, cv2.convertScaleAbs(photo.detail, alpha=gain))
    lit = load_photo(rng.integers(100, 220, (300, 400, 3), dtype=np.uint8))
    assert brought_up(lit) is lit


@pytest.mark.slow
def test_a_real_tile_map_at_minus_one_and_a_half_ev_is_read() -> None:
    """Composite 25654 (session 39): a dark wood table at -1.5 EV, the brightest 1 % of
    the photo at grey 47. As taken, the table model kept forests and meadows with the
    table, and the map was read as 7 cells of twice the tiles' size."""
    from companion.vision.synth import composite

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    case = next(composite_cases(5, 25650, (4000, 3000), real_table=True, skip=4, ev=-1.5))
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    read = run_case(case, lambda photo: scan(photo, slow))
    n = len(case.truth)
    assert read.errors == 0 and read.placed_right == n and read.extra == 0
    assert read.edges_right >= 6 * n - 2
