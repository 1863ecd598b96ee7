"""Terrain of each edge band of a rectified tile.

Representation: a rectified tile is the BGR image of the standard flat-topped
hexagon (``rectify.py``). Each pixel gets a colour class (``CLASSES``); edge ``e``'s
band is the strip of the hexagon inside edge ``e`` (from ``band_inner_frac`` to
``band_outer_frac`` of the radius in from the edge, central ``band_length_frac`` of
its length). The fractions of the classes in a band (its pixels weighted towards the
middle of the edge and towards the rim, ``band_weights``) give a probability for each
terrain letter; ``classify_edges`` returns the six most likely letters (edges 0..5)
and their probabilities as confidences.

Colours are judged relative to a *meadow reference* (the light green that covers
most tiles), so a dim or warm photo shifts all thresholds together.
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.rectify import (
    hexagon_mask,
    inside_pixels,
    outside_index,
    standard_corners,
    standard_size,
)

CLASSES: tuple[str, ...] = ("meadow", "forest", "grain", "roof", "pale", "dark", "blue",
                            "other", "bank")
MEADOW, FOREST, GRAIN, ROOF, PALE, DARK, BLUE, OTHER, BANK = range(9)
"""``bank`` is pale art touching water (a stream's or lake's shore), not cobbles."""
LETTERS = "FGVTSM"
GAME_CLASSES = np.array([MEADOW, FOREST, GRAIN])
"""Colours that cover most of every tile of the game (meadow, forest, grain)."""

MeadowRef = tuple[float, float, float]
"""Median (hue, saturation, value) of the meadow green."""

DEFAULT_MEADOW: MeadowRef = (30.0, 185.0, 120.0)


def meadow_samples(tile: np.ndarray) -> np.ndarray:
    """HSV of the strongly saturated yellow-green pixels of a rectified tile."""
    hsv = cv2.cvtColor(tile, cv2.COLOR_BGR2HSV)
    px = inside_pixels(hsv, tile.shape[1] // 2)
    sel = (px[:, 0] >= 24) & (px[:, 0] <= 40) & (px[:, 1] >= 90) & (px[:, 2] >= 50)
    out: np.ndarray = px[sel]
    return out


def meadow_of(samples: np.ndarray) -> MeadowRef:
    v_med = np.median(samples[:, 2])
    bright = samples[samples[:, 2] >= v_med]
    h, s, v = np.median(bright, axis=0)
    return (float(h), float(s), float(v))


def meadow_reference(tiles: list[np.ndarray],
                     fallback: MeadowRef = DEFAULT_MEADOW) -> MeadowRef:
    """Estimate the meadow colour from one or more rectified tiles.

    Meadow is the light yellow-green that is the most common colour of the game;
    take the brighter half of the strongly saturated yellow-green pixels.
    """
    samples = [meadow_samples(t) for t in tiles]
    if not samples:
        return fallback
    allpx = np.concatenate(samples)
    if len(allpx) < 200:
        return fallback
    return meadow_of(allpx)


def tile_meadow(tile: np.ndarray, photo: MeadowRef) -> MeadowRef:
    """The meadow reference of one tile: its own estimate, kept near the photo's.

    Following the tile's own brightness compensates a light gradient across the
    photo; clamping keeps an all-forest tile from calling its forest meadow.
    """
    own = meadow_reference([tile], fallback=photo)
    v = min(max(own[2], 0.85 * photo[2]), 1.12 * photo[2])
    h = min(max(own[0], photo[0] - 3), photo[0] + 3)
    return (h, photo[1], v)


MEADOW_SAMPLES_MIN_FRAC = 0.04
"""A tile's own meadow estimate counts when this fraction of its hexagon is meadow-like."""


