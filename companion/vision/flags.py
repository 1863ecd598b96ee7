"""Flags on landscape tiles: a small pennant (green forest, yellow grain, red village).

Representation: works on a tile rectified to the standard hexagon (``rectify.py``) at
``config.rectify.detail_radius`` (128 px; the small kernels below are sized for that). A flag's
pennant is a compact triangle of one strong colour (0.4..1.2 % of the hexagon's area,
filling about half of its least bounding rectangle) set apart from the tile art by a
light outline. ``find_flag`` returns a ``Flag`` (kind, confidence = share of the
pennant's surrounding ring that is outline, scaled; centre in rectified pixels) or
None. The pennant's hue names the kind; a flag is only valid
on a tile that shows its terrain (the notation refuses it otherwise), so a kind whose
letter the tile's code lacks is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.rectify import hexagon_mask

KINDS = {"forest": "F", "grain": "G", "village": "V"}
GRAIN_HUES = (16, 31)
"""Yellow pennant hues; the yellow-green meadow (hue ~35) lies between grain and forest."""


@dataclass(frozen=True)
class Flag:
    kind: str
    confidence: float
    center: tuple[float, float]


def kind_of_hue(hue: float) -> str | None:
    """Flag kind of an OpenCV hue (0..180): red village, yellow grain, green forest."""
    if hue < 8 or hue >= 165:
        return "village"
    if GRAIN_HUES[0] <= hue < GRAIN_HUES[1]:
        return "grain"
    if 40 <= hue < 90:
        return "forest"
    return None


def find_flag(tile: np.ndarray, code: str | None = None,
              config: ScanConfig = DEFAULT_CONFIG) -> Flag | None:
    """The flag on a rectified tile, or None; ``code`` (as read) vetoes impossible kinds."""
    radius = tile.shape[1] // 2
    hsv = cv2.cvtColor(tile, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[:, :, 0], hsv[:, :, 1], hsv[:, :, 2]
    inside = cv2.erode(hexagon_mask(radius), np.ones((7, 7), np.uint8)) > 0
    # The outline is a thin light line: what a small opening takes away from lightness.
    light = val.astype(np.float32) - sat.astype(np.float32)  # white high, colours low
    tophat = light - cv2.morphologyEx(light, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    white = (tophat > config.flags.outline_tophat).astype(np.uint8)
    # Cut along the outline, so a pennant lying on its own terrain stands apart.
    strong = ((sat >= config.flags.saturation_min) & (val >= 80) & inside
              & (tophat < config.flags.cut_tophat))
    hex_area = float(np.count_nonzero(inside))
    ring_k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    far_k = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11))
    best: Flag | None = None
    for kind in KINDS:
        if code is not None and KINDS[kind] not in code:
            continue
        if kind == "village":
            in_hue = (hue < 8) | (hue >= 165)
        elif kind == "grain":
            in_hue = (hue >= GRAIN_HUES[0]) & (hue < GRAIN_HUES[1])
        else:
            in_hue = (hue >= 40) & (hue < 90)
        mask = (strong & in_hue).astype(np.uint8)
        n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
        for i in range(1, n):
            area = float(stats[i, cv2.CC_STAT_AREA])
            frac = area / hex_area
            if not config.flags.min_area_frac <= frac <= config.flags.max_area_frac:
                continue
            x, y, w, h = (int(v) for v in stats[i, :4])
            if max(w, h) > 2.5 * min(w, h) or area < 0.3 * w * h:
                continue
            comp = (labels == i).astype(np.uint8)
            if kind != "forest" and float(np.median(val[comp > 0])) < config.flags.value_min:
                continue  # a pennant's red or yellow is bright; roofs in shade are not
            # A pennant is a triangle: it fills about half of its smallest bounding
            # rectangle (roofs and fields fill most of theirs).
            contours, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
            (_, _), (rw, rh), _ = cv2.minAreaRect(max(contours, key=cv2.contourArea))
            fill = area / max(rw * rh, 1.0)
            if fill > config.flags.fill_max:
                continue
            ring = cv2.dilate(comp, ring_k) & (1 - comp)
            ring_px = int(ring.sum())
            if ring_px == 0:
                continue
            # Outline: the ring is a thin light line, or at least lighter than what lies
            # beyond it (on pale cobbles a white line hardly stands out of the opening).
            near: np.ndarray = np.asarray(cv2.dilate(comp, ring_k), np.uint8)
            beyond = (np.asarray(cv2.dilate(comp, far_k), np.uint8) & (1 - near)) > 0
            level = float(np.median(light[beyond])) if beyond.any() else 255.0
            lighter = (light > level + config.flags.outline_tophat).astype(np.uint8)
            outline = float(((white | lighter) & ring).sum()) / ring_px
            if outline < config.flags.outline_min:
                continue
            conf = float(min(1.0, outline / 0.7))
            if best is None or conf > best.confidence:
                best = Flag(kind, conf, (float(cents[i][0]), float(cents[i][1])))
    return best
