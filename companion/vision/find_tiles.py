"""Finding tiles in the foreground mask, and the hexagon of each loose tile.

Representation: a ``LooseTile`` is one tile lying apart from the others: ``center``
(x, y) and ``corners`` (6 x 2, standard order: corner k near 60k degrees, so edge 0
is the top edge after snapping to the nearest flat-topped orientation), both in the
pixels of the image given, and ``rectified``, the tile warped to the standard
hexagon (see ``rectify.py``). ``components`` splits the mask into blobs and says
which are single hexagons (loose tiles) and which are clusters (an assembled map).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.background import foreground_mask
from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.rectify import order_corners, rectify


@dataclass(frozen=True)
class LooseTile:
    center: tuple[float, float]
    corners: np.ndarray
    rectified: np.ndarray


@dataclass(frozen=True)
class Blob:
    """One connected foreground component."""

    contour: np.ndarray
    area: float
    hexagon: np.ndarray | None
    """Fitted hexagon corners (standard order) when the blob is one tile, else None."""


def blobs(mask: np.ndarray, config: ScanConfig) -> list[Blob]:
    """Connected components of the mask large enough to be tiles, largest first. A
    component that is no hexagon, or a notched one, is tried again without its thin
    parts (``_without_thin_parts``): a lone tile with a wood table's plank gaps joined to
    it. A notched hexagon is a tile when its hull is about the size of the clear ones,
    or, without two of those, of ``find.notched_agree_min`` notched ones on bare table."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    min_area = config.find.min_tile_area_frac * mask.shape[0] * mask.shape[1]
    out: list[Blob] = []
    doubtful: list[tuple[int, float]] = []
    for c in contours:
        area = float(cv2.contourArea(c))
        if area < min_area:
            continue
        hexagon, hull_area, notched = _hexagon_test(c, area, config)
        if (hexagon is None or notched) and config.find.thin_part_frac > 0:
            opened = _without_thin_parts(c, area, config.find.thin_part_frac)
            if opened is not None:
                o_area = float(cv2.contourArea(opened))
                o_hexagon, _, o_notched = _hexagon_test(opened, o_area, config)
                if o_hexagon is not None and not o_notched:
                    c, area, hexagon, notched = opened, o_area, o_hexagon, False
        if hexagon is not None and notched:
            # Pale art at the rim (stream banks) notches a tile's mask too; decide
            # below by comparing its size with the tiles that are clearly single.
            doubtful.append((len(out), hull_area))
        out.append(Blob(contour=c, area=area, hexagon=hexagon))
    clear = [b.area for i, b in enumerate(out)
             if b.hexagon is not None and i not in {j for j, _ in doubtful}]
    typical = (float(np.median(clear)) if len(clear) >= 2 else _agreed_size(
        [h for i, h in doubtful if _on_bare_table(mask, out[i], config)],
        config.find.notched_agree_min))
    for i, hull_area in doubtful:
        if not (typical and _about(hull_area, typical)):
            out[i] = Blob(contour=out[i].contour, area=out[i].area, hexagon=None)
    out.sort(key=lambda b: -b.area)
    return out


def _about(area: float, typical: float) -> bool:
    """``area`` is a tile's when ``typical`` is one: 0.75 to 1.3 times it."""
    return 0.75 * typical <= area <= 1.3 * typical


def _agreed_size(hull_areas: list[float], least: int) -> float:
    """The median of ``hull_areas`` when ``least`` of them or more (and at least one) are
    ``_about`` it, else 0."""
    if least <= 0 or len(hull_areas) < least:
        return 0.0
    median = float(np.median(hull_areas))
    return median if sum(_about(h, median) for h in hull_areas) >= least else 0.0


