"""What a real table adds to a rendered photo (issue 14 item 8): test data only.

Representation: ``TableParams`` holds one photo's draws (all from their own generator,
so switching them on leaves the other draws of ``render`` unchanged): tiles laid by
hand (extra shift in tile radii and turn in degrees), cardboard walls (a factor on the
side seen under tilt), the light's colour temperature in kelvin (the camera corrects
``correction`` of its cast) and exposure in EV, vignetting (gain lost at the corners),
barrel distortion ``k1`` (a pixel at normalised radius ``r`` of the photo shows what
lies at ``r (1 + k1 r^2)``; up to 0.04, the residual a phone leaves after its own
correction: 4 % at the corners), a shadow band across part of the map (depth, direction),
the table (``BACKGROUNDS`` adds a green felt play mat and a patterned cloth) and the
clutter beside the map (``score pad``, ``cards``, ``box lid``, loose ``markers``).
Every function returns a new image; ``barrel_points`` moves truth points the way
``barrel`` moves the image.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.synth.render_art import draw_marker
from companion.vision.synth.render_scene import background as plain_background
from companion.vision.synth.train_terrain import kelvin_rgb

BACKGROUNDS = ("wood", "cloth", "mat", "green-mat", "pattern")
CLUTTER = ("score pad", "cards", "box lid", "markers")


@dataclass(frozen=True)
class TableParams:
    shift: float
    turn_deg: float
    wall: float
    kelvin: float
    correction: float
    ev: float
    vignette: float
    k1: float
    band_depth: float
    band_angle: float
    band_offset: float
    background: str
    clutter: tuple[str, ...]

    def to_json(self) -> dict[str, object]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def table_params(rng: np.random.Generator) -> TableParams:
    """One real table's conditions, drawn from ``rng``."""
    clutter = tuple(c for c in CLUTTER if rng.random() < 0.6)
    return TableParams(
        shift=float(rng.uniform(0.02, 0.06)), turn_deg=float(rng.uniform(2.0, 5.0)),
        wall=float(rng.uniform(1.3, 2.2)), kelvin=float(rng.uniform(2700, 7500)),
        correction=float(rng.uniform(0.5, 0.9)), ev=float(rng.uniform(-1.0, 0.8)),
        vignette=float(rng.uniform(0.1, 0.45)), k1=float(rng.uniform(0.0, 0.04)),
        band_depth=float(rng.choice([0.0, rng.uniform(0.2, 0.45)])),
        band_angle=float(rng.uniform(0, 2 * math.pi)), band_offset=float(rng.uniform(-0.3, 0.3)),
        background=str(BACKGROUNDS[int(rng.integers(0, len(BACKGROUNDS)))]),
        clutter=clutter)


