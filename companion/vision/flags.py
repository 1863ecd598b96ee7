"""Flags on landscape tiles: a small pennant (green forest, yellow grain, red village).

Representation: works on a tile rectified to the standard hexagon (``rectify.py``) at
``config.rectify.detail_radius`` (128 px; the small kernels below are sized for that). A flag's
pennant is a compact triangle of one strong colour (0.4..1.2 % of the hexagon's area,
filling about half of its least bounding rectangle and nearly all of its least enclosing
triangle) set apart from the tile art by a light outline. The catalogue
(``../shared/tiles/catalogue.txt``) does not say which tiles carry a flag, so the photo
alone decides; the game only guarantees that a flag lies on a tile showing its terrain.

The tile is first brought to a standard exposure: its meadow (the game's most common
colour; the scanner's local meadow estimate when given, else the tile's own) is scaled to
``REFERENCE_VALUE``, so a tile in shade, under dim light or slightly overexposed is read
with the same thresholds; a pale meadow (haze, a washed-out camera) has the tile's
saturation raised likewise (``saturation_gain``), and the scan divides the glare veil it
measured out of the tile first (``unveiled``). Candidates are the compact blobs of a
pennant hue (yellow also at greener hues when bright, as photographed pennants show); a
blob that touches art of its own colour (a yellow pennant on a grain field) is split from
it by eroding it until a pennant-sized part comes free. A blob on the hexagon's rim is no
pennant (cut by the edge, or a neighbour's seen through an offset outline). Each
candidate is scored (``confidence``) by its shape (how nearly it fills its least enclosing
triangle: roofs, fields and tree clumps fill 0.5..0.7 of theirs) and by how much of its
surrounding ring is a light outline, less when it is dull, split or blurred round.

The scan decides with the learned model of ``flag_reading``, which weighs these candidates
(strict, and with ``RELAXED`` thresholds on the tile brought up from deep shade by
``dim_lit``); the hand-set decision below is its fallback (``config.flags.learned_flags``
off, or no model file) and a feature of it.
``find_flag`` returns a ``Flag`` (kind, confidence 0..1, centre in rectified pixels) or
None. A confidence below ``config.flags.flag_doubt_below`` means "probably a flag, please
check" (the scan marks it doubtful). The pennant's hue names the kind; a flag is only valid
on a tile that shows its terrain (the notation refuses it otherwise), so kinds whose
letter the tile's code (as read) shows are preferred; a flag of another kind is still
returned, with at most a doubtful confidence, since the code read may be wrong: the scan
drops it (marked doubtful) when the final code lacks its terrain. A pennant's outline can
pass for a task tile's speech bubble: a tile read as a task without a marker on which a
sure pennant is found is a landscape tile (``outranks_bubble``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.edges import remove_veil
from companion.vision.rectify import hexagon_mask

KINDS = {"forest": "F", "grain": "G", "village": "V"}
GRAIN_HUES = (16, 31)
"""Yellow pennant hues; the yellow-green meadow (hue ~35) lies between grain and forest."""
BRIGHT_GRAIN_HUES = (31, 34)
"""Greener hues a yellow pennant may show under cool light or as photographed (the
tile crops' pennants read 29..32): yellow only when bright and saturated
(``BRIGHT_GRAIN_MIN``), which the meadow there, twice darker, is not."""
BRIGHT_GRAIN_MIN = (150, 175)
"""Least saturation and value (after the exposure gain: 1.35 times the meadow's) of a
pennant of those hues."""
REFERENCE_VALUE = 130.0
"""HSV value the tile's meadow is scaled to before the search (a well lit photo's)."""
GAIN_RANGE = (0.8, 3.0)
"""Least and greatest exposure gain."""
DIM_GAIN_RANGE = (0.8, 4.0)
DIM_MEADOW_FLOOR = 15
"""``dim_lit``: a tile in deep shade or a dark room is brought up by as much as this,
judged by meadow as dark as this (HSV value)."""
REFERENCE_SATURATION = 170.0
"""HSV saturation the tile's meadow is raised to when paler (haze, glare the scan did not
divide out, a washed-out camera): the pennant's colour is then as strong as a clear
photo's. Never lowered (a vivid photo's meadow reads 185..225)."""
SATURATION_GAIN_MAX = 1.6
RIM_PX = 5
"""Width (pixels, 3..) of the hexagon's rim a pennant may not touch."""
BUBBLE_OVERRULED_AT = 0.9
"""A pennant this sure makes a tile read as a task tile without a marker a landscape
tile (``outranks_bubble``)."""


