"""Fitting a flat-topped hex lattice to an assembled landscape (homography by RANSAC).

Representation: a ``Lattice`` is a 3 x 3 homography ``H`` from *lattice space* to
image pixels. Lattice space is the pixel plane of ``Layout(1.0, (0, 0))`` (flat-topped
hexes of circumradius 1, hex ``(q, r)`` centred at ``Layout.to_pixel((q, r))``), so
hex ``(q, r)``'s corners in the image are ``H`` applied to the unit hexagon's corners.

Stages (pure functions, thresholds in ``ScanConfig.lattice``): ``map_view`` computes
once per photo what the others look at (the map's silhouette, its soft version and
``boundary_map``, the lightness gradient along tile outlines and seams);
``seam_period`` reads the tile size and orientation from the seams' periodicity
(``faint_periods``: the sizes seams too faint to decide still hint at; ``fit_period``
places lattices of a period on the seams);
``fit_lattice`` runs RANSAC over the centres of loose-looking hexagons;
``fit_outline`` grid-searches squash, rotation, scale and offset for lattices whose
cells tile the silhouette; ``fit_local`` aligns cell outlines with the seams near the
map's middle; ``refine_by_seams`` grows an approximate lattice into an exact
homography ring by ring; ``fit_quality`` scores a candidate (boundary strength along
the occupied outlines minus the silhouette mismatch); ``occupied`` and
``partly_covered`` list the cells the silhouette covers; ``snap_cells`` moves each
cell's corners onto its own tile's outline.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from companion.rules import Layout, hex_round
from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.in_background import Background
from companion.vision.lab import lab_of, lightness_of

UNIT = Layout(1.0, (0.0, 0.0))
SQRT3 = math.sqrt(3.0)
# Lattice-space vectors to the six neighbours, in edge order 0..5.
NEIGHBOUR_VECTORS = np.array([UNIT.to_pixel(d) for d in
                              [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]])
NEIGHBOUR_ANGLES = np.degrees(np.arctan2(NEIGHBOUR_VECTORS[:, 1], NEIGHBOUR_VECTORS[:, 0]))


@dataclass(frozen=True)
class MapView:
    """What the lattice stages look at, computed once per photo: the map's silhouette
    ``mask``, its ``soft`` version, bounding ``box`` (x0, y0, x1, y1), the gradient
    ``grad`` of ``boundary_map`` (zero beyond the silhouette), the same gradient
    ``beyond`` it too (``outside``) and the rough tile ``radius``."""

    mask: np.ndarray
    soft: np.ndarray
    box: tuple[int, int, int, int]
    grad: np.ndarray
    radius: float
    middle: tuple[float, float]
    beyond: np.ndarray


def map_view(image: np.ndarray, mask: np.ndarray, radius: float) -> MapView:
    """The ``MapView`` of ``mask``: its distance transforms (``soft``, ``middle``) are
    computed in a thread while the boundary maps are (both mostly OpenCV calls that
    release the GIL)."""
    x, y, w, h = cv2.boundingRect(mask)  # of the set pixels
    box = (x, y, x + w, y + h) if w > 0 else (0, 0, mask.shape[1], mask.shape[0])
    aside = Background(lambda: (soft_mask(mask, radius), deepest_point(mask)), "map-view")
    grad, beyond = boundary_maps(image, mask, radius)
    soft, middle = aside.result()
    return MapView(mask=mask, soft=soft, box=box, grad=grad, radius=radius, middle=middle,
                   beyond=beyond)


@dataclass(frozen=True)
class Lattice:
    homography: np.ndarray  # lattice space -> image pixels
    inliers: int

    def to_image(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def to_lattice(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        inv = np.linalg.inv(self.homography)
        return cv2.perspectiveTransform(pts, inv).reshape(-1, 2)

    def cell_corners(self, cell: tuple[int, int]) -> np.ndarray:
        """The six image corners of a cell, corner k at lattice angle 60k degrees."""
        return self.to_image(np.array(UNIT.corners(cell)))

    def cell_center(self, cell: tuple[int, int]) -> tuple[float, float]:
        x, y = self.to_image(np.array([UNIT.to_pixel(cell)]))[0]
        return (float(x), float(y))


def estimate_radius(mask: np.ndarray) -> float:
    """Rough tile circumradius of a map blob from its boundary's straight runs.

    A union of hexagons has a boundary made of tile sides; the median length of
    the polygon sides of a light simplification is about one tile side (= radius).
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return 0.0
    c = max(contours, key=cv2.contourArea)
    peri = cv2.arcLength(c, True)
    approx = cv2.approxPolyDP(c, 0.004 * peri, True).reshape(-1, 2).astype(np.float64)
    sides = np.linalg.norm(np.roll(approx, -1, axis=0) - approx, axis=1)
    long_sides = sides[sides > np.percentile(sides, 40)]
    return float(np.median(long_sides)) if len(long_sides) else 0.0


def fit_lattice(centres: np.ndarray, radius: float, config: ScanConfig = DEFAULT_CONFIG,
                seed: int = 0) -> Lattice | None:
    """RANSAC: the lattice (homography) that puts the most centres on cell centres.

    ``radius`` is the rough tile circumradius; hypotheses whose neighbour spacing is
    far from ``sqrt(3) * radius`` are skipped (a finer lattice would explain more
    points without being right).
    """
    n = len(centres)
    if n < 3:
        return None
    rng = np.random.default_rng(seed)
    d = np.linalg.norm(centres[:, None, :] - centres[None, :, :], axis=2)
    np.fill_diagonal(d, np.inf)
    spacing = SQRT3 * radius
    best: Lattice | None = None
    best_err = np.inf
    tries = 0
    for _ in range(config.lattice.ransac_iterations):
        i = int(rng.integers(n))
        near = np.nonzero(d[i] < 1.45 * spacing)[0]
        if len(near) < 2:
            continue
        j, k = rng.choice(near, size=2, replace=False)
        v1, v2 = centres[j] - centres[i], centres[k] - centres[i]
        lengths = np.array([np.hypot(*v1), np.hypot(*v2)]) / spacing
        if lengths.min() < 0.6 or lengths.max() > 1.4 or lengths.max() > 1.3 * lengths.min():
            continue
        cross = v1[0] * v2[1] - v1[1] * v2[0]
        if cross < 0:
            v1, v2 = v2, v1
        ang = math.degrees(math.atan2(v1[0] * v2[1] - v1[1] * v2[0], float(v1 @ v2)))
        if not 35 <= ang <= 85:
            continue
        tries += 1
        a1 = math.degrees(math.atan2(v1[1], v1[0]))
        kk = int(np.argmin(np.abs((a1 - NEIGHBOUR_ANGLES + 180) % 360 - 180)))
        src = np.array([NEIGHBOUR_VECTORS[kk], NEIGHBOUR_VECTORS[(kk + 1) % 6]]).T
        dst = np.array([v1, v2]).T
        affine = dst @ np.linalg.inv(src)
        hom = np.eye(3)
        hom[:2, :2] = affine
        hom[:2, 2] = centres[i]
        lat = _refine(Lattice(hom, 0), centres, config)
        if lat is None:
            continue
        err = _score(lat, centres, config)
        if lat.inliers > (best.inliers if best else 0) or (
                best is not None and lat.inliers == best.inliers and err < best_err):
            best, best_err = lat, err
        if best is not None and best.inliers >= 0.9 * n and tries > 20:
            break
    return best


def hexagon_start(hexagons: list[np.ndarray], config: ScanConfig = DEFAULT_CONFIG
                  ) -> Lattice | None:
    """The lattice one lone hexagon's own six corners span (an affine map; its cell
    (0, 0)): of those, the one on whose cells most other hexagons lie (their centres
    within ``lattice.inlier_frac`` of a cell centre, their size within 20 % of a cell's),
    refitted to the corners of all that do (a homography from four hexagons on, an
    affine map before: a few corners cannot pin a perspective), again while the refit
    gathers more (one hexagon's turn, a little off, misses the far ones). Lone hexagons
    need not be neighbours (``fit_lattice`` pairs neighbours); each shows the tiles'
    size, turn and phase where the map's seams may not (dim light, art that repeats).
    None unless three hexagons and more than half of them agree: lone outlines may be
    pieces of tiles (composite 6102: 8, of which one seed alone gathered 3, on a lattice
    0.88 of the tiles'; refitted while it gathers more, 5 agree on the tiles' own)."""
    if len(hexagons) < 3:
        return None
    shapes = [np.asarray(h, np.float64) for h in hexagons]
    centres = np.array([h.mean(axis=0) for h in shapes])
    best: Lattice | None = None
    for h in shapes:
        lat = _spanned(np.array([UNIT.corners((0, 0))], np.float64), h[None])
        agree = _on_cells(lat, shapes, centres, config)
        for _ in range(3):
            if len(agree) < 2:
                break
            cells, _ = _residuals(lat, centres[agree])
            src = np.array([UNIT.corners(tuple(c)) for c in cells], np.float64)
            lat = _spanned(src, np.array([shapes[i] for i in agree]))
            more = _on_cells(lat, shapes, centres, config)
            if len(more) <= len(agree):
                break
            agree = more
        if (len(agree) < 3 or 2 * len(agree) <= len(shapes)
                or (best is not None and len(agree) <= best.inliers)):
            continue
        best = Lattice(lat.homography, len(agree))
    return best


