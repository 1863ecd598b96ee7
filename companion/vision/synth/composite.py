"""Assembled-map photos made of *real* tile crops (test-time evaluation data).

Representation: a ``RealTile`` is one tile cut out of the development photos in a
tiles folder (``--tiles DIR`` of the tooling; by default ``../shared/tiles`` from the
current directory, i.e. beside the repository when run from its root; never copied
into the project), rectified to the standard flat-topped hexagon of
``companion.vision.rectify`` (BGR, black outside), with the code it shows *as it lies
in the crop*: ``rotate(catalogue code, k)``, ``k`` from the hand-checked
``real_tiles_rotation.json`` beside this module (numbers and rotations only, no image).
``composite_record`` lays those crops out following a record whose tiles are drawn
from the real set (turning each crop by multiples of 60 degrees to the record's
code), then runs the same camera, lighting and sensor pipeline as ``render`` and
returns the same ``Rendered`` ground truth. Everything returns ``None`` / raises
``FileNotFoundError`` when the tiles folder lacks the photos, so tests can skip.
"""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

from companion.rules import Hex, canonical, rotate
from companion.vision.synth.render import Rendered, TileTruth, render_tiles
from companion.vision.synth.render_art import draw_flag, draw_marker, hexagon
from companion.vision.synth.render_records import (
    LaidTile,
    PoolTile,
    laid_tiles,
    legal_random_record,
    with_holes,
)

DEFAULT_TILES = Path("..") / "shared" / "tiles"
"""The tiles folder when none is given, relative to the current directory."""
ANNOTATIONS = Path(__file__).with_name("real_tiles_rotation.json")
"""The crops' numbers, codes and rotations (hand-checked; shipped with the package)."""
PHOTOS = ("landscape-01-20.jpg", "task-01-25.jpg")
CROP_RADIUS = 200
"""Circumradius in pixels of the stored crops (the photos show tiles at about 150)."""


class RealTile(NamedTuple):
    section: str
    number: int
    code: str
    """The code as the crop lies (edge 0 at the top of ``image``)."""
    image: np.ndarray
    centre_in_photo: tuple[float, float]
    corners_in_photo: np.ndarray
    task_type: str | None = None
    """The task type shown in a task tile's speech bubble."""


def shared_tiles_dir(folder: str | Path | None = None) -> Path | None:
    """``folder`` (default ``DEFAULT_TILES`` from the current directory) when it holds
    both development photos, else ``None``."""
    base = Path(folder) if folder is not None else Path.cwd() / DEFAULT_TILES
    if all((base / name).is_file() for name in PHOTOS):
        return base.resolve()
    return None


def load_annotations(path: Path = ANNOTATIONS) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


def real_tiles(folder: str | Path | None = None,
               radius: int = CROP_RADIUS) -> tuple[RealTile, ...]:
    """Every development tile the tile finder locates, matched to its annotation.

    A tile the finder misses is left out (the composite draws from the rest). Raises
    ``FileNotFoundError`` when the folder (default: see ``shared_tiles_dir``) lacks them.
    """
    base = shared_tiles_dir(folder)
    if base is None:
        raise FileNotFoundError(f"{folder or DEFAULT_TILES}: the development photos "
                                f"({', '.join(PHOTOS)}) are not there")
    return _real_tiles(str(base), radius)


@lru_cache(maxsize=2)
def _real_tiles(folder: str, radius: int) -> tuple[RealTile, ...]:
    from companion.vision.config import DEFAULT_CONFIG
    from companion.vision.find_tiles import find_loose_tiles

    base = Path(folder)
    notes = load_annotations()
    config = DEFAULT_CONFIG.tuned(radius=radius)
    out: list[RealTile] = []
    for name in PHOTOS:
        image = cv2.imread(str(base / name), cv2.IMREAD_COLOR)
        if image is None:
            raise FileNotFoundError(f"cannot read {base / name}")
        entry = notes[name]
        found = find_loose_tiles(image, config)
        light = _light_falloff(found)
        for ann in entry["tiles"]:
            c = np.array(ann["centre"], float)
            best = min(found, key=lambda t: float(np.linalg.norm(np.array(t.center) - c)),
                       default=None)
            if best is None:
                continue
            size = float(np.linalg.norm(best.corners[0] - best.corners[3])) / 2
            if float(np.linalg.norm(np.array(best.center) - c)) > 0.6 * size:
                continue
            out.append(RealTile(entry["section"], int(ann["number"]),
                                rotate(ann["code"], int(ann["rotation"])),
                                _flatten(best.rectified, light(best.center)),
                                (float(best.center[0]), float(best.center[1])),
                                np.asarray(best.corners, float), ann.get("task")))
    return tuple(out)


