"""Loose tiles whose foreground broke: found again by their outline, at the size and
shape of the loose tiles found whole.

Representation: ``recover(image, mask, hexagons, config)`` returns the corners (6 x 2,
standard order, image pixels) of each tile recovered. A loose tile whose art has the
table's colours (grey cobbles or rails on dark wood, a stream on a pale cloth) leaves
fragments in the foreground mask, no hexagon. The tiles found whole (``hexagons``, three
at least) give the size and, under the camera's perspective, the shape a tile has near
them. The rest of the foreground, closed across gaps smaller than
``find.broken_close_frac`` of a tile's radius (fragments of one tile; loose tiles lie
farther apart), gives candidates of between ``find.broken_area`` times a whole tile's
area. Each is placed where the nearest whole tile's outline, moved and turned
(``find.broken_turn_deg``) and scaled a little, lies on the strongest edges of the
smoothed grey image (a tile's cardboard rim against the table) with no foreground just
outside it, and kept when those
edges are at least ``find.broken_edge_share`` as strong as the whole tiles' own (on the
grey or on its logarithm, ``find.broken_log_edges``: relative to the light) and
``find.broken_fill_min`` of the outline is foreground.

Loose tiles joined by a patch of glare make one part far larger than a tile: each point
at least ``find.broken_peak_frac`` of a radius inside it is a candidate (``_deep_points``),
placed the same way and kept only when, besides, little foreground lies just outside its
outline (``find.broken_joined_beyond_max``: in a box lid's or score pad's corner it lies
on two sides) and nearly all of its inside is foreground (``find.broken_joined_fill_min``).
"""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.config import ScanConfig
from companion.vision.find_tiles import scaled
from companion.vision.lattice import outline_radius
from companion.vision.rectify import order_corners

PER_SIDE = 12


