"""Task tiles (white speech bubble with a task-type icon), flags, and task markers.

Representation: works on a rectified tile (``rectify.py``). ``find_bubble`` returns a
``Bubble`` (bounding box in rectified pixels, area fraction of the hexagon) or None;
``task_type`` names the icon inside it (``forest grain village track stream``);
``find_marker`` reads the value (3..7) of a task marker lying on the tile by matching
rendered digit templates at every rotation, with tesseract as a second opinion.
``tile_attributes`` gathers them into notation attributes, e.g.
``{"task": "grain/4"}`` or ``{"task": "grain"}`` when no marker is seen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.edges import MeadowRef
from companion.vision.rectify import hexagon_mask


@dataclass(frozen=True)
class Bubble:
    x: int
    y: int
    w: int
    h: int
    area_frac: float
    icon_mask: np.ndarray
    """Mask (bool, bubble box size) of the non-white icon pixels inside the bubble."""


def white_mask(tile: np.ndarray, meadow: MeadowRef, config: ScanConfig,
               strict: bool = False) -> np.ndarray:
    """Bright, unsaturated pixels: the speech bubble's paper white.

    ``strict`` asks for whiter pixels, which separates a bubble from pale stream
    banks or cobbles that touch it.
    """
    hsv = cv2.cvtColor(tile, cv2.COLOR_BGR2HSV)
    factor = config.bubble_white_factor + (0.35 if strict else 0.0)
    v_min = min(config.bubble_white_value + (25 if strict else 0), factor * meadow[2])
    sat = config.bubble_white_saturation - (25 if strict else 0)
    m = (hsv[:, :, 1] < sat) & (hsv[:, :, 2] >= v_min)
    m &= hexagon_mask(tile.shape[1] // 2) > 0
    return m.astype(np.uint8) * 255


def find_bubble(tile: np.ndarray, meadow: MeadowRef,
                config: ScanConfig = DEFAULT_CONFIG,
                avoid: tuple[float, float, float] | None = None) -> Bubble | None:
    """The speech bubble of a task tile, or None.

    The white is thresholded at three levels (a bubble can touch pale stream banks or
    cobbles at the looser ones); ``avoid`` = (x, y, r) is a marker token already
    found, which is not taken for the bubble.
    """
    hsv = cv2.cvtColor(tile, cv2.COLOR_BGR2HSV)
    inside = hexagon_mask(tile.shape[1] // 2) > 0
    top = float(np.percentile(hsv[:, :, 2][inside], 99.5))
    whitest = ((hsv[:, :, 2] >= top - 25) & (hsv[:, :, 1] < 45) & inside
               ).astype(np.uint8) * 255
    masks = [white_mask(tile, meadow, config, strict) for strict in (False, True)]
    found = [_find_bubble(tile, m, config, avoid) for m in masks + [whitest]]
    scored = [f for f in found if f is not None]
    return max(scored, key=lambda f: f[1])[0] if scored else None


def _find_bubble(tile: np.ndarray, white: np.ndarray, config: ScanConfig,
                 avoid: tuple[float, float, float] | None = None
                 ) -> tuple[Bubble, float] | None:
    hex_area = float(np.count_nonzero(hexagon_mask(tile.shape[1] // 2)))
    white = cv2.morphologyEx(white, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(white, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    best: Bubble | None = None
    best_score = 0.0
    for c in contours:
        x, y, w, h = cv2.boundingRect(c)
        filled = np.zeros((h, w), np.uint8)
        cv2.drawContours(filled, [c - (x, y)], -1, 255, -1)
        area = float(np.count_nonzero(filled))
        frac = area / hex_area
        if not (config.bubble_min_area_frac <= frac <= config.bubble_max_area_frac):
            continue
        (_, _), (rw, rh), _ = cv2.minAreaRect(c)
        if min(rw, rh) <= 0:
            continue
        aspect = max(rw, rh) / min(rw, rh)
        extent = area / (rw * rh)
        hull_area = float(cv2.contourArea(cv2.convexHull(c)))
        solidity = cv2.contourArea(c) / max(hull_area, 1.0)
        perimeter = cv2.arcLength(c, True)
        circular = 4 * math.pi * cv2.contourArea(c) / max(perimeter * perimeter, 1e-9)
        if aspect > 1.6 or extent < 0.6 or solidity < 0.75 or circular > 0.88:
            continue  # (a round light patch is a marker token, not a bubble)
        box_white = white[y:y + h, x:x + w] > 0
        icon = (filled > 0) & ~box_white
        icon_frac = float(icon.sum()) / area
        if icon_frac < 0.04:
            continue  # a plain white patch: no icon, not a bubble
        if avoid is not None and math.hypot(x + w / 2 - avoid[0],
                                            y + h / 2 - avoid[1]) < 1.2 * avoid[2]:
            continue  # that is the marker token
        hsv_icon = cv2.cvtColor(tile[y:y + h, x:x + w], cv2.COLOR_BGR2HSV)[icon]
        colourful = float(np.mean(hsv_icon[:, 1] >= 60)) if len(hsv_icon) else 0.0
        score = extent * solidity / aspect * (0.5 + colourful)
        if score > best_score:
            best_score = score
            best = Bubble(x, y, w, h, frac, icon)
    return (best, best_score) if best is not None else None


TASK_TYPES = ("forest", "grain", "village", "track", "stream")


def task_type(tile: np.ndarray, bubble: Bubble) -> str:
    """The task type shown by the icon in the bubble, judged by the icon's colour."""
    box = tile[bubble.y:bubble.y + bubble.h, bubble.x:bubble.x + bubble.w]
    hsv = cv2.cvtColor(box, cv2.COLOR_BGR2HSV).astype(np.int16)
    px = hsv[bubble.icon_mask]
    colourful = px[px[:, 1] >= 50]
    if len(colourful) < max(4, 0.2 * len(px)):
        return "track"
    hue = float(np.median(colourful[:, 0]))
    sat = float(np.median(colourful[:, 1]))
    if 85 <= hue < 135:
        return "stream"
    if 26 <= hue < 85:
        return "forest"
    if 14 <= hue < 26:
        return "grain"
    # Red house (saturated, bright) or brown rails (duller, darker).
    value = float(np.median(colourful[:, 2]))
    return "village" if sat + 0.5 * value >= 195 else "track"