@dataclass(frozen=True)
class Flag:
    kind: str
    confidence: float
    center: tuple[float, float]


@dataclass(frozen=True)
class Candidate:
    """A pennant-like blob and what speaks for it."""

    kind: str
    center: tuple[float, float]
    area_frac: float
    fill: float
    outline: float
    """Share of the surrounding ring that is a light outline."""
    value: float
    """Median HSV value of the blob (after the exposure gain)."""
    split: bool
    """Freed from art of its own colour by erosion."""
    triangle: float = 0.0
    """Area over that of its least enclosing triangle (a pennant's is near 1)."""


def kind_of_hue(hue: float) -> str | None:
    """Flag kind of an OpenCV hue (0..180): red village, yellow grain, green forest."""
    if hue < 8 or hue >= 165:
        return "village"
    if GRAIN_HUES[0] <= hue < GRAIN_HUES[1]:
        return "grain"
    if 40 <= hue < 90:
        return "forest"
    return None


def _meadow_pixels(hsv: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """HSV of the meadow-green pixels (every other one is plenty) inside the hexagon."""
    px = hsv[::2, ::2][inside[::2, ::2]]
    sel = (px[:, 0] >= 24) & (px[:, 0] <= 40) & (px[:, 1] >= 60) & (px[:, 2] >= 40)
    return px[sel]


def saturation_gain(hsv: np.ndarray, inside: np.ndarray) -> float:
    """The gain that raises the saturation of a tile's meadow (the more saturated half of
    its meadow-green pixels) to ``REFERENCE_SATURATION``; 1 when it is already as
    saturated or the tile shows too little meadow."""
    px = _meadow_pixels(hsv, inside)
    if len(px) < 50:
        return 1.0
    s = px[:, 1]
    meadow_sat = float(np.median(s[s >= np.median(s)]))
    return float(np.clip(REFERENCE_SATURATION / max(meadow_sat, 1.0), 1.0,
                         SATURATION_GAIN_MAX))


def own_meadow_value(hsv: np.ndarray, inside: np.ndarray, floor: int = 40) -> float | None:
    """HSV value of the brighter half of the tile's meadow-green pixels at least ``floor``
    bright (None: too few)."""
    px = hsv[::2, ::2][inside[::2, ::2]]  # every other pixel is plenty
    sel = (px[:, 0] >= 24) & (px[:, 0] <= 40) & (px[:, 1] >= 90) & (px[:, 2] >= floor)
    if int(sel.sum()) < 50:
        return None
    v = px[sel, 2]
    return float(np.median(v[v >= np.median(v)]))


def exposure_gain(hsv: np.ndarray, inside: np.ndarray, meadow_value: float | None = None,
                  gain_range: tuple[float, float] = GAIN_RANGE) -> float:
    """The gain that brings the meadow of a tile (HSV, ``inside`` its hexagon) to
    ``REFERENCE_VALUE``: ``meadow_value`` when given, else the tile's own
    (``own_meadow_value``; none: no change)."""
    if meadow_value is None:
        meadow_value = own_meadow_value(hsv, inside)
        if meadow_value is None:
            return 1.0
    return float(np.clip(REFERENCE_VALUE / max(meadow_value, 1.0), *gain_range))


@lru_cache(maxsize=8)
def _inside_cached(radius: int, shape: tuple[int, int]) -> np.ndarray:
    inside = cv2.erode(hexagon_mask(radius), np.ones((7, 7), np.uint8),
                       borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0
    assert inside.shape == shape
    inside.setflags(write=False)
    return inside


def _inside(radius: int, shape: tuple[int, ...]) -> np.ndarray:
    """The hexagon less a 3-pixel margin (cached: every tile has the same size)."""
    return _inside_cached(radius, (int(shape[0]), int(shape[1])))


@lru_cache(maxsize=8)
def _rim_cached(radius: int, shape: tuple[int, int]) -> np.ndarray:
    inside = _inside(radius, shape).astype(np.uint8)
    core = np.asarray(cv2.erode(inside, np.ones((RIM_PX, RIM_PX), np.uint8),
                                borderType=cv2.BORDER_CONSTANT, borderValue=0), np.uint8)
    rim = inside & (1 - core)
    rim.setflags(write=False)
    return rim


def _rim(radius: int, shape: tuple[int, ...]) -> np.ndarray:
    """The outermost pixels of ``_inside`` (1 there; uint8)."""
    return _rim_cached(radius, (int(shape[0]), int(shape[1])))


def _hue_mask(hue: np.ndarray, kind: str) -> np.ndarray:
    if kind == "village":
        return (hue < 8) | (hue >= 165)
    if kind == "grain":
        return (hue >= GRAIN_HUES[0]) & (hue < GRAIN_HUES[1])
    return (hue >= 40) & (hue < 90)


def _pennant_colour(hue: np.ndarray, sat: np.ndarray, val: np.ndarray, kind: str
                    ) -> np.ndarray:
    """Pixels of a ``kind`` pennant's colour (``_hue_mask``; yellow also at the greener
    ``BRIGHT_GRAIN_HUES`` when bright and saturated)."""
    mask = _hue_mask(hue, kind)
    if kind == "grain":
        mask |= ((hue >= BRIGHT_GRAIN_HUES[0]) & (hue < BRIGHT_GRAIN_HUES[1])
                 & (sat >= BRIGHT_GRAIN_MIN[0]) & (val >= BRIGHT_GRAIN_MIN[1]))
    return mask


@dataclass(frozen=True)
class Lit:
    """A rectified tile's HSV (saturation raised by ``saturation_gain``), the hexagon's
    inside, its lightness brought to the standard exposure (by ``gain``), lightness minus
    saturation and that line's top-hat."""

    hsv: np.ndarray
    inside: np.ndarray
    val: np.ndarray
    light: np.ndarray
    tophat: np.ndarray
    gain: float


def lit(tile: np.ndarray, meadow_value: float | None,
        gain_range: tuple[float, float] = GAIN_RANGE) -> Lit:
    """The tile seen at the standard exposure (``Lit``). The outline is a thin light line:
    what a small opening takes away from lightness minus saturation (white high, colours
    low)."""
    hsv = cv2.cvtColor(tile, cv2.COLOR_BGR2HSV)
    inside = _inside(tile.shape[1] // 2, tile.shape[:2])
    val = hsv[:, :, 2]
    gain = exposure_gain(hsv, inside, meadow_value, gain_range)
    if abs(gain - 1.0) > 0.02:
        val = cv2.convertScaleAbs(val, alpha=gain)
    sat_gain = saturation_gain(hsv, inside)
    if sat_gain > 1.02:
        hsv[:, :, 1] = cv2.convertScaleAbs(hsv[:, :, 1], alpha=sat_gain)
    light = val.astype(np.float32) - hsv[:, :, 1].astype(np.float32)
    tophat = light - cv2.morphologyEx(light, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    return Lit(hsv, inside, val, light, tophat, float(gain))


def dim_lit(tile: np.ndarray, seen: Lit, meadow_value: float | None) -> Lit:
    """The tile seen for the relaxed search: like ``seen`` (``lit``), but where the tile's
    own meadow is darker than the scan's estimate (deep shade, a dark room: the estimate's
    floor leaves such meadow out), brought up by that meadow, up to
    ``DIM_GAIN_RANGE``."""
    own = own_meadow_value(seen.hsv, seen.inside, DIM_MEADOW_FLOOR)
    if own is None or (meadow_value is not None and own >= meadow_value):
        dim = meadow_value
    else:
        dim = own
    if dim is None or REFERENCE_VALUE / max(dim, 1.0) <= seen.gain * 1.02:
        return seen
    return lit(tile, dim, DIM_GAIN_RANGE)


def candidates(tile: np.ndarray, config: ScanConfig = DEFAULT_CONFIG,
               meadow_value: float | None = None, seen: Lit | None = None
               ) -> list[Candidate]:
    """Every pennant-like blob of the rectified tile (see the module docstring);
    ``seen``: the tile's ``lit`` when already computed."""
    fc = config.flags
    radius = tile.shape[1] // 2
    if seen is None:
        seen = lit(tile, meadow_value)
    inside, val, light, tophat = seen.inside, seen.val, seen.light, seen.tophat
    hue, sat = seen.hsv[:, :, 0], seen.hsv[:, :, 1]
    white = (tophat > fc.outline_tophat).astype(np.uint8)
    # Cut along the outline, so a pennant lying on its own terrain stands apart.
    strong = ((sat >= fc.saturation_min) & (val >= 80) & inside & (tophat < fc.cut_tophat))
    hex_area = float(np.count_nonzero(inside))
    ring_k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    far_k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11))
    cross = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
    pad = 8  # each blob is examined in its bounding box with this margin
    light_p = cv2.copyMakeBorder(light, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    white_p = np.asarray(cv2.copyMakeBorder(white, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                            value=0), np.uint8)
    val_p = cv2.copyMakeBorder(val, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
    # A blob on the hexagon's rim is cut by the tile's edge (or is a neighbour's art
    # seen through a slightly offset outline): no whole pennant.
    rim_p = cv2.copyMakeBorder(_rim(radius, tile.shape[:2]), pad, pad, pad, pad,
                               cv2.BORDER_CONSTANT, value=1)
    out: list[Candidate] = []

    def consider(comp: np.ndarray, x0: int, y0: int, kind: str, split: bool) -> bool:
        """``comp``: the blob in the window whose corner is (x0, y0) in padded pixels."""
        area = float(comp.sum())
        frac = area / hex_area
        if not fc.min_area_frac <= frac <= fc.max_area_frac:
            return False
        wh, ww = comp.shape
        if np.any(comp & rim_p[y0:y0 + wh, x0:x0 + ww]):
            return False
        ys, xs = np.nonzero(comp)
        w, h = int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)
        if max(w, h) > 2.5 * min(w, h) or area < 0.3 * w * h:
            return False
        # A pennant is a triangle: it fills about half of its smallest bounding
        # rectangle (roofs and fields fill most of theirs) and nearly all of its least
        # enclosing triangle (roofs, fields and tree clumps do not).
        contours, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        contour = max(contours, key=cv2.contourArea)
        (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
        fill = area / max(rw * rh, 1.0)
        if fill > fc.fill_max:
            return False
        tri_area, _ = cv2.minEnclosingTriangle(contour.astype(np.float32))
        triangle = area / max(float(tri_area), 1.0)
        light_w = light_p[y0:y0 + wh, x0:x0 + ww]
        near = np.asarray(cv2.dilate(comp, ring_k), np.uint8)
        ring = near & (1 - comp)
        ring_px = int(ring.sum())
        if ring_px == 0:
            return False
        # Outline: the ring is a thin light line, or at least lighter than what lies
        # beyond it (on pale cobbles a white line hardly stands out of the opening).
        beyond = (np.asarray(cv2.dilate(comp, far_k), np.uint8) & (1 - near)) > 0
        level = _median(light_w[beyond]) if beyond.any() else 255.0
        lighter = (light_w > level + fc.outline_tophat).astype(np.uint8)
        outline = float(((white_p[y0:y0 + wh, x0:x0 + ww] | lighter) & ring).sum()) / ring_px
        value = _median(val_p[y0:y0 + wh, x0:x0 + ww][comp > 0])
        centre = (float(xs.mean()) + x0 - pad, float(ys.mean()) + y0 - pad)
        out.append(Candidate(kind, centre, frac, fill, outline, value, split, triangle))
        return True

    for kind in KINDS:
        mask = (strong & _pennant_colour(hue, sat, val, kind)).astype(np.uint8)
        _, labels, stats = _components(mask, 8)
        for i in _labels_sized(stats, fc.min_area_frac * hex_area, np.inf):
            x, y, w, h, area_px = (int(v) for v in stats[i])
            area = float(area_px)
            comp = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
            comp = cv2.copyMakeBorder(comp, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
            # (x, y) is the window's corner in padded pixels
            if area <= fc.max_area_frac * hex_area and consider(comp, x, y, kind, False):
                continue
            # Too big or misshapen: a pennant merged with art of its colour; erode until
            # parts come free.
            core = comp
            least, most = 0.25 * fc.min_area_frac * hex_area, fc.max_area_frac * hex_area
            for step in range(1, fc.split_steps + 1):
                core = cv2.erode(core, cross)
                m, sub, part_stats = _components(core, 4)
                if m <= 1 or part_stats[1:, cv2.CC_STAT_AREA].max() < least:
                    break  # nothing pennant-sized is left to free
                for j in _labels_sized(part_stats, least, most):
                    # the part grown back, in its own window (margin for the rings)
                    px, py, pw, ph = (int(v) for v in part_stats[j, :4])
                    margin = step + 6
                    xa, ya = max(0, px - margin), max(0, py - margin)
                    xb = min(comp.shape[1], px + pw + margin)
                    yb = min(comp.shape[0], py + ph + margin)
                    part = (sub[ya:yb, xa:xb] == j).astype(np.uint8)
                    grown = cv2.dilate(part, cross, iterations=step) & comp[ya:yb, xa:xb]
                    if consider(grown, x + xa, y + ya, kind, True):
                        core[ya:yb, xa:xb][part > 0] = 0  # found: not again, smaller
    return out


def _components(mask: np.ndarray, connectivity: int) -> tuple[int, np.ndarray, np.ndarray]:
    """Connected components of a small uint8 mask: their number (background
    included), the label image and each label's bounding box and area (OpenCV's stats
    rows: x, y, w, h, area). Sequential labelling: small images, no thread start-up."""
    n, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, connectivity, cv2.CV_32S, cv2.CCL_SAUF)
    return n, labels, stats


def _median(values: np.ndarray) -> float:
    """``float(np.median(values))`` of a non-empty 1-D array without NaN: the middle
    element, or the mean of the middle two in the array's own type, without the generic
    machinery that costs ``np.median`` as much again on every candidate's small arrays."""
    half = values.size // 2
    if values.size % 2:
        return float(np.partition(values, half)[half])
    return float(np.partition(values, (half - 1, half))[half - 1:half + 1].mean())


def _labels_sized(stats: np.ndarray, least: float, most: float) -> list[int]:
    """The labels (background excluded) of the components whose area is within
    ``least``..``most``, in order."""
    area = stats[1:, cv2.CC_STAT_AREA]
    return [int(i) + 1 for i in np.flatnonzero((area >= least) & (area <= most))]


def confidence(c: Candidate, config: ScanConfig = DEFAULT_CONFIG) -> float:
    """How surely a candidate is a pennant (0..1): a triangle (it fills its least
    enclosing triangle; roofs, fields and tree clumps do not) with a light outline,
    dimmed when the blob is dull (roofs in shade) or was split from a field."""
    fc = config.flags
    shape = float(np.clip((c.triangle - fc.triangle_low) / (fc.triangle_high - fc.triangle_low),
                          0.0, 1.0))
    outline = min(1.0, c.outline / fc.outline_full)
    conf = fc.shape_weight * shape + (1.0 - fc.shape_weight) * outline
    if c.kind != "forest" and c.value < fc.value_min:
        conf *= fc.dull_factor  # a pennant's red or yellow is bright; roofs in shade are not
    if c.split:
        conf *= fc.split_factor
    if c.fill > fc.fill_soft:
        conf *= fc.full_factor  # rounder than a sharp triangle (blur at low resolution)
    return float(conf)


def find_flag(tile: np.ndarray, code: str | None = None,
              config: ScanConfig = DEFAULT_CONFIG, meadow_value: float | None = None,
              found: list[Candidate] | None = None) -> Flag | None:
    """The flag on a rectified tile, or None (see the module docstring); ``code`` (as
    read) prefers kinds of its terrains; ``meadow_value``: the scan's meadow estimate
    (HSV value) for this tile; ``found``: its ``candidates`` when already searched."""
    fc = config.flags
    best: Flag | None = None
    best_other: Flag | None = None
    for c in found if found is not None else candidates(tile, config, meadow_value):
        conf = confidence(c, config)
        if conf < fc.confidence_min:
            continue
        flag = Flag(c.kind, conf, c.center)
        if code is None or KINDS[c.kind] in code:
            if best is None or conf > best.confidence:
                best = flag
        elif best_other is None or conf > best_other.confidence:
            best_other = flag
    if best is None and best_other is not None:
        # The code as read lacks this terrain: keep the flag, but only as a doubtful one.
        best = Flag(best_other.kind, min(best_other.confidence, 0.5 * fc.flag_doubt_below),
                    best_other.center)
    return best


def unveiled(tile: np.ndarray, veil: np.ndarray) -> np.ndarray:
    """A rectified tile with the scan's glare veil (``edges.veils``, measured on the
    working-resolution tile, any size) divided out: glare pales a pennant's colour
    below the search's saturation."""
    if float(veil.max()) < 0.02:
        return tile
    if veil.shape[:2] != tile.shape[:2]:
        veil = cv2.resize(veil, (tile.shape[1], tile.shape[0]), interpolation=cv2.INTER_LINEAR)
    return remove_veil(tile, veil)


def outranks_bubble(found: list[Candidate], config: ScanConfig = DEFAULT_CONFIG) -> bool:
    """Whether a tile read as a task tile without a marker is rather a landscape tile
    with a flag: one of its ``candidates`` is a pennant of at least
    ``BUBBLE_OVERRULED_AT`` confidence (a sharp outlined triangle; a task's speech bubble
    and icon give at most a doubtful one). A pennant's white outline round a strong
    colour can pass for the bubble; a tile with a marker read is not asked."""
    return any(confidence(c, config) >= BUBBLE_OVERRULED_AT for c in found)


RELAXED: dict[str, Any] = {"saturation_min": 70, "value_min": 90, "min_area_frac": 0.0025,
                           "max_area_frac": 0.02, "outline_tophat": 25.0, "cut_tophat": 20.0,
                           "fill_max": 0.9}
"""Thresholds of the second, looser candidate search whose candidates the learned
decision (``flag_reading``) weighs."""
