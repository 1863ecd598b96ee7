"""``lattice.outline_cost`` samples the silhouette bilinearly at each cell's sample
points: its coverage equals a plain two-axis bilinear interpolation, exactly."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision import lattice


def _plain_cover(hom: np.ndarray, soft: np.ndarray, cells: np.ndarray) -> np.ndarray:
    centres = np.stack([1.5 * cells[:, 0], lattice.SQRT3 * (cells[:, 1] + cells[:, 0] / 2)],
                       axis=1)
    pts = (centres[:, None, :] + lattice.UNIT_SAMPLES[None, :, :]).reshape(-1, 1, 2)
    img = cv2.perspectiveTransform(pts, hom).reshape(-1, 2).astype(np.float32)
    h, w = soft.shape
    xs, ys = np.clip(img[:, 0], 0, w - 1), np.clip(img[:, 1], 0, h - 1)
    x0, y0 = np.floor(xs).astype(np.int64), np.floor(ys).astype(np.int64)
    x1, y1 = np.minimum(x0 + 1, w - 1), np.minimum(y0 + 1, h - 1)
    fx, fy = xs - x0, ys - y0
    val = (soft[y0, x0] * (1 - fx) * (1 - fy) + soft[y0, x1] * fx * (1 - fy)
           + soft[y1, x0] * (1 - fx) * fy + soft[y1, x1] * fx * fy)
    return val.reshape(len(cells), -1).mean(axis=1)


def test_coverage_is_the_bilinear_silhouette_at_the_samples() -> None:
    rng = np.random.default_rng(5)
    soft = cv2.GaussianBlur(rng.random((300, 400)).astype(np.float32), (0, 0), 3.0)
    cells = np.array([(q, r) for q in range(-6, 7) for r in range(-6, 7)], np.int64)
    for _ in range(5):
        hom = np.array([[rng.uniform(12, 20), rng.uniform(-3, 3), rng.uniform(150, 250)],
                        [rng.uniform(-3, 3), rng.uniform(12, 20), rng.uniform(100, 200)],
                        [rng.uniform(-1e-4, 1e-4), rng.uniform(-1e-4, 1e-4), 1.0]])
        _, cover = lattice.outline_cost(hom, soft, cells)
        assert np.array_equal(cover, _plain_cover(hom, soft, cells))
        assert 0.0 <= cover.min() and cover.max() <= 1.0