def recover(image: np.ndarray, mask: np.ndarray, hexagons: list[np.ndarray],
            config: ScanConfig) -> list[np.ndarray]:
    """The corners of the loose tiles recovered beside ``hexagons`` (see the module
    docstring); none without three whole tiles or with ``find.broken_close_frac`` 0."""
    fc = config.find
    if len(hexagons) < 3 or fc.broken_close_frac <= 0:
        return []
    centres = np.array([h.mean(axis=0) for h in hexagons])
    radius = float(np.median([outline_radius(h) for h in hexagons]))
    areas = [float(cv2.contourArea(h.astype(np.float32))) for h in hexagons]
    typical = float(np.median(areas))
    rest = mask.copy()
    for h in hexagons:
        cv2.fillPoly(rest, [np.round(scaled(h, 1.15)).astype(np.int32)], 0)
    k = max(3, int(round(fc.broken_close_frac * radius)) | 1)
    closed = cv2.morphologyEx(rest, cv2.MORPH_CLOSE,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    n, labels, stats, cents = cv2.connectedComponentsWithStats(closed)
    low, high = fc.broken_area
    candidates: list[tuple[np.ndarray, bool]] = []  # (centre, in a part joining tiles)
    for i in range(1, n):
        area = stats[i, cv2.CC_STAT_AREA]
        if low * typical <= area <= high * typical:
            candidates.append((cents[i], False))
        elif area > high * typical and fc.broken_peak_frac > 0:
            candidates += [(p, True) for p in _deep_points(
                labels, i, stats[i], radius, fc.broken_peak_frac, int(area // typical) + 1)]
    if not candidates:
        return []
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    grad = _gradient(grey, radius)
    log_grad: np.ndarray | None = None
    whole = _along(grad, hexagons)
    found: list[np.ndarray] = []
    taken = list(centres)
    for c, joined in candidates:
        near = hexagons[int(np.argmin(np.linalg.norm(centres - c, axis=1)))]
        corners, strength, beyond = _placed(grad, mask, near - near.mean(axis=0), c,
                                            radius, config)
        centre = corners.mean(axis=0)
        fill = foreground_share(mask, corners)
        faint = strength < fc.broken_edge_share * whole
        if faint and fc.broken_log_edges:
            if log_grad is None:
                # + 8: the noise in a black shadow is no edge
                log_grad = _gradient(np.log(grey + 8.0), radius)
                whole_log = _along(log_grad, hexagons)
            faint = _along(log_grad, [corners]) < fc.broken_edge_share * whole_log
        if (faint
                or (joined and (beyond > fc.broken_joined_beyond_max
                                or fill < fc.broken_joined_fill_min))
                or fill < fc.broken_fill_min
                or min(float(np.linalg.norm(t - centre)) for t in taken) < 1.5 * radius):
            continue
        found.append(order_corners(corners, (float(centre[0]), float(centre[1]))))
        taken.append(centre)
    return found


def _gradient(grey: np.ndarray, radius: float) -> np.ndarray:
    """The gradient magnitude of ``grey`` smoothed by a fiftieth of a tile's ``radius``."""
    smooth = cv2.GaussianBlur(grey, (0, 0), max(1.0, 0.02 * radius))
    out: np.ndarray = cv2.magnitude(cv2.Sobel(smooth, cv2.CV_32F, 1, 0, ksize=3),
                                    cv2.Sobel(smooth, cv2.CV_32F, 0, 1, ksize=3))
    return out


def _along(grad: np.ndarray, outlines: list[np.ndarray]) -> float:
    """The median over ``outlines`` of the mean of ``grad`` along each."""
    still = np.zeros((1, 2))
    return float(np.median([_sampled(grad, outline_points(c), still)[0] for c in outlines]))


def _deep_points(labels: np.ndarray, label: int, stat: np.ndarray, radius: float,
                 frac: float, most: int) -> list[np.ndarray]:
    """Up to ``most`` points of component ``label`` at least ``frac`` of ``radius`` from
    its edge, deepest first, each 1.5 radii from the others: where tiles joined by glare
    or clutter lie."""
    x, y, w, h = (int(v) for v in stat[:4])
    inside = (labels[y:y + h, x:x + w] == label).astype(np.uint8)
    depth = cv2.distanceTransform(np.pad(inside, 1), cv2.DIST_L2, 5)[1:-1, 1:-1]
    yy, xx = np.mgrid[0:h, 0:w]
    points: list[np.ndarray] = []
    while len(points) < most:
        row, col = np.unravel_index(int(np.argmax(depth)), depth.shape)
        if depth[row, col] < frac * radius:
            break
        points.append(np.array([x + col, y + row], np.float64))
        depth[(xx - col) ** 2 + (yy - row) ** 2 < (1.5 * radius) ** 2] = 0
    return points


def outline_points(corners: np.ndarray) -> np.ndarray:
    """``PER_SIDE`` points along each side of a hexagon, corners excluded."""
    t = (np.arange(PER_SIDE) + 0.5) / PER_SIDE
    a, b = corners, np.roll(corners, -1, axis=0)
    out: np.ndarray = (a[:, None, :] + (b - a)[:, None, :] * t[None, :, None]).reshape(-1, 2)
    return out


def _placed(grad: np.ndarray, mask: np.ndarray, shape: np.ndarray, centre: np.ndarray,
            radius: float, config: ScanConfig) -> tuple[np.ndarray, float, float]:
    """``shape`` (corners about the origin) moved within half of ``radius`` of
    ``centre``, turned and scaled to lie on the strongest edges with table (no
    foreground in ``mask``) just outside it: its corners, the mean edge strength along
    it and the share of foreground just outside it. (Rails, a stream's banks or wood
    grain are strong edges too, but a tile's art lies on their far side.)"""
    fc = config.find
    outline = outline_points(shape)
    ring = outline * 1.12
    steps = np.linspace(-radius / 2, radius / 2, 17)
    shifts = np.stack(np.meshgrid(steps, steps), axis=-1).reshape(-1, 2)
    best = (-1.0, 0.0, 0.0, 1.0, np.zeros(2), 0.0)
    for turn in np.arange(-fc.broken_turn_deg, fc.broken_turn_deg + 1e-6, 3.0):
        a = np.radians(turn)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        for scale in (0.95, 1.0, 1.05):
            edges = _sampled(grad, (outline @ rot.T) * scale + centre, shifts)
            beyond = _sampled(mask, (ring @ rot.T) * scale + centre, shifts) / 255.0
            scores = edges * (1.0 - beyond)
            i = int(np.argmax(scores))
            if scores[i] > best[0]:
                best = (float(scores[i]), float(edges[i]), float(turn), scale, shifts[i],
                        float(beyond[i]))
    _, strength, turn, scale, shift, outside = best
    a = np.radians(turn)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    corners: np.ndarray = (shape @ rot.T) * scale + centre + shift
    return corners, strength, outside


def _sampled(values: np.ndarray, points: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """The mean of ``values`` at ``points`` moved by each of ``shifts``."""
    h, w = values.shape[:2]
    moved = points[None, :, :] + shifts[:, None, :]
    xs = np.clip(np.round(moved[..., 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(moved[..., 1]).astype(int), 0, h - 1)
    out: np.ndarray = values[ys, xs].astype(np.float32).mean(axis=1)
    return out


def foreground_share(mask: np.ndarray, corners: np.ndarray) -> float:
    """The share of ``mask`` inside the hexagon ``corners``."""
    x, y, w, h = cv2.boundingRect(np.round(corners).astype(np.int32))
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(mask.shape[1], x + w), min(mask.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return 0.0
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(inside, [np.round(corners - np.array([x0, y0])).astype(np.int32)], 1)
    total = int(inside.sum())
    return float((mask[y0:y1, x0:x1][inside > 0] > 0).sum()) / max(total, 1)
