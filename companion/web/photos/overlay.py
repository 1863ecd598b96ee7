"""The lattice and the readings drawn over one stored photo, as data for the template.

Representation: one SVG in the stored photo's pixels holds the photo (``<image>`` at
0,0 with its stored width and height) and the drawings over it, so drawing at a tile's
``center_px`` puts it on the tile at any displayed size; the ``viewBox`` is ``crop``,
the part of the photo around the tiles, so a phone shows the tiles as large as it can.
The lattice is fitted per photo: a map from a unit
flat-topped ``Layout`` (size 1) to photo pixels, fitted to the tiles that photo shows
(a homography from four tiles on, an affine map from three, a similarity from two),
so hexes the scanner did not report (tiles added by hand, free neighbours) are drawn
where they would lie. Each ``OverlayTile`` is drawn around its own ``center_px``.

Per tile: the outline, six ``EdgeMark`` (letter, the position of the letter, the edge
segment, ``doubtful`` / ``mismatch`` flags) and ``classes`` (``edited``, ``alt``,
``illegal``, ``selected``, ``unseen``, ``flag-doubtful``). ``OverlaySlot`` is a free
neighbour inside the photo.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.rules import Hex, Layout
from companion.web.photos.review import Review

UNIT = Layout(1.0, (0.0, 0.0))
LABEL_AT = 0.62
"""Edge letters sit this far from the centre towards the edge midpoint."""


@dataclass(frozen=True)
class EdgeMark:
    edge: int
    letter: str
    x: float
    y: float
    x1: float
    y1: float
    x2: float
    y2: float
    doubtful: bool = False
    mismatch: bool = False


@dataclass
class OverlayTile:
    q: int
    r: int
    code: str
    cx: float
    cy: float
    radius: float
    outline: str
    edges: list[EdgeMark]
    task: str = ""
    """The marker value read on a task tile ("·" when none lies on it)."""
    classes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class OverlaySlot:
    q: int
    r: int
    cx: float
    cy: float
    outline: str


@dataclass
class PhotoOverlay:
    photo_id: int
    width: int
    height: int
    tiles: list[OverlayTile]
    slots: list[OverlaySlot]
    font: float
    crop: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    """(x, y, width, height) of the part of the photo shown: the tiles and free hexes
    with a margin (the whole photo when there are none)."""

    @property
    def viewbox(self) -> str:
        x, y, w, h = self.crop if self.crop[2] > 0 else (0, 0, self.width, self.height)
        return f"{x:.0f} {y:.0f} {w:.0f} {h:.0f}"


class LatticeFit:
    """Unit-layout pixels -> photo pixels (a 3x3 matrix applied projectively)."""

    def __init__(self, matrix: np.ndarray) -> None:
        self.matrix = matrix

    @classmethod
    def fit(cls, pairs: list[tuple[Hex, tuple[float, float]]], width: int) -> LatticeFit:
        src = np.array([UNIT.to_pixel(h) for h, _ in pairs], dtype=np.float64)
        dst = np.array([p for _, p in pairs], dtype=np.float64)
        if len(pairs) >= 4:
            m, _mask = cv2.findHomography(src, dst, 0)
            if m is not None and np.all(np.isfinite(m)):
                return cls(m)
        if len(pairs) >= 3:
            a, _inliers = cv2.estimateAffine2D(src, dst, method=cv2.LMEDS)
            if a is not None:
                return cls(np.vstack([a, [0.0, 0.0, 1.0]]))
        if len(pairs) >= 2:
            a, _inliers = cv2.estimateAffinePartial2D(src, dst, method=cv2.LMEDS)
            if a is not None:
                return cls(np.vstack([a, [0.0, 0.0, 1.0]]))
        scale = width / 12.0
        x0, y0 = dst[0] - src[0] * scale if len(pairs) else (width / 2, width / 2)
        return cls(np.array([[scale, 0.0, x0], [0.0, scale, y0], [0.0, 0.0, 1.0]]))

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        v = self.matrix @ np.array([x, y, 1.0])
        if abs(v[2]) < 1e-9:
            return (float(v[0]), float(v[1]))
        return (float(v[0] / v[2]), float(v[1] / v[2]))


def _pts(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _corners(fit: LatticeFit, h: Hex, centre: tuple[float, float] | None
             ) -> tuple[tuple[float, float], list[tuple[float, float]]]:
    """The hex's centre and six corners in photo pixels (moved onto ``centre``)."""
    ux, uy = UNIT.to_pixel(h)
    px, py = fit(ux, uy)
    dx, dy = (centre[0] - px, centre[1] - py) if centre else (0.0, 0.0)
    corners = [fit(x, y) for x, y in UNIT.corners(h)]
    return (px + dx, py + dy), [(x + dx, y + dy) for x, y in corners]


def overlay(review: Review, photo_id: int, width: int, height: int, *,
            selected: Hex | None = None, illegal: Hex | None = None) -> PhotoOverlay:
    """What to draw over photo ``photo_id`` (``width`` x ``height`` stored pixels)."""
    pairs = [(h, t.seen[photo_id]) for h, t in review.tiles.items() if photo_id in t.seen]
    fit = LatticeFit.fit(pairs, width)
    mismatches = review.mismatches()
    tiles: list[OverlayTile] = []
    radii: list[float] = []
    for h, t in review.tiles.items():
        (cx, cy), corners = _corners(fit, h, t.seen.get(photo_id))
        if photo_id not in t.seen and not (0 <= cx <= width and 0 <= cy <= height):
            continue
        radius = sum(math.dist((cx, cy), c) for c in corners) / 6
        radii.append(radius)
        doubtful, bad = set(t.doubtful()), set(mismatches.get(h, []))
        edges = []
        for e in range(6):
            a, b = corners[(e + 4) % 6], corners[(e + 5) % 6]
            mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
            edges.append(EdgeMark(e, t.code[e], cx + (mx - cx) * LABEL_AT,
                                  cy + (my - cy) * LABEL_AT, a[0], a[1], b[0], b[1],
                                  e in doubtful, e in bad))
        classes = [c for c, on in (("edited", t.edited), ("alt", t.alt is not None),
                                   ("illegal", h == illegal), ("selected", h == selected),
                                   ("unseen", photo_id not in t.seen),
                                   ("flag-doubtful", t.flag_doubtful())) if on]
        kind, value = t.task
        tiles.append(OverlayTile(h.q, h.r, t.code, cx, cy, radius, _pts(corners), edges,
                                 value or ("·" if kind else ""), classes))
    slots = []
    xs = [t.cx for t in tiles]
    ys = [t.cy for t in tiles]
    for h in review.frontier():
        (cx, cy), corners = _corners(fit, h, None)
        if 0 <= cx <= width and 0 <= cy <= height:
            slots.append(OverlaySlot(h.q, h.r, cx, cy, _pts(corners)))
            xs.append(cx)
            ys.append(cy)
    mean_radius = sum(radii) / len(radii) if radii else width / 20
    crop = (0.0, 0.0, float(width), float(height))
    if xs:
        pad = mean_radius * 1.3
        x0, y0 = max(0.0, min(xs) - pad), max(0.0, min(ys) - pad)
        x1, y1 = min(float(width), max(xs) + pad), min(float(height), max(ys) + pad)
        crop = (x0, y0, x1 - x0, y1 - y0)
    return PhotoOverlay(photo_id, width, height, tiles, slots, max(8.0, mean_radius * 0.34),
                        crop)
