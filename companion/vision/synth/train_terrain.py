"""Train (and evaluate) the learned edge-terrain model of ``companion.vision.terrain_model``.

Representation: a *sample* is one rectified tile (``MODEL_RADIUS``) with the code it
shows and where it came from: a procedural render (``render.render_record`` photo,
rectified at the truth corners; group = the render seed) or a real crop of the
development photos in ``--tiles DIR`` (rectified again from the photo at the tile's
found corners; group = the physical tile). Every sample goes through ``augment``:
rectification error (turn, shift, scale, corner jitter; half the views shifted as far
as the scanner misplaces tiles of a hand-laid map), 60-degree turns, mirror,
resolution, then light and sensor (white balance 2700-7500 K partly corrected by the
camera, exposure +-1.5 EV, saturation, gamma, a cast shadow, glare, blur, noise, JPEG
60-95). The six edges of a sample are six rows of features
(``terrain_model.edge_features``); the MLP is trained with a hand-written numpy Adam
loop (softmax cross-entropy, class weights, L2), seeded, no extra dependency.

    python -m companion.vision.synth.train_terrain [--tiles DIR] [--out PATH]
    python -m companion.vision.synth.train_terrain --evaluate [--folds 5] [--write]

(``make train-scanner``, about 3 minutes; ``make train-scanner EVALUATE=1``, about 6.
Run with ``OPENBLAS_NUM_THREADS=1`` as the Makefile does: a threaded BLAS on a busy
2-core machine makes the small matrix products ten times slower.) Real tiles are also
laid among neighbouring tiles (``flower``: other real crops of the same fold, gaps,
table colours) before the rectification error, as in an assembled map.

``--evaluate`` never tests on a tile it trained on: k-fold over the real tiles (train on
renders + the other folds' tiles, test on the held-out tiles under fixed conditions),
and renders from seeds never used in training; it prints the learned model next to the
hand-set HSV reading (``edges.edge_probabilities``) on the same images. The real photos
are third-party: read at training time only, nothing of them is written anywhere but
the model's weights.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.rules import rotate
from companion.vision import terrain_model as tm
from companion.vision.rectify import hexagon_mask, rectify

LETTERS = tm.LETTERS
R = tm.MODEL_RADIUS
SEED = 20261201
PHOTOS = ("landscape-01-20.jpg", "task-01-25.jpg")


# --- augmentation ---------------------------------------------------------------------

def kelvin_rgb(kelvin: float) -> np.ndarray:
    """Approximate (B, G, R) of a black body at ``kelvin`` (Tanner Helland's fit), 0..1."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = (99.4708025861 * math.log(t) - 161.1195681661 if t <= 66
         else 288.1221695283 * (t - 60) ** -0.0755148492)
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else
                               138.5177312231 * math.log(t - 10) - 305.0447927307)
    return np.clip(np.array([b, g, r]) / 255.0, 0.05, 1.0)


def white_balance_gains(kelvin: float, residual: float) -> np.ndarray:
    """Channel gains of light at ``kelvin`` after a camera corrected ``1 - residual`` of it."""
    g = (kelvin_rgb(kelvin) / kelvin_rgb(6500.0)) ** residual
    return g / float(np.dot(g, (0.114, 0.587, 0.299)))


@dataclass(frozen=True)
class Photometric:
    kelvin: float = 6500.0
    residual: float = 0.0
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    ev: float = 0.0
    saturation: float = 1.0
    gamma: float = 1.0
    shadow: float = 0.0
    """Darkness of a soft cast shadow over part of the tile (0 = none)."""
    glare: float = 0.0
    blur: float = 0.0
    blur_ratio: float = 1.0
    """Vertical over horizontal blur (a tilted camera resolves one direction less)."""
    noise: float = 0.0
    jpeg: int | None = None


@dataclass(frozen=True)
class Geometric:
    turn_deg: float = 0.0
    shift: tuple[float, float] = (0.0, 0.0)
    """Fractions of the radius."""
    scale: float = 1.0
    jitter: float = 0.0
    """Per-corner jitter, fraction of the radius."""
    radius: int = R
    """Radius at which the tile is rectified (then resized to ``R`` by the model)."""
    rim_depth: float = 0.0
    """A cardboard side or a gap seen inside the outline: a dark strip this deep (fraction
    of the radius) along ``rim_edges`` consecutive edges from ``rim_start``."""
    rim_start: int = 0
    rim_edges: int = 0