MEADOW_LEVEL = 110.0
"""Meadow brightness (HSV value) every crop is brought to by ``_flatten``."""


def _light_falloff(found: list[Any]) -> Callable[[tuple[float, float]], float]:
    """The meadow brightness a development photo's light gives at a point.

    The photos are lit unevenly (the task photo's meadow is a third darker at the
    bottom than at the top). Crops laid side by side in a composite would keep those
    jumps, which no single table photo shows, so each photo's light is fitted as a
    plane ``v = a + b x + c y`` through the meadow brightness of its tiles.
    """
    from companion.vision.edges import MEADOW_SAMPLES_MIN_FRAC, meadow_of, meadow_samples

    rows, values, weights = [], [], []
    for t in found:
        px = meadow_samples(t.rectified)
        if len(px) >= max(200.0, MEADOW_SAMPLES_MIN_FRAC * t.rectified[..., 0].size):
            rows.append((1.0, float(t.center[0]), float(t.center[1])))
            values.append(meadow_of(px)[2])
            weights.append(float(len(px)))
    if len(rows) < 3:
        return lambda _at: MEADOW_LEVEL
    a = np.asarray(rows) * np.sqrt(weights)[:, None]
    b = np.asarray(values) * np.sqrt(weights)
    coef = np.linalg.lstsq(a, b, rcond=None)[0]
    return lambda at: float(coef[0] + coef[1] * at[0] + coef[2] * at[1])


def _flatten(image: np.ndarray, meadow_value: float) -> np.ndarray:
    """A crop with the light of its photo divided out (meadow at ``MEADOW_LEVEL``)."""
    gain = MEADOW_LEVEL / max(meadow_value, 30.0)
    return np.clip(image.astype(np.float32) * gain, 0, 255).astype(np.uint8)


def tile_pool(tiles: tuple[RealTile, ...]) -> list[PoolTile]:
    return [(t.section, t.code, t.task_type) for t in tiles]


