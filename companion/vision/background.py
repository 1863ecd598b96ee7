"""Table/background separation.

Representation: ``foreground_mask(image, config)`` returns a uint8 mask (255 = tile,
0 = table) of the same height and width as the BGR ``image``.

The table is modelled from the image border (a strip ``config.border_frac`` wide),
which in a photo of tiles on a table shows mostly table: a pixel is foreground when
its Lab colour lies far from the border's median colour (lightness weighted down, so
shadows on a white cloth stay background) or when it is strongly saturated (tile art).
The threshold adapts to the table's own texture (wood grain, cloth folds).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.config import ScanConfig


def background_distance(image: np.ndarray, config: ScanConfig) -> tuple[np.ndarray, float]:
    """Per-pixel weighted Lab distance to the table colour, and the foreground threshold."""
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab).astype(np.float32)
    h, w = image.shape[:2]
    b = max(2, int(min(h, w) * config.border_frac))
    border = np.concatenate([
        lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3),
        lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3),
    ])
    model = np.median(border, axis=0)
    weights = np.array([config.bg_lightness_weight, 1.0, 1.0], np.float32)
    # sqrt(sum_c (w_c (lab_c - model_c))^2) with one BLAS-like pass per step.
    scaled = cv2.transform(lab, np.diag(weights).astype(np.float32),
                           ) - (model * weights).astype(np.float32)
    dist = cv2.sqrt(cv2.transform(scaled * scaled, np.ones((1, 3), np.float32)))
    bdist = np.sqrt((((border - model) * weights) ** 2).sum(axis=1))
    # Most of the border is table; tiles touching it only raise the upper percentiles.
    threshold = max(config.bg_distance_min,
                    config.bg_distance_factor * float(np.percentile(bdist, 90)))
    return dist, threshold


def foreground_mask(image: np.ndarray, config: ScanConfig, fill: bool = True) -> np.ndarray:
    """Mask of tile pixels (255) against the table (0), specks removed; holes filled
    unless ``fill`` is false (an assembled map's empty cells are real holes)."""
    mask = _foreground_mask(image, config)
    return fill_holes(mask) if fill else mask


def _foreground_mask(image: np.ndarray, config: ScanConfig) -> np.ndarray:
    dist, threshold = background_distance(image, config)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    sat = hsv[:, :, 1]
    h, w = sat.shape
    b = max(2, int(min(h, w) * config.border_frac))
    border_sat = np.concatenate([sat[:b].ravel(), sat[-b:].ravel(),
                                 sat[:, :b].ravel(), sat[:, -b:].ravel()])
    # A saturated table (wood, a coloured mat) must not count as tile art.
    sat_thr = max(config.tile_saturation_min, float(np.percentile(border_sat, 90)) + 40)
    mask = (dist > threshold) | (sat > sat_thr)
    mask_u8: np.ndarray = mask.astype(np.uint8) * 255
    k = max(3, int(round(min(image.shape[:2]) / 300)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    mask_u8 = cv2.morphologyEx(mask_u8, cv2.MORPH_OPEN, kernel)
    mask_u8 = cv2.morphologyEx(mask_u8, cv2.MORPH_CLOSE, kernel, iterations=2)
    return mask_u8


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill enclosed holes of a binary mask (returns a new array)."""
    h, w = mask.shape
    padded = np.zeros((h + 2, w + 2), np.uint8)
    padded[1:-1, 1:-1] = mask
    flood = padded.copy()
    ff_mask = np.zeros((h + 4, w + 4), np.uint8)
    cv2.floodFill(flood, ff_mask, (0, 0), 255)
    holes = cv2.bitwise_not(flood)[1:-1, 1:-1]
    return cv2.bitwise_or(mask, holes)
