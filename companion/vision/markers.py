"""Task markers: a token with a number 3..7 lying on a task tile, found and read.

Representation: the search works on a tile rectified to the standard hexagon
(``rectify.py``) at radius ``R`` pixels. A token is a light, plain *face* (round or
hexagonal, radius about 0.08..0.16 R) carrying a dark digit, usually inside a coloured
rim. A ``Marker`` gives the value, a confidence 0..1, the face centre and radius in
those rectified pixels. Reading does not use the search image: the face is resampled
from the ``source`` image (the photo at its best available resolution) through the
tile's homography at ``FACE_PX`` pixels per face radius, binarised by Otsu inside the
face, and the ink is normalised for position and size by its centroid and RMS radius
(so any rotation of the token reads the same). It is then correlated with digit
templates drawn by ``cv2.putText`` in several fonts and weights, turned every
``ROTATION_STEP`` degrees. When the best digit does not beat the second clearly,
tesseract (``--psm 10``, whitelist 34567) reads the glyph turned upright by the best
template's angle, as a second opinion.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.rectify import hexagon_mask, standard_corners, tile_homography

MARKER_VALUES = (3, 4, 5, 6, 7)
GLYPH = 32
"""Side of the normalised glyph image (pixels)."""
GLYPH_RMS = 0.24 * GLYPH
"""The ink's RMS distance from its centroid after normalisation."""
ROTATION_STEP = 6
FACE_PX = 24
"""The face radius in pixels of the resampled crop that is read."""
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX)
FACE_RADII = (0.085, 0.10, 0.115, 0.13, 0.15)
"""Face radii searched, fractions of the tile's circumradius."""


@dataclass(frozen=True)
class Marker:
    value: int
    confidence: float
    center: tuple[float, float]
    radius: float = 0.0


@dataclass(frozen=True)
class Reading:
    value: int
    score: float
    """Best template correlation (0..1)."""
    margin: float
    """Best correlation minus that of the best other digit."""
    angle: float
    """Rotation (degrees) of the best template: the token's turn."""
    glyph: np.ndarray


# --- templates --------------------------------------------------------------------------

def normalise_ink(ink: np.ndarray) -> np.ndarray | None:
    """The ink (bool) moved to its centroid and scaled to ``GLYPH_RMS``; float32 image."""
    ys, xs = np.nonzero(ink)
    if len(xs) < 6:
        return None
    cx, cy = float(xs.mean()), float(ys.mean())
    rms = math.sqrt(float(((xs - cx) ** 2 + (ys - cy) ** 2).mean()))
    if rms <= 0.5:
        return None
    s = GLYPH_RMS / rms
    m = np.array([[s, 0, GLYPH / 2 - s * cx], [0, s, GLYPH / 2 - s * cy]], np.float32)
    out = cv2.warpAffine(ink.astype(np.float32), m, (GLYPH, GLYPH), flags=cv2.INTER_AREA
                         if s < 1 else cv2.INTER_LINEAR)
    return np.asarray(cv2.GaussianBlur(out, (0, 0), 1.0), np.float32)


def _unit(v: np.ndarray) -> np.ndarray:
    v = v.astype(np.float32).ravel()
    v = v - v.mean()
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v