def random_photometric(rng: np.random.Generator) -> Photometric:
    return Photometric(
        kelvin=float(rng.uniform(2700, 7500)), residual=float(rng.uniform(0.0, 1.0)),
        tint=tuple(float(v) for v in 1.0 + rng.uniform(-0.05, 0.05, 3)),  # type: ignore[arg-type]
        ev=float(rng.uniform(-1.5, 1.5)), saturation=float(rng.uniform(0.6, 1.4)),
        gamma=float(rng.uniform(0.7, 1.4)),
        shadow=float(rng.uniform(0.2, 0.6)) if rng.random() < 0.3 else 0.0,
        glare=float(rng.uniform(0.15, 0.6)) if rng.random() < 0.25 else 0.0,
        blur=float(rng.uniform(0.0, 1.6)), blur_ratio=float(rng.uniform(0.5, 2.0)),
        noise=float(rng.uniform(0.0, 8.0)),
        jpeg=int(rng.integers(60, 96)) if rng.random() < 0.8 else None)


SHIFT_SIGMA = 0.025
"""Spread of a view's shift (fraction of the radius) as a tile's own outline gives it..."""
LOCATED_SHIFT_SIGMA = 0.09
LOCATED_SHARE = 0.5
"""...and, for this share of the views, as the scanner locates tiles in a map laid by
hand (measured on composites: a median 0.07 of the radius off, one tile in ten 0.15)."""


def _shift_sigma(rng: np.random.Generator) -> float:
    return SHIFT_SIGMA if rng.random() >= LOCATED_SHARE else LOCATED_SHIFT_SIGMA


def random_geometric(rng: np.random.Generator) -> Geometric:
    return Geometric(
        turn_deg=float(rng.normal(0, 2.5)),
        shift=tuple(rng.normal(0, _shift_sigma(rng), 2)),  # type: ignore[arg-type]
        scale=float(np.exp(rng.normal(0, 0.03))), jitter=float(rng.uniform(0, 0.02)),
        radius=R if rng.random() < 0.6 else int(rng.integers(26, R)),
        rim_depth=float(rng.uniform(0.01, 0.06)) if rng.random() < 0.3 else 0.0,
        rim_start=int(rng.integers(0, 6)), rim_edges=int(rng.integers(1, 4)))


def perturb_corners(corners: np.ndarray, geo: Geometric, rng: np.random.Generator
                    ) -> np.ndarray:
    c = np.asarray(corners, np.float64).reshape(6, 2)
    centre = c.mean(axis=0)
    size = float(np.linalg.norm(c - centre, axis=1).mean())
    a = math.radians(geo.turn_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    out = (c - centre) @ rot.T * geo.scale + centre + np.asarray(geo.shift) * size
    out = out + rng.normal(0, geo.jitter * size, (6, 2))
    return out


def apply_photometric(tile: np.ndarray, p: Photometric, rng: np.random.Generator
                      ) -> np.ndarray:
    """The rectified tile seen under ``p`` (outside of the hexagon kept black)."""
    radius = tile.shape[1] // 2
    h, w = tile.shape[:2]
    lin = (tile.astype(np.float32) / 255.0) ** 2.2
    gains = white_balance_gains(p.kelvin, p.residual) * np.asarray(p.tint)
    lin = lin * (gains * 2.0 ** p.ev).astype(np.float32).reshape(1, 1, 3)
    if p.shadow > 0 or p.glare > 0:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        if p.shadow > 0:  # a soft edge across the tile at a random place and angle
            a = rng.uniform(0, 2 * math.pi)
            off = rng.uniform(-0.5, 0.5) * radius
            dist = (xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a) - off
            soft = rng.uniform(0.03, 0.25) * radius
            cover = 1.0 / (1.0 + np.exp(-dist / soft))
            lin = lin * (1.0 - p.shadow * cover)[..., None]
        if p.glare > 0:  # white light added over a blob: seen = (1 - a) art + a white
            gx, gy = rng.uniform(0, w), rng.uniform(0, h)
            sig = rng.uniform(0.3, 1.0) * radius
            amt = p.glare * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * sig * sig))
            lin = lin * (1.0 - amt[..., None]) + amt[..., None] * float(2.0 ** min(p.ev, 0.5))
    srgb = np.clip(lin, 0.0, 1.0) ** (1 / 2.2)
    if p.saturation != 1.0:
        grey = srgb @ np.array([0.114, 0.587, 0.299], np.float32)
        srgb = grey[..., None] + p.saturation * (srgb - grey[..., None])
    srgb = np.clip(srgb, 0.0, 1.0) ** p.gamma
    img = srgb * 255.0
    if p.blur > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), sigmaX=p.blur, sigmaY=p.blur * p.blur_ratio)
    if p.noise > 0:
        img = img + rng.normal(0, p.noise, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if p.jpeg is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, p.jpeg])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    out[hexagon_mask(radius) == 0] = 0
    return out