def local_meadows(tiles: list[np.ndarray], centres: list[tuple[float, float]],
                  photo: MeadowRef) -> list[MeadowRef]:
    """The meadow reference of every tile, following the light across the photo.

    Light varies smoothly (gradients, vignetting, a soft cast shadow, glare), so a
    tile's meadow is predicted from the meadow of the tiles around it (a Gaussian
    weighted median over about two tile spacings, weighted by how much meadow each
    shows); the tile's own estimate may then move at most 12 % from that prediction.
    Tiles with little meadow (an all-forest tile) take the prediction as it is.
    """
    n = len(tiles)
    if n == 0:
        return []
    own: list[MeadowRef | None] = []
    counts = np.zeros(n)
    for i, t in enumerate(tiles):
        px = meadow_samples(t)
        area = float((hexagon_mask(t.shape[1] // 2) > 0).sum())
        if len(px) >= max(200.0, MEADOW_SAMPLES_MIN_FRAC * area):
            own.append(meadow_of(px))
            counts[i] = len(px)
        else:
            own.append(None)
    pts = np.asarray(centres, np.float64).reshape(n, 2)
    if n >= 2:
        d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
        d_off = d + np.diag(np.full(n, np.inf))
        spacing = float(np.median(d_off.min(axis=1)))
    else:
        d = np.zeros((1, 1))
        spacing = 1.0
    reliable = [i for i in range(n) if own[i] is not None]
    if not reliable:
        return [tile_meadow(t, photo) for t in tiles]
    vals = np.array([own[i] for i in reliable], np.float64)  # type: ignore[misc]
    out: list[MeadowRef] = []
    for i in range(n):
        w = counts[reliable] * np.exp(-(d[i, reliable] / (2.0 * spacing)) ** 2)
        if w.sum() <= 1e-9:
            w = counts[reliable].astype(np.float64)
        pred = [_weighted_median(vals[:, c], w) for c in range(3)]
        o = own[i]
        if o is None:
            h, s, v = pred
        else:
            v = min(max(o[2], 0.88 * pred[2]), 1.12 * pred[2])
            h = min(max(o[0], pred[0] - 3), pred[0] + 3)
            s = min(max(o[1], 0.85 * pred[1]), 1.15 * pred[1])
        out.append((float(h), float(s), float(v)))
    return out


def _weighted_median(values: np.ndarray, weights: np.ndarray) -> float:
    order = np.argsort(values)
    cum = np.cumsum(weights[order])
    k = int(np.searchsorted(cum, cum[-1] / 2.0))
    return float(values[order][min(k, len(values) - 1)])


def pixel_classes(tile: np.ndarray, meadow: MeadowRef = DEFAULT_MEADOW) -> np.ndarray:
    """Colour class (index into ``CLASSES``) of every pixel of a rectified tile."""
    hsv = cv2.cvtColor(tile, cv2.COLOR_BGR2HSV).astype(np.int16)
    h, s, v = hsv[:, :, 0], hsv[:, :, 1], hsv[:, :, 2]
    mh, ms, mv = meadow
    out = np.full(h.shape, OTHER, np.uint8)
    vrel = v.astype(np.float32) / max(mv, 1.0)
    greenish = (h >= mh - 5) & (h <= 90)
    green = greenish & (s >= 0.45 * ms)
    out[green] = MEADOW
    # Meadow in shade keeps its hue and gains saturation (HSV saturation is chroma
    # over value); tree clumps are bluer and duller. Dim olive is still meadow.
    olive = (h <= mh + 3) & (s >= 1.05 * ms) & (vrel >= 0.55)
    forest = greenish & (s >= 0.2 * ms) & (
        ((vrel < 0.78) & ~olive) | ((h > mh + 7) & (vrel < 1.0)))
    out[forest] = FOREST
    grain = (h >= 12) & (h < mh - 3) & (s >= 0.6 * ms) & (vrel > 0.8)
    out[grain] = GRAIN
    roof = ((h < 12) | (h >= 165)) & (s >= 110) & (vrel > 0.6)
    out[roof] = ROOF
    blue = (h >= 85) & (h <= 114) & (s >= 60) & (vrel > 0.35)
    out[blue] = BLUE
    pale = (s < 0.45 * ms) & (vrel > 1.1) & ~blue
    out[pale] = PALE
    # Track sleepers, rails' shadows, cardboard: grey or grey-brown, not bright.
    rest = (out == OTHER) & (vrel <= 1.1) & (s < 0.7 * ms)
    grey = (s < 0.25 * ms) & (vrel <= 1.1) & ~blue
    out[rest | grey] = DARK
    out.reshape(-1)[outside_index(tile.shape[1] // 2)] = OTHER
    _mark_banks(out)
    return out


def _mark_banks(classes: np.ndarray) -> None:
    """Relabel pale regions that touch blue water as ``BANK`` (in place).

    Streams and lakes are edged with pale sand; a village's pale cobbles lie among
    roofs. A pale region counts as shore when a good part of its outline is water.
    """
    pale = (classes == PALE).astype(np.uint8)
    blue = (classes == BLUE).astype(np.uint8)
    if not pale.any() or not blue.any():
        return
    near_blue = cv2.dilate(blue, np.ones((5, 5), np.uint8)) > 0
    n, labels = cv2.connectedComponents(pale, connectivity=8)  # (faster without stats)
    touching = np.bincount(labels[near_blue & (pale > 0)], minlength=n)
    area = np.bincount(labels.ravel(), minlength=n)
    shore = (touching >= np.maximum(4, 0.12 * area)) | (touching >= 40)
    shore[0] = False
    classes[shore[labels] & (pale > 0)] = BANK


@lru_cache(maxsize=16)
def band_masks(radius: int, inner: float, outer: float, length: float
               ) -> tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """Boolean masks of the six edge bands of the standard hexagon (edges 0..5), and
    for each band the grid cell (along bin x depth bin) of each of its pixels."""
    w, h = standard_size(radius)
    corners = standard_corners(radius).astype(np.float64)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64) + 0.5
    inside = hexagon_mask(radius) > 0
    apothem = radius * math.sqrt(3) / 2
    cx, cy = w / 2.0, h / 2.0
    masks: list[np.ndarray] = []
    cells: list[np.ndarray] = []
    for e in range(6):
        a = corners[(e + 4) % 6]
        b = corners[(e + 5) % 6]
        mid = (a + b) / 2
        nrm = (mid - (cx, cy)) / apothem  # outward unit normal
        tang = (b - a) / np.linalg.norm(b - a)
        depth = apothem - ((xx - cx) * nrm[0] + (yy - cy) * nrm[1])  # distance in from edge
        along = (xx - mid[0]) * tang[0] + (yy - mid[1]) * tang[1]
        m = (inside & (depth >= inner * radius) & (depth <= outer * radius)
             & (np.abs(along) <= length * radius / 2))
        m.setflags(write=False)
        masks.append(m)
        a_bin = np.clip(((along / (length * radius) + 0.5) * ALONG_BINS).astype(int), 0,
                        ALONG_BINS - 1)
        d_bin = np.clip(((depth - inner * radius) / ((outer - inner) * radius)
                         * DEPTH_BINS).astype(int), 0, DEPTH_BINS - 1)
        cell = (a_bin * DEPTH_BINS + d_bin)[m]
        cell.setflags(write=False)
        cells.append(cell)
    return tuple(masks), tuple(cells)


ALONG_BINS = 10
DEPTH_BINS = 3


def crossing(classes_in_band: np.ndarray, cells: np.ndarray, wanted: int,
             localized: bool = False) -> float:
    """How strongly class ``wanted`` forms a strip crossing the band from rim to inside.

    The band is cut into ``ALONG_BINS`` x ``DEPTH_BINS`` cells; for each window of two
    neighbouring along-bins, take the smallest fraction of ``wanted`` over the depth
    rows; return the best window. A track or stream leaving through the edge scores
    high; a figure, a pebble or a shadow near the rim scores low. ``localized``
    subtracts the level of the lower windows: a strip crossing the edge is narrow,
    while a dark line *along* the whole edge (a cardboard rim or gap seen inside a
    slightly misplaced outline) fills every window.
    """
    hits = np.bincount(cells, weights=(classes_in_band == wanted).astype(np.float64),
                       minlength=ALONG_BINS * DEPTH_BINS).reshape(ALONG_BINS, DEPTH_BINS)
    total = np.bincount(cells, minlength=ALONG_BINS * DEPTH_BINS).reshape(
        ALONG_BINS, DEPTH_BINS).astype(np.float64)
    win_hits = hits[:-1] + hits[1:]
    win_total = np.maximum(total[:-1] + total[1:], 1.0)
    windows = (win_hits / win_total).min(axis=1)
    if localized:
        return float(windows.max() - np.percentile(windows, CROSSING_BASE_PERCENTILE))
    return float(windows.max())


CROSSING_BASE_PERCENTILE = 30.0
"""The level of a band's windows that a ``localized`` crossing must rise above."""


@lru_cache(maxsize=16)
def band_weights(radius: int, inner: float, outer: float, length: float,
                 midpoint: float, rim: float) -> tuple[np.ndarray, ...]:
    """Weight of each pixel of each band (in ``band_masks`` order) for its colour fractions.

    An edge's terrain is what meets the edge at its middle: the weight falls linearly by
    ``midpoint`` from the middle of the band to its ends (where the neighbouring edge's
    field reaches in at the corner), and from ``1 + rim`` at the rim row to ``1 - rim``
    at the innermost row.
    """
    _, cells = band_masks(radius, inner, outer, length)
    out = []
    for cell in cells:
        along = (cell // DEPTH_BINS + 0.5) / ALONG_BINS - 0.5
        depth = cell % DEPTH_BINS
        w = ((1.0 - midpoint * np.abs(along) / 0.5)
             * (1.0 + rim * (DEPTH_BINS - 1 - 2 * depth) / (DEPTH_BINS - 1)))
        w.setflags(write=False)
        out.append(w)
    return tuple(out)


N_FEATURES = len(CLASSES) + 2
TRACK_CROSSING = len(CLASSES)
STREAM_CROSSING = len(CLASSES) + 1


CLIPPED_LEVEL = 250
"""A pixel whose brightest channel reaches this was clipped by the camera (overexposed
or under glare): its colour, and so its terrain, is lost."""


def clipped_bands(tile: np.ndarray, config: ScanConfig = DEFAULT_CONFIG) -> np.ndarray:
    """The share of each edge band's pixels (edges 0..5, ``band_masks``) that is clipped
    (``CLIPPED_LEVEL``) in a rectified tile as photographed, before any gains."""
    t = config.terrain
    masks, _ = band_masks(tile.shape[1] // 2, t.band_inner_frac, t.band_outer_frac,
                          t.band_length_frac)
    clipped = tile.max(axis=2) >= CLIPPED_LEVEL
    return np.array([float(clipped[m].mean()) for m in masks])


def band_fractions(classes: np.ndarray, config: ScanConfig = DEFAULT_CONFIG) -> np.ndarray:
    """6 x N_FEATURES array per edge band: the (``band_weights``-weighted) fraction of
    each colour class, then the ``crossing`` strength of dark (track) and of blue
    (stream) pixels."""
    radius = classes.shape[1] // 2
    t = config.terrain
    shape = (radius, t.band_inner_frac, t.band_outer_frac, t.band_length_frac)
    masks, cells = band_masks(*shape)
    weights = band_weights(*shape, t.band_midpoint_weight, t.band_rim_weight)
    out = np.zeros((6, N_FEATURES), np.float64)
    for e, m in enumerate(masks):
        band = classes[m]
        counts = np.bincount(band, weights=weights[e], minlength=len(CLASSES))
        out[e, :len(CLASSES)] = counts / max(counts.sum(), 1e-9)
        out[e, TRACK_CROSSING] = crossing(band, cells[e], DARK, localized=True)
        out[e, STREAM_CROSSING] = crossing(band, cells[e], BLUE)
    return out


def letter_probabilities(fractions: np.ndarray, config: ScanConfig = DEFAULT_CONFIG
                         ) -> np.ndarray:
    """6 x 6 array: probability of each letter of ``LETTERS`` (F G V T S M) per edge.

    Each terrain's evidence is its colour fraction over the fraction at which it
    is typical; thin features (track, stream) need less area than wide ones.
    """
    f = fractions
    # A track is a strip: when grey covers most of the band it is paving (a village's
    # cobbles in shade), not rails; with roofs about, grey counts for the village.
    narrow = np.clip((0.75 - f[:, DARK]) / 0.25, 0.0, 1.0)
    roofs = (f[:, ROOF] >= 0.02).astype(np.float64)
    evidence = np.stack([
        f[:, FOREST] / config.terrain.forest_min_frac,
        f[:, GRAIN] / config.terrain.grain_min_frac,
        (f[:, ROOF] + 0.6 * f[:, PALE] + 0.5 * roofs * f[:, DARK])
        / config.terrain.village_min_frac,
        f[:, TRACK_CROSSING] * narrow / config.terrain.track_min_frac,
        f[:, STREAM_CROSSING] / config.terrain.stream_min_frac,
        f[:, MEADOW] / config.terrain.meadow_min_frac,
    ], axis=1)
    logits = config.terrain.sharpness * np.log(evidence + 0.08)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def classify_edges(rectified: np.ndarray, config: ScanConfig = DEFAULT_CONFIG,
                   meadow: MeadowRef | None = None) -> tuple[str, tuple[float, ...]]:
    """The six-letter code (edges 0..5) of a rectified tile and a confidence per edge."""
    probs = edge_probabilities(rectified, config, meadow)
    idx = probs.argmax(axis=1)
    code = "".join(LETTERS[i] for i in idx)
    return code, tuple(float(probs[e, i]) for e, i in enumerate(idx))


def edge_probabilities(rectified: np.ndarray, config: ScanConfig = DEFAULT_CONFIG,
                       meadow: MeadowRef | None = None) -> np.ndarray:
    """6 x 6 letter probabilities (rows edges 0..5, columns ``LETTERS``)."""
    ref = tile_meadow(rectified, meadow if meadow is not None else
                      meadow_reference([rectified]))
    classes = pixel_classes(rectified, ref)
    return letter_probabilities(band_fractions(classes, config), config)


WHITE_TINT_MAX = 1.8
"""Brightest art more coloured than this (max/min channel) is not white under a tint."""


def white_gains(tiles: list[np.ndarray], max_gain: float = 1.5) -> np.ndarray:
    """Per-channel (B, G, R) gains that make the tiles' whitest art neutral grey.

    Every tile shows some near-white art (cobbles, stream banks, pebbles, rails, the
    speech bubble); the brightest few percent of the less coloured half of the tile
    pixels are those, so their mean colour measures the light's tint (white-patch colour
    constancy). Sunlit grain can be brighter than the white art, but any tint colours
    the white art less than grain, meadow or forest, so only that half is searched.
    """
    samples = [inside_pixels(t, t.shape[1] // 2).reshape(-1, 3) for t in tiles]
    if not samples:
        return np.ones(3)
    px = np.concatenate(samples)
    if len(px) < 500:
        return np.ones(3)
    # The channels' max and min pairwise: a reduction over an axis of three is slow.
    b, g, r = px[:, 0], px[:, 1], px[:, 2]
    hi = np.maximum(np.maximum(b, g), r).astype(np.float32)
    chroma = (hi - np.minimum(np.minimum(b, g), r)) / np.maximum(hi, 1.0)
    px = px.take(np.flatnonzero(chroma <= np.median(chroma)), axis=0)
    bright = px[:, 0].astype(np.int32) + px[:, 1] + px[:, 2]  # exact, as in float
    top = px[bright >= np.percentile(bright, 97)].astype(np.float64)
    mean = top.mean(axis=0)
    if mean.min() < 60 or mean.max() > WHITE_TINT_MAX * mean.min():
        return np.ones(3)  # no white art (or only coloured things): leave the colours
    gains = mean.mean() / mean
    return np.clip(gains, 1.0 / max_gain, max_gain)


def apply_gains(image: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """A colour-corrected copy of a BGR image."""
    if np.allclose(gains, 1.0, atol=0.02):
        return image.copy()
    # Each channel's 256 values scaled in float32, clipped and truncated, as the pixels
    # would be: a lookup table gives the same image at a fraction of the time.
    lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains.astype(np.float32),
                  0, 255).astype(np.uint8)
    return np.asarray(cv2.LUT(image, lut.reshape(256, 1, 3)))


VEIL_WINDOW_FRAC = 0.7
"""Window (fraction of the tile radius) over which the darkest art is looked for."""
VEIL_DEAD_ZONE = 0.05
"""A veil this faint is left alone (a plain patch of meadow or grain without dark
detail reads as a faint veil)."""
VEIL_MAX = 0.85
"""Glare at most this strong is divided out; beyond it the art is lost anyway."""


def veils(tiles: list[np.ndarray]) -> list[np.ndarray]:
    """Per-pixel glare strength (0..1, float32) of each rectified tile.

    Glare from a lamp or a window is white light added on top of the art:
    ``seen = (1 - a) art + a white``. Every small patch of tile art holds something
    dark (tree shadows, outlines, meadow's low blue channel), so the darkest channel
    over a window of about a third of a tile measures ``a`` (the dark channel prior of
    haze removal). It is measured against the photo's usual dark level: the lower
    quartile of the tiles' own levels, so an evenly lit photo has no veil at all.
    """
    if not tiles:
        return []
    radius = tiles[0].shape[1] // 2
    k = max(3, int(VEIL_WINDOW_FRAC * radius) | 1)
    inside = cv2.erode(hexagon_mask(radius), np.ones((5, 5), np.uint8)) > 0
    darks = []
    for t in tiles:
        dark = t.min(axis=2).astype(np.float32)
        dark[~inside] = 255.0
        local = cv2.erode(dark, np.ones((k, k), np.uint8))
        local[~inside] = np.median(local[inside])
        darks.append(cv2.blur(local, (k, k)))
    levels = [float(np.median(d[inside])) for d in darks]
    floor = float(np.percentile(levels, 25))
    return [np.clip((d - floor) / max(255.0 - floor, 1.0) - VEIL_DEAD_ZONE, 0.0, VEIL_MAX)
            for d in darks]


def remove_veil(tile: np.ndarray, veil: np.ndarray) -> np.ndarray:
    """The art under a glare veil: ``(seen - a white) / (1 - a)``."""
    if float(veil.max()) < 0.02:
        return tile
    a = veil[..., None]
    out = (tile.astype(np.float32) - 255.0 * a) / (1.0 - a)
    return np.clip(out, 0, 255).astype(np.uint8)
