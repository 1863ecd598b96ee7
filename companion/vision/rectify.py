"""Rectifying one tile to the standard flat-topped hexagon.

Representation: the standard hexagon has circumradius ``R = config.rectify.radius``
and lies in an image of width ``2R`` and height ``ceil(sqrt(3) R)`` with its centre in
the middle; its corner ``k`` is at ``60k`` degrees (0 = east, clockwise on screen), so
edge ``e`` (0 = top, clockwise, as notation.md) spans corners ``e+4`` and ``e+5``.
``corners`` arguments are six (x, y) points in that same cyclic order.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np


def within_image(corners: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether a tile's corners all lie inside an image of ``shape``."""
    h, w = shape[:2]
    return bool(corners.min() >= 0 and corners[:, 0].max() < w and corners[:, 1].max() < h)


def standard_size(radius: int) -> tuple[int, int]:
    """Width and height of a rectified tile image."""
    return 2 * radius, int(math.ceil(math.sqrt(3) * radius))


@lru_cache(maxsize=8)
def standard_corners(radius: int) -> np.ndarray:
    """The six corners of the standard hexagon (float32, 6 x 2)."""
    w, h = standard_size(radius)
    cx, cy = w / 2.0, h / 2.0
    pts = [(cx + radius * math.cos(math.radians(60 * k)),
            cy + radius * math.sin(math.radians(60 * k))) for k in range(6)]
    out = np.array(pts, np.float32)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=8)
def hexagon_mask(radius: int) -> np.ndarray:
    """Mask (255 inside) of the standard hexagon."""
    w, h = standard_size(radius)
    mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(mask, np.round(standard_corners(radius)).astype(np.int32), 255)
    mask.setflags(write=False)
    return mask


@lru_cache(maxsize=8)
def hexagon_index(radius: int) -> np.ndarray:
    """Row-major flat indices of the standard hexagon's pixels (read-only)."""
    idx = np.flatnonzero(hexagon_mask(radius))
    idx.setflags(write=False)
    return idx


@lru_cache(maxsize=8)
def outside_index(radius: int) -> np.ndarray:
    """Row-major flat indices of the standard size's pixels outside the hexagon."""
    idx = np.flatnonzero(hexagon_mask(radius) == 0)
    idx.setflags(write=False)
    return idx


def inside_pixels(image: np.ndarray, radius: int) -> np.ndarray:
    """``image[hexagon_mask(radius) > 0]`` of a standard-size image (H x W or H x W x C),
    gathered by flat index: several times faster than the boolean mask."""
    rows = image.shape[0] * image.shape[1]
    flat = image.reshape(rows, -1) if image.ndim == 3 else image.reshape(rows)
    return np.take(flat, hexagon_index(radius), axis=0)


def order_corners(corners: np.ndarray, center: tuple[float, float]) -> np.ndarray:
    """Reorder six roughly hexagonal corners into standard order (corner k near 60k deg).

    This snaps the tile to the nearest flat-topped orientation.
    """
    pts = np.asarray(corners, np.float64).reshape(6, 2)
    ang = np.degrees(np.arctan2(pts[:, 1] - center[1], pts[:, 0] - center[0])) % 360
    order = np.argsort(ang)
    pts, ang = pts[order], ang[order]
    best, best_cost = 0, float("inf")
    for s in range(6):
        target = (60.0 * ((np.arange(6) + s) % 6))
        diff = (ang - target + 180.0) % 360.0 - 180.0
        cost = float(np.abs(diff).sum())
        if cost < best_cost:
            best, best_cost = s, cost
    out = np.zeros_like(pts)
    for i in range(6):
        out[(i + best) % 6] = pts[i]
    return out


def tile_homography(corners: np.ndarray, radius: int) -> np.ndarray:
    """Homography mapping image points to the standard hexagon (corners in standard order)."""
    src = np.asarray(corners, np.float64).reshape(6, 2)
    dst = standard_corners(radius).astype(np.float64)
    hom, _ = cv2.findHomography(src, dst, 0)
    if hom is None:
        hom = cv2.getPerspectiveTransform(src[[0, 1, 3, 4]].astype(np.float32),
                                          dst[[0, 1, 3, 4]].astype(np.float32))
    return np.asarray(hom, np.float64)


def rectify(image: np.ndarray, corners: np.ndarray, radius: int) -> np.ndarray:
    """Warp the tile with the given corners (standard order) to the standard hexagon.

    Pixels outside the hexagon are set to black. ``image`` is not modified.
    """
    hom = tile_homography(corners, radius)
    w, h = standard_size(radius)
    out = cv2.warpPerspective(image, hom, (w, h), flags=cv2.INTER_AREA,
                              borderMode=cv2.BORDER_REPLICATE)
    out.reshape(out.shape[0] * out.shape[1], -1)[outside_index(radius)] = 0
    return out