def draw_rim(tile: np.ndarray, geo: Geometric, rng: np.random.Generator) -> np.ndarray:
    """The tile with a dark cardboard strip inside some of its edges."""
    from companion.vision.rectify import standard_corners

    out = tile.copy()
    corners = standard_corners(R).astype(np.float64)
    centre = corners.mean(axis=0)
    inset = centre + (corners - centre) * (1.0 - geo.rim_depth / (math.sqrt(3) / 2))
    colour = np.array((45, 70, 95), np.float64) * rng.uniform(0.5, 1.4) + rng.normal(0, 8, 3)
    mask = np.zeros(tile.shape[:2], np.uint8)
    for i in range(geo.rim_edges):
        e = (geo.rim_start + i) % 6
        a, b = (e + 4) % 6, (e + 5) % 6
        quad = np.array([corners[a], corners[b], inset[b], inset[a]]) * 16
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 255, cv2.LINE_AA, shift=4)
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    out = (out * (1 - alpha) + np.clip(colour, 0, 255) * alpha).astype(np.uint8)
    out[hexagon_mask(R) == 0] = 0
    return out


FLOWER_RADIUS = 80
"""Radius at which real tiles are laid among neighbours by ``flower``."""
BACKGROUNDS = ((45, 70, 95), (35, 45, 55), (70, 110, 150), (215, 222, 225), (60, 115, 70),
               (120, 120, 120))
"""Colours seen between and around tiles: cardboard side, shadowed gap, wood, white
cloth, green mat, grey table."""


