"""Procedural tile art for the renderer: one flat-topped tile drawn from its code.

Representation: a tile is drawn into a square BGR canvas of side ``2 * pad + 2 * R``
pixels (``R`` = circumradius, centre at ``(pad + R, pad + R)``) plus a uint8 alpha mask
of the hexagon. Edge ``i`` (0 = top, clockwise) has its midpoint at angle
``-90 + 60 i`` degrees (image y grows downwards), exactly as ``companion.rules.hexgrid``.
Each edge's terrain fills the wedge/band from that edge towards the centre; runs of the
same territory (forest, grain, village) on neighbouring edges merge into one patch;
tracks and streams are paths from the edge midpoints to the centre or to each other.
Colours imitate the real game (meadow yellow-green, forest dark tree clumps, grain
yellow with stripes, village red roofs on grey cobbles, track grey rails on sleepers,
stream blue with pale banks). All randomness comes from the ``numpy`` generator passed in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

# BGR colours of the artwork.
MEADOW = (45, 172, 150)
MEADOW_DARK = (35, 140, 120)
FOREST_FLOOR = (38, 92, 52)
FOREST_CROWNS = ((30, 80, 28), (38, 105, 40), (28, 70, 30), (50, 120, 55))
GRAIN = (40, 190, 240)
GRAIN_STRIPE = (25, 150, 215)
GRAIN_RIM = (30, 120, 170)
COBBLE = (172, 178, 180)
COBBLE_LINE = (130, 136, 140)
ROOF = (45, 60, 205)
ROOF_DARK = (35, 40, 150)
BALLAST = (112, 118, 124)
SLEEPER = (55, 72, 92)
RAIL = (200, 200, 205)
BANK = (215, 228, 232)
WATER = (200, 128, 40)
WATER_LIGHT = (232, 180, 110)
CARDBOARD = (60, 90, 120)
CARDBOARD_SIDE = (45, 70, 95)
BUBBLE = (250, 250, 250)

FLAG_COLOURS = {"forest": (40, 130, 30), "grain": (30, 210, 250), "village": (40, 40, 220)}
MARKER_COLOURS = {
    "forest": (40, 110, 40),
    "grain": (30, 180, 230),
    "village": (50, 60, 200),
    "track": (110, 110, 110),
    "stream": (190, 120, 40),
}

TERRITORY = "FGV"
NETWORK = "TS"


@dataclass(frozen=True)
class TileArt:
    """What a tile shows besides its edges: task type, marker value, flag."""

    code: str
    task_type: str | None = None
    marker: int | None = None
    flag: str | None = None


def corner(i: int, radius: float, centre: tuple[float, float]) -> tuple[float, float]:
    """Corner ``i`` of a flat-topped hexagon (corner k at 60k degrees)."""
    a = math.radians(60 * i)
    return (centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a))


def edge_direction(edge: int) -> tuple[float, float]:
    """Unit vector from the centre towards the midpoint of ``edge``."""
    a = math.radians(-90 + 60 * edge)
    return (math.cos(a), math.sin(a))


def hexagon(radius: float, centre: tuple[float, float]) -> np.ndarray:
    return np.array([corner(i, radius, centre) for i in range(6)], dtype=np.float32)


def _pts(points: list[tuple[float, float]] | np.ndarray, shift: int = 4) -> np.ndarray:
    return np.round(np.asarray(points, dtype=np.float64) * (1 << shift)).astype(np.int32)


def fill_poly(img: np.ndarray, points: list[tuple[float, float]] | np.ndarray,
              colour: tuple[int, ...]) -> None:
    cv2.fillPoly(img, [_pts(points)], colour, cv2.LINE_AA, shift=4)


def circle(img: np.ndarray, c: tuple[float, float], r: float, colour: tuple[int, ...],
           thickness: int = -1) -> None:
    cv2.circle(img, (round(c[0] * 16), round(c[1] * 16)), max(1, round(r * 16)), colour,
               thickness, cv2.LINE_AA, shift=4)


def polyline(img: np.ndarray, points: np.ndarray, colour: tuple[int, ...], width: float) -> None:
    cv2.polylines(img, [_pts(points)], False, colour, max(1, round(width)), cv2.LINE_AA, shift=4)


def runs(code: str) -> list[tuple[str, list[int]]]:
    """Cyclic runs of equal letters: ``[(letter, [edges...]), ...]``."""
    if len(set(code)) == 1:
        return [(code[0], list(range(6)))]
    start = next(i for i in range(6) if code[i] != code[i - 1])
    out: list[tuple[str, list[int]]] = []
    for k in range(6):
        e = (start + k) % 6
        if out and out[-1][0] == code[e]:
            out[-1][1].append(e)
        else:
            out.append((code[e], [e]))
    return out


def territory_polygon(edges: list[int], radius: float, centre: tuple[float, float],
                      depth: float, rng: np.random.Generator) -> np.ndarray:
    """The patch of a run of edges: outer corners plus a wavy inner boundary at ``depth``.

    ``depth`` is the inner boundary's distance from the centre as a fraction of ``radius``.
    """
    if len(edges) == 6:
        return hexagon(radius * 1.05, centre)
    first = edges[0]
    start_angle = math.radians(60 * ((first + 4) % 6))
    span = math.radians(60 * len(edges))
    outer = [corner((first + 4 + k) % 6, radius * 1.08, centre) for k in range(len(edges) + 1)]
    inner: list[tuple[float, float]] = []
    steps = 4 + 3 * len(edges)
    for k in range(steps, -1, -1):
        a = start_angle + span * k / steps
        rr = radius * (depth + rng.uniform(-0.04, 0.04))
        if k in (0, steps):
            rr = radius * max(depth, 0.12)
        inner.append((centre[0] + rr * math.cos(a), centre[1] + rr * math.sin(a)))
    return np.array(outer + inner, dtype=np.float32)


def _mask_of(shape: tuple[int, int], poly: np.ndarray) -> np.ndarray:
    m = np.zeros(shape, np.uint8)
    fill_poly(m, poly, (255,))
    return m


def _paint_grain(img: np.ndarray, mask: np.ndarray, radius: float,
                 rng: np.random.Generator) -> None:
    layer = np.empty_like(img)
    layer[:] = GRAIN
    angle = rng.uniform(0, math.pi)
    dx, dy = math.cos(angle), math.sin(angle)
    size = img.shape[0]
    spacing = radius * 0.075
    n = int(size * 1.5 / spacing)
    for k in range(-n, n):
        off = k * spacing
        cx, cy = size / 2 + off * -dy, size / 2 + off * dx
        p0 = (cx - dx * size, cy - dy * size)
        p1 = (cx + dx * size, cy + dy * size)
        polyline(layer, np.array([p0, p1]), GRAIN_STRIPE, max(1.0, radius * 0.018))
    rim = cv2.morphologyEx(mask, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    img[mask > 0] = layer[mask > 0]
    img[rim > 0] = GRAIN_RIM


def _paint_forest(img: np.ndarray, mask: np.ndarray, radius: float,
                  rng: np.random.Generator) -> None:
    layer = img.copy()
    layer[mask > 0] = FOREST_FLOOR
    ys, xs = np.nonzero(mask)
    if len(xs) == 0:
        return
    count = int(len(xs) / (radius * radius) * 28) + 3
    idx = rng.integers(0, len(xs), count)
    for x, y in zip(xs[idx], ys[idx], strict=True):
        r = radius * rng.uniform(0.06, 0.11)
        colour = FOREST_CROWNS[int(rng.integers(0, len(FOREST_CROWNS)))]
        circle(layer, (x + 2, y + 3), r, (20, 45, 20))
        circle(layer, (x, y), r, colour)
        circle(layer, (x - r * 0.3, y - r * 0.3), r * 0.45, tuple(min(255, c + 25) for c in colour))
    soft = cv2.dilate(mask, np.ones((5, 5), np.uint8))
    img[soft > 0] = layer[soft > 0]


def _paint_village(img: np.ndarray, mask: np.ndarray, edges: list[int], radius: float,
                   centre: tuple[float, float], rng: np.random.Generator) -> None:
    layer = img.copy()
    layer[mask > 0] = COBBLE
    ys, xs = np.nonzero(mask)
    if len(xs):
        idx = rng.integers(0, len(xs), int(len(xs) / (radius * radius) * 60) + 5)
        for x, y in zip(xs[idx], ys[idx], strict=True):
            r = radius * rng.uniform(0.03, 0.05)
            cv2.ellipse(layer, (int(x), int(y)), (max(1, int(r)), max(1, int(r * 0.7))),
                        float(rng.uniform(0, 180)), 0, 360, COBBLE_LINE, 1, cv2.LINE_AA)
    img[mask > 0] = layer[mask > 0]
    houses = len(edges) + 1 if len(edges) < 6 else 6
    for k in range(houses):
        e_angle: float
        if len(edges) == 6:
            e_angle = -90 + 60 * k + 30
        else:
            frac = (k + 0.5) / houses
            e_angle = -90 + 60 * edges[0] - 30 + 60 * len(edges) * frac
        a = math.radians(e_angle + rng.uniform(-8, 8))
        dist = radius * rng.uniform(0.5, 0.62)
        c = (centre[0] + dist * math.cos(a), centre[1] + dist * math.sin(a))
        _house(img, c, radius * rng.uniform(0.17, 0.22), rng.uniform(0, 180))


def _house(img: np.ndarray, c: tuple[float, float], length: float, angle_deg: float) -> None:
    w, h = length, length * 0.68
    box = cv2.boxPoints(((c[0], c[1]), (w, h), angle_deg))
    shadow = box + np.array([length * 0.08, length * 0.1], np.float32)
    fill_poly(img, shadow, (40, 50, 60))
    fill_poly(img, box, ROOF)
    a = math.radians(angle_deg)
    ux, uy = math.cos(a) * w / 2, math.sin(a) * w / 2
    vx, vy = -math.sin(a) * h / 2, math.cos(a) * h / 2
    half = np.array([(c[0] - ux, c[1] - uy), (c[0] + ux, c[1] + uy),
                     (c[0] + ux + vx, c[1] + uy + vy), (c[0] - ux + vx, c[1] - uy + vy)])
    fill_poly(img, half, ROOF_DARK)
    polyline(img, np.array([(c[0] - ux, c[1] - uy), (c[0] + ux, c[1] + uy)]), (60, 80, 230),
             max(1.0, length * 0.05))


def _bezier(p0: tuple[float, float], p1: tuple[float, float], p2: tuple[float, float],
            n: int = 24) -> np.ndarray:
    t = np.linspace(0.0, 1.0, n)[:, None]
    a, b, c = np.array(p0), np.array(p1), np.array(p2)
    return (1 - t) ** 2 * a + 2 * (1 - t) * t * b + t**2 * c


def network_paths(edges: list[int], radius: float,
                  centre: tuple[float, float]) -> list[np.ndarray]:
    """Polylines of a track or stream: two edges joined by a curve, else spokes to the centre."""
    apothem = radius * math.sqrt(3) / 2 * 1.06

    def mid(e: int) -> tuple[float, float]:
        d = edge_direction(e)
        return (centre[0] + d[0] * apothem, centre[1] + d[1] * apothem)

    if len(edges) == 2:
        return [_bezier(mid(edges[0]), centre, mid(edges[1]))]
    return [np.array([mid(e), centre]) for e in edges]


def _normals(path: np.ndarray) -> np.ndarray:
    d = np.gradient(path, axis=0)
    n = np.stack([-d[:, 1], d[:, 0]], axis=1)
    return n / np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-9)


def _paint_track(img: np.ndarray, edges: list[int], radius: float,
                 centre: tuple[float, float]) -> None:
    paths = network_paths(edges, radius, centre)
    for path in paths:
        polyline(img, path, BALLAST, radius * 0.30)
    for path in paths:
        dense = _resample(path, radius * 0.075)
        normals = _normals(dense)
        for p, n in zip(dense, normals, strict=True):
            half = n * radius * 0.13
            polyline(img, np.array([p - half, p + half]), SLEEPER, max(1.0, radius * 0.035))
    for path in paths:
        dense = _resample(path, radius * 0.02)
        normals = _normals(dense)
        for side in (-1, 1):
            rail = dense + normals * side * radius * 0.075
            polyline(img, rail, (90, 90, 95), max(1.0, radius * 0.035))
            polyline(img, rail, RAIL, max(1.0, radius * 0.018))
    if len(edges) == 1:
        _house(img, centre, radius * 0.22, 60 * edges[0] + 90)


def _paint_stream(img: np.ndarray, edges: list[int], radius: float,
                  centre: tuple[float, float], rng: np.random.Generator) -> None:
    paths = network_paths(edges, radius, centre)
    for path in paths:
        polyline(img, path, BANK, radius * 0.42)
    if len(edges) != 2:
        circle(img, centre, radius * 0.30, BANK)
    for path in paths:
        polyline(img, path, WATER, radius * 0.24)
    if len(edges) != 2:
        circle(img, centre, radius * 0.20, WATER)
    for path in paths:
        dense = _resample(path, radius * 0.05)
        normals = _normals(dense)
        wave = dense + normals * (radius * 0.04 * np.sin(np.arange(len(dense)) * 1.3))[:, None]
        polyline(img, wave[: max(2, len(wave) - 2)], WATER_LIGHT, max(1.0, radius * 0.02))


def _resample(path: np.ndarray, step: float) -> np.ndarray:
    seg = np.linalg.norm(np.diff(path, axis=0), axis=1)
    dist = np.concatenate([[0.0], np.cumsum(seg)])
    n = max(2, int(dist[-1] / max(step, 1e-6)) + 1)
    t = np.linspace(0, dist[-1], n)
    return np.stack([np.interp(t, dist, path[:, 0]), np.interp(t, dist, path[:, 1])], axis=1)


def _meadow(size: int, radius: float, rng: np.random.Generator) -> np.ndarray:
    img = np.empty((size, size, 3), np.uint8)
    img[:] = MEADOW
    small = rng.normal(0.0, 1.0, (8, 8)).astype(np.float32)
    mottle = cv2.resize(small, (size, size), interpolation=cv2.INTER_CUBIC)
    img = np.clip(img.astype(np.float32) * (1.0 + 0.05 * mottle[..., None]), 0, 255)
    img = img.astype(np.uint8)
    n = int(radius * radius / 60)
    xs, ys = rng.integers(0, size - 1, n), rng.integers(0, size - 1, n)
    img[ys, xs] = MEADOW_DARK
    img[ys + 1, xs] = MEADOW_DARK
    return img


def task_icon(img: np.ndarray, task_type: str, c: tuple[float, float], s: float) -> None:
    """The task-type icon inside a speech bubble (``s`` = half the icon size)."""
    x, y = c
    if task_type == "forest":
        cv2.rectangle(img, (int(x - s * 0.12), int(y)), (int(x + s * 0.12), int(y + s * 0.9)),
                      (40, 70, 100), -1)
        circle(img, (x, y - s * 0.15), s * 0.6, (40, 140, 40))
    elif task_type == "grain":
        fill_poly(img, [(x - s * 0.6, y + s * 0.7), (x, y - s * 0.8), (x + s * 0.6, y + s * 0.7)],
                  (30, 190, 240))
        polyline(img, np.array([(x, y - s * 0.6), (x, y + s * 0.7)]), (20, 130, 200),
                 max(1.0, s * 0.1))
    elif task_type == "village":
        fill_poly(img, [(x - s * 0.65, y - s * 0.05), (x, y - s * 0.75),
                        (x + s * 0.65, y - s * 0.05), (x + s * 0.5, y + s * 0.7),
                        (x - s * 0.5, y + s * 0.7)], (40, 50, 210))
    elif task_type == "track":
        for side in (-1, 1):
            polyline(img, np.array([(x + side * s * 0.35, y - s * 0.8),
                                    (x + side * s * 0.35, y + s * 0.8)]), (70, 70, 70),
                     max(1.0, s * 0.12))
        for k in range(-2, 3):
            polyline(img, np.array([(x - s * 0.6, y + k * s * 0.32),
                                    (x + s * 0.6, y + k * s * 0.32)]), (70, 70, 70),
                     max(1.0, s * 0.1))
    else:  # stream (and anything unknown): a water drop
        circle(img, (x, y + s * 0.2), s * 0.5, (200, 140, 50))
        fill_poly(img, [(x - s * 0.45, y + s * 0.05), (x, y - s * 0.8),
                        (x + s * 0.45, y + s * 0.05)], (200, 140, 50))


def _bubble(img: np.ndarray, task_type: str, c: tuple[float, float], radius: float) -> None:
    half = radius * 0.19
    x, y = c
    tail = [(x - half * 0.5, y + half * 0.8), (x - half * 0.9, y + half * 1.6),
            (x + half * 0.1, y + half * 0.8)]
    shadow = np.array([(x - half + 2, y - half + 3), (x + half + 2, y - half + 3),
                       (x + half + 2, y + half + 3), (x - half + 2, y + half + 3)])
    fill_poly(img, shadow, (60, 90, 70))
    rr = half * 0.35
    cv2.rectangle(img, (round(x - half + rr), round(y - half)),
                  (round(x + half - rr), round(y + half)), BUBBLE, -1, cv2.LINE_AA)
    cv2.rectangle(img, (round(x - half), round(y - half + rr)),
                  (round(x + half), round(y + half - rr)), BUBBLE, -1, cv2.LINE_AA)
    for cx, cy in ((x - half + rr, y - half + rr), (x + half - rr, y - half + rr),
                   (x + half - rr, y + half - rr), (x - half + rr, y + half - rr)):
        circle(img, (cx, cy), rr, BUBBLE)
    fill_poly(img, tail, BUBBLE)
    task_icon(img, task_type, (x, y), half * 0.7)


def draw_marker(img: np.ndarray, task_type: str, value: int, c: tuple[float, float],
                radius: float, angle_deg: float, shape: str = "round") -> None:
    """A task marker (``round`` or ``hex`` disc) with its digit, turned by ``angle_deg``."""
    r = radius * 0.17
    side = int(r * 2.6) | 1
    patch = np.zeros((side, side, 3), np.uint8)
    alpha = np.zeros((side, side), np.uint8)
    m = (side / 2, side / 2)
    colour = MARKER_COLOURS.get(task_type, (120, 120, 120))
    if shape == "hex":
        fill_poly(alpha, hexagon(r * 1.08, m), (255,))
        fill_poly(patch, hexagon(r * 1.08, m), colour)
    else:
        circle(alpha, m, r, (255,))
        circle(patch, m, r, colour)
    circle(patch, m, r * 0.72, (245, 245, 245))
    text = str(value)
    scale = r * 0.95 / 22.0
    thick = max(1, round(r * 0.13))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, thick)
    cv2.putText(patch, text, (round(m[0] - tw / 2), round(m[1] + th / 2)),
                cv2.FONT_HERSHEY_DUPLEX, scale, (20, 20, 20), thick, cv2.LINE_AA)
    rot = cv2.getRotationMatrix2D(m, angle_deg, 1.0)
    patch = np.asarray(cv2.warpAffine(patch, rot, (side, side), flags=cv2.INTER_LINEAR))
    alpha = np.asarray(cv2.warpAffine(alpha, rot, (side, side), flags=cv2.INTER_LINEAR))
    x0, y0 = round(c[0] - side / 2), round(c[1] - side / 2)
    # soft contact shadow
    sh = cv2.GaussianBlur(alpha, (0, 0), max(1.0, r * 0.12))
    _blend(img, np.zeros_like(patch), (sh * 0.45).astype(np.uint8), x0 + round(r * 0.1),
           y0 + round(r * 0.15))
    _blend(img, patch, alpha, x0, y0)


def _blend(img: np.ndarray, patch: np.ndarray, alpha: np.ndarray, x0: int, y0: int) -> None:
    h, w = alpha.shape
    H, W = img.shape[:2]
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(W, x0 + w), min(H, y0 + h)
    if xa >= xb or ya >= yb:
        return
    a = alpha[ya - y0:yb - y0, xa - x0:xb - x0].astype(np.float32)[..., None] / 255.0
    roi = img[ya:yb, xa:xb].astype(np.float32)
    p = patch[ya - y0:yb - y0, xa - x0:xb - x0].astype(np.float32)
    img[ya:yb, xa:xb] = (roi * (1 - a) + p * a).astype(np.uint8)


def draw_flag(img: np.ndarray, flag: str, c: tuple[float, float], radius: float) -> None:
    """A small flag: pole and coloured pennant, with a white outline."""
    x, y = c
    h = radius * 0.30
    polyline(img, np.array([(x + 3, y + 3), (x + 3, y - h + 3)]), (40, 60, 60),
             max(2.0, radius * 0.03))
    polyline(img, np.array([(x, y), (x, y - h)]), (50, 60, 70), max(2.0, radius * 0.025))
    cloth = [(x, y - h), (x + h * 0.75, y - h * 0.78), (x, y - h * 0.55)]
    cv2.polylines(img, [_pts(cloth)], True, (250, 250, 250), max(1, round(radius * 0.02)),
                  cv2.LINE_AA, shift=4)
    fill_poly(img, cloth, FLAG_COLOURS.get(flag, (200, 200, 200)))


def draw_tile(art: TileArt, radius: float, rng: np.random.Generator,
              pad: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """Draw one tile; return ``(bgr, alpha)`` canvases of side ``2 * (pad + ceil(R))``."""
    half = pad + math.ceil(radius)
    size = 2 * half
    centre = (half, half)
    img = _meadow(size, radius, rng)
    shape = (size, size)
    code = art.code
    for letter, edges in runs(code):
        if letter not in TERRITORY:
            continue
        depth = 0.0 if len(edges) >= 5 else rng.uniform(0.22, 0.34)
        poly = territory_polygon(edges, radius, centre, depth, rng)
        mask = _mask_of(shape, poly)
        if letter == "G":
            _paint_grain(img, mask, radius, rng)
        elif letter == "F":
            _paint_forest(img, mask, radius, rng)
        else:
            _paint_village(img, mask, edges, radius, centre, rng)
    for letter in NETWORK:
        edges = [i for i in range(6) if code[i] == letter]
        if not edges:
            continue
        if letter == "S":
            _paint_stream(img, edges, radius, centre, rng)
        else:
            _paint_track(img, edges, radius, centre)
    # items on the tile, kept away from the edge bands
    spots = _free_spots(code, radius, centre, rng)
    if art.task_type:
        _bubble(img, art.task_type, spots[0], radius)
        if art.marker is not None:
            draw_marker(img, art.task_type, art.marker, spots[1], radius,
                        float(rng.uniform(-180, 180)), "hex" if rng.random() < 0.5 else "round")
    if art.flag:
        draw_flag(img, art.flag, spots[2], radius)
    alpha = np.zeros(shape, np.uint8)
    hexpoly = hexagon(radius, centre)
    fill_poly(alpha, hexpoly, (255,))
    cv2.polylines(img, [_pts(hexpoly)], True, CARDBOARD, max(1, round(radius * 0.025)),
                  cv2.LINE_AA, shift=4)
    return img, alpha


def _free_spots(code: str, radius: float, centre: tuple[float, float],
                rng: np.random.Generator) -> list[tuple[float, float]]:
    """Three points for bubble, marker and flag, near the centre and apart."""
    base = rng.uniform(0, 360)
    out = []
    for k in range(3):
        a = math.radians(base + 120 * k + rng.uniform(-15, 15))
        d = radius * rng.uniform(0.24, 0.30)
        out.append((centre[0] + d * math.cos(a), centre[1] + d * math.sin(a)))
    return out
