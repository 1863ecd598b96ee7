"""Speech bubbles of task tiles on rectified tiles (``companion.vision.tasks``)."""

from __future__ import annotations

import cv2
import numpy as np
from vision_scanner_synth import hsv_bgr

from companion.vision.config import DEFAULT_CONFIG
from companion.vision.edges import DEFAULT_MEADOW
from companion.vision.rectify import hexagon_mask, standard_size
from companion.vision.tasks import find_bubble, task_type

R = DEFAULT_CONFIG.marker_radius
PALE_DROP = hsv_bgr(105, 85, 190)
WATER = hsv_bgr(105, 190, 150)


def _tile(bubble: bool, seed: int) -> np.ndarray:
    """A meadow tile with a stream; with ``bubble``, a stream task's speech bubble whose
    pale blue drop leaves only a thin white outline. Blurred as a photo's tile is."""
    rng = np.random.default_rng(seed)
    w, h = standard_size(R)
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = hsv_bgr(*DEFAULT_MEADOW)
    cv2.line(img, (0, h // 2 + 30), (w, h // 2 - 10), WATER, 22)
    cv2.line(img, (0, h // 2 + 30), (w, h // 2 - 10), hsv_bgr(105, 60, 215), 4)  # foam
    if bubble:
        x, y, half = w // 2 + 10, h // 2 - 55, int(0.19 * R)
        cv2.rectangle(img, (x - half, y - half), (x + half, y + half), (245, 245, 245), -1)
        cv2.ellipse(img, (x, y + 3), (half - 1, half - 2), 0, 0, 360, PALE_DROP, -1)
        cv2.fillConvexPoly(img, np.array([(x - half + 4, y - 2), (x, y - half + 1),
                                          (x + half - 4, y - 2)], np.int32), PALE_DROP)
    noisy = img.astype(np.float64) + rng.normal(0, 3, img.shape)
    out = cv2.GaussianBlur(np.clip(noisy, 0, 255).astype(np.uint8), (0, 0), 2.0)
    out[hexagon_mask(R) == 0] = 0
    return out


def test_a_stream_bubble_filled_by_its_drop_is_found_and_read_as_stream() -> None:
    for seed in range(3):
        bubble = find_bubble(_tile(True, seed), DEFAULT_MEADOW, DEFAULT_CONFIG)
        assert bubble is not None
        assert 0.025 <= bubble.area_frac <= 0.08
        assert task_type(_tile(True, seed), bubble) == "stream"


def test_pale_water_alone_is_no_bubble() -> None:
    for seed in range(3):
        assert find_bubble(_tile(False, seed), DEFAULT_MEADOW, DEFAULT_CONFIG) is None