def _paste_tile(canvas: np.ndarray, flat: np.ndarray, at: tuple[float, float], steps: int,
                turn_deg: float, scale: float) -> None:
    """Lay a rectified tile (turned ``steps`` x 60 degrees clockwise, and ``turn_deg``)."""
    h, w = flat.shape[:2]
    half = int(math.ceil(w / 2 * scale)) + 2
    x0 = max(0, int(at[0]) - half)
    y0 = max(0, int(at[1]) - half)
    x1 = min(canvas.shape[1], int(at[0]) + half)
    y1 = min(canvas.shape[0], int(at[1]) + half)
    if x1 <= x0 or y1 <= y0:
        return
    m = cv2.getRotationMatrix2D((w / 2 - 0.5, h / 2 - 0.5), -(60.0 * steps + turn_deg), scale)
    m[0, 2] += at[0] - w / 2 - x0
    m[1, 2] += at[1] - h / 2 - y0
    size = (x1 - x0, y1 - y0)
    img = cv2.warpAffine(flat, m, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpAffine(hexagon_mask(w // 2), m, size, flags=cv2.INTER_LINEAR)
    a = (alpha.astype(np.float32) / 255.0)[..., None]
    roi = canvas[y0:y1, x0:x1]
    roi[:] = (roi * (1 - a) + img * a).astype(np.uint8)


def flower(centre: np.ndarray, code: str, neighbours: list[np.ndarray],
           rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, str]:
    """A canvas with a tile (rectified at ``FLOWER_RADIUS``) among up to six neighbouring
    tiles (turned at random) on a table or gap colour; its corners and code as it lies."""
    rc = FLOWER_RADIUS
    side = int(5.6 * rc)
    bg = np.array(BACKGROUNDS[int(rng.integers(0, len(BACKGROUNDS)))], np.float64)
    grain = cv2.resize(rng.normal(0, 6, (side // 4, side // 4, 3)).astype(np.float32),
                       (side, side), interpolation=cv2.INTER_NEAREST)
    canvas = np.clip(bg * rng.uniform(0.8, 1.2) + grain, 0, 255).astype(np.uint8)
    mid = side / 2.0
    gap = float(rng.uniform(0.93, 0.99))
    spacing = math.sqrt(3) * rc
    if neighbours:
        for e in range(6):
            if rng.random() < 0.2:
                continue  # the edge of the map
            a = math.radians(-90 + 60 * e)
            at = (mid + spacing * math.cos(a) + rng.normal(0, 0.02 * rc),
                  mid + spacing * math.sin(a) + rng.normal(0, 0.02 * rc))
            other = neighbours[int(rng.integers(0, len(neighbours)))]
            _paste_tile(canvas, other, at, int(rng.integers(0, 6)), float(rng.normal(0, 1.5)),
                        gap)
    turn = float(rng.normal(0, 1.5))
    _paste_tile(canvas, centre, (mid, mid), 0, turn, gap)
    corners = np.array([(mid + rc * gap * math.cos(math.radians(60 * i + turn)),
                         mid + rc * gap * math.sin(math.radians(60 * i + turn)))
                        for i in range(6)])
    return canvas, corners, code


def mirror_code(code: str) -> str:
    """The code of a tile flipped left to right (edge i -> edge -i)."""
    return "".join(code[(6 - i) % 6] for i in range(6))


def sample_view(photo: np.ndarray, corners: np.ndarray, code: str, rng: np.random.Generator,
                geo: Geometric | None, photo_p: Photometric | None, turn: int | None = None,
                mirror: bool | None = None) -> tuple[np.ndarray, str]:
    """One rectified view of a tile of ``photo`` and the code it shows."""
    k = int(rng.integers(0, 6)) if turn is None else turn
    c = np.roll(np.asarray(corners, np.float64).reshape(6, 2), -k, axis=0)
    code = rotate(code, -k)
    g = geo if geo is not None else Geometric()
    c = perturb_corners(c, g, rng)
    tile = rectify(photo, c, g.radius)
    if g.radius != R:
        tile = tm.prepare(tile)
    if g.rim_depth > 0 and g.rim_edges > 0:
        tile = draw_rim(tile, g, rng)
    flip = bool(rng.random() < 0.5) if mirror is None else mirror
    if flip:
        tile = cv2.flip(tile, 1)
        code = mirror_code(code)
    if photo_p is not None:
        tile = apply_photometric(tile, photo_p, rng)
    return tile, code


# --- data -----------------------------------------------------------------------------

@dataclass
class Source:
    """A tile in a photo: where it lies and what it shows."""

    photo: np.ndarray
    corners: np.ndarray
    code: str
    group: int
    name: str

    def flat(self) -> np.ndarray:
        """The tile rectified at ``FLOWER_RADIUS`` (to lay it among neighbours)."""
        cached = getattr(self, "_flat", None)
        if cached is None:
            cached = rectify(self.photo, self.corners, FLOWER_RADIUS)
            self._flat = cached
        return cached


Pools = dict[int, list[np.ndarray]]
"""For each group, the flat tiles that may lie around its tiles in a ``flower``."""


def fold_pools(sources: list[Source], fold_of: dict[int, int]) -> Pools:
    """Neighbours from the same fold only, so a held-out fold's art never reaches training."""
    return {s.group: [o.flat() for o in sources
                      if o.group != s.group and fold_of[o.group] == fold_of[s.group]]
            for s in sources}


def fold_assignment(sources: list[Source], folds: int, seed: int) -> dict[int, int]:
    perm = np.random.default_rng(seed + 1).permutation(len(sources))
    return {int(sources[i].group): f % folds for f, i in enumerate(perm)}


def real_sources(folder: Path) -> list[Source]:
    """The development tiles, one group each: as ``composite.real_tiles`` finds them,
    plus any annotated tile it misses that the scanner's own tile finder locates (the
    all-grain task tile, which the loose-tile finder does not separate)."""
    from companion.vision.config import DEFAULT_CONFIG
    from companion.vision.io import load_photo
    from companion.vision.scan import locate_tiles
    from companion.vision.synth.composite import load_annotations, real_tiles

    tiles = real_tiles(str(folder))
    photos = {name: cv2.imread(str(folder / name), cv2.IMREAD_COLOR) for name in PHOTOS}
    out = []
    for t in tiles:
        name = PHOTOS[0] if t.section == "landscape" else PHOTOS[1]
        out.append(Source(photos[name], np.asarray(t.corners_in_photo, np.float64), t.code,
                          len(out), f"{t.section}-{t.number:02d}"))
    have = {(t.section, t.number) for t in tiles}
    notes = load_annotations()
    for name in PHOTOS:
        entry = notes[name]
        missing = [a for a in entry["tiles"] if (entry["section"], int(a["number"])) not in have]
        if not missing:
            continue
        photo = load_photo(str(folder / name), DEFAULT_CONFIG)
        found, _ = locate_tiles(photo.image, DEFAULT_CONFIG)
        for ann in missing:
            centre = np.array(ann["centre"], float)
            best = min(found, key=lambda f: float(np.linalg.norm(
                np.array(photo.to_original(tuple(f.corners.mean(axis=0)))) - centre)))
            corners = np.array([photo.to_original((float(x), float(y)))
                                for x, y in best.corners])
            size = float(np.linalg.norm(corners[0] - corners[3])) / 2
            if float(np.linalg.norm(corners.mean(axis=0) - centre)) > 0.6 * size:
                continue
            out.append(Source(photos[name], corners, rotate(ann["code"], int(ann["rotation"])),
                              len(out), f"{entry['section']}-{int(ann['number']):02d}"))
    return out


def render_sources(seeds: Iterable[int], tiles: int = 30) -> list[Source]:
    """The tiles of one procedural photo per seed (sizes, tilt, light drawn from the seed)."""
    from companion.vision.synth.render import render_record
    from companion.vision.synth.render_records import random_record

    out = []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        w = int(rng.integers(1600, 3200))
        rendered = render_record(random_record(seed, tiles), seed=seed,
                                 size_px=(w, w * 3 // 4))
        for t in rendered.tiles:
            out.append(Source(rendered.image, np.asarray(t.corners, np.float64), t.code,
                              seed, f"render-{seed}"))
    return out


def labels_of(code: str) -> list[int]:
    return [LETTERS.index(ch) for ch in code]


def build(sources: list[Source], views: int, rng: np.random.Generator,
          pools: Pools | None = None, p_flower: float = 0.5
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features (n * 6, N_FEATURES), labels and groups of ``views`` views of each source:
    the first as found, the others augmented, laid among neighbours from ``pools`` with
    probability ``p_flower``."""
    xs, ys, gs = [], [], []
    for s in sources:
        for v in range(views):
            if v == 0:
                tile, code = sample_view(s.photo, s.corners, s.code, rng, None, None)
            else:
                photo, corners, code = s.photo, s.corners, s.code
                if pools is not None and rng.random() < p_flower:
                    photo, corners, code = flower(s.flat(), s.code, pools[s.group], rng)
                tile, code = sample_view(photo, corners, code, rng,
                                         random_geometric(rng), random_photometric(rng))
            xs.append(tm.edge_features(tile))
            ys.extend(labels_of(code))
            gs.extend([s.group] * 6)
    return (np.concatenate(xs).astype(np.float32), np.asarray(ys, np.int64),
            np.asarray(gs, np.int64))


# --- the MLP --------------------------------------------------------------------------

def train_mlp(x: np.ndarray, y: np.ndarray, weight: np.ndarray, *, hidden: tuple[int, ...],
              epochs: int, seed: int, lr: float = 2e-3, l2: float = 1e-4, batch: int = 256,
              smoothing: float = 0.02, log: bool = False) -> tm.TerrainModel:
    """Softmax MLP fitted by Adam (numpy only)."""
    rng = np.random.default_rng(seed)
    mean = x.mean(axis=0)
    scale = x.std(axis=0) + 1e-3
    xn = ((x - mean) / scale).astype(np.float32)
    sizes = (x.shape[1], *hidden, len(LETTERS))
    params: list[np.ndarray] = []
    for a, b in zip(sizes[:-1], sizes[1:], strict=True):
        params.append((rng.normal(0, math.sqrt(2.0 / a), (a, b))).astype(np.float32))
        params.append(np.zeros(b, np.float32))
    m1 = [np.zeros_like(p) for p in params]
    m2 = [np.zeros_like(p) for p in params]
    target = np.full((len(y), len(LETTERS)), smoothing / len(LETTERS), np.float32)
    target[np.arange(len(y)), y] += 1.0 - smoothing
    w_all = (weight / weight.mean()).astype(np.float32)
    n = len(y)
    step = 0
    total_steps = epochs * math.ceil(n / batch)
    for epoch in range(epochs):
        order = rng.permutation(n)
        loss_sum = 0.0
        for s in range(0, n, batch):
            idx = order[s:s + batch]
            xb, tb, wb = xn[idx], target[idx], w_all[idx]
            acts = [xb]
            h = xb
            for i in range(0, len(params), 2):
                h = h @ params[i] + params[i + 1]
                if i < len(params) - 2:
                    h = np.maximum(h, 0.0)
                acts.append(h)
            z = acts[-1] - acts[-1].max(axis=1, keepdims=True)
            p = np.exp(z)
            p /= p.sum(axis=1, keepdims=True)
            loss_sum += float(-(wb[:, None] * tb * np.log(p + 1e-9)).sum())
            grad = (p - tb) * (wb[:, None] / len(idx))
            grads: list[np.ndarray] = [np.empty(0)] * len(params)
            for i in range(len(params) - 2, -1, -2):
                a_in = acts[i // 2]
                grads[i] = a_in.T @ grad + l2 * params[i]
                grads[i + 1] = grad.sum(axis=0)
                if i > 0:
                    grad = (grad @ params[i].T) * (acts[i // 2] > 0)
            step += 1
            rate = lr * 0.5 * (1 + math.cos(math.pi * step / total_steps))
            for j, g in enumerate(grads):
                m1[j] = 0.9 * m1[j] + 0.1 * g
                m2[j] = 0.999 * m2[j] + 0.001 * g * g
                mh = m1[j] / (1 - 0.9 ** step)
                vh = m2[j] / (1 - 0.999 ** step)
                params[j] -= (rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        if log:
            print(f"  epoch {epoch + 1:2d}/{epochs}  loss {loss_sum / n:.4f}", flush=True)
    layers = [(params[i], params[i + 1]) for i in range(0, len(params), 2)]
    return tm.TerrainModel(mean.astype(np.float32), scale.astype(np.float32), layers, {})


def class_weights(y: np.ndarray) -> np.ndarray:
    counts = np.bincount(y, minlength=len(LETTERS)).astype(np.float64)
    w = 1.0 / np.sqrt(np.maximum(counts, 1.0))
    return w / w[y].mean()


def fit(x_render: np.ndarray, y_render: np.ndarray, x_real: np.ndarray, y_real: np.ndarray,
        *, seed: int, epochs: int, hidden: tuple[int, ...], log: bool = False,
        real_share: float = 0.5, **options: float) -> tm.TerrainModel:
    """One model from render rows and real rows (``real_share`` of the total weight)."""
    x = np.concatenate([x_render, x_real])
    y = np.concatenate([y_render, y_real])
    src = np.concatenate([np.zeros(len(y_render)), np.ones(len(y_real))])
    w = class_weights(y)[y]
    total = w.sum()
    if len(y_render) and len(y_real):
        for s, share in ((0, 1.0 - real_share), (1, real_share)):
            sel = src == s
            w[sel] *= total * share / w[sel].sum()
    return train_mlp(x, y, w, hidden=hidden, epochs=epochs, seed=seed, log=log, **options)


# --- evaluation -----------------------------------------------------------------------

CONDITIONS: dict[str, tuple[Geometric | None, Photometric | None]] = {
    "clean": (None, None),
    "warm 2700K": (None, Photometric(kelvin=2700, residual=0.6)),
    "cool 7500K": (None, Photometric(kelvin=7500, residual=1.0)),
    "dark -1.5EV": (None, Photometric(ev=-1.5)),
    "bright +1.5EV": (None, Photometric(ev=1.5)),
    "shadow 0.5": (None, Photometric(shadow=0.5)),
    "glare 0.5": (None, Photometric(glare=0.5)),
    "blur+noise+jpeg60": (None, Photometric(blur=1.5, noise=6.0, jpeg=60)),
    "low-res r32": (Geometric(radius=32), Photometric(jpeg=80)),
    "misrectified 4deg 4%": (Geometric(turn_deg=4.0, shift=(0.03, -0.03), scale=1.04,
                                       jitter=0.01), None),
    "assembled (neighbours, gaps)": (None, None),
    "assembled, misrectified 4%, cardboard rim": (
        Geometric(turn_deg=3.0, shift=(-0.03, 0.02), scale=0.97, jitter=0.01, rim_depth=0.04,
                  rim_start=2, rim_edges=2), None),
    "assembled, located 12% off, cardboard rim": (
        Geometric(turn_deg=-2.0, shift=(0.09, -0.08), scale=1.02, jitter=0.01, rim_depth=0.04,
                  rim_start=4, rim_edges=2), None),
    "random mix": (None, None),
}
ASSEMBLED = ("assembled (neighbours, gaps)", "assembled, misrectified 4%, cardboard rim",
             "assembled, located 12% off, cardboard rim")


def condition_views(sources: list[Source], name: str, rng: np.random.Generator,
                    pools: Pools | None = None) -> list[tuple[np.ndarray, str, int]]:
    """One "photo" of the sources under a condition: all tiles share the light."""
    geo, pho = CONDITIONS[name]
    out = []
    shared = random_photometric(rng) if name == "random mix" else pho
    for s in sources:
        g = random_geometric(rng) if name == "random mix" else geo
        photo, corners, code = s.photo, s.corners, s.code
        if pools is not None and (name in ASSEMBLED or
                                  (name == "random mix" and rng.random() < 0.5)):
            photo, corners, code = flower(s.flat(), s.code, pools[s.group], rng)
        tile, code = sample_view(photo, corners, code, rng, g, shared)
        out.append((tile, code, s.group))
    return out


def score_views(views: list[tuple[np.ndarray, str, int]], models: dict[str, tm.TerrainModel]
                ) -> dict[str, tuple[int, int]]:
    """Right edges / edges for the HSV reading and each model, as the scanner would see
    the tiles: the photo's white gains applied, its glare veils divided out, the meadow
    reference of the photo (``scan.read_tiles``)."""
    from companion.vision import edges as hsv

    tiles = [t for t, _, _ in views]
    gains = hsv.white_gains(tiles)
    tiles = [hsv.apply_gains(t, gains) for t in tiles]
    tiles = [hsv.remove_veil(t, v) for t, v in zip(tiles, hsv.veils(tiles), strict=True)]
    meadow = hsv.meadow_reference(tiles)
    out = {"hsv": [0, 0]}
    out.update({k: [0, 0] for k in models})
    for t, (_, code, _) in zip(tiles, views, strict=True):
        truth = np.array(labels_of(code))
        p = hsv.edge_probabilities(t, meadow=meadow)
        out["hsv"][0] += int((p.argmax(axis=1) == truth).sum())
        out["hsv"][1] += 6
        for k, m in models.items():
            lp = tm.edge_log_likelihoods(t, m)
            out[k][0] += int((lp.argmax(axis=1) == truth).sum())
            out[k][1] += 6
    return {k: (v[0], v[1]) for k, v in out.items()}


def _pct(v: tuple[int, int]) -> str:
    return f"{100.0 * v[0] / max(v[1], 1):6.2f}% ({v[1] - v[0]:4d} wrong of {v[1]})"


# --- main -----------------------------------------------------------------------------

TRAIN_RENDER_SEEDS = range(1000, 1100)
TEST_RENDER_SEEDS = range(900000, 900012)
REAL_VIEWS = 160
RANDOM_PHOTOS = 12
"""Held-out "photos" per fold under the random mix of conditions (each its own light)."""
RENDER_VIEWS = 2
HIDDEN = (128, 64)
EPOCHS = 24


@dataclass
class TrainingSet:
    """The features of ``main``'s training: render rows, real rows with their groups,
    the real tiles and the fold of each real tile's group."""

    xr: np.ndarray
    yr: np.ndarray
    xq: np.ndarray
    yq: np.ndarray
    gq: np.ndarray
    real: list[Source]
    fold_of: dict[int, int]
    pools: Pools
    n_render: int


def training_set(folder: Path, seed: int = SEED, folds: int = 5, quick: bool = False,
                 log: bool = False) -> TrainingSet:
    """The training features exactly as ``main`` builds them (same seed, same order)."""
    t_start = time.perf_counter()
    rng = np.random.default_rng(seed)
    n_render = 12 if quick else len(TRAIN_RENDER_SEEDS)
    real_views = 12 if quick else REAL_VIEWS
    if log:
        print("rendering training photos ...", flush=True)
    rsrc = render_sources(list(TRAIN_RENDER_SEEDS)[:n_render])
    xr, yr, _ = build(rsrc, RENDER_VIEWS, rng)
    del rsrc
    if log:
        print(f"  {len(yr) // 6} render views ({time.perf_counter() - t_start:.0f} s)",
              flush=True)
    real = real_sources(folder)
    fold_of = fold_assignment(real, folds, seed)
    pools = fold_pools(real, fold_of)
    xq, yq, gq = build(real, real_views, rng, pools)
    if log:
        print(f"  {len(real)} real tiles, {len(yq) // 6} views "
              f"({time.perf_counter() - t_start:.0f} s)", flush=True)
    return TrainingSet(xr, yr, xq, yq, gq, real, fold_of, pools, n_render)


def fold_model(ts: TrainingSet, fold: int, seed: int = SEED, epochs: int = EPOCHS
               ) -> tm.TerrainModel:
    """The model ``--evaluate`` tests fold ``fold`` with: never trained on its tiles."""
    test_groups = {g for g, k in ts.fold_of.items() if k == fold}
    keep = ~np.isin(ts.gq, list(test_groups))
    return fit(ts.xr, ts.yr, ts.xq[keep], ts.yq[keep], seed=seed + fold, epochs=epochs,
               hidden=HIDDEN)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.synth.train_terrain",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiles", default="../shared/tiles",
                        help="folder of the development photos (default ../shared/tiles)")
    parser.add_argument("--out", default=str(tm.MODEL_PATH), help="model file to write")
    parser.add_argument("--evaluate", action="store_true",
                        help="k-fold by real tile + held-out render seeds; writes no model")
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--write", action="store_true",
                        help="with --evaluate: also train on everything and write the model")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--quick", action="store_true", help="a small run (smoke test)")
    parser.add_argument("--cache", metavar="NPZ",
                        help="also write the training features there (for experiments)")
    args = parser.parse_args(argv)
    t_start = time.perf_counter()
    folder = Path(args.tiles)
    if not all((folder / n).is_file() for n in PHOTOS):
        print(f"train_terrain: {folder} does not hold {', '.join(PHOTOS)}", file=sys.stderr)
        return 1
    epochs = 4 if args.quick else EPOCHS
    ts = training_set(folder, args.seed, args.folds, args.quick, log=True)
    xr, yr, xq, yq, gq = ts.xr, ts.yr, ts.xq, ts.yq, ts.gq
    real, fold_of, pools, n_render = ts.real, ts.fold_of, ts.pools, ts.n_render
    if args.cache:
        np.savez(args.cache, xr=xr, yr=yr, xq=xq, yq=yq, gq=gq)

    def write_model() -> None:
        model = fit(xr, yr, xq, yq, seed=args.seed, epochs=epochs, hidden=HIDDEN, log=True)
        model.meta = {"trained_on": {"render_photos": n_render, "render_views": int(len(yr) // 6),
                                     "real_tiles": len(real), "real_views": int(len(yq) // 6)},
                      "seed": args.seed, "hidden": list(HIDDEN), "epochs": epochs,
                      "feature_version": tm.FEATURE_VERSION}
        model.save(args.out)
        size = Path(args.out).stat().st_size
        print(f"wrote {args.out} ({size / 1024:.0f} KiB) in {time.perf_counter() - t_start:.0f} s")

    if not args.evaluate:
        write_model()
        return 0

    # k-fold over the real tiles; render test photos from unseen seeds
    folds = args.folds
    test_render = render_sources(TEST_RENDER_SEEDS[:3] if args.quick else TEST_RENDER_SEEDS)
    totals: dict[str, dict[str, list[int]]] = {}
    by_tile: dict[str, list[int]] = {}
    by_seed: dict[str, dict[int, list[int]]] = {}

    def add(cond: str, res: dict[str, tuple[int, int]]) -> None:
        row = totals.setdefault(cond, {})
        for k, (a, b) in res.items():
            cell = row.setdefault(k, [0, 0])
            cell[0] += a
            cell[1] += b

    for f in range(folds):
        test_groups = {g for g, k in fold_of.items() if k == f}
        keep = ~np.isin(gq, list(test_groups))
        model = fit(xr, yr, xq[keep], yq[keep], seed=args.seed + f, epochs=epochs,
                    hidden=HIDDEN)
        render_only = fit(xr, yr, xq[:0], yq[:0], seed=args.seed + f, epochs=epochs,
                          hidden=HIDDEN) if f == 0 else None
        held = [s for s in real if s.group in test_groups]
        crng = np.random.default_rng(args.seed + 100 + f)
        for cond in CONDITIONS:
            for _ in range(RANDOM_PHOTOS if cond == "random mix" else 1):
                views = condition_views(held, cond, crng, pools)
                add("real: " + cond, score_views(views, {"model": model}))
                for t, code, g in views:
                    lp = tm.edge_log_likelihoods(t, model)
                    right = int((lp.argmax(axis=1) == np.array(labels_of(code))).sum())
                    name = next(s.name for s in held if s.group == g)
                    cell = by_tile.setdefault(name, [0, 0])
                    cell[0] += right
                    cell[1] += 6
        if render_only is not None:
            views = condition_views(held, "clean", crng)
            add("real clean, model trained on renders only (fold 0)",
                score_views(views, {"model": render_only}))
        if f == 0:
            for cond in ("clean", "random mix"):
                for seed in TEST_RENDER_SEEDS[:3] if args.quick else TEST_RENDER_SEEDS:
                    srcs = [s for s in test_render if s.group == seed]
                    views = condition_views(srcs, cond, crng)
                    res = score_views(views, {"model": model})
                    add("held-out render seeds: " + cond, res)
                    for k in res:
                        cell = by_seed.setdefault(k, {}).setdefault(seed, [0, 0])
                        cell[0] += res[k][0]
                        cell[1] += res[k][1]
        print(f"  fold {f + 1}/{folds} done ({time.perf_counter() - t_start:.0f} s)",
              flush=True)

    print("\nedges right (learned model vs hand-set HSV, same images, photo white gains "
          "and glare removal applied first)")
    print(f"{'condition':52s} {'learned model':32s} {'HSV baseline':32s}")
    agg = {"model": [0, 0], "hsv": [0, 0]}
    for cond, row in totals.items():
        print(f"{cond:52s} {_pct(tuple(row['model'])):32s} {_pct(tuple(row['hsv'])):32s}")
        if cond.startswith("real: "):
            for k in agg:
                agg[k][0] += row[k][0]
                agg[k][1] += row[k][1]
    print(f"{'real, all conditions':52s} {_pct(tuple(agg['model'])):32s} "
          f"{_pct(tuple(agg['hsv'])):32s}")
    print("\nlearned model by held-out real tile (all conditions):")
    worst = sorted(by_tile.items(), key=lambda kv: kv[1][0] / kv[1][1])
    print("  " + ", ".join(f"{k} {100.0 * a / b:.0f}%" for k, (a, b) in worst))
    for k, label in (("model", "learned model"), ("hsv", "HSV baseline")):
        print(f"{label} by held-out render seed (clean + random mix):")
        print("  " + ", ".join(f"{seed} {100.0 * a / b:.1f}%"
                               for seed, (a, b) in sorted(by_seed.get(k, {}).items())))
    print(f"\n{time.perf_counter() - t_start:.0f} s")
    if args.write:
        write_model()
    return 0


if __name__ == "__main__":
    sys.exit(main())
