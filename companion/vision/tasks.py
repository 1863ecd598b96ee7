"""Task tiles (white speech bubble with a task-type icon), flags, and task markers.

Representation: works on a rectified tile (``rectify.py``). ``find_bubble`` returns a
``Bubble`` (bounding box in rectified pixels, area fraction of the hexagon) or None;
``task_type`` names the icon inside it (``forest grain village track stream``);
task markers lying on the tile are found and read by ``markers.py``, flags by
``flags.py``. ``read_task`` puts bubble and marker together: the task type (from the
bubble's icon, or the marker's rim colour when the bubble is hidden) and the marker.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from companion.rules import LETTER_OF
from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.edges import MeadowRef
from companion.vision.markers import Marker, face_candidates, find_marker
from companion.vision.prior import decode
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
    factor = config.tasks.bubble_white_factor + (0.35 if strict else 0.0)
    v_min = min(config.tasks.bubble_white_value + (25 if strict else 0), factor * meadow[2])
    sat = config.tasks.bubble_white_saturation - (25 if strict else 0)
    m = (hsv[:, :, 1] < sat) & (hsv[:, :, 2] >= v_min)
    m &= hexagon_mask(tile.shape[1] // 2) > 0
    return m.astype(np.uint8) * 255


def find_bubble(tile: np.ndarray, meadow: MeadowRef,
                config: ScanConfig = DEFAULT_CONFIG,
                avoid: tuple[float, float, float] | None = None) -> Bubble | None:
    """The speech bubble of a task tile, or None.

    The white is thresholded at three levels (a bubble can touch pale stream banks or
    cobbles at the looser ones); ``avoid`` = (x, y, r) is a marker token already
    found, which is not taken for the bubble. Last, a stream task's bubble is looked
    for as white and pale blue together (``_find_water_drop``).
    """
    hsv = cv2.cvtColor(tile, cv2.COLOR_BGR2HSV)
    inside = hexagon_mask(tile.shape[1] // 2) > 0
    top = float(np.percentile(hsv[:, :, 2][inside], 99.5))
    whitest = ((hsv[:, :, 2] >= top - 25) & (hsv[:, :, 1] < 45) & inside
               ).astype(np.uint8) * 255
    masks = [white_mask(tile, meadow, config, strict) for strict in (False, True)]
    found = [_find_bubble(tile, m, config, avoid) for m in masks + [whitest]]
    scored = [f for f in found if f is not None]
    if not scored:
        # The bubble may touch thin pale things (stream banks, rails): fill its icon in
        # and open the white with a kernel wider than those, then judge the shapes left.
        for m in masks[1:] + [whitest]:
            f = _find_bubble(tile, m, config, avoid, shape=_cut_out(m, config))
            if f is not None:
                scored.append(f)
    if not scored:
        f = _find_water_drop(tile, hsv, masks[0], meadow, config, avoid)
        if f is not None:
            scored.append(f)
    return max(scored, key=lambda f: f[1])[0] if scored else None


def _cut_out(mask: np.ndarray, config: ScanConfig) -> np.ndarray:
    """``mask``'s shapes with their holes filled, opened with a disc of
    ``bubble_cut_frac`` of the radius (which cuts off thin things touching them)."""
    k = max(3, int(round(config.tasks.bubble_cut_frac * mask.shape[1] / 2)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, -1)
    out: np.ndarray = cv2.morphologyEx(filled, cv2.MORPH_OPEN, kernel)
    return out


def _find_water_drop(tile: np.ndarray, hsv: np.ndarray, white: np.ndarray, meadow: MeadowRef,
                     config: ScanConfig, avoid: tuple[float, float, float] | None
                     ) -> tuple[Bubble, float] | None:
    """The stream task's bubble, whose pale blue drop fills most of it: only a thin
    white outline is left, and blur breaks it. Its shape is then the white and the pale
    blue together; it counts only at a bubble's usual size, clear of the tile's rim,
    around a pale blue icon."""
    v_min = min(config.tasks.bubble_white_value, config.tasks.bubble_white_factor * meadow[2])
    pale_blue = ((hsv[:, :, 0] >= 85) & (hsv[:, :, 0] < 130)
                 & (hsv[:, :, 1] < config.tasks.drop_max_saturation)
                 & (hsv[:, :, 2] >= config.tasks.drop_value_frac * v_min)
                 & (hexagon_mask(tile.shape[1] // 2) > 0)).astype(np.uint8) * 255
    both = cv2.morphologyEx(white | pale_blue, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    margin = max(3, int(round(config.tasks.drop_margin_frac * tile.shape[1] / 2)) | 1)
    well_inside = cv2.erode(hexagon_mask(tile.shape[1] // 2), np.ones((margin, margin), np.uint8))

    def is_drop(bubble: Bubble) -> bool:
        t = config.tasks
        if not (t.drop_min_area_frac <= bubble.area_frac <= t.bubble_max_area_frac):
            return False
        if not well_inside[bubble.y:bubble.y + bubble.h, bubble.x:bubble.x + bubble.w].all():
            return False  # a stream leaving the tile between pale banks
        box = tile[bubble.y:bubble.y + bubble.h, bubble.x:bubble.x + bubble.w]
        icon = cv2.cvtColor(box, cv2.COLOR_BGR2HSV)[bubble.icon_mask]
        if len(icon) < config.tasks.drop_min_icon_frac * bubble.w * bubble.h:
            return False
        hue, sat, value = np.median(icon, axis=0)
        return bool(90 <= hue < 120 and sat >= 50 and value >= 0.6 * v_min)

    return _find_bubble(tile, white, config, avoid, shape=_cut_out(both, config),
                        accept=is_drop)


def _find_bubble(tile: np.ndarray, white: np.ndarray, config: ScanConfig,
                 avoid: tuple[float, float, float] | None = None,
                 shape: np.ndarray | None = None,
                 accept: Callable[[Bubble], bool] | None = None
                 ) -> tuple[Bubble, float] | None:
    """The best bubble among the white shapes (``shape`` if given, else ``white``) that
    ``accept`` (if given) accepts."""
    hex_area = float(np.count_nonzero(hexagon_mask(tile.shape[1] // 2)))
    white = cv2.morphologyEx(white, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(white if shape is None else shape, cv2.RETR_EXTERNAL,
                                   cv2.CHAIN_APPROX_SIMPLE)
    best: Bubble | None = None
    best_score = 0.0
    for c in contours:
        x, y, w, h = cv2.boundingRect(c)
        filled = np.zeros((h, w), np.uint8)
        cv2.drawContours(filled, [c - (x, y)], -1, 255, -1)
        area = float(np.count_nonzero(filled))
        frac = area / hex_area
        if not (config.tasks.bubble_min_area_frac <= frac <= config.tasks.bubble_max_area_frac):
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
            bubble = Bubble(x, y, w, h, frac, icon)
            if accept is None or accept(bubble):
                best_score = score
                best = bubble
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
    by_hue = _type_of_hue(hue, grain_below=26)
    if by_hue is not None:
        return by_hue
    # Red house (saturated, bright) or brown rails (duller, darker).
    value = float(np.median(colourful[:, 2]))
    return "village" if sat + 0.5 * value >= 195 else "track"


CONFUSED_WITH = {
    "forest": ("grain", "track", "stream", "village"),
    "grain": ("forest", "village", "track", "stream"),
    "village": ("track", "grain", "forest", "stream"),
    "track": ("village", "stream", "forest", "grain"),
    "stream": ("track", "forest", "grain", "village"),
}
"""For each task type, the others in the order its icon's colour is mistaken for them
(red roof and brown rails, yellow and green, grey rails and a pale drop)."""


def reconcile_task(kind: str, code: str, conf: tuple[float, ...], probs: np.ndarray,
                   off_catalogue: float, sections: tuple[str, ...], trust: float,
                   allowed: dict[int, str] | None = None
                   ) -> tuple[str, str, tuple[float, ...]]:
    """Task type, code and confidences of a task tile (read as ``kind``, ``code``,
    ``conf``) that agree with each other.

    A task's terrain shows on an edge of its tile (rules.md §3: a record where it does
    not is refused). When the code lacks the icon's terrain, the best code that has it
    (within ``allowed``: edge -> letters, from the neighbours) is taken if it is at most
    ``trust`` (natural log) less likely; otherwise the art is trusted and the task type
    becomes the first of ``CONFUSED_WITH`` on the tile.
    """
    letter = LETTER_OF.get(kind)
    if letter is None or letter in code:
        return kind, code, conf
    given = dict(allowed or {})
    score = decode(probs, off_catalogue, sections, dict(enumerate(code)))[3]
    options = [decode(probs, off_catalogue, sections, {**given, e: letter})
               for e in range(6) if letter in given.get(e, letter)]
    with_letter = max(options, key=lambda d: d[3], default=None)
    if with_letter is not None and score - with_letter[3] <= trust:
        return kind, with_letter[0], with_letter[1]
    return task_on_code(kind, code), code, conf


def task_on_code(kind: str, code: str) -> str:
    """``kind`` if its terrain shows on the code's edges, else the first of
    ``CONFUSED_WITH[kind]`` that does (``kind`` when none does)."""
    if LETTER_OF.get(kind, "") in code:
        return kind
    return next((o for o in CONFUSED_WITH.get(kind, ()) if LETTER_OF[o] in code), kind)


def may_hold_marker(tile: np.ndarray, config: ScanConfig = DEFAULT_CONFIG) -> bool:
    """A quick look (coarse scale) for a light round face: worth reading a marker here?"""
    faces = face_candidates(tile, config, limit=1, search_radius=32)
    return bool(faces) and faces[0][3] >= config.markers.prefilter_min


def without_marker(tile: np.ndarray, marker: Marker) -> np.ndarray:
    """A copy of the tile with the marker token (face and rim) painted over by the
    colour around it, so that it neither hides nor joins the speech bubble."""
    out = tile.copy()
    cx, cy, rho = marker.center[0], marker.center[1], marker.radius
    ring = np.zeros(tile.shape[:2], np.uint8)
    cv2.circle(ring, (round(cx), round(cy)), round(2.0 * rho), 255, -1)
    cv2.circle(ring, (round(cx), round(cy)), round(1.6 * rho), 0, -1)
    around = tile[ring > 0]
    colour = np.median(around, axis=0) if len(around) else np.array([0, 0, 0])
    cv2.circle(out, (round(cx), round(cy)), round(1.6 * rho),
               tuple(int(v) for v in colour), -1)
    return out


def marker_rim_type(tile: np.ndarray, marker: Marker) -> str:
    """The task type told by the colour of the marker's rim (markers come in one colour
    per task type); a fallback when the speech bubble is not seen."""
    cx, cy, rho = marker.center[0], marker.center[1], marker.radius
    ring = np.zeros(tile.shape[:2], np.uint8)
    cv2.circle(ring, (round(cx), round(cy)), round(1.3 * rho), 255, -1)
    cv2.circle(ring, (round(cx), round(cy)), round(1.1 * rho), 0, -1)
    hsv = cv2.cvtColor(tile, cv2.COLOR_BGR2HSV)[ring > 0].astype(np.int16)
    if len(hsv) == 0 or float(np.median(hsv[:, 1])) < 60:
        return "track"
    return _type_of_hue(float(np.median(hsv[:, 0])), grain_below=36) or "village"


def _type_of_hue(hue: float, grain_below: float) -> str | None:
    """Stream (blue), forest (green) or grain (yellow, hue 14 up to ``grain_below``) by
    hue; None for red and brown. The icons' yellow is warmer than the markers' rims."""
    if 85 <= hue < 135:
        return "stream"
    if grain_below <= hue < 85:
        return "forest"
    if 14 <= hue < grain_below:
        return "grain"
    return None


def read_task(detail: np.ndarray, meadow: MeadowRef, source: np.ndarray,
              source_corners: np.ndarray, config: ScanConfig = DEFAULT_CONFIG,
              coarse: np.ndarray | None = None) -> tuple[str | None, Marker | None]:
    """Task type (None: not a task tile) and the marker lying on it (None: gone).

    ``detail`` is the tile rectified at ``config.rectify.detail_radius``; ``source`` and
    ``source_corners`` the photo at its best resolution and the tile's corners there
    (the digit is read from it); ``coarse`` the tile at working resolution, used to
    look for a marker on a tile whose speech bubble was not seen (only a clear digit
    counts there). The digit is read from ``source`` as it is: its white face is the
    reference for the light's colour (``markers.ink_chroma``), and a white-balance gain
    would only clip that face.
    """
    bubble = find_bubble(detail, meadow, config)
    marker = None
    if bubble is not None or (coarse is not None and may_hold_marker(coarse, config)):
        marker = find_marker(detail, source, source_corners, config)
        if bubble is None and marker is not None and marker.confidence < config.markers.alone_min:
            marker = None
    if marker is not None:
        # A light token can pass for the bubble or join it: look again without it.
        again = find_bubble(without_marker(detail, marker), meadow, config)
        if again is not None:
            bubble = again
        elif bubble is not None and _overlaps(bubble, marker):
            bubble = None
    if bubble is not None:
        return task_type(detail, bubble), marker
    if marker is not None:
        return marker_rim_type(detail, marker), marker
    return None, None


def _overlaps(bubble: Bubble, marker: Marker) -> bool:
    bx, by = bubble.x + bubble.w / 2, bubble.y + bubble.h / 2
    return bool(math.hypot(bx - marker.center[0], by - marker.center[1]) < 1.3 * marker.radius)