def _spanned(src: np.ndarray, dst: np.ndarray) -> Lattice:
    """The lattice mapping the cells' corners ``src`` (H x 6 x 2, lattice space) onto
    the hexagons' ``dst``: least squares, affine below four hexagons."""
    a, b = src.reshape(-1, 2), dst.reshape(-1, 2)
    if len(src) >= 4:
        hom, _ = cv2.findHomography(a, b)
        if hom is not None:
            return Lattice(hom, 0)
    design = np.hstack([a, np.ones((len(a), 1))])
    affine, *_ = np.linalg.lstsq(design, b, rcond=None)
    hom = np.eye(3)
    hom[:2, :] = affine.T
    return Lattice(hom, 0)


def _on_cells(lat: Lattice, shapes: list[np.ndarray], centres: np.ndarray,
              config: ScanConfig) -> list[int]:
    """The hexagons lying on ``lat``'s cells: centred within ``lattice.inlier_frac`` of a
    cell's centre and of a cell's size within 20 %."""
    _, res = _residuals(lat, centres)
    out = []
    for i in np.nonzero(res <= config.lattice.inlier_frac)[0]:
        if 0.8 <= outline_radius(lat.to_lattice(shapes[i])) <= 1.25:
            out.append(int(i))
    return out


def outline_radius(corners: np.ndarray) -> float:
    """The mean distance of an outline's corners from their centre (in its own units)."""
    return float(np.linalg.norm(corners - corners.mean(axis=0), axis=1).mean())