def background(kind: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """``render_scene.background`` plus a green felt play mat and a patterned cloth."""
    w, h = size
    if kind == "green-mat":
        base = np.array(rng.choice([(60, 120, 40), (70, 140, 75), (50, 105, 60)]), np.uint8)
        img = np.empty((h, w, 3), np.uint8)
        img[:] = base
        noise = np.empty((h, w, 3), np.int16)
        cv2.randn(noise, np.zeros(3), np.full(3, 5.0))
        return cv2.add(img, noise, dtype=cv2.CV_8U)
    if kind == "pattern":
        a = np.array(rng.choice([(200, 205, 215), (170, 190, 230), (215, 215, 200)]), np.float32)
        b = a * rng.uniform(0.55, 0.8)
        period = int(max(8, min(w, h) / rng.uniform(25, 60)))
        yy, xx = np.mgrid[0:h, 0:w]
        checks = ((xx // period + yy // period) % 2).astype(np.float32)[..., None]
        return np.clip(a * (1 - checks) + b * checks, 0, 255).astype(np.uint8)
    return plain_background(kind, size, rng)


def light_colour(img: np.ndarray, kelvin: float, correction: float, ev: float) -> np.ndarray:
    """The light's colour (partly corrected by the camera's white balance) and exposure."""
    cast = kelvin_rgb(kelvin) / kelvin_rgb(6500.0)
    cast = cast / float(cast.mean())
    gains = (cast ** (1.0 - correction)) * (2.0 ** ev)
    out: np.ndarray = (img.astype(np.float32) * gains[None, None, :].astype(np.float32)
                       ).clip(0, 255).astype(np.uint8)
    return out


def vignette_and_band(size: tuple[int, int], vignette: float, depth: float, angle: float,
                      offset: float) -> np.ndarray:
    """Float32 gain field: corners darker by ``vignette``, and a straight-edged shadow
    band (``depth``) over one side of a line through the photo."""
    w, h = size
    sw, sh = max(16, w // 8), max(16, h // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    u, v = xx / sw - 0.5, yy / sh - 0.5
    gain = 1.0 - vignette * (u * u + v * v) / 0.5
    if depth > 0:
        side = u * math.cos(angle) + v * math.sin(angle) - offset
        gain *= 1.0 - depth / (1.0 + np.exp(-side * 60.0))
    return cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def _normalised(points: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, float]:
    w, h = size
    half = 0.5 * math.hypot(w, h)
    return (points - np.array([w / 2, h / 2])) / half, half


def barrel(img: np.ndarray, k1: float) -> np.ndarray:
    """Barrel distortion: the pixel at normalised radius r shows what lay at r(1+k1 r^2)."""
    if k1 <= 0:
        return img
    h, w = img.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    d, half = _normalised(np.stack([xx, yy], axis=-1), (w, h))
    factor = 1.0 + k1 * (d[..., 0] ** 2 + d[..., 1] ** 2)
    mx = (d[..., 0] * factor * half + w / 2).astype(np.float32)
    my = (d[..., 1] * factor * half + h / 2).astype(np.float32)
    return cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def barrel_points(points: np.ndarray, size: tuple[int, int], k1: float) -> np.ndarray:
    """Where ``barrel`` moves image points (N x 2): solves rd (1 + k1 rd^2) = r."""
    pts = np.asarray(points, np.float64)
    if k1 <= 0:
        return pts
    u, half = _normalised(pts, size)
    r = np.hypot(u[:, 0], u[:, 1])
    rd = r.copy()
    for _ in range(20):
        rd = r / (1.0 + k1 * rd * rd)
    scale = np.where(r > 0, rd / np.maximum(r, 1e-12), 1.0)
    w, h = size
    return u * scale[:, None] * half + np.array([w / 2, h / 2])


def draw_clutter(img: np.ndarray, map_alpha: np.ndarray, radius_px: float,
                 clutter: tuple[str, ...], rng: np.random.Generator) -> np.ndarray:
    """``clutter`` laid beside the map (never on it): a ruled white score pad, playing
    cards, a colourful box lid, loose task markers."""
    out = img.copy()
    h, w = out.shape[:2]
    taken = cv2.dilate((map_alpha > 0).astype(np.uint8),
                       np.ones((int(radius_px * 0.6) | 1,) * 2, np.uint8))
    sizes = {"score pad": (2.6, 3.6), "cards": (1.5, 2.2), "box lid": (4.5, 4.5),
             "markers": (1.6, 1.6)}
    for kind in clutter:
        bw, bh = (int(s * radius_px) for s in sizes[kind])
        for _ in range(40):  # find a free place
            x0 = int(rng.integers(0, max(1, w - bw)))
            y0 = int(rng.integers(0, max(1, h - bh)))
            if not taken[y0:y0 + bh, x0:x0 + bw].any():
                break
        else:
            continue
        taken[y0:y0 + bh, x0:x0 + bw] = 1
        box = out[y0:y0 + bh, x0:x0 + bw]
        if kind == "score pad":
            box[:] = (235, 240, 242)
            for y in range(int(bh * 0.1), bh, max(4, bh // 14)):
                cv2.line(box, (4, y), (bw - 4, y), (150, 120, 90), max(1, bh // 200))
            for y in range(int(bh * 0.15), bh - 8, max(8, bh // 7)):
                cv2.putText(box, str(int(rng.integers(5, 99))), (bw // 3, y),
                            cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, bh / 400, (90, 40, 20),
                            max(1, bh // 120), cv2.LINE_AA)
        elif kind == "cards":
            for i in range(3):
                colour = tuple(int(c) for c in rng.integers(40, 230, 3))
                cw, ch = int(bw * 0.55), int(bh * 0.8)
                cx, cy = int(i * bw * 0.2), int(i * bh * 0.07)
                cv2.rectangle(box, (cx, cy), (cx + cw, cy + ch), (240, 240, 240), -1)
                cv2.rectangle(box, (cx + cw // 10, cy + ch // 10),
                              (cx + cw * 9 // 10, cy + ch * 6 // 10), colour, -1)
        elif kind == "box lid":
            art = (rng.random((6, 6, 3)) * 200 + 30).astype(np.uint8)
            art[..., 1] = np.maximum(art[..., 1], 120)  # a green landscape, like the tiles
            box[:] = cv2.resize(art, (bw, bh), interpolation=cv2.INTER_CUBIC)
            cv2.rectangle(box, (0, 0), (bw - 1, bh - 1), (30, 60, 140), max(2, bw // 40))
        else:
            for _ in range(3):
                c = (float(rng.uniform(0.25, 0.75) * bw), float(rng.uniform(0.25, 0.75) * bh))
                draw_marker(box, str(rng.choice(["forest", "grain", "village"])),
                            int(rng.integers(4, 7)), c, radius_px, float(rng.uniform(0, 360)))
    return out
