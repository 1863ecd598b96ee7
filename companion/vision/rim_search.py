"""Loose tiles the foreground missed, found by their rim alone.

Representation: ``search(image, mask, hexagons, config)`` returns the corners (6 x 2,
standard order, image pixels) of each tile found. A loose tile in a cast shadow, or
whose art has the table's colours, may leave nothing or a sliver in the foreground
mask; its cardboard rim still shows as six straight edges. The tiles already found
(``hexagons``, three at least) give the size and, under the camera's perspective, the
shape: each is a regular hexagon under a 2 x 2 linear map ``A`` (least squares over its
corners), so a tile turned by ``theta`` near it has corners ``A R(theta) U``.

A place is scored by the lightness gradient across each side of that outline: the part
along the side's normal less the part along the side (``_across``), so wood grain or a
cloth's checks running obliquely count for nothing, averaged per side; the score is
the second weakest side (one side may lie in glare or against a pale table), relative
to the same score of the tiles found (each placed the same way near its own outline).
Places are tried on a grid a quarter of a radius apart, turned every 3 degrees through
60, then refined; one is kept when its score is at least ``find.rim_score_min``, it lies
1.7 radii or more from every tile (tiles do not overlap), at most ``find.rim_fill_max``
of it is foreground (foreground was already judged by its outline: a box lid or a score
pad is not searched again) and at least ``find.rim_unlike_min`` of its inside differs
in chromaticity from the table just outside it (``_unlike_around``: an outline of grain
lines, or of a gap between tiles, has table inside). Whether it holds tile art is
judged with the other loose tiles (``scan.holds_tiles``).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.broken_tiles import PER_SIDE, foreground_share, outline_points
from companion.vision.config import ScanConfig
from companion.vision.lattice import outline_radius
from companion.vision.rectify import order_corners, within_image

_UNIT = np.array([[np.cos(np.radians(60 * k)), np.sin(np.radians(60 * k))]
                  for k in range(6)])
_TURNS = np.arange(0.0, 60.0, 3.0)
_COARSE = 0.7
"""A place on the grid is refined when it scores this share of the score kept (the
grid's places lie up to an eighth of a radius and 1.5 degrees off)."""
_COARSE_BLUR = 0.1
"""The grid is scored on the lightness blurred by this share of a radius, so that an
outline up to an eighth of a radius off still lies on the rim's edge."""
_UNLIKE_AB = 10.0
"""An inside pixel farther than this in a*b* from the ring's median is unlike the table."""
_MOST_TRIED = 40
"""At most this many places are refined."""
_APART = 1.7
"""Two tiles' centres lie at least this many radii apart (touching, 1.73)."""


def search(image: np.ndarray, mask: np.ndarray, hexagons: list[np.ndarray],
           config: ScanConfig) -> list[np.ndarray]:
    """The corners of the loose tiles found by their rim beside ``hexagons`` (see the
    module docstring); none without three of them or with ``find.rim_score_min`` 0."""
    fc = config.find
    if len(hexagons) < 3 or fc.rim_score_min <= 0:
        return []
    radius = float(np.median([outline_radius(h) for h in hexagons]))
    gx, gy = _gradients(image, 0.02 * radius)
    coarse_x, coarse_y = _gradients(image, _COARSE_BLUR * radius)
    maps = [_linear_map(h) for h in hexagons]
    centres = np.array([h.mean(axis=0) for h in hexagons])
    own = float(np.median([_refined(gx, gy, c, a, 0.0, radius)[0]
                           for c, a in zip(centres, maps, strict=True)]))
    if own <= 0:
        return []
    own_coarse = float(np.median([
        _weak_side(_across(coarse_x, coarse_y, c[None], *_outlines(a, _TURNS))).max()
        for c, a in zip(centres, maps, strict=True)]))
    grid = _grid(gx.shape, radius, centres)
    if not len(grid):
        return []
    nearest = np.argmin(np.linalg.norm(grid[:, None] - centres[None], axis=2), axis=1)
    best = np.zeros(len(grid))
    turn = np.zeros(len(grid))
    for i in np.unique(nearest):
        at = nearest == i
        points, normals = _outlines(maps[i], _TURNS)
        scores = _weak_side(_across(coarse_x, coarse_y, grid[at], points, normals))
        best[at], turn[at] = scores.max(axis=1), _TURNS[scores.argmax(axis=1)]
    found: list[np.ndarray] = []
    taken = list(centres)
    tried: list[np.ndarray] = []
    for k in np.argsort(-best):
        if best[k] < _COARSE * fc.rim_score_min * own_coarse or len(tried) >= _MOST_TRIED:
            break
        place, a = grid[k], maps[int(nearest[k])]
        if (_nearest(taken, place) < _APART * radius or _nearest(tried, place) < radius / 4
                or foreground_share(mask, _corners(a, float(turn[k]), 1.0, place))
                > fc.rim_fill_max):
            continue
        tried.append(place)
        score, centre, theta, scale = _refined(gx, gy, place, a, float(turn[k]), radius)
        corners = _corners(a, theta, scale, centre)
        if (score < fc.rim_score_min * own or _nearest(taken, centre) < _APART * radius
                or foreground_share(mask, corners) > fc.rim_fill_max
                or not within_image(corners, image.shape)):
            continue
        if _unlike_around(image, corners) < fc.rim_unlike_min:
            continue
        found.append(order_corners(corners, (float(centre[0]), float(centre[1]))))
        taken.append(centre)
    return found


def _gradients(image: np.ndarray, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    grey = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32),
                            (0, 0), max(1.0, sigma))
    return (cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3),
            cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3))