@lru_cache(maxsize=1)
def digit_templates() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(matrix, values, angles)``: one unit-norm row per digit, font, weight and turn."""
    rows, values, angles = [], [], []
    for value in MARKER_VALUES:
        for font in FONTS:
            for weight in (0.09, 0.16):
                base = np.zeros((96, 96), np.uint8)
                scale = 2.0
                thick = max(1, round(weight * 40))
                (tw, th), _ = cv2.getTextSize(str(value), font, scale, thick)
                cv2.putText(base, str(value), ((96 - tw) // 2, (96 + th) // 2), font, scale,
                            255, thick, cv2.LINE_AA)
                upright = normalise_ink(base > 127)
                if upright is None:
                    continue
                # The glyph is centred on its centroid, so turning it about the middle
                # is the same as normalising the turned digit.
                for angle in range(0, 360, ROTATION_STEP):
                    rot = cv2.getRotationMatrix2D((GLYPH / 2, GLYPH / 2), angle, 1.0)
                    rows.append(_unit(cv2.warpAffine(upright, rot, (GLYPH, GLYPH))))
                    values.append(value)
                    angles.append(angle)
    return np.stack(rows), np.array(values), np.array(angles, np.float32)


def match_digit(ink: np.ndarray) -> Reading | None:
    """The digit whose template correlates best with the ink (bool image), any rotation."""
    glyph = normalise_ink(ink)
    if glyph is None:
        return None
    matrix, values, angles = digit_templates()
    scores = matrix @ _unit(glyph)
    best = int(np.argmax(scores))
    value = int(values[best])
    other = float(scores[values != value].max())
    return Reading(value, float(scores[best]), float(scores[best]) - other,
                   float(angles[best]), glyph)


# --- finding the token's face -----------------------------------------------------------

@lru_cache(maxsize=16)
def _band_kernels(rho: int) -> tuple[np.ndarray, np.ndarray]:
    """Normalised kernels: the face's outer band 0.65..1.0 rho (clear of the digit,
    which keeps to the middle) and the surrounding ring 1.2..1.6 rho."""
    size = int(math.ceil(1.6 * rho)) * 2 + 1
    c = size // 2
    yy, xx = np.mgrid[:size, :size]
    d = np.hypot(xx - c, yy - c)
    band = ((d >= 0.65 * rho) & (d <= rho)).astype(np.float32)
    ring = ((d >= 1.2 * rho) & (d <= 1.6 * rho)).astype(np.float32)
    return band / band.sum(), ring / ring.sum()


def face_candidates(tile: np.ndarray, config: ScanConfig = DEFAULT_CONFIG,
                    avoid: tuple[int, int, int, int] | None = None,
                    limit: int = 4, search_radius: int = 64
                    ) -> list[tuple[float, float, float, float]]:
    """Light, plain round faces standing out from their surroundings: ``(x, y, rho, score)``.

    A face is judged by its outer band (light, even) against the ring around it (darker:
    the token's rim or the tile art); its middle, where the digit is, does not count.
    ``avoid`` is a box ``(x, y, w, h)`` (the speech bubble) whose centre is not a face.
    """
    radius = tile.shape[1] // 2
    # Search at about ``search_radius`` px tile radius (faces are over 5 px at 64);
    # report at full scale.
    step = max(1, radius // search_radius)
    small = cv2.resize(tile, (tile.shape[1] // step, tile.shape[0] // step),
                       interpolation=cv2.INTER_AREA) if step > 1 else tile
    r_small = radius / step
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    light = hsv[:, :, 2].astype(np.float32) - 0.8 * hsv[:, :, 1].astype(np.float32)
    sq = light * light
    hexagon = cv2.resize(hexagon_mask(radius), (small.shape[1], small.shape[0]),
                         interpolation=cv2.INTER_NEAREST)
    inside: np.ndarray = cv2.erode(hexagon, np.ones((5, 5), np.uint8)) > 0
    # Faces are among the lightest things on the tile (pale cobbles or banks are not).
    white = float(np.percentile(light[inside], 99))
    found: list[tuple[float, float, float, float]] = []
    for frac in FACE_RADII:
        rho = max(3, int(round(frac * r_small)))
        band, ring = _band_kernels(rho)
        mean_band = cv2.filter2D(light, -1, band, borderType=cv2.BORDER_REFLECT)
        mean_ring = cv2.filter2D(light, -1, ring, borderType=cv2.BORDER_REFLECT)
        var_band = cv2.filter2D(sq, -1, band, borderType=cv2.BORDER_REFLECT) - mean_band ** 2
        score = (mean_band - mean_ring - 0.8 * np.sqrt(np.maximum(var_band, 0.0))
                 - np.maximum(white - 25.0 - mean_band, 0.0))
        score[~inside] = -1e9
        for _ in range(limit):
            y, x = np.unravel_index(int(np.argmax(score)), score.shape)
            s = float(score[y, x])
            if s < config.markers.face_contrast_min:
                break
            found.append((float((x + 0.5) * step - 0.5), float((y + 0.5) * step - 0.5),
                          float(rho * step), s))
            cv2.circle(score, (int(x), int(y)), int(1.6 * rho), -1e9, -1)
    if avoid is not None:
        bx, by, bw, bh = avoid
        found = [f for f in found
                 if not (bx <= f[0] <= bx + bw and by <= f[1] <= by + bh)]
    # Keep the best face per place (the radii overlap).
    found.sort(key=lambda f: -f[3])
    kept: list[tuple[float, float, float, float]] = []
    for f in found:
        if all(math.hypot(f[0] - g[0], f[1] - g[1]) > 0.8 * g[2] for g in kept):
            kept.append(f)
    return kept[:limit]


# --- reading a face ---------------------------------------------------------------------

def face_patch(source: np.ndarray, source_corners: np.ndarray, radius: int,
               centre: tuple[float, float], rho: float) -> np.ndarray:
    """Crop (BGR) of the face, resampled from ``source`` at ``FACE_PX`` px per face radius.

    ``source_corners`` are the tile's corners in ``source``; ``centre`` and ``rho`` are in
    the tile rectified at ``radius``.
    """
    to_rect = tile_homography(source_corners, radius)
    half = int(1.6 * FACE_PX)
    s = rho / FACE_PX
    patch_to_rect = np.array([[s, 0, centre[0] - s * half], [0, s, centre[1] - s * half],
                              [0, 0, 1]], np.float64)
    patch_to_source = np.linalg.inv(to_rect) @ patch_to_rect
    # Only the part of the photo under the patch is converted to grey.
    pts = np.array([[0, 0], [2 * half, 0], [0, 2 * half], [2 * half, 2 * half]], np.float64)
    mapped = cv2.perspectiveTransform(pts[None], patch_to_source)[0]
    hgt, wid = source.shape[:2]
    x0 = int(np.clip(math.floor(mapped[:, 0].min()) - 2, 0, wid - 1))
    y0 = int(np.clip(math.floor(mapped[:, 1].min()) - 2, 0, hgt - 1))
    x1 = int(np.clip(math.ceil(mapped[:, 0].max()) + 3, x0 + 1, wid))
    y1 = int(np.clip(math.ceil(mapped[:, 1].max()) + 3, y0 + 1, hgt))
    roi = source[y0:y1, x0:x1]
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    return np.asarray(cv2.warpPerspective(roi, shift @ patch_to_source, (2 * half, 2 * half),
                                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                          borderMode=cv2.BORDER_REPLICATE))


def face_ink(patch: np.ndarray, config: ScanConfig = DEFAULT_CONFIG) -> np.ndarray | None:
    """The digit's ink (bool) on a face patch (BGR) centred on the face, or None.

    The ink is the dark side of an Otsu split inside the face, without the components
    that reach the face's edge (the rim) and only when it is grey-black: a coloured
    icon (the speech bubble's) is no digit.
    """
    colour = patch
    patch = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    size = patch.shape[0]
    c = size / 2
    yy, xx = np.mgrid[:size, :size]
    d = np.hypot(xx - c + 0.5, yy - c + 0.5)
    face = d <= 0.95 * FACE_PX
    vals = patch[face]
    if float(np.percentile(vals, 90)) - float(np.percentile(vals, 5)) < 45:
        return None  # no contrast: a plain patch, no digit
    thr, _ = cv2.threshold(vals.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    dark = ((patch < thr) & face).astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(dark, connectivity=8)
    ink = np.zeros(patch.shape, bool)
    for i in range(1, n):
        area = int(stats[i, cv2.CC_STAT_AREA])
        if area < 0.004 * FACE_PX * FACE_PX * 4:
            continue  # speckle
        comp = labels == i
        # Rim remnants touch the face's edge; the digit keeps to the middle.
        if float(d[comp].max()) > 0.93 * FACE_PX and math.hypot(
                cents[i][0] - c, cents[i][1] - c) > 0.45 * FACE_PX:
            continue
        ink |= comp
    share = float(ink.sum()) / float(face.sum())
    if not 0.05 <= share <= 0.6:
        return None
    # A digit sits in the middle of a plain face: its centroid near the centre and
    # the face's outer band clear of ink.
    ys, xs = np.nonzero(ink)
    if math.hypot(float(xs.mean()) + 0.5 - c, float(ys.mean()) + 0.5 - c) > 0.3 * FACE_PX:
        return None
    band = (d >= 0.75 * FACE_PX) & face
    if float(ink[band].mean()) > 0.15:
        return None
    lab = cv2.cvtColor(colour, cv2.COLOR_BGR2LAB).astype(np.float32)
    paper = face & ~ink & (patch >= thr)
    if float(np.median(ink_chroma(lab, ink, paper))) > config.markers.ink_chroma_max:
        return None
    return ink


def ink_chroma(lab: np.ndarray, ink: np.ndarray, paper: np.ndarray) -> np.ndarray:
    """Lab chroma of the ``ink`` pixels after removing the light's colour cast.

    The face (``paper``) is white, so its (a, b) is the cast; a cast scales with
    lightness, so a grey ink keeps the cast in proportion to its lightness. What is
    left is the ink's own colour (a brown or red icon), blur and tint aside.
    """
    if not paper.any():
        return np.asarray(np.hypot(lab[:, :, 1][ink] - 128.0, lab[:, :, 2][ink] - 128.0))
    light0 = max(float(np.median(lab[:, :, 0][paper])), 1.0)
    a0 = float(np.median(lab[:, :, 1][paper])) - 128.0
    b0 = float(np.median(lab[:, :, 2][paper])) - 128.0
    k = lab[:, :, 0][ink] / light0
    return np.asarray(np.hypot(lab[:, :, 1][ink] - 128.0 - a0 * k,
                               lab[:, :, 2][ink] - 128.0 - b0 * k))


def tesseract_digit(glyph_ink: np.ndarray, angle: float) -> int | None:
    """Tesseract's reading of the ink turned upright by ``angle`` (the template's turn)."""
    try:
        import pytesseract
    except ImportError:  # pragma: no cover - a dependency
        return None
    img = (glyph_ink.astype(np.uint8) * 255)
    h, w = img.shape
    rot = cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 2.0)
    rot[0, 2] += w / 2
    rot[1, 2] += h / 2
    up = cv2.warpAffine(img, rot, (2 * w, 2 * h))
    up = 255 - cv2.copyMakeBorder(up, 16, 16, 16, 16, cv2.BORDER_CONSTANT, value=0)
    try:
        text = pytesseract.image_to_string(
            up, config="--psm 10 -c tessedit_char_whitelist=34567", timeout=2)
    except Exception:  # noqa: BLE001 - tesseract missing or timed out
        return None
    digits = [int(ch) for ch in text if ch in "34567"]
    return digits[0] if len(digits) == 1 else None


def find_marker(tile: np.ndarray, source: np.ndarray | None = None,
                source_corners: np.ndarray | None = None,
                config: ScanConfig = DEFAULT_CONFIG,
                avoid: tuple[int, int, int, int] | None = None,
                gains: np.ndarray | None = None) -> Marker | None:
    """The task marker on a rectified ``tile``, read from ``source`` (default: the tile).

    ``gains`` (B, G, R) correct the source's colour cast as they did the tile's.
    """
    radius = tile.shape[1] // 2
    if source is None or source_corners is None:
        source, source_corners = tile, standard_corners(radius)
    best: tuple[float, Marker] | None = None
    for x, y, rho, _ in face_candidates(tile, config, avoid):
        patch = face_patch(source, source_corners, radius, (x, y), rho)
        if gains is not None:
            patch = np.clip(patch.astype(np.float32) * gains.astype(np.float32).reshape(1, 1, 3),
                            0, 255).astype(np.uint8)
        ink = face_ink(patch, config)
        if ink is None:
            continue
        reading = match_digit(ink)
        if reading is None or reading.score < config.markers.digit_min:
            continue
        value, conf = reading.value, reading.score
        if reading.margin < config.markers.margin_min:
            if not config.markers.use_tesseract:
                conf *= 0.7
            else:
                second = tesseract_digit(ink, reading.angle)
                if second == value:
                    conf = max(conf, 0.8)
                elif second is None:
                    conf *= 0.7
                else:
                    conf *= 0.5
        rank = reading.score + reading.margin
        if best is None or rank > best[0]:
            best = (rank, Marker(value, float(min(1.0, conf)), (x, y), rho))
    return best[1] if best else None