class CropPainter:
    """A ``TilePainter`` that draws each laid tile with an unused real crop of its code."""

    def __init__(self, tiles: tuple[RealTile, ...]) -> None:
        self.free: dict[str, list[RealTile]] = {}
        self.used: dict[tuple[int, int], RealTile] = {}
        """The crop drawn at each axial position (its icon is the truth of the task type)."""
        for t in tiles:
            self.free.setdefault(canonical(t.code), []).append(t)

    def __call__(self, laid: LaidTile, radius: float,
                 rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
        options = self.free.get(canonical(laid.code))
        if not options:
            raise ValueError(f"no real tile crop left for code {laid.code}")
        wanted = ("task", laid.task_type) if laid.task_type else ("landscape", None)
        pick = next((t for t in options if (t.section, t.task_type) == wanted),
                    next((t for t in options if t.section == wanted[0]), options[0]))
        options.remove(pick)
        self.used[(laid.at[0], laid.at[1])] = pick
        steps = next(k for k in range(6) if rotate(pick.code, k) == laid.code)
        src = pick.image
        h, w = src.shape[:2]
        pad = 4
        half = pad + math.ceil(radius)
        side = 2 * half
        scale = radius / (w / 2)
        m = cv2.getRotationMatrix2D((w / 2, h / 2), -60.0 * steps, scale)
        m[0, 2] += half - w / 2
        m[1, 2] += half - h / 2
        img = cv2.warpAffine(src, m, (side, side), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REPLICATE)
        alpha = np.zeros((side, side), np.uint8)
        poly = hexagon(radius * 0.995, (half, half))
        cv2.fillPoly(alpha, [np.round(poly * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
        # markers and flags go beside the speech bubble, not over it
        away = _bubble_angle(img, alpha)
        a = away + math.pi if away is not None else rng.uniform(0, 2 * math.pi)
        if laid.task_type and laid.marker is not None:
            spot = (half + radius * 0.38 * math.cos(a), half + radius * 0.38 * math.sin(a))
            draw_marker(img, laid.task_type, laid.marker, spot, radius,
                        float(rng.uniform(-180, 180)), "hex" if rng.random() < 0.5 else "round")
        if laid.flag:
            b = a + math.pi / 2
            draw_flag(img, laid.flag, (half + radius * 0.3 * math.cos(b),
                                       half + radius * 0.3 * math.sin(b)), radius)
        return img, alpha


def _bubble_angle(img: np.ndarray, alpha: np.ndarray) -> float | None:
    """Direction from the tile centre to its white speech bubble, if it shows one."""
    hsv = cv2.cvtColor(img, cv2.COLOR_BGR2HSV)
    raw = ((hsv[..., 1] < 40) & (hsv[..., 2] > 200) & (alpha > 0)).astype(np.uint8)
    white = cv2.morphologyEx(raw, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    n, _, stats, centroids = cv2.connectedComponentsWithStats(white)
    if n < 2:
        return None
    h, w = alpha.shape
    # the bubble: a solid white blob near the centre (stream banks are long, sheep small)
    best, best_score = 0, 0.0
    for i in range(1, n):
        x, y, bw, bh, area = (int(v) for v in stats[i])
        fill = area / max(1, bw * bh)
        dist = math.hypot(centroids[i][0] - w / 2, centroids[i][1] - h / 2) / (w / 2)
        score = area * fill * max(0.0, 1.0 - dist)
        if area >= 0.004 * alpha.size and score > best_score:
            best, best_score = i, score
    if best == 0:
        return None
    cx, cy = centroids[best]
    return math.atan2(float(cy) - h / 2, float(cx) - w / 2)


def composite_record(record_text: str | None = None, *, seed: int, landscape: int = 30,
                     folder: str | Path | None = None, holes: float = 0.0,
                     **photo: Any) -> Rendered:
    """A 12 MP (by default) photo of an assembled map made of real tile crops.

    With ``record_text`` None, a random legal record is drawn from the real tiles
    (``landscape`` tiles, a few of them task tiles with markers). ``photo`` takes the
    options of ``render.render_record`` (``size_px``, ``tilt_deg``, ``background``, ...).
    ``folder`` is the tiles folder (see ``shared_tiles_dir``); ``holes`` the share of the
    tiles inside the map left out (``render_records.with_holes``). Raises
    ``FileNotFoundError`` when it lacks the development photos and ``ValueError``
    when the record uses a tile that is not among the real crops.
    """
    tiles = real_tiles(folder)
    if record_text is None:
        record_text = legal_random_record(seed, landscape, pool=tile_pool(tiles))
    laid = with_holes(laid_tiles(record_text), holes, seed)
    painter = CropPainter(tiles)
    rendered = render_tiles(laid, painter, seed=seed, record=record_text, **photo)
    rendered.kind = "composite"
    # The photo shows the icon of the crop drawn, even where the painter had to fall
    # back to a crop whose task type differs from the record's: that icon is the truth.
    rendered.tiles = [dataclasses.replace(t, task_type=_shown_task(painter, t))
                      for t in rendered.tiles]
    return rendered


LOOSE_SPREAD = (1.3, 2.0)
"""Least and greatest distance between loose tiles' centres, in tile spacings (the
development photos: about 1.5)."""


def loose_composite_record(*, seed: int, count: int = 16, folder: str | Path | None = None,
                           **photo: Any) -> Rendered:
    """A photo of ``count`` distinct real tile crops lying apart, not laid into a map:
    in rows of 3 to 6 on the flat-topped lattice, each turned by a random multiple of 60
    degrees, their centres ``LOOSE_SPREAD`` spacings apart; task tiles carry no marker
    (a tile not yet placed has none). ``photo`` as for ``composite_record``. The truth's
    ``at`` is each tile's place in the rows."""
    tiles = real_tiles(folder)
    rng = np.random.default_rng([seed, 31])
    picked = [tiles[int(i)] for i in rng.permutation(len(tiles))[:max(1, count)]]
    per_row = int(rng.integers(3, 7))
    laid = []
    for n, crop in enumerate(picked):
        col, row = n % per_row, n // per_row
        at = (col, row - (col - (col & 1)) // 2)  # "odd-q" rows on axial coordinates
        laid.append(LaidTile(Hex(*at), rotate(crop.code, int(rng.integers(0, 6))),
                             crop.task_type if crop.section == "task" else None, None, None))
    painter = CropPainter(tuple(picked))
    spread = float(rng.uniform(*LOOSE_SPREAD))
    rendered = render_tiles(laid, painter, seed=seed, record="", spread=spread, **photo)
    rendered.kind = "loose-composite"
    rendered.tiles = [dataclasses.replace(t, task_type=_shown_task(painter, t))
                      for t in rendered.tiles]
    rendered.params["spread"] = spread
    return rendered


def _shown_task(painter: CropPainter, truth: TileTruth) -> str | None:
    crop = painter.used.get((truth.at[0], truth.at[1]))
    if crop is None:
        return truth.task_type
    return crop.task_type if crop.section == "task" else None