def _linear_map(corners: np.ndarray) -> np.ndarray:
    """The 2 x 2 map taking the unit hexagon's corners nearest onto ``corners``."""
    centred = corners - corners.mean(axis=0)
    transposed, *_ = np.linalg.lstsq(_UNIT, centred, rcond=None)
    out: np.ndarray = transposed.T
    return out


def _corners(linear: np.ndarray, theta: float, scale: float, centre: np.ndarray
             ) -> np.ndarray:
    a = np.radians(theta)
    turn = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    out: np.ndarray = (_UNIT @ turn.T) @ linear.T * scale + centre
    return out


def _outlines(linear: np.ndarray, turns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points along each side (T x 6 x ``PER_SIDE`` x 2, about the origin) of the
    outline turned by each of ``turns`` degrees, and each point's unit side normal."""
    points, normals = [], []
    for theta in turns:
        c = _corners(linear, float(theta), 1.0, np.zeros(2))
        d = np.roll(c, -1, axis=0) - c
        points.append(outline_points(c).reshape(6, PER_SIDE, 2))
        n = np.stack([d[:, 1], -d[:, 0]], axis=1)
        n /= np.linalg.norm(n, axis=1, keepdims=True)
        normals.append(np.repeat(n[:, None, :], PER_SIDE, axis=1))
    return np.array(points), np.array(normals)


def _across(gx: np.ndarray, gy: np.ndarray, centres: np.ndarray, points: np.ndarray,
            normals: np.ndarray) -> np.ndarray:
    """N x T x 6: per centre, turn and side, the mean gradient across the side less
    along it (never below 0)."""
    h, w = gx.shape
    at = centres[:, None, None, None, :] + points[None]
    xs = np.clip(np.round(at[..., 0]).astype(np.int32), 0, w - 1)
    ys = np.clip(np.round(at[..., 1]).astype(np.int32), 0, h - 1)
    a, b = gx[ys, xs], gy[ys, xs]
    nx, ny = normals[None, ..., 0], normals[None, ..., 1]
    across = np.maximum(np.abs(a * nx + b * ny) - np.abs(b * nx - a * ny), 0.0)
    out: np.ndarray = across.mean(axis=-1)
    return out


def _weak_side(sides: np.ndarray) -> np.ndarray:
    """The second weakest of the six sides (last axis)."""
    out: np.ndarray = np.sort(sides, axis=-1)[..., 1]
    return out


def _refined(gx: np.ndarray, gy: np.ndarray, centre: np.ndarray, linear: np.ndarray,
             theta: float, radius: float) -> tuple[float, np.ndarray, float, float]:
    """The best (score, centre, turn, scale) within a sixth of a radius, 4 degrees
    and 5 % of the place given."""
    turns = np.arange(theta - 4.0, theta + 4.0 + 1e-6, 1.0)
    points, normals = _outlines(linear, turns)
    steps = np.linspace(-radius / 6, radius / 6, 11)
    shifts = np.stack(np.meshgrid(steps, steps), axis=-1).reshape(-1, 2)
    best = (-1.0, centre, theta, 1.0)
    for scale in (0.95, 1.0, 1.05):
        score = _weak_side(_across(gx, gy, centre + shifts, points * scale, normals))
        i, j = np.unravel_index(int(np.argmax(score)), score.shape)
        if score[i, j] > best[0]:
            best = (float(score[i, j]), centre + shifts[i], float(turns[j]), scale)
    return best


def _grid(shape: tuple[int, ...], radius: float, centres: np.ndarray) -> np.ndarray:
    """Places a quarter of a radius apart, a radius inside the image, clear of the
    tiles found."""
    h, w = shape[:2]
    step = max(2.0, radius / 4)
    ys, xs = np.mgrid[radius:h - radius:step, radius:w - radius:step]
    grid = np.stack([xs.ravel(), ys.ravel()], axis=1)
    if not len(grid):
        return grid
    clear = np.linalg.norm(grid[:, None] - centres[None], axis=2).min(axis=1)
    out: np.ndarray = grid[clear >= (_APART - 0.4) * radius]
    return out


def _unlike_around(image: np.ndarray, corners: np.ndarray) -> float:
    """The share of the outline's inside (shrunk to 0.8) whose chromaticity lies
    farther than ``_UNLIKE_AB`` from the median of the ring just outside it (1.1-1.3)."""
    centre = corners.mean(axis=0)
    x, y, w, h = cv2.boundingRect(np.round(centre + (corners - centre) * 1.3).astype(np.int32))
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(image.shape[1], x + w), min(image.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    lab = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2LAB).astype(np.float32)
    ab = lab[..., 1:]

    def region(f: float) -> np.ndarray:
        m = np.zeros((y1 - y0, x1 - x0), np.uint8)
        pts = centre + (corners - centre) * f - np.array([x0, y0])
        cv2.fillPoly(m, [np.round(pts).astype(np.int32)], 1)
        return m > 0

    inside, ring = region(0.8), region(1.3) & ~region(1.1)
    if not inside.any() or not ring.any():
        return 0.0
    table = np.median(ab[ring], axis=0)
    return float(np.mean(np.linalg.norm(ab[inside] - table, axis=1) > _UNLIKE_AB))


def _nearest(points: list[np.ndarray], place: np.ndarray) -> float:
    return min((float(np.linalg.norm(p - place)) for p in points), default=float("inf"))
