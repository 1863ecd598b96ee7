"""Synthetic photos for the scanner's tests: flat-coloured hex tiles drawn with cv2.

Representation: ``draw_map(tiles, ...)`` takes ``{(q, r): code}`` and returns a BGR
photo plus the image centre of every cell. Each tile is the flat-topped hexagon of
``Layout``; edge ``e``'s terrain fills the triangle from the centre to that edge
(track and stream as a strip with sleepers / pale banks across meadow), with a
dark rim as real tiles have. A perspective tilt, blur and noise make it photo-like.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.rules import Layout, opposite


def hsv_bgr(h: int, s: int, v: int) -> tuple[int, int, int]:
    px = cv2.cvtColor(np.uint8([[[h, s, v]]]), cv2.COLOR_HSV2BGR)[0, 0]
    return (int(px[0]), int(px[1]), int(px[2]))


MEADOW = hsv_bgr(30, 190, 150)
FOREST = hsv_bgr(45, 150, 75)
GRAIN = hsv_bgr(22, 235, 225)
ROOF = hsv_bgr(4, 200, 190)
COBBLE = hsv_bgr(25, 25, 200)
TRACK = hsv_bgr(15, 60, 80)
RAIL = hsv_bgr(0, 0, 170)
WATER = hsv_bgr(102, 170, 170)
BANK = hsv_bgr(25, 30, 215)
RIM = hsv_bgr(15, 120, 70)


def draw_tile(canvas: np.ndarray, center: tuple[float, float], size: float, code: str,
              rng: np.random.Generator) -> None:
    """Draw one tile (in place on ``canvas``, which the caller owns)."""
    cx, cy = center
    corners = [(cx + size * math.cos(math.radians(60 * k)),
                cy + size * math.sin(math.radians(60 * k))) for k in range(6)]
    pts = np.round(np.array(corners)).astype(np.int32)
    cv2.fillConvexPoly(canvas, pts, RIM)
    inner = np.round(np.array([(cx + 0.94 * (x - cx), cy + 0.94 * (y - cy))
                               for x, y in corners])).astype(np.int32)
    cv2.fillConvexPoly(canvas, inner, MEADOW)
    for e, letter in enumerate(code):
        a = inner[(e + 4) % 6]
        b = inner[(e + 5) % 6]
        tri = np.array([[cx, cy], a, b], np.float64)
        if letter in "FGV":
            shrink = np.array([[cx + 0.15 * (a[0] + b[0] - 2 * cx) / 2,
                                cy + 0.15 * (a[1] + b[1] - 2 * cy) / 2], a, b])
            colour = {"F": FOREST, "G": GRAIN, "V": COBBLE}[letter]
            cv2.fillConvexPoly(canvas, np.round(shrink).astype(np.int32), colour)
            if letter == "F":
                for _ in range(6):
                    w = rng.random(3)
                    w /= w.sum()
                    p = (w @ shrink).astype(int)
                    cv2.circle(canvas, (int(p[0]), int(p[1])), max(2, int(size * 0.08)),
                               hsv_bgr(50, 160, 55), -1)
            if letter == "V":
                w = np.array([0.2, 0.4, 0.4])
                p = (w @ tri).astype(int)
                half = max(2, int(size * 0.1))
                cv2.rectangle(canvas, (int(p[0]) - half, int(p[1]) - half),
                              (int(p[0]) + half, int(p[1]) + half), ROOF, -1)
        elif letter in "TS":
            mid = (a + b) / 2.0
            width = size * (0.22 if letter == "T" else 0.3)
            d = mid - np.array([cx, cy])
            d /= np.linalg.norm(d)
            n = np.array([-d[1], d[0]])
            start = np.array([cx, cy])
            end = mid
            quad = np.array([start + n * width / 2, end + n * width / 2,
                             end - n * width / 2, start - n * width / 2])
            if letter == "T":
                cv2.fillConvexPoly(canvas, np.round(quad).astype(np.int32), TRACK)
                for t in np.linspace(0.1, 1.0, 8):
                    p = start + (end - start) * t
                    p1, p2 = p + n * width / 2, p - n * width / 2
                    cv2.line(canvas, tuple(np.round(p1).astype(int)),
                             tuple(np.round(p2).astype(int)), hsv_bgr(10, 90, 50), 2)
                for side in (-0.3, 0.3):
                    cv2.line(canvas, tuple(np.round(start + n * width * side).astype(int)),
                             tuple(np.round(end + n * width * side).astype(int)), RAIL, 1)
            else:
                cv2.fillConvexPoly(canvas, np.round(quad).astype(np.int32), BANK)
                q2 = np.array([start + n * width / 3, end + n * width / 3,
                               end - n * width / 3, start - n * width / 3])
                cv2.fillConvexPoly(canvas, np.round(q2).astype(np.int32), WATER)


def draw_map(tiles: dict[tuple[int, int], str], size: float = 60.0,
             tilt_deg: float = 0.0, rotate_deg: float = 0.0, seed: int = 0,
             background: tuple[int, int, int] = (70, 110, 150), gap: float = 0.0,
             canvas_size: tuple[int, int] = (1600, 1200),
             tasks: dict[tuple[int, int], tuple[str, int | None, float]] | None = None,
             ) -> tuple[np.ndarray, dict[tuple[int, int], tuple[float, float]]]:
    """A photo of ``tiles`` (BGR) and each cell's centre in it.

    ``tilt_deg`` tilts the table away from the camera (perspective), ``rotate_deg``
    turns it in the image plane; ``gap`` spaces tiles apart (in fractions of size);
    ``tasks`` puts a speech bubble (task type) and a marker (value, angle) on cells.
    """
    rng = np.random.default_rng(seed)
    w, h = canvas_size
    flat = np.zeros((h, w, 3), np.uint8)
    flat[:] = background
    noise = rng.normal(0, 6, (h, w, 1))
    flat = np.clip(flat.astype(np.float64) + noise, 0, 255).astype(np.uint8)
    lay = Layout(size * (1 + gap), (0.0, 0.0))
    pix = {c: lay.to_pixel(c) for c in tiles}
    xs = [p[0] for p in pix.values()]
    ys = [p[1] for p in pix.values()]
    ox = w / 2 - (min(xs) + max(xs)) / 2
    oy = h / 2 - (min(ys) + max(ys)) / 2
    centres = {c: (p[0] + ox, p[1] + oy) for c, p in pix.items()}
    for cell, code in tiles.items():
        draw_tile(flat, centres[cell], size, code, rng)
        if tasks and cell in tasks:
            draw_task(flat, centres[cell], size, *tasks[cell])
    # Perspective: rotate in plane, then tilt about the horizontal axis.
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    t = math.tan(math.radians(tilt_deg)) * 0.35
    dst = np.float32([[w * t, h * t * 0.5], [w * (1 - t), h * t * 0.5], [w, h], [0, h]])
    persp = cv2.getPerspectiveTransform(src, dst)
    rot = np.vstack([cv2.getRotationMatrix2D((w / 2, h / 2), rotate_deg, 1.0), [0, 0, 1]])
    total = persp @ rot
    bg_fill = tuple(int(x) for x in background)
    photo = cv2.warpPerspective(flat, total, (w, h), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=bg_fill)
    photo = cv2.GaussianBlur(photo, (3, 3), 0)
    photo = np.clip(photo.astype(np.float64) + rng.normal(0, 3, photo.shape), 0, 255)
    pts = np.array(list(centres.values()), np.float64).reshape(-1, 1, 2)
    moved = cv2.perspectiveTransform(pts, total).reshape(-1, 2)
    return photo.astype(np.uint8), {c: (float(x), float(y))
                                    for c, (x, y) in zip(centres, moved, strict=True)}


def random_map(n: int, seed: int = 0, once: bool = False) -> dict[tuple[int, int], str]:
    """A connected blob of ``n`` cells holding rotated landscape tiles of the catalogue,
    chosen so that track and stream edges meet their own kind where possible. Drawn with
    replacement unless ``once``: then a map a table can hold, each physical tile at most
    once (what the scanner's inventory decoding expects)."""
    from companion.rules import catalogue, rotate

    pool = [t.code for t in catalogue() if t.section == "landscape"]
    rng = np.random.default_rng(seed)
    dirs = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
    cells = [(0, 0)]
    while len(cells) < n:
        q, r = cells[int(rng.integers(len(cells)))]
        dq, dr = dirs[int(rng.integers(6))]
        nb = (q + dq, r + dr)
        if nb not in cells:
            cells.append(nb)
    codes: dict[tuple[int, int], str] = {}
    for cell in cells:
        best, best_bad, best_j = "", 99, -1
        for _ in range(300):
            j = int(rng.integers(len(pool)))
            code = rotate(pool[j], int(rng.integers(6)))
            bad = 0
            for e, (dq, dr) in enumerate(dirs):
                other = codes.get((cell[0] + dq, cell[1] + dr))
                if other is None:
                    continue
                a, b = code[e], other[opposite(e)]
                if (a in "TS" or b in "TS") and a != b:
                    bad += 1
            if bad < best_bad:
                best, best_bad, best_j = code, bad, j
            if bad == 0:
                break
        codes[cell] = best
        if once:
            pool.pop(best_j)
    return codes


ICON = {"forest": hsv_bgr(31, 170, 120), "grain": hsv_bgr(21, 230, 180),
        "village": hsv_bgr(4, 180, 110), "stream": hsv_bgr(99, 80, 140),
        "track": hsv_bgr(8, 90, 90)}


def draw_task(canvas: np.ndarray, center: tuple[float, float], size: float, task: str,
              value: int | None = None, angle: float = 0.0) -> None:
    """Draw a speech bubble with the task icon and, optionally, a number marker beside
    it turned by ``angle`` degrees (in place on ``canvas``)."""
    cx, cy = center
    half = size * 0.16
    x0, y0 = int(cx - half), int(cy - half - size * 0.3)
    x1, y1 = int(cx + half), int(cy + half - size * 0.3)
    cv2.rectangle(canvas, (x0, y0), (x1, y1), (245, 245, 245), -1)
    cv2.circle(canvas, ((x0 + x1) // 2, (y0 + y1) // 2), int(half * 0.55), ICON[task], -1)
    if value is None:
        return
    r = int(size * 0.2)
    patch = np.zeros((4 * r, 4 * r, 3), np.uint8)
    mask = np.zeros((4 * r, 4 * r), np.uint8)
    cv2.circle(patch, (2 * r, 2 * r), r, (200, 225, 235), -1)
    cv2.circle(mask, (2 * r, 2 * r), r, 255, -1)
    scale = r / 28.0
    (tw, th), _ = cv2.getTextSize(str(value), cv2.FONT_HERSHEY_DUPLEX, scale, 3)
    cv2.putText(patch, str(value), (2 * r - tw // 2, 2 * r + th // 2),
                cv2.FONT_HERSHEY_DUPLEX, scale, (40, 40, 60), max(2, int(3 * scale)),
                cv2.LINE_AA)
    rot = cv2.getRotationMatrix2D((2 * r, 2 * r), angle, 1.0)
    patch = cv2.warpAffine(patch, rot, (4 * r, 4 * r))
    mask = cv2.warpAffine(mask, rot, (4 * r, 4 * r))
    px, py = int(cx - 2 * r), int(cy + size * 0.25 - 2 * r)
    region = canvas[py:py + 4 * r, px:px + 4 * r]
    region[mask > 127] = patch[mask > 127]