def _residuals(lat: Lattice, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    pts = lat.to_lattice(centres)
    cells = np.array([hex_round(*UNIT.to_fractional((x, y))) for x, y in pts], np.int64)
    ideal = np.array([UNIT.to_pixel(tuple(c)) for c in cells])
    return cells, np.linalg.norm(pts - ideal, axis=1)


def _score(lat: Lattice, centres: np.ndarray, config: ScanConfig) -> float:
    _, res = _residuals(lat, centres)
    return float(np.minimum(res, config.lattice.inlier_frac).sum())


def _refine(lat: Lattice, centres: np.ndarray, config: ScanConfig,
            rounds: int = 4) -> Lattice | None:
    """Grow from a local affine guess to a homography over all centres it explains."""
    for r in range(rounds):
        cells, res = _residuals(lat, centres)
        tol = config.lattice.inlier_frac * (1.6 if r == 0 else 1.0)
        ok = res < tol
        # One centre per cell.
        seen: dict[tuple[int, int], int] = {}
        for idx in np.nonzero(ok)[0]:
            key = (int(cells[idx][0]), int(cells[idx][1]))
            if key not in seen or res[idx] < res[seen[key]]:
                seen[key] = int(idx)
        sel = np.array(sorted(seen.values()), np.int64)
        if len(sel) < 3:
            return None
        src = np.array([UNIT.to_pixel(tuple(cells[i])) for i in sel])
        dst = centres[sel]
        if len(sel) >= 6:
            hom, _ = cv2.findHomography(src, dst, 0)
            if hom is None:
                return None
        else:
            aff, _ = cv2.estimateAffine2D(src, dst)
            if aff is None:
                return None
            hom = np.vstack([aff, [0, 0, 1]])
        lat = Lattice(np.asarray(hom, np.float64), len(sel))
    cells, res = _residuals(lat, centres)
    return Lattice(lat.homography, int(np.sum(res < config.lattice.inlier_frac)))


# --- Outline fit: the lattice whose hexagons best reproduce the map's silhouette ----

def _unit_samples(rings: int = 4) -> np.ndarray:
    """Points inside the unit flat-topped hexagon (lattice space), denser near the rim."""
    pts = [(0.0, 0.0)]
    for ring in range(1, rings + 1):
        rad = 0.96 * ring / rings
        n = 6 * ring
        for i in range(n):
            # Walk the hexagon perimeter of circumradius ``rad``.
            t = i / n * 6
            k = int(t)
            f = t - k
            a = (rad * math.cos(math.radians(60 * k)), rad * math.sin(math.radians(60 * k)))
            b = (rad * math.cos(math.radians(60 * (k + 1))),
                 rad * math.sin(math.radians(60 * (k + 1))))
            pts.append((a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f))
    return np.array(pts)


UNIT_SAMPLES = _unit_samples()
COARSE_SAMPLES = _unit_samples(2)


def soft_mask(mask: np.ndarray, radius: float, ramp_frac: float = 0.15) -> np.ndarray:
    """Float mask 0..1 that ramps over ``ramp_frac`` radius across the boundary."""
    inside = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    outside = cv2.distanceTransform(cv2.bitwise_not(mask), cv2.DIST_L2, 3)
    signed = inside - outside
    ramp = max(1.0, ramp_frac * radius)
    return np.clip(0.5 + signed / (2 * ramp), 0.0, 1.0).astype(np.float32)


def boundary_angle(mask: np.ndarray, aspect: float = 1.0) -> float:
    """Rotation (degrees in [-30, 30)) of the silhouette's hexagon sides.

    A flat-topped hexagon has sides at 0, 60 and 120 degrees; the histogram of the
    boundary's gradient directions folded modulo 60 peaks at the map's rotation.
    ``aspect`` < 1 says the image is squashed vertically by that factor (camera tilt);
    directions are unsquashed first.
    """
    m = cv2.GaussianBlur(mask.astype(np.float32), (5, 5), 0)
    gx = cv2.Sobel(m, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(m, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    sel = mag > 0.2 * mag.max()
    # Side direction is perpendicular to the gradient: (-gy, gx), then unsquash y.
    ang = np.degrees(np.arctan2(gx[sel] / aspect, -gy[sel]))
    w = mag[sel]
    folded = np.radians(ang * 6.0)  # period 60 degrees -> full circle
    c, s = float((w * np.cos(folded)).sum()), float((w * np.sin(folded)).sum())
    theta = math.degrees(math.atan2(s, c)) / 6.0
    return (theta + 30.0) % 60.0 - 30.0


def _cells_around(hom: np.ndarray, box: tuple[int, int, int, int], radius: float
                  ) -> np.ndarray:
    """Lattice cells whose centre maps inside ``box`` = (x0, y0, x1, y1) plus a margin."""
    bx0, by0, bx1, by1 = box
    inv = np.linalg.inv(hom)
    corners = np.array([[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]],
                       np.float64).reshape(-1, 1, 2)
    lat = cv2.perspectiveTransform(corners, inv).reshape(-1, 2)
    qr = np.array([UNIT.to_fractional((x, y)) for x, y in lat])
    qmin, rmin = np.floor(qr.min(axis=0)) - 2
    qmax, rmax = np.ceil(qr.max(axis=0)) + 2
    if (qmax - qmin) * (rmax - rmin) > 40000:
        return np.zeros((0, 2), np.int64)
    qs, rs = np.meshgrid(np.arange(qmin, qmax + 1), np.arange(rmin, rmax + 1))
    cells = np.stack([qs.ravel(), rs.ravel()], axis=1).astype(np.int64)
    centres = np.stack([1.5 * cells[:, 0], SQRT3 * (cells[:, 1] + cells[:, 0] / 2)], axis=1)
    img = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), hom).reshape(-1, 2)
    ok = ((img[:, 0] > bx0 - radius) & (img[:, 0] < bx1 + radius)
          & (img[:, 1] > by0 - radius) & (img[:, 1] < by1 + radius))
    return cells[ok]


def outline_cost(hom: np.ndarray, soft: np.ndarray, cells: np.ndarray,
                 samples: np.ndarray = UNIT_SAMPLES) -> tuple[float, np.ndarray]:
    """Mean disagreement between the silhouette and the union of occupied cells.

    Each cell is occupied when the silhouette covers most of it; the cost is how far
    the silhouette is from 0 (free cell) or 1 (occupied cell) at sample points.
    Returns the cost and the per-cell coverage.
    """
    err, area, cover = _cell_coverage(hom, soft, cells, samples)
    return _mismatched_area(err, area, cover), cover


def _cell_coverage(hom: np.ndarray, soft: np.ndarray, cells: np.ndarray,
                   samples: np.ndarray = UNIT_SAMPLES
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per cell (``outline_cost``): its disagreement with the silhouette, its image area
    and the share of it the silhouette covers; each cell's values depend on it alone."""
    centres = np.stack([1.5 * cells[:, 0], SQRT3 * (cells[:, 1] + cells[:, 0] / 2)], axis=1)
    pts = (centres[:, None, :] + samples[None, :, :]).reshape(-1, 1, 2)
    img = cv2.perspectiveTransform(pts, hom).reshape(-1, 2).astype(np.float32)
    h, w = soft.shape
    xs = np.clip(img[:, 0], 0, w - 1)
    ys = np.clip(img[:, 1], 0, h - 1)
    x0 = np.floor(xs).astype(np.int64)
    y0 = np.floor(ys).astype(np.int64)
    x1 = np.minimum(x0 + 1, w - 1)
    y1 = np.minimum(y0 + 1, h - 1)
    fx, fy = xs - x0, ys - y0
    flat = soft.reshape(-1)  # flat gathers: about twice as fast as indexing two axes
    top, bottom = y0 * w, y1 * w
    val = (flat[top + x0] * (1 - fx) * (1 - fy) + flat[top + x1] * fx * (1 - fy)
           + flat[bottom + x0] * (1 - fx) * fy + flat[bottom + x1] * fx * fy)
    val = val.reshape(len(cells), -1)
    cover = val.mean(axis=1)
    occ = cover > 0.5
    err = np.where(occ[:, None], 1.0 - val, val).mean(axis=1)
    # Weight each cell by its area in the image: the cost is a mismatched area.
    wgt = centres[:, 0] * hom[2, 0] + centres[:, 1] * hom[2, 1] + hom[2, 2]
    area = np.abs(np.linalg.det(hom) / np.maximum(np.abs(wgt), 1e-9) ** 3)
    return err, area, cover


def _mismatched_area(err: np.ndarray, area: np.ndarray, cover: np.ndarray) -> float:
    """``outline_cost`` from its cells' ``_cell_coverage``."""
    total = float((area * cover).sum())
    return float((err * area).sum() / max(total, 1e-9))


def _affine_offset_costs(base: np.ndarray, soft: np.ndarray, cells: np.ndarray,
                         offsets: np.ndarray) -> np.ndarray:
    """``outline_cost`` (coarse samples) of ``base`` shifted by each lattice offset, at
    once; ``base`` is affine so every cell has the same image area."""
    centres = np.stack([1.5 * cells[:, 0], SQRT3 * (cells[:, 1] + cells[:, 0] / 2)], axis=1)
    pts = (centres[:, None, :] + COARSE_SAMPLES[None, :, :]).reshape(1, -1, 2)
    pts = pts + offsets[:, None, :]  # O x (C*S) x 2
    img = pts @ base[:2, :2].T + base[:2, 2]
    h, w = soft.shape
    xs = np.clip(np.round(img[..., 0]).astype(np.int64), 0, w - 1)
    ys = np.clip(np.round(img[..., 1]).astype(np.int64), 0, h - 1)
    val = soft[ys, xs].reshape(len(offsets), len(cells), -1)
    cover = val.mean(axis=2)
    occ = cover > 0.5
    err = np.where(occ[:, :, None], 1.0 - val, val).mean(axis=2)
    return err.sum(axis=1) / np.maximum(cover.sum(axis=1), 1e-9)


def similarity(theta_deg: float, scale: float, tx: float, ty: float) -> np.ndarray:
    c, s = math.cos(math.radians(theta_deg)) * scale, math.sin(math.radians(theta_deg)) * scale
    return np.array([[c, -s, tx], [s, c, ty], [0.0, 0.0, 1.0]])


def fit_outline(view: MapView, config: ScanConfig = DEFAULT_CONFIG) -> list[Lattice]:
    """Candidate homographies whose lattice cells tile the map's silhouette, best first.

    A grid search over vertical squash, rotation, scale and offset (one cell's worth)
    gives approximate alignments (similarities with a squash); ``refine_by_seams``
    turns them into exact homographies.
    """
    mask, soft, box, radius = view.mask, view.soft, view.box, view.radius
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return []
    cx, cy = float(xs.mean()), float(ys.mean())
    tried: list[tuple[float, np.ndarray]] = []
    b1 = np.array(UNIT.to_pixel((1, 0)))
    b2 = np.array(UNIT.to_pixel((0, 1)))
    steps = config.lattice.outline_grid_steps
    grid = np.arange(steps) / steps
    gu, gv = np.meshgrid(grid, grid)
    offsets = gu.ravel()[:, None] * b1[None, :] + gv.ravel()[:, None] * b2[None, :]
    for aspect in config.lattice.outline_aspects:
        theta0 = boundary_angle(mask, aspect)
        squash = np.array([[1.0, 0, 0], [0, aspect, 0], [0, 0, 1.0]])
        for dtheta in config.lattice.outline_angles:
            for fscale in config.lattice.outline_scales:
                scale = radius * fscale / math.sqrt(aspect)
                base = np.array([[1.0, 0, cx], [0, 1.0, cy], [0, 0, 1.0]]) @ squash @ \
                    similarity(theta0 + dtheta, scale, 0.0, 0.0)
                cells = _cells_around(base, box, scale)
                if len(cells) == 0:
                    continue
                costs = _affine_offset_costs(base, soft, cells, offsets)
                for o in np.argsort(costs)[:3]:
                    off = offsets[o]
                    hom = base @ np.array([[1, 0, off[0]], [0, 1, off[1]], [0, 0, 1.0]])
                    tried.append((float(costs[o]), hom))
    if not tried:
        return []
    tried.sort(key=lambda t: t[0])
    starts: list[np.ndarray] = []
    for _, hom in tried:
        # Skip starts that are the same alignment as one already kept.
        c = hom @ np.array([0.0, 0.0, 1.0])
        c = c[:2] / c[2]
        if any(np.hypot(*(c - (k @ np.array([0.0, 0.0, 1.0]))[:2]
                          / (k @ np.array([0.0, 0.0, 1.0]))[2])) < 0.3 * radius
               for k in starts):
            continue
        starts.append(hom)
        if len(starts) >= config.lattice.outline_starts:
            break
    return [Lattice(hom, 0) for hom in starts]


def occupied(lat: Lattice, view: MapView, config: ScanConfig = DEFAULT_CONFIG
             ) -> list[tuple[int, int]]:
    """Cells of the lattice that the silhouette covers (coverage >= occupancy_min)."""
    cells, _, _, cover = _coverage(lat, view)
    return [(int(q), int(r)) for (q, r), c in zip(cells, cover, strict=True)
            if c >= config.lattice.occupancy_min]


def partly_covered(lat: Lattice, view: MapView, config: ScanConfig = DEFAULT_CONFIG
                   ) -> list[tuple[int, int]]:
    """Cells the silhouette covers only in part (``occupancy_rescue_min`` up to
    ``occupancy_min``): a tile in shadow or glare may lose some of its silhouette, so
    these are kept when they touch an occupied cell and show tile art."""
    cells, _, _, cover = _coverage(lat, view)
    return [(int(q), int(r)) for (q, r), c in zip(cells, cover, strict=True)
            if config.lattice.occupancy_rescue_min <= c < config.lattice.occupancy_min]


def _coverage(lat: Lattice, view: MapView
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The cells around the silhouette (``_cells_around``) and their ``_cell_coverage``
    (empty arrays when there are none)."""
    cells = _cells_around(lat.homography, view.box, view.radius)
    if len(cells) == 0:
        return cells, np.zeros(0), np.zeros(0), np.zeros(0)
    return (cells, *_cell_coverage(lat.homography, view.soft, cells))


# --- Local refinement: snap every cell to the seams around it, then RANSAC ----------

def boundary_map(image: np.ndarray, mask: np.ndarray, radius: float,
                 outside: bool = False) -> np.ndarray:
    """H x W x 2 float map: the lightness gradient (gx, gy), scaled so strong edges are
    about 1. Tile boundaries are long straight edges; ``oriented_score`` rewards
    gradient across a predicted side and penalises gradient along it, so the art's
    edges (which run every way) cancel out while seams and the silhouette add up.
    Zero beyond ``mask`` grown by two pixels unless ``outside``."""
    inside, beyond = boundary_maps(image, mask, radius)
    return beyond if outside else inside


def boundary_maps(image: np.ndarray, mask: np.ndarray, radius: float
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``boundary_map`` zero beyond the grown mask, and the same not zeroed: one
    gradient for both."""
    light = cv2.GaussianBlur(lightness_of(image), (0, 0), max(0.8, 0.03 * radius))
    gx = cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3)
    keep = cv2.dilate(mask, np.ones((5, 5), np.uint8)) > 0
    inside = np.hypot(gx[keep], gy[keep])
    top = max(float(np.percentile(inside, 95)) if inside.size else 1.0, 1e-6)
    whole = np.stack([gx, gy], axis=2) / top
    # Zeroed per channel before stacking: a mask over the stacked H x W x 2 array
    # costs several times the rest of the map.
    gx[~keep] = 0.0
    gy[~keep] = 0.0
    return np.stack([gx, gy], axis=2) / top, whole


def oriented_score(grad: np.ndarray, pts: np.ndarray, tangents: np.ndarray,
                   shifts: np.ndarray | None = None) -> np.ndarray:
    """Per point: |gradient across the side| - |gradient along it| (the leading shape
    of ``pts[..., 0]``, broadcast against ``shifts[..., 0]`` when given: the points
    moved by ``shifts``, never built as one array; ``tangents`` broadcast likewise)."""
    h, w = grad.shape[:2]
    xs = _pixel_index(pts[..., 0], None if shifts is None else shifts[..., 0], w)
    ys = _pixel_index(pts[..., 1], None if shifts is None else shifts[..., 1], h)
    # Flat gathers of (gx, gy) pairs read as one complex number each, and arithmetic in
    # the map's float type, in place: several times as fast as indexing two axes in
    # float64 (the hot loop of the lattice search).
    ys *= w
    ys += xs
    pairs = grad if grad.flags.c_contiguous else np.ascontiguousarray(grad)
    g = pairs.view(np.result_type(pairs.dtype, np.complex64)).reshape(-1)[ys]
    gx, gy = g.real, g.imag
    t = (tangents / np.maximum(np.linalg.norm(tangents, axis=-1, keepdims=True), 1e-9)
         ).astype(grad.dtype)
    tx, ty = t[..., 0], t[..., 1]
    along = gx * tx
    along += gy * ty
    np.abs(along, out=along)
    across = gy * tx
    across -= gx * ty
    np.abs(across, out=across)
    np.minimum(along, 1.5, out=along)
    np.minimum(across, 1.5, out=across)
    across -= along
    return across


def _pixel_index(coord: np.ndarray, shift: np.ndarray | None, size: int) -> np.ndarray:
    """``coord + shift`` rounded to the nearest pixel and clamped to ``[0, size)``."""
    out = np.add(coord, shift) if shift is not None else np.array(coord, np.float64)
    np.rint(out, out=out)
    index = out.astype(np.intp)
    np.clip(index, 0, size - 1, out=index)
    return index


def _outline_points(n_per_side: int = 6) -> np.ndarray:
    """Points along the unit hexagon's sides (lattice space, relative to its centre)."""
    pts = []
    for k in range(6):
        a = np.array([math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))])
        b = np.array([math.cos(math.radians(60 * (k + 1))),
                      math.sin(math.radians(60 * (k + 1)))])
        for t in np.linspace(0.15, 0.85, n_per_side):
            pts.append(a + (b - a) * t)
    return np.array(pts)