# --- Task markers: a token with a number 3..7 lying on a task tile -----------------

MARKER_VALUES = (3, 4, 5, 6, 7)
TEMPLATE_SIZE = 32


@lru_cache(maxsize=1)
def digit_templates() -> dict[int, list[np.ndarray]]:
    """Binary digit images (ink = 1.0), each turned every 15 degrees, unit-normalised."""
    out: dict[int, list[np.ndarray]] = {}
    for value in MARKER_VALUES:
        base = np.zeros((64, 64), np.uint8)
        (tw, th), _ = cv2.getTextSize(str(value), cv2.FONT_HERSHEY_SIMPLEX, 1.6, 5)
        cv2.putText(base, str(value), ((64 - tw) // 2, (64 + th) // 2),
                    cv2.FONT_HERSHEY_SIMPLEX, 1.6, 255, 5, cv2.LINE_AA)
        turns = []
        for angle in range(0, 360, 15):
            rot = cv2.getRotationMatrix2D((32, 32), angle, 1.0)
            img = cv2.warpAffine(base, rot, (64, 64))
            turns.append(_normalise_glyph(img > 127))
        out[value] = turns
    return out


def _normalise_glyph(ink: np.ndarray) -> np.ndarray:
    """Crop the ink to its bounding square, scale to TEMPLATE_SIZE, zero-mean unit-norm."""
    ys, xs = np.nonzero(ink)
    if len(xs) == 0:
        return np.zeros((TEMPLATE_SIZE, TEMPLATE_SIZE), np.float32)
    cx, cy = (xs.min() + xs.max()) / 2, (ys.min() + ys.max()) / 2
    half = max(xs.max() - xs.min(), ys.max() - ys.min()) / 2 + 2
    src = np.array([[cx - half, cy - half], [cx + half, cy - half], [cx - half, cy + half]],
                   np.float32)
    dst = np.array([[0, 0], [TEMPLATE_SIZE, 0], [0, TEMPLATE_SIZE]], np.float32)
    glyph = cv2.warpAffine(ink.astype(np.float32), cv2.getAffineTransform(src, dst),
                           (TEMPLATE_SIZE, TEMPLATE_SIZE))
    glyph -= glyph.mean()
    norm = float(np.linalg.norm(glyph))
    return glyph / norm if norm > 0 else glyph


@dataclass(frozen=True)
class Marker:
    value: int
    confidence: float
    center: tuple[float, float]
    radius: float = 0.0


def find_marker(tile: np.ndarray, config: ScanConfig = DEFAULT_CONFIG) -> Marker | None:
    """A number token on the tile: a plain bright disc carrying a dark digit.

    The digit is matched against rendered templates at every 15 degrees (the token
    may lie turned); when the best match is weak, tesseract reads the upright crop
    as a second opinion.
    """
    radius = tile.shape[1] // 2
    hsv = cv2.cvtColor(tile, cv2.COLOR_BGR2HSV)
    gray = cv2.cvtColor(tile, cv2.COLOR_BGR2GRAY)
    inside = hexagon_mask(radius) > 0
    best: Marker | None = None
    # Dark digit on a light disc, or light digit on a dark disc.
    for light_disc in (True, False):
        if light_disc:
            plain = (hsv[:, :, 2] > 150) & (hsv[:, :, 1] < 90)
        else:
            plain = (hsv[:, :, 2] < 80) & (hsv[:, :, 1] < 110)
        token: np.ndarray = (plain & inside).astype(np.uint8) * 255
        token = cv2.morphologyEx(token, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        contours, _ = cv2.findContours(token, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            marker = _read_token(c, gray, radius, light_disc, config)
            if marker is not None and (best is None or marker.confidence > best.confidence):
                best = marker
    if best is None:
        best = _hough_tokens(gray, inside, radius, config)
    return best


def _hough_tokens(gray: np.ndarray, inside: np.ndarray, radius: int,
                  config: ScanConfig) -> Marker | None:
    """Round tokens whose centre is neither plain white nor plain dark (a coloured
    ring, blur): circles by the Hough transform, ink by Otsu inside each."""
    blurred = cv2.GaussianBlur(gray, (3, 3), 0)
    circles = cv2.HoughCircles(blurred, cv2.HOUGH_GRADIENT, dp=1.0,
                               minDist=max(4, int(0.15 * radius)), param1=120, param2=18,
                               minRadius=max(3, int(0.07 * radius)),
                               maxRadius=int(0.2 * radius))
    if circles is None:
        return None
    best: Marker | None = None
    for cx, cy, rad in circles[0][:8]:
        ix, iy = int(round(cx)), int(round(cy))
        if not (0 <= iy < inside.shape[0] and 0 <= ix < inside.shape[1]) or not inside[iy, ix]:
            continue
        disc = np.zeros(gray.shape, np.uint8)
        cv2.circle(disc, (ix, iy), max(2, int(rad * 0.72)), 255, -1)
        vals = gray[disc > 0]
        if vals.size < 20 or float(vals.std()) < 25:
            continue  # no contrast: no digit
        thr, _ = cv2.threshold(vals.reshape(-1, 1).astype(np.uint8), 0, 255,
                               cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        dark = (gray < thr) & (disc > 0)
        light = (gray >= thr) & (disc > 0)
        ink = dark if dark.sum() < light.sum() else light
        share = float(ink.sum()) / float(vals.size)
        if not 0.08 <= share <= 0.45:
            continue
        value, score = _match_digit(ink)
        # Circles are everywhere in the art: ask for a clearer match than for discs.
        if score < config.marker_template_min + 0.1:
            if (score < config.marker_template_min or not config.use_tesseract
                    or _tesseract_digit(ink) != value):
                continue
        marker = Marker(value, float(min(1.0, score)), (float(cx), float(cy)), float(rad))
        if best is None or marker.confidence > best.confidence:
            best = marker
    return best


def _read_token(contour: np.ndarray, gray: np.ndarray, radius: int, light_disc: bool,
                config: ScanConfig) -> Marker | None:
    (cx, cy), rad = cv2.minEnclosingCircle(contour)
    if not 0.06 * radius <= rad <= 0.45 * radius:
        return None
    area = cv2.contourArea(contour)
    perimeter = cv2.arcLength(contour, True)
    circular = 4 * math.pi * area / max(perimeter * perimeter, 1e-9)
    if area < 0.78 * math.pi * rad * rad or circular < 0.8:
        return None  # not a disc (a speech bubble is a rounded square with a tail)
    disc = np.zeros(gray.shape, np.uint8)
    cv2.circle(disc, (int(cx), int(cy)), max(1, int(rad * 0.85)), 255, -1)
    vals = gray[disc > 0]
    if vals.size == 0:
        return None
    if light_disc:
        ink = (gray < 0.6 * float(np.percentile(vals, 90))) & (disc > 0)
    else:
        lo = float(np.percentile(vals, 10))
        ink = (gray > lo + 0.5 * (255 - lo) * 0.6) & (disc > 0)
    share = float(ink.sum()) / max(float(disc.sum()) / 255.0, 1.0)
    if not 0.04 <= share <= 0.45:
        return None
    value, score = _match_digit(ink)
    if score < config.marker_template_min:
        # Doubtful template match: keep it only when tesseract reads the same.
        if (score < config.marker_accept_min or not config.use_tesseract
                or _tesseract_digit(ink) != value):
            return None
    return Marker(value, float(min(1.0, score)), (float(cx), float(cy)), float(rad))


def _match_digit(ink: np.ndarray) -> tuple[int, float]:
    glyph = _normalise_glyph(ink)
    best_value, best_score = MARKER_VALUES[0], -1.0
    for value, turns in digit_templates().items():
        score = max(float((glyph * t).sum()) for t in turns)
        if score > best_score:
            best_value, best_score = value, score
    return best_value, best_score


def _tesseract_digit(ink: np.ndarray) -> int | None:
    """Tesseract's reading of the glyph, trying the four right-angle turns."""
    try:
        import pytesseract
    except ImportError:  # pragma: no cover - a dependency
        return None
    ys, xs = np.nonzero(ink)
    crop = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.uint8)
    img = 255 - cv2.copyMakeBorder(crop * 255, 12, 12, 12, 12, cv2.BORDER_CONSTANT, value=0)
    img = cv2.resize(img, None, fx=3, fy=3, interpolation=cv2.INTER_NEAREST)
    for k in range(4):
        try:
            text = pytesseract.image_to_string(
                np.rot90(img, k), config="--psm 10 -c tessedit_char_whitelist=34567",
                timeout=2)
        except Exception:  # noqa: BLE001 - tesseract missing or timed out
            return None
        digits = [int(ch) for ch in text if ch in "34567"]
        if len(digits) == 1:
            return digits[0]
    return None
