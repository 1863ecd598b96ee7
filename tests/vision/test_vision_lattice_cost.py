"""``lattice.outline_cost`` samples the silhouette bilinearly at each cell's sample
points: its coverage equals a plain two-axis bilinear interpolation, exactly; and
``lattice.quality_and_cells`` (one sampling for both) gives exactly the ``occupied``
cells and ``fit_quality`` as their own definitions."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision import lattice
from companion.vision.background import foreground_mask
from companion.vision.config import DEFAULT_CONFIG
from tests.helpers.scanner_synth import draw_map, random_map


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


def test_the_quality_and_its_cells_come_from_one_sampling_exactly() -> None:
    """Over lattices on, off and far too coarse for a drawn map's: the cells are
    ``occupied``'s, the quality is the seam score less ``outline_cost`` over those cells,
    bit for bit (-inf without cells)."""
    photo, _ = draw_map(random_map(16, 3), size=50, tilt_deg=10.0, rotate_deg=8.0, seed=3)
    mask = foreground_mask(photo, DEFAULT_CONFIG)
    view = lattice.map_view(photo, mask, lattice.estimate_radius(mask))
    starts = lattice.fit_local(view)
    assert starts
    seen_empty = False
    for start in starts:
        for dx, scale in ((0.0, 1.0), (0.4, 1.0), (0.0, 25.0)):
            move = np.diag([scale, scale, 1.0])
            move[0, 2] = dx
            lat = lattice.Lattice(start.homography @ move, 0)
            quality, cells = lattice.quality_and_cells(lat, view)
            assert cells == lattice.occupied(lat, view)
            if not cells:
                seen_empty = True
                assert quality == -np.inf == lattice.fit_quality(lat, view)
                continue
            cost = lattice.outline_cost(lat.homography, view.soft, np.array(cells))[0]
            assert quality == lattice.seam_score(lat, cells, view.grad) - cost
            assert quality == lattice.fit_quality(lat, view)
    assert seen_empty