OUTLINE_POINTS = _outline_points()
OUTLINE_TANGENTS = np.repeat(np.array([
    (math.cos(math.radians(60 * (k + 1))) - math.cos(math.radians(60 * k)),
     math.sin(math.radians(60 * (k + 1))) - math.sin(math.radians(60 * k)))
    for k in range(6)]), len(OUTLINE_POINTS) // 6, axis=0)


def _project_outline(hom: np.ndarray, lat_centres: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray]:
    """Image points (C x P x 2) and side tangents of the outlines of cells at
    ``lat_centres`` under ``hom``."""
    pts = (lat_centres[:, None, :] + OUTLINE_POINTS[None, :, :]).reshape(-1, 1, 2)
    ahead = pts + 0.05 * np.tile(OUTLINE_TANGENTS, (len(lat_centres), 1)).reshape(-1, 1, 2)
    a = cv2.perspectiveTransform(pts, hom).reshape(len(lat_centres), -1, 2)
    b = cv2.perspectiveTransform(ahead, hom).reshape(len(lat_centres), -1, 2)
    return a, b - a


def refine_by_seams(lat: Lattice, view: MapView, config: ScanConfig = DEFAULT_CONFIG,
                    search_frac: float | None = None) -> Lattice:
    """Grow an approximate lattice into an exact one, ring by ring from the map's middle.

    Each round takes the occupied cells within a growing lattice distance of the
    middle cell, moves each one's outline to where the boundary map is strongest
    nearby, and fits one homography to the moved centres by RANSAC (cells that
    disagree are ignored). A local fit is accurate near the middle and extrapolates
    well enough to the next ring, so perspective is picked up progressively.
    Outlines move at most ``search_frac`` of the radius (``lattice.snap_search_frac``
    unless given).
    """
    radius = view.radius
    span = (config.lattice.snap_search_frac if search_frac is None else search_frac) * radius
    shifts = np.linspace(-span, span, config.lattice.snap_steps)
    sx, sy = np.meshgrid(shifts, shifts)
    offsets = np.stack([sx.ravel(), sy.ravel()], axis=1)  # S x 2
    middle = np.array([view.middle])
    hom = lat.homography
    best_j, cells = quality_and_cells(lat, view, config)  # ``hom``'s occupied cells
    tried: set[tuple[tuple[int, int], ...]] = set()  # cell sets already fitted from ``hom``
    for reach in config.lattice.snap_reach:
        cur = Lattice(hom, lat.inliers)
        if len(cells) < 3:
            break
        mid_lat = cur.to_lattice(middle)[0]
        anchor = hex_round(*UNIT.to_fractional((mid_lat[0], mid_lat[1])))
        near = [c for c in cells if _hex_distance(c, anchor) <= reach]
        if len(near) < 3:
            near = cells
        if tuple(near) in tried:
            continue  # the same cells from the same lattice: the same fit again
        tried.add(tuple(near))
        cell_arr = np.array(near, np.float64)
        lat_centres = np.stack([1.5 * cell_arr[:, 0],
                                SQRT3 * (cell_arr[:, 1] + cell_arr[:, 0] / 2)], axis=1)
        img_pts, tans = _project_outline(hom, lat_centres)
        centres_img = cv2.perspectiveTransform(lat_centres.reshape(-1, 1, 2), hom
                                               ).reshape(-1, 2)
        score = oriented_score(view.grad, img_pts[:, None, :, :], tans[:, None, :, :],
                               offsets[None, :, None, :]).mean(axis=2)  # C x S
        target = centres_img + offsets[score.argmax(axis=1)]
        new = _fit_points(lat_centres, target, config.lattice.snap_ransac_frac * radius)
        if new is None:
            continue
        if not plausible(new, radius, cells):
            continue
        j, new_cells = quality_and_cells(Lattice(new, 0), view, config)
        if j >= best_j:
            hom, best_j, cells = new, j, new_cells
            tried.clear()
        elif reach >= 99:
            break  # the whole map no longer improves
    return Lattice(hom, lat.inliers)


def plausible(hom: np.ndarray, radius: float, cells: list[tuple[int, int]]) -> bool:
    """A camera view of a table: every cell in front of the camera, cell sizes within
    a factor of 3 of each other and of the expected size."""
    if not cells or not np.all(np.isfinite(hom)):
        return False
    arr = np.array(cells, np.float64)
    centres = np.stack([1.5 * arr[:, 0], SQRT3 * (arr[:, 1] + arr[:, 0] / 2)], axis=1)
    w = centres[:, 0] * hom[2, 0] + centres[:, 1] * hom[2, 1] + hom[2, 2]
    if np.any(w * np.sign(hom[2, 2] or 1.0) <= 0):
        return False
    scale = np.sqrt(np.abs(np.linalg.det(hom) / np.abs(w) ** 3))
    return bool(scale.max() < 3.0 * scale.min()
                and 0.5 * radius < float(np.median(scale)) < 2.0 * radius)


def fit_quality(lat: Lattice, view: MapView, config: ScanConfig = DEFAULT_CONFIG) -> float:
    """How well a lattice explains the photo: boundary strength along the occupied
    cells' outlines minus the silhouette mismatch (higher is better)."""
    return quality_and_cells(lat, view, config)[0]


def quality_and_cells(lat: Lattice, view: MapView, config: ScanConfig = DEFAULT_CONFIG
                      ) -> tuple[float, list[tuple[int, int]]]:
    """``fit_quality`` and the ``occupied`` cells it is judged on, from one sampling of
    the silhouette (-inf and no cells when none is occupied)."""
    around, err, area, cover = _coverage(lat, view)
    keep = cover >= config.lattice.occupancy_min
    cells = [(int(q), int(r)) for q, r in around[keep]]
    if not cells:
        return -np.inf, []
    cost = _mismatched_area(err[keep], area[keep], cover[keep])
    return seam_score(lat, cells, view.grad) - cost, cells


def _hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _fit_points(src: np.ndarray, dst: np.ndarray, threshold: float) -> np.ndarray | None:
    """Homography (>= 8 points) or affine map (fewer) from lattice to image, by RANSAC."""
    if len(src) >= 8:
        hom, inl = cv2.findHomography(src, dst, cv2.RANSAC, threshold)
        if hom is not None and inl is not None and int(inl.sum()) >= 6:
            return np.asarray(hom, np.float64)
    if len(src) >= 3:
        aff, inl = cv2.estimateAffine2D(src, dst, method=cv2.RANSAC,
                                        ransacReprojThreshold=threshold)
        if aff is not None:
            return np.vstack([aff, [0.0, 0.0, 1.0]])
    return None


def seam_score(lat: Lattice, cells: list[tuple[int, int]], bmap: np.ndarray) -> float:
    """Mean boundary-map value along the outlines of ``cells``: high when the lattice
    lies on the seams."""
    if not cells:
        return 0.0
    cell_arr = np.array(cells, np.float64)
    lat_centres = np.stack([1.5 * cell_arr[:, 0],
                            SQRT3 * (cell_arr[:, 1] + cell_arr[:, 0] / 2)], axis=1)
    img_pts, tans = _project_outline(lat.homography, lat_centres)
    return float(oriented_score(bmap, img_pts, tans).mean())


def deepest_point(mask: np.ndarray) -> tuple[float, float]:
    """The point of the silhouette's largest part farthest from the table (inside even
    for a U shape; never on a box lid or score pad beside a larger map)."""
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n > 2:
        biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        mask = np.where(labels == biggest, 255, 0).astype(np.uint8)
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    y, x = np.unravel_index(int(np.argmax(dist)), dist.shape)
    return (float(x), float(y))


def fit_local(view: MapView, config: ScanConfig = DEFAULT_CONFIG,
              scales: tuple[float, ...] | None = None) -> list[Lattice]:
    """Candidate lattices that put cell outlines on the seams near the map's middle.

    Near one point a camera's perspective is almost affine, so a brute-force search
    over rotation, size, vertical squash and offset of the cells within two steps of
    the deepest point of the silhouette finds the local lattice; ``refine_by_seams``
    then grows it over the whole map.
    """
    mx, my = view.middle
    radius, bmap = view.radius, view.grad
    near = np.array([(q, r) for q in range(-2, 3) for r in range(-2, 3)
                     if abs(q + r) <= 2], np.float64)
    lat_c = np.stack([1.5 * near[:, 0], SQRT3 * (near[:, 1] + near[:, 0] / 2)], axis=1)
    pts = (lat_c[:, None, :] + OUTLINE_POINTS[None, ::2, :]).reshape(-1, 2)  # N x 2
    tan = np.tile(OUTLINE_TANGENTS[::2], (len(lat_c), 1))  # N x 2
    b1 = np.array(UNIT.to_pixel((1, 0)))
    b2 = np.array(UNIT.to_pixel((0, 1)))
    steps = config.lattice.local_offset_steps
    grid = np.arange(steps) / steps
    gu, gv = np.meshgrid(grid, grid)
    offsets = gu.ravel()[:, None] * b1[None, :] + gv.ravel()[:, None] * b2[None, :]
    moved = pts[None, :, :] + offsets[:, None, :]  # O x N x 2
    found: list[tuple[float, np.ndarray]] = []
    for aspect in config.lattice.outline_aspects:
        squash = np.array([[1.0, 0.0], [0.0, aspect]])
        for theta in np.arange(-30.0, 30.0, config.lattice.local_angle_step):
            for fscale in scales or config.lattice.local_scales:
                scale = radius * fscale / math.sqrt(aspect)
                c, s_ = math.cos(math.radians(theta)), math.sin(math.radians(theta))
                lin = squash @ np.array([[c, -s_], [s_, c]]) * scale
                img = moved @ lin.T + (mx, my)
                score = oriented_score(bmap, img, (tan @ lin.T)[None, :, :]).mean(axis=1)
                o = int(np.argmax(score))
                hom = np.eye(3)
                hom[:2, :2] = lin
                hom[:2, 2] = lin @ offsets[o] + (mx, my)
                found.append((float(score[o]), hom))
    found.sort(key=lambda t: -t[0])
    out: list[Lattice] = []
    for _, hom in found:
        if len(out) >= config.lattice.outline_starts:
            break
        if any(np.allclose(hom[:2, :2], k.homography[:2, :2], atol=0.05 * radius)
               for k in out):
            continue
        out.append(Lattice(hom, 0))
    return out


def snap_cells(lat: Lattice, view: MapView, cells: list[tuple[int, int]],
               config: ScanConfig = DEFAULT_CONFIG) -> dict[tuple[int, int], np.ndarray]:
    """Image corners of each cell, moved onto its own tile's outline.

    Real tiles never lie exactly on a lattice (they are pushed about, turned a little,
    and one homography cannot follow a bent mat), so each cell's outline is shifted
    (up to ``snap_search_frac`` of the cell's own radius) and scaled (``snap_scales``) to where
    the boundary map agrees best with all six sides. A cell keeps the lattice's
    corners unless the move gains at least ``snap_min_gain`` in ``oriented_score``.
    """
    if not cells:
        return {}
    reach = config.lattice.snap_search_frac
    shifts = np.linspace(-reach, reach, config.lattice.snap_steps)
    sx, sy = np.meshgrid(shifts, shifts)
    unit_offsets = np.stack([sx.ravel(), sy.ravel()], axis=1)  # S x 2, in cell radii
    cell_arr = np.array(cells, np.float64)
    lat_centres = np.stack([1.5 * cell_arr[:, 0],
                            SQRT3 * (cell_arr[:, 1] + cell_arr[:, 0] / 2)], axis=1)
    img_pts, tans = _project_outline(lat.homography, lat_centres)  # C x P x 2
    centres = cv2.perspectiveTransform(lat_centres.reshape(-1, 1, 2), lat.homography
                                       ).reshape(-1, 2)
    sizes = np.linalg.norm(img_pts - centres[:, None, :], axis=2).mean(axis=1) * 1.1  # C
    offsets = unit_offsets[None, :, :] * sizes[:, None, None]  # C x S x 2
    base = oriented_score(view.grad, img_pts, tans).mean(axis=1)  # C
    best = base.copy()
    best_move = np.zeros((len(cells), 3))  # dx, dy, scale
    best_move[:, 2] = 1.0
    for scale in config.lattice.snap_scales:
        pts = centres[:, None, :] + scale * (img_pts - centres[:, None, :])
        score = oriented_score(view.grad, pts[:, None, :, :], tans[:, None, :, :],
                               offsets[:, :, None, :]).mean(axis=2)  # C x S
        k = score.argmax(axis=1)
        top = score[np.arange(len(cells)), k]
        better = top > best
        best[better] = top[better]
        chosen = offsets[np.arange(len(cells)), k]
        best_move[better] = np.column_stack([chosen[better], np.full(better.sum(), scale)])
    out: dict[tuple[int, int], np.ndarray] = {}
    for i, cell in enumerate(cells):
        corners = lat.cell_corners(cell)
        if best[i] - base[i] >= config.lattice.snap_min_gain:
            dx, dy, scale = best_move[i]
            corners = centres[i] + scale * (corners - centres[i]) + np.array([dx, dy])
        out[cell] = corners
    return out


# --- The tile size from the seams' periodicity ---------------------------------------

@dataclass(frozen=True)
class Period:
    """The lattice as the map's seams repeat it: image vectors ``a`` and ``b`` from a
    cell to two neighbours 60 degrees apart in lattice space (``a x b > 0``), and the
    ``contrast`` of the edge autocorrelation at the lattice's translations over the
    points between them (``seam_period``). ``coarse``: another lattice of another size
    repeats about as strongly and neither holds the other's translations, so both are
    sublattices of the map's, which is finer still."""

    a: np.ndarray
    b: np.ndarray
    contrast: float
    coarse: bool = False

    @property
    def radius(self) -> float:
        """The circumradius of a cell of the same image area."""
        cross = abs(float(self.a[0] * self.b[1] - self.a[1] * self.b[0]))
        return math.sqrt(cross / (1.5 * SQRT3))

    def linear(self) -> np.ndarray:
        """The 2 x 2 map from lattice space to the image, of the six equivalent ones the
        one least rotated (edge 0 nearest the photo's top)."""
        best, best_turn = np.eye(2), np.inf
        dst = np.array([self.a, self.b]).T
        for k in range(6):
            src = np.array([NEIGHBOUR_VECTORS[k], NEIGHBOUR_VECTORS[(k + 1) % 6]]).T
            lin = dst @ np.linalg.inv(src)
            turn = abs(math.degrees(math.atan2(lin[1, 0] - lin[0, 1], lin[0, 0] + lin[1, 1])))
            if turn < best_turn:
                best, best_turn = lin, turn
        return best


_SHELLS = np.array([(i, j) for i in range(-2, 3) for j in range(-2, 3)
                    if (i, j) != (0, 0) and max(abs(i), abs(j), abs(i - j)) <= 2], np.float64)
"""Lattice translations (in units of a and b) of the first two shells."""
_BETWEEN = np.array([(i / k, j / k) for k in (2, 3) for i in range(k + 1) for j in range(k + 1)
                     if i % k or j % k], np.float64)
"""Halves and thirds of them: lattice points of the lattices 2 and 3 times finer (and
of the finer lattices rotated 30 degrees), where a true lattice's autocorrelation is low."""


def edge_autocorrelation(image: np.ndarray, mask: np.ndarray, scale: float = 0.5,
                         saturation: float = 60.0
                         ) -> tuple[np.ndarray, tuple[int, int], float]:
    """Autocorrelation of the edge orientation field inside ``mask``, high-passed.

    Each pixel's lightness gradient as a doubled-angle complex number (an edge and its
    reverse alike, magnitude clipped at the 95th percentile, weighted down where the
    surroundings are less saturated than ``saturation``): edges repeated at a lag
    with the same direction add up. The map's seams repeat at every lattice translation,
    the art (different on every tile) does not. Normalised by the mask's own overlap at
    each lag and by the zero lag; each ring of lags' mean is subtracted.
    Computed at ``scale`` of ``image``; returns the map, the zero lag's index (x, y) and
    the scale.
    """
    bx, by, bw, bh = cv2.boundingRect(mask)
    x0, x1, y0, y1 = bx, bx + bw, by, by + bh
    lab = lab_of(image)[y0:y1, x0:x1, 0].astype(np.float32)
    size = (max(8, int(round((x1 - x0) * scale))), max(8, int(round((y1 - y0) * scale))))

    def saturation_of_region() -> np.ndarray:
        # Tile art is coloured; grey or patterned cloth the silhouette took in is not.
        hsv = cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2HSV)[:, :, 1].astype(np.float32)
        out: np.ndarray = cv2.resize(cv2.GaussianBlur(hsv, (0, 0), 4.0), size,
                                     interpolation=cv2.INTER_AREA)
        return out

    saturated = Background(saturation_of_region, "region-saturation")
    light = cv2.resize(cv2.GaussianBlur(lab, (0, 0), 1.0), size, interpolation=cv2.INTER_AREA)
    region = cv2.dilate(mask[y0:y1, x0:x1], np.ones((9, 9), np.uint8))
    m = cv2.resize(region, size, interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    h, w = m.shape
    big_h, big_w = cv2.getOptimalDFTSize(2 * h), cv2.getOptimalDFTSize(2 * w)

    def correlate(values: np.ndarray) -> np.ndarray:
        padded = np.zeros((big_h, big_w, values.shape[2]), np.float32)
        padded[:h, :w] = values
        spec = cv2.dft(padded, flags=cv2.DFT_COMPLEX_OUTPUT if values.shape[2] == 1
                       else cv2.DFT_COMPLEX_INPUT | cv2.DFT_COMPLEX_OUTPUT)
        power = cv2.mulSpectrums(spec, spec, 0, conjB=True)
        out = cv2.idft(power, flags=cv2.DFT_COMPLEX_OUTPUT | cv2.DFT_SCALE)[:, :, 0]
        return np.fft.fftshift(out)

    # the mask's own overlap at each lag, in a thread while the edges are measured
    overlapping = Background(lambda: correlate(m[:, :, None]), "mask-overlap")
    gx = cv2.Sobel(light, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(light, cv2.CV_32F, 0, 1)
    mag = np.hypot(gx, gy)
    inside = mag[m > 0.5]
    top = float(np.percentile(inside, 95)) if inside.size else 1.0
    # (gx + i gy)^2 / |g|^2 scaled to the clipped magnitude, as two float32 channels.
    weight = np.minimum(mag, top) * m / np.maximum(mag * mag, 1e-6)
    weight = weight * np.clip(saturated.result() / saturation, 0.0, 1.0)
    z = np.dstack([(gx * gx - gy * gy) * weight, 2.0 * gx * gy * weight]).astype(np.float32)
    auto = correlate(z)
    overlap = overlapping.result()
    auto = auto / np.maximum(overlap, 0.1 * float(overlap.max()))
    centre = (big_w // 2, big_h // 2)
    auto = (auto / max(float(auto[centre[1], centre[0]]), 1e-9)).astype(np.float32)
    # The art's own correlation decays with the lag about alike in every direction:
    # subtract the mean over each ring of lags, and smooth a little (hand-laid tiles
    # spread each lattice peak over a few pixels).
    ring, counts = _lag_rings(auto.shape[0], auto.shape[1])
    sums = np.bincount(ring.ravel(), auto.ravel())
    auto = auto - (sums / np.maximum(counts, 1))[ring].astype(np.float32)
    auto = cv2.GaussianBlur(auto, (0, 0), 1.0)
    return auto, centre, scale


@lru_cache(maxsize=8)
def _lag_rings(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Each lag's ring (its rounded distance from the zero lag at (w // 2, h // 2)) and
    the number of lags in every ring, for an h x w autocorrelation (read-only)."""
    ring = np.round(np.hypot(np.arange(w) - w // 2,
                             (np.arange(h) - h // 2)[:, None])).astype(np.int64)
    counts = np.bincount(ring.ravel())
    ring.setflags(write=False)
    counts.setflags(write=False)
    return ring, counts


def _sample(auto: np.ndarray, centre: tuple[int, int], lags: np.ndarray) -> np.ndarray:
    """Bilinear values of ``auto`` at ``lags`` (... x 2) from ``centre``; NaN outside."""
    h, w = auto.shape
    x = centre[0] + lags[..., 0]
    y = centre[1] + lags[..., 1]
    ok = (x >= 0) & (x < w - 1) & (y >= 0) & (y < h - 1)
    x, y = np.clip(x, 0, w - 1.001), np.clip(y, 0, h - 1.001)
    x0, y0 = np.floor(x).astype(np.int64), np.floor(y).astype(np.int64)
    fx, fy = x - x0, y - y0
    v = (auto[y0, x0] * (1 - fx) * (1 - fy) + auto[y0, x0 + 1] * fx * (1 - fy)
         + auto[y0 + 1, x0] * (1 - fx) * fy + auto[y0 + 1, x0 + 1] * fx * fy)
    return np.where(ok, v, np.nan)


def seam_period(image: np.ndarray, mask: np.ndarray, config: ScanConfig = DEFAULT_CONFIG
                ) -> Period | None:
    """The lattice the seams inside ``mask`` repeat, or None when nothing repeats.

    Candidate pairs of neighbour vectors come from the strongest peaks of
    ``edge_autocorrelation`` (``_scored_pairs``). Of the pairs scoring within
    ``period_fine_share`` of the best, the finest that holds the best one's
    translations wins (a coarser lattice's translations are also the finer one's; held
    to within ``period_holds_slack`` per unit of their coordinates in the finer one).
    None when the best contrast is below ``period_min_contrast``. Of those pairs, one
    whose size is to the winner's as two sublattices' of a finer lattice
    (``_SUBLATTICE_PAIRS``, within 3 %) and that neither holds the winner's translations
    nor is held by it makes the winner ``Period.coarse``.
    """
    return seam_periods(image, mask, config, (config.lattice.period_peaks,))[0]


def seam_periods(image: np.ndarray, mask: np.ndarray, config: ScanConfig,
                 peaks: tuple[int, ...]) -> list[Period | None]:
    """``seam_period`` with the candidates paired from each count of the strongest
    peaks in ``peaks`` (one autocorrelation for all)."""
    scored = _scored_pairs(image, mask, config, peaks)
    return [_period_of(found, scored, config) for found in scored.ranked]


def _period_of(found: list[tuple[float, np.ndarray, np.ndarray]], scored: _Scored,
               config: ScanConfig) -> Period | None:
    """``seam_period``'s choice among the candidate lattices ``found`` (best first, in
    the autocorrelation's pixels at ``scored.scale``)."""
    if not found:
        return None
    top, a, b = found[0]
    if top < config.lattice.period_min_contrast:
        return None
    best = (top, a, b)
    big = np.array([a, b]).T
    strong = [p for p in found[1:] if p[0] >= config.lattice.period_fine_share * top]
    for score, fa, fb in strong:
        fine = np.array([fa, fb]).T
        ratio = abs(np.linalg.det(big) / np.linalg.det(fine))
        if not 1.5 < ratio < 50.0 or abs(np.linalg.det(fine)) >= abs(
                np.linalg.det(np.array([best[1], best[2]]).T)):
            continue
        if _holds(fine, big, config):
            best = (score, fa, fb)
    if config.lattice.period_derived_finer:
        best = _finest_derived(best, config.lattice.period_derived_share, scored)
    score, a, b = best
    chosen = np.array([a, b]).T
    area = abs(np.linalg.det(chosen))
    coarse = False
    for _, oa, ob in strong:
        other = np.array([oa, ob]).T
        ratio = abs(np.linalg.det(other)) / area
        sizes = math.sqrt(max(ratio, 1 / ratio))
        if min(abs(sizes / q - 1.0) for q in _SUBLATTICE_PAIRS) > 0.03:
            continue
        finer, coarser = (other, chosen) if ratio < 1 else (chosen, other)
        if not _holds(finer, coarser, config):
            coarse = True
            break
    return Period(a / scored.scale, b / scored.scale, score, coarse)


_FINER_OF_SUBLATTICE = tuple(np.linalg.inv(np.array(m, np.float64).T) for m in (
    ((3, 0), (0, 3)),    # 3
    ((2, -1), (1, 3)),   # sqrt 7, turned one way
    ((1, -2), (2, 3)),   # sqrt 7, turned the other
    ((2, 0), (0, 2)),    # 2
    ((1, -1), (1, 2)),   # sqrt 3 (turned 30 degrees)
))
"""For each of the tiles' coarser hexagonal sublattices, finest first (columns: its
neighbour vectors ``a`` and ``b`` in units of the tiles' ``u`` and ``v``, ``a = u + v``,
``b = 2v - u`` for sqrt 3), the 2 x 2 map from the sublattice's vectors (rows a, b) to
the tiles'."""


def _finest_derived(best: tuple[float, np.ndarray, np.ndarray], share: float,
                    scored: _Scored) -> tuple[float, np.ndarray, np.ndarray]:
    """``best``, or the finest lattice of which ``best`` is a coarser sublattice
    (``_FINER_OF_SUBLATTICE``) that scores at least as well (``_contrast``) and whose
    own points (those of its first two shells that are not ``best``'s translations)
    repeat the seams: their mean autocorrelation reaches ``share`` of the mean at
    ``best``'s first two shells. Its vectors are exact fractions of ``best``'s, where
    the peaks may not be: on a sparse map the tiles' own neighbour vectors show only
    weak, displaced peaks, no pair of which held ``best``. (Measured on 10 maps whose
    period was a sublattice's: the tiles' lattice scored 0.98-1.31 times ``best``
    (below 1 once: that map is left to ``scan._finer``), its own points 0.54-1.24;
    where the period was the tiles' own, small maps of 5-8 tiles and patterned cloths
    included, no finer lattice passed both: scores up to 0.9 times, own points up to
    0.59.) None finer than a tile may be (``scored.shortest``)."""
    top, a, b = best
    base = np.array([a, b])
    own = float(_finite_mean(_sample(scored.auto, scored.centre, _SHELLS @ base)))
    if not own > 0:
        return best
    inverse = np.linalg.inv(base)
    for m in _FINER_OF_SUBLATTICE:
        fine = m @ base
        if float(np.hypot(fine[:, 0], fine[:, 1]).min()) < scored.shortest:
            continue
        points = _SHELLS @ fine
        coords = points @ inverse
        its_own = np.abs(coords - np.round(coords)).max(axis=1) > 0.05
        repeat = float(_finite_mean(_sample(scored.auto, scored.centre, points[its_own])))
        if not (np.isfinite(repeat) and repeat >= share * own):
            continue
        score = _contrast(scored.auto, scored.centre, fine)
        if score >= top:
            return score, fine[0], fine[1]
    return best


_SUBLATTICE_PAIRS = (math.sqrt(7 / 3), math.sqrt(7) / 2, 1.5)
"""Size ratios of two of the tiles' coarser sublattices (sqrt 3, 2, sqrt 7 and 3 times
the tiles' size) neither of which holds the other: sqrt 7 to sqrt 3, sqrt 7 to 2, 3 to
2. Not 2 to sqrt 3 (1.15) nor 3 to sqrt 7 (1.13): a tilted camera makes the pairs of one
lattice differ that much."""


def _holds(fine: np.ndarray, big: np.ndarray, config: ScanConfig) -> bool:
    """Whether the lattice of columns ``fine`` holds the translations of ``big`` (within
    ``lattice.period_holds_slack`` per unit of their coordinates in it, at least 0.12)."""
    coords = np.linalg.solve(fine, big)
    whole = np.round(coords)
    slack = max(0.12, config.lattice.period_holds_slack * float(np.abs(whole).max()))
    return bool(np.abs(coords - whole).max() < slack)


def faint_periods(image: np.ndarray, mask: np.ndarray, config: ScanConfig = DEFAULT_CONFIG
                  ) -> list[Period]:
    """Where ``seam_period`` finds nothing, the sizes the seams still hint at: the best
    pairs of ``_scored_pairs`` of distinct cell sizes (more than 10 % apart), at most
    ``period_faint_count``, each scoring at least ``period_weak_contrast`` or
    ``period_faint_share`` of the best (wood grain or a cloth's weave can outscore a
    faint map's seams at a multiple of the tile size). Candidates, not a decision."""
    lat_cfg = config.lattice
    scored = _scored_pairs(image, mask, config, (lat_cfg.period_peaks,))
    (found,), scale = scored.ranked, scored.scale
    if not found or found[0][0] < lat_cfg.period_weak_contrast:
        return []
    floor = min(lat_cfg.period_weak_contrast, lat_cfg.period_faint_share * found[0][0])
    out: list[Period] = []
    for score, a, b in found:
        if score < floor or len(out) >= lat_cfg.period_faint_count:
            break
        period = Period(a / scale, b / scale, score)
        if all(abs(period.radius / o.radius - 1.0) > 0.1 for o in out):
            out.append(period)
    return out


_Pairs = list[tuple[float, np.ndarray, np.ndarray]]
"""Candidate lattices, best first: contrast and two neighbour vectors."""


class _Scored(NamedTuple):
    """``_scored_pairs``'s candidates for each count of peaks, and what scored them:
    the autocorrelation, its zero lag, its scale and the shortest neighbour vector a
    tile may have in it."""

    ranked: list[_Pairs]
    scale: float
    auto: np.ndarray
    centre: tuple[int, int]
    shortest: float


def _scored_pairs(image: np.ndarray, mask: np.ndarray, config: ScanConfig,
                  peaks: tuple[int, ...]) -> _Scored:
    """Candidate lattices of the seams inside ``mask``, best first, for each count of
    peaks in ``peaks``, and the scale they are measured at: pairs of neighbour vectors
    from that many of the strongest peaks of
    ``edge_autocorrelation`` (lengths within ``period_radius_range`` of a plausible
    tile, at most 1.3 apart, 45-75 degrees between them: a camera tilted up to 40
    degrees squashes 60 that far; a square pattern's sides and diagonal are 1.41
    apart), each scored by its contrast: the mean autocorrelation at its first two
    shells of translations minus that at their halves and thirds (where the lattices
    two and three times finer, and those turned 30 degrees, have points), so a finer
    lattice than the map's pays for its empty points and a coarser one for the points
    it leaves out. The vectors are in the autocorrelation's pixels (divide by the scale
    for the image's)."""
    if cv2.countNonZero(mask) < 64:
        return _Scored([[] for _ in peaks], 1.0, np.zeros((1, 1), np.float32), (0, 0), 0.0)
    lat_cfg = config.lattice
    auto, centre, scale = edge_autocorrelation(image, mask, lat_cfg.period_scale,
                                               lat_cfg.period_saturation)
    lo, hi = (v * SQRT3 * scale * max(image.shape[:2]) for v in lat_cfg.period_radius_range)
    # A lag more than half the map's narrow side rests on too few pixels.
    _, _, bw, bh = cv2.boundingRect(mask)
    hi = min(hi, 0.5 * scale * min(bw, bh))
    peak = (auto >= cv2.dilate(auto, np.ones((3, 3), np.uint8))) & (auto > 0)
    py, px = np.nonzero(peak)
    lags = np.stack([px - centre[0], py - centre[1]], axis=1).astype(np.float64)
    dist = np.hypot(lags[:, 0], lags[:, 1])
    half = (lags[:, 1] > 0) | ((lags[:, 1] == 0) & (lags[:, 0] > 0))
    sel = (dist > lo) & (dist < hi) & half
    lags, value = lags[sel], auto[py[sel], px[sel]]
    if len(lags) < 2:
        return _Scored([[] for _ in peaks], scale, auto, centre, lo)
    ranked = lags[np.argsort(-value)]
    return _Scored([_pairs(auto, centre, ranked[:n]) for n in peaks], scale, auto, centre, lo)


def _pairs(auto: np.ndarray, centre: tuple[int, int], lags: np.ndarray) -> _Pairs:
    """``_scored_pairs`` of the peaks ``lags`` (rows, in the autocorrelation's pixels)."""
    lags = np.concatenate([lags, -lags])
    length = np.hypot(lags[:, 0], lags[:, 1])
    cross = lags[:, None, 0] * lags[None, :, 1] - lags[:, None, 1] * lags[None, :, 0]
    ratio = length[None, :] / length[:, None]
    cos = (lags @ lags.T) / (length[:, None] * length[None, :])
    first, second = np.nonzero((cross > 0) & (1 / 1.3 < ratio) & (ratio < 1.3)
                               & (math.cos(math.radians(75)) <= cos)
                               & (cos <= math.cos(math.radians(45))))
    contrast = _contrasts(auto, centre, np.stack([lags[first], lags[second]], axis=1))
    kept = np.flatnonzero(np.isfinite(contrast))
    kept = kept[np.argsort(-contrast[kept], kind="stable")]
    return [(float(contrast[k]), lags[first[k]], lags[second[k]]) for k in kept]


def _contrast(auto: np.ndarray, centre: tuple[int, int], basis: np.ndarray) -> float:
    """The mean autocorrelation at the first two shells of the lattice of neighbour
    vectors ``basis`` (rows, in the autocorrelation's pixels) minus that at their halves
    and thirds; NaN where they fall outside."""
    return float(_contrasts(auto, centre, basis[None])[0])


def _contrasts(auto: np.ndarray, centre: tuple[int, int], bases: np.ndarray) -> np.ndarray:
    """``_contrast`` of each of the bases ``bases`` (P x 2 x 2) at once."""
    on = _finite_mean(_sample(auto, centre, np.einsum("sk,pkd->psd", _SHELLS, bases)))
    off = _finite_mean(_sample(auto, centre, np.einsum("sk,pkd->psd", _BETWEEN, bases)))
    return np.asarray(on - off)


def _finite_mean(values: np.ndarray) -> np.ndarray:
    """The mean over the last axis of the values that are not NaN (NaN when none is)."""
    ok = ~np.isnan(values)
    with np.errstate(invalid="ignore"):
        return np.asarray(np.where(ok, values, 0.0).sum(axis=-1) / ok.sum(axis=-1))


def table_repeats(image: np.ndarray, mask: np.ndarray, period: Period,
                  config: ScanConfig = DEFAULT_CONFIG) -> bool:
    """Whether the table around ``mask`` repeats ``period`` as the seams inside it do:
    its contrast (as ``seam_period`` scores it) over a band of the table
    (``lattice.period_table_band`` tile radii outside the silhouette, measured where a
    tile's radius is ``lattice.period_table_radius_px`` pixels) reaches
    ``lattice.period_table_share`` of the period's own. A map's seams stop at its rim;
    a checkerboard cloth goes on under it and around. A hint, not a verdict: a cloth's
    fine checks also score at a lattice of the tiles' size whose points happen to fall
    near theirs."""
    lat_cfg = config.lattice
    if lat_cfg.period_table_share <= 0:
        return False
    near, far = (f * period.radius for f in lat_cfg.period_table_band)
    away = cv2.distanceTransform(cv2.bitwise_not(mask), cv2.DIST_L2, 3)
    band = ((away > near) & (away < far)).astype(np.uint8) * 255
    if cv2.countNonZero(band) < 64:
        return False
    scale = min(lat_cfg.period_scale, lat_cfg.period_table_radius_px / period.radius)
    auto, centre, scale = edge_autocorrelation(image, band, scale, lat_cfg.period_saturation)
    contrast = _contrast(auto, centre, np.array([period.a, period.b]) * scale)
    return bool(np.isfinite(contrast)
                and contrast >= lat_cfg.period_table_share * period.contrast)


def fit_period(view: MapView, period: Period, config: ScanConfig = DEFAULT_CONFIG
               ) -> list[Lattice]:
    """Lattices with the linear part of ``period`` at the offsets (a grid over one cell)
    that put the outlines of all cells whose centre the silhouette covers on the seams
    (best first, at most ``outline_starts``, distinct)."""
    lin = period.linear()
    base = np.eye(3)
    base[:2, :2] = lin
    base[:2, 2] = view.middle
    cells = _cells_around(base, view.box, view.radius)
    if len(cells) == 0:
        return []
    lat_c = np.stack([1.5 * cells[:, 0], SQRT3 * (cells[:, 1] + cells[:, 0] / 2)], axis=1)
    b1 = np.array(UNIT.to_pixel((1, 0)))
    b2 = np.array(UNIT.to_pixel((0, 1)))
    steps = 2 * config.lattice.local_offset_steps
    grid = np.arange(steps) / steps
    gu, gv = np.meshgrid(grid, grid)
    offsets = gu.ravel()[:, None] * b1[None, :] + gv.ravel()[:, None] * b2[None, :]
    centres = (lat_c[None, :, :] + offsets[:, None, :]) @ lin.T + view.middle  # O x C x 2
    h, w = view.mask.shape
    xs = np.clip(np.round(centres[..., 0]).astype(np.int64), 0, w - 1)
    ys = np.clip(np.round(centres[..., 1]).astype(np.int64), 0, h - 1)
    inside = view.mask[ys, xs] > 0  # O x C
    outline = OUTLINE_POINTS[::2] @ lin.T  # P x 2
    tangents = OUTLINE_TANGENTS[::2] @ lin.T
    pts = centres[:, :, None, :] + outline[None, None, :, :]  # O x C x P x 2
    side = oriented_score(view.grad, pts, tangents[None, None, :, :]).mean(axis=2)
    score = (side * inside).sum(axis=1) / np.maximum(inside.sum(axis=1), 1)
    out: list[Lattice] = []
    for o in np.argsort(-score):
        hom = base.copy()
        hom[:2, 2] = lin @ offsets[o] + view.middle
        lat = Lattice(hom, 0)
        if any(_same_alignment(lat, k) for k in out):
            continue
        out.append(lat)
        if len(out) >= config.lattice.outline_starts:
            break
    return out


def _same_alignment(one: Lattice, other: Lattice) -> bool:
    origin = other.to_lattice(one.to_image(np.zeros((1, 2))))[0]
    cell = hex_round(*UNIT.to_fractional((origin[0], origin[1])))
    return bool(np.hypot(*(origin - np.array(UNIT.to_pixel(cell)))) < 0.3)


def side_evidence(view: MapView, corners: np.ndarray) -> np.ndarray:
    """Per side of a cell (six image ``corners``, side k from corner k to k + 1): the
    mean ``oriented_score`` along it, high where a seam or the map's edge lies."""
    t = np.linspace(0.15, 0.85, 6)
    a = corners[:, None, :]
    b = np.roll(corners, -1, axis=0)[:, None, :]
    pts = a + (b - a) * t[None, :, None]  # 6 x 6 x 2
    return oriented_score(view.grad, pts, (b - a)).mean(axis=1)


def inner_seams_by_direction(lat: Lattice, view: MapView, cells: list[tuple[int, int]]
                             ) -> list[np.ndarray]:
    """``side_evidence`` of the sides two of ``cells`` share, one array per direction of
    side (towards neighbours 0, 1 and 2): tiles laid side by side show seams every way,
    the ruled lines of a score pad or a cloth's stripes one way only."""
    taken = set(cells)
    out: list[list[float]] = [[], [], []]
    for cell in cells:
        corners = lat.cell_corners(cell)
        sides = None
        for e in range(3):
            dq, dr = NEIGHBOUR_DELTAS[e]
            if (cell[0] + dq, cell[1] + dr) in taken:
                if sides is None:
                    sides = side_evidence(view, corners)
                out[e].append(float(sides[SIDE_OF_EDGE[e]]))
    return [np.array(v) for v in out]


def inner_seams(lat: Lattice, view: MapView, cells: list[tuple[int, int]]) -> np.ndarray:
    """``side_evidence`` of every side two of ``cells`` share (each once): a map's seams
    show there, the art inside one tile mostly does not."""
    taken = set(cells)
    out = []
    for cell in cells:
        corners = lat.cell_corners(cell)
        for e in range(3):  # sides towards neighbours 0, 1, 2 once per pair
            dq, dr = NEIGHBOUR_DELTAS[e]
            if (cell[0] + dq, cell[1] + dr) in taken:
                out.append((corners, SIDE_OF_EDGE[e]))
    if not out:
        return np.zeros(0)
    scores = [side_evidence(view, c)[k] for c, k in out]
    return np.array(scores)


NEIGHBOUR_DELTAS = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
SIDE_OF_EDGE = [int(np.argmin([np.hypot(*(0.5 * (np.array(UNIT.corners((0, 0))[k])
                                               + np.array(UNIT.corners((0, 0))[(k + 1) % 6]))
                                         - 0.5 * NEIGHBOUR_VECTORS[e])) for k in range(6)]))
                for e in range(6)]
"""The side (corner k to k + 1) facing neighbour e."""


def _pose_scores(grad: np.ndarray, outline: np.ndarray, tangents: np.ndarray,
                 centres: np.ndarray, shifts: np.ndarray, turns: np.ndarray,
                 scales: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``oriented_score`` of every cell's outline (C x P x 2 image points around
    ``centres``, side directions ``tangents``) under every pose: a shift (C x S x 2), a
    turn (degrees) and a scale about the cell's centre, averaged over the outline.
    Returns the scores (C x S x T x K) and the turns' rotation matrices."""
    rel = outline - centres[:, None, :]  # C x P x 2
    tangent_rel = tangents
    rad = np.radians(turns)
    cos, sin = np.cos(rad), np.sin(rad)
    rot = np.stack([np.stack([cos, -sin], -1), np.stack([sin, cos], -1)], -2)  # T x 2 x 2
    turned = np.einsum("tij,cpj->ctpi", rot, rel)  # C x T x P x 2
    tang = np.einsum("tij,cpj->ctpi", rot, tangent_rel)
    pts = (centres[:, None, None, None, :]
           + scales[None, None, :, None, None] * turned[:, :, None, :, :])  # C x T x K x P x 2
    # C x S x T x K x P points: each pose's outline moved by each shift
    score = oriented_score(grad, pts[:, None], tang[:, None, :, None, :, :],
                           shifts[:, :, None, None, None, :]).mean(axis=-1)
    return score, rot


class CellFits(NamedTuple):
    """Each cell's image ``corners`` on its own tile, and how well its outline there
    agrees with the boundary map (``agreement``: mean ``oriented_score``, in the
    order of the cells given)."""

    corners: dict[tuple[int, int], np.ndarray]
    agreement: np.ndarray


def misfits(agreement: Sequence[float | None], counted: Sequence[bool] | None = None
            ) -> list[float]:
    """How much worse each cell's ``CellFits.agreement`` is than the median of the
    ``counted`` cells' (default all): 0 at or above it, 1 not at all; 0 for a cell
    without one (a loose tile) or when the median is not positive."""
    member = [True] * len(agreement) if counted is None else list(counted)
    fits = [a for a, m in zip(agreement, member, strict=True) if a is not None and m]
    middle = float(np.median(fits)) if fits else 0.0
    if middle <= 0:
        return [0.0] * len(agreement)
    return [0.0 if a is None else float(np.clip(1.0 - a / middle, 0.0, 1.0))
            for a in agreement]


def fit_cells(lat: Lattice, view: MapView, cells: list[tuple[int, int]],
              config: ScanConfig = DEFAULT_CONFIG) -> CellFits:
    """Image corners of each cell on its own tile, the lattice bent to follow the map.

    One homography cannot follow barrel distortion, a bent mat or tiles pushed about
    by hand, and its error grows towards the map's rim. Each cell's outline is first
    shifted (up to ``snap_search_frac`` of its radius) to where the boundary map agrees
    best with all six sides; the lattice's local drift is the median of those shifts
    over the cell and its neighbours (a cell misled by its art is outvoted). From
    there each tile's own placement is searched: a small shift (``cell_shift_frac``)
    and turn (``cell_turns``: hand-laid tiles lie a few degrees askew), scored at each
    of ``cell_scales`` (a rim's inner or outer edge); it is kept when it gains
    ``snap_min_gain`` over the drift alone. The cell keeps the lattice's size (the
    tiles' spacing, the size the terrain model reads a tile at).
    """
    if not cells:
        return CellFits({}, np.zeros(0))
    cfg = config.lattice
    corners = np.array([lat.cell_corners(c) for c in cells])  # C x 6 x 2
    centres = corners.mean(axis=1)
    sizes = np.linalg.norm(corners - centres[:, None, :], axis=2).mean(axis=1)
    t = np.linspace(0.15, 0.85, 6)
    ends = np.roll(corners, -1, axis=1)
    outline = (corners[:, :, None, :] + (ends - corners)[:, :, None, :] * t[None, None, :, None]
               ).reshape(len(cells), -1, 2)  # C x 36 x 2, six points per side
    # The tangent of each outline point: the direction of its side.
    tangents = np.repeat(ends - corners, len(t), axis=1)
    reach = cfg.snap_search_frac
    steps = np.linspace(-reach, reach, cfg.snap_steps)
    gx, gy = np.meshgrid(steps, steps)
    coarse = np.stack([gx.ravel(), gy.ravel()], axis=1)[None] * sizes[:, None, None]
    first = oriented_score(view.grad, outline[:, None], tangents[:, None],
                           coarse[:, :, None, :]).mean(axis=2)  # C x S
    shift = coarse[np.arange(len(cells)), first.argmax(axis=1)]  # C x 2
    index = {c: i for i, c in enumerate(cells)}
    drift = np.empty_like(shift)
    for i, (q, r) in enumerate(cells):
        group = [i] + [index[(q + dq, r + dr)] for dq, dr in NEIGHBOUR_DELTAS
                       if (q + dq, r + dr) in index]
        drift[i] = np.median(shift[group], axis=0) if len(group) >= 3 else shift[i]
    fine = np.linspace(-cfg.cell_shift_frac, cfg.cell_shift_frac, 5)
    fx, fy = np.meshgrid(fine, fine)
    near = (np.stack([fx.ravel(), fy.ravel()], axis=1)[None] * sizes[:, None, None]
            + drift[:, None, :])  # C x S x 2
    turns = np.array(cfg.cell_turns, np.float64)
    scales = np.array(cfg.cell_scales, np.float64)
    score, rot = _pose_scores(view.grad, outline, tangents, centres, near, turns, scales)
    flat = score.reshape(len(cells), -1)
    best = flat.argmax(axis=1)
    s_i, t_i, _ = np.unravel_index(best, score.shape[1:])
    # The drift alone: the middle shift, no turn.
    zero_s = (len(fine) ** 2) // 2
    zero_t = int(np.argmin(np.abs(turns)))
    plain = score[:, zero_s, zero_t].max(axis=-1)
    out: dict[tuple[int, int], np.ndarray] = {}
    for i, cell in enumerate(cells):
        rel = corners[i] - centres[i]
        if flat[i, best[i]] - plain[i] >= cfg.snap_min_gain:
            moved = rel @ rot[t_i[i]].T + centres[i] + near[i, s_i[i]]
        else:
            moved = rel + centres[i] + drift[i]
        out[cell] = moved
    return CellFits(out, flat.max(axis=1))