def _on_bare_table(mask: np.ndarray, blob: Blob, config: ScanConfig) -> bool:
    """At most ``find.notched_ring_max`` of the ring from 1.05 to 2 times the blob's
    hexagon (about its centre), outside the blob, is foreground: a loose tile lies on the
    table, a piece of a map among other pieces."""
    assert blob.hexagon is not None
    outer = np.round(scaled(blob.hexagon, 2.0)).astype(np.int32)
    x, y, w, h = cv2.boundingRect(outer)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(mask.shape[1], x + w), min(mask.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return False
    shift = np.array([x0, y0])
    ring = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(ring, [outer - shift], 1)
    cv2.fillPoly(ring, [np.round(scaled(blob.hexagon, 1.05)).astype(np.int32) - shift], 0)
    cv2.drawContours(ring, [blob.contour - shift], -1, 0, -1)
    inside = ring > 0
    if not inside.any():
        return False
    return float((mask[y0:y1, x0:x1][inside] > 0).mean()) <= config.find.notched_ring_max


def scaled(corners: np.ndarray, factor: float) -> np.ndarray:
    """``corners`` scaled by ``factor`` about their mean."""
    mid = corners.mean(axis=0)
    out: np.ndarray = mid + (corners - mid) * factor
    return out


def _hexagon_test(contour: np.ndarray, area: float, config: ScanConfig
                  ) -> tuple[np.ndarray | None, float, bool]:
    """The hexagon fitted to ``contour`` when its hull fills the hexagon as a tile's does
    (``find.hexagon_fill_min`` .. ``max``), else None; the hull's area; and whether the
    component is notched (solidity at most ``find.hexagon_solidity_min``)."""
    hexagon = fit_hexagon(contour)
    if hexagon is None:
        return None, 0.0, False
    hull_area = float(cv2.contourArea(cv2.convexHull(contour)))
    hex_area = float(cv2.contourArea(hexagon.astype(np.float32)))
    fill = hull_area / max(hex_area, 1.0)
    if not config.find.hexagon_fill_min <= fill <= config.find.hexagon_fill_max:
        return None, hull_area, False
    return hexagon, hull_area, notched(area, hull_area, config)


def notched(area: float, hull_area: float, config: ScanConfig) -> bool:
    """A component of ``area`` fills its convex hull (``hull_area``) less than a tile
    does: solidity at most ``find.hexagon_solidity_min``."""
    return area / max(hull_area, 1.0) <= config.find.hexagon_solidity_min


def _without_thin_parts(contour: np.ndarray, area: float, frac: float
                        ) -> np.ndarray | None:
    """The largest part of the component (``area``: its contour's) left by an opening
    as wide as ``frac`` of the square root of its area, when the thin parts it removes
    are at most a twentieth of it (lines joined to a tile, never tiles), else None."""
    k = max(3, int(round(frac * math.sqrt(area))) | 1)
    x, y, w, h = cv2.boundingRect(contour)
    local = np.zeros((h + 2 * k, w + 2 * k), np.uint8)
    cv2.drawContours(local, [contour - np.array([x - k, y - k])], -1, 255, -1)
    opened = cv2.morphologyEx(local, cv2.MORPH_OPEN,
                              cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    parts, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not parts:
        return None
    best = max(parts, key=cv2.contourArea)
    if cv2.contourArea(best) < 0.95 * area:
        return None
    return np.asarray(best + np.array([x - k, y - k]), dtype=contour.dtype)


def fit_hexagon(contour: np.ndarray) -> np.ndarray | None:
    """Six corners (standard order) of the hexagon best fitting the contour's hull.

    The hull is simplified to six vertices, then each side is refitted as a line
    through the densified hull points on it and neighbouring lines are intersected.
    """
    hull = cv2.convexHull(contour).reshape(-1, 2).astype(np.float32)
    if len(hull) < 6:
        return None
    perimeter = cv2.arcLength(hull, True)
    approx = None
    for eps in np.linspace(0.01, 0.08, 15):
        a = cv2.approxPolyDP(hull, eps * perimeter, True).reshape(-1, 2)
        if len(a) == 6:
            approx = a
            break
        if len(a) < 6:
            break
    if approx is None:
        return None
    dense = _densify(hull)
    refined = _refine_sides(approx.astype(np.float64), dense)
    m = cv2.moments(hull)
    if m["m00"] <= 0:
        return None
    center = (m["m10"] / m["m00"], m["m01"] / m["m00"])
    corners = refined if refined is not None else approx.astype(np.float64)
    # Reject shapes whose sides differ wildly (not a hexagon seen at <= ~45 degrees).
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    if sides.min() < 0.35 * sides.max():
        return None
    # The hull must follow straight sides (a disc or an oval bulges between corners).
    poly = corners.astype(np.float32).reshape(-1, 1, 2)
    dev = np.array([abs(cv2.pointPolygonTest(poly, (float(x), float(y)), True))
                    for x, y in dense[::3]])
    if float(np.median(dev)) > 0.03 * float(sides.mean()):
        return None
    return order_corners(corners, center)


def _densify(poly: np.ndarray, step: float = 2.0) -> np.ndarray:
    pts: list[np.ndarray] = []
    n = len(poly)
    for i in range(n):
        a, b = poly[i], poly[(i + 1) % n]
        k = max(1, int(np.linalg.norm(b - a) / step))
        t = np.linspace(0, 1, k, endpoint=False)[:, None]
        pts.append(a + (b - a) * t)
    return np.concatenate(pts).astype(np.float64)


def _refine_sides(approx: np.ndarray, dense: np.ndarray) -> np.ndarray | None:
    lines = []
    for i in range(6):
        a, b = approx[i], approx[(i + 1) % 6]
        d = b - a
        length = float(np.linalg.norm(d))
        if length < 1e-6:
            return None
        u = d / length
        nrm = np.array([-u[1], u[0]])
        rel = dense - a
        t = rel @ u
        off = np.abs(rel @ nrm)
        sel = (t > 0.15 * length) & (t < 0.85 * length) & (off < max(2.0, 0.04 * length))
        pts = dense[sel]
        if len(pts) < 3:
            lines.append((a, u))
            continue
        vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                     0.01).ravel()
        lines.append((np.array([x0, y0], np.float64), np.array([vx, vy], np.float64)))
    corners = np.zeros((6, 2))
    for i in range(6):
        p1, d1 = lines[(i - 1) % 6]
        p2, d2 = lines[i]
        m = np.array([d1, -d2]).T
        if abs(np.linalg.det(m)) < 1e-9:
            return None
        s, _ = np.linalg.solve(m, p2 - p1)
        corners[i] = p1 + s * d1
    if np.linalg.norm(corners - approx, axis=1).max() > 0.25 * math.dist(approx[0], approx[3]):
        return None
    return corners


def find_loose_tiles(image_bgr: np.ndarray, config: ScanConfig = DEFAULT_CONFIG,
                     mask: np.ndarray | None = None) -> list[LooseTile]:
    """Every tile lying apart in the photo, in reading order (rows top to bottom).

    ``mask`` may be a precomputed ``foreground_mask``; clusters of touching tiles
    are skipped (see ``lattice.py`` for those).
    """
    if mask is None:
        mask = foreground_mask(image_bgr, config)
    tiles: list[LooseTile] = []
    for blob in blobs(mask, config):
        if blob.hexagon is None:
            continue
        center = (float(blob.hexagon[:, 0].mean()), float(blob.hexagon[:, 1].mean()))
        tiles.append(LooseTile(center=center, corners=blob.hexagon,
                               rectified=rectify(image_bgr, blob.hexagon,
                                                 config.rectify.radius)))
    return reading_order(tiles)


def reading_order(tiles: list[LooseTile]) -> list[LooseTile]:
    """Sort tiles into rows (top to bottom) and each row left to right."""
    if not tiles:
        return []
    radius = float(np.median([np.linalg.norm(t.corners[0] - t.corners[3]) / 2
                              for t in tiles]))
    by_y = sorted(tiles, key=lambda t: t.center[1])
    rows: list[list[LooseTile]] = [[by_y[0]]]
    for t in by_y[1:]:
        row_y = float(np.mean([u.center[1] for u in rows[-1]]))
        if t.center[1] - row_y > radius:
            rows.append([t])
        else:
            rows[-1].append(t)
    return [t for row in rows for t in sorted(row, key=lambda t: t.center[0])]
