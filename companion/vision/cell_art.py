"""Whether a located cell of an assembled map holds a tile: a learned judgement of its art.

Representation: the lattice covers the map's silhouette, and a silhouette can take in
what lies beside the map (a score pad, cards, a box lid, markers, a play mat, table
grain the background model missed). Each located cell (rectified to the standard
hexagon, after the scan's white balance and glare removal) gets a row of ``FEATURES``:
its share of each pixel class (``edges.pixel_classes``, read against the photo's own
meadow), its share of blank paper, how much its gradients run one way (wood grain and
ruled paper do, tile art does not) or two ways at right angles (checks and gingham
seen through a hole in the map), its texture, flatness, saturation, brightness and
mean colour relative to the photo's median tile-like cell only (tiles in one photo share
light and focus, clutter does not; an absolute level would learn the training photos'
light), how well its outline agrees with the seams, how many of its lattice
neighbours were located, and the shares of its inside that the table model and the
glare judgement take for table (``scan.with_table_seen``: a hole in the map shows the
table, in a pool of glare too, where its art alone passes for pale meadow). Each cell
is measured as if lit like the median cell (``shade_gains``: brightened by the ratio
of the median cell's local meadow brightness to its own, ``find.shade_gain_max`` at
most), so a cast shadow over part of the map does not pass for smooth, flat table. A
logistic model (``CellModel``: standardisation, weights, bias, over the row and a few
hinges of it, ``design``, each column capped where the tiles' own values end,
``tile_caps``) turns the row into P(tile); cells at or above ``CellModel.threshold``
are kept. The weights and the threshold are fitted
on scans of rendered and composite photos with known truth that no evaluation uses
(``companion.vision.synth.fit_cells``, ``make fit-cells``). File: ``models/cells.json``
(``features`` names the columns, so a file for other features is refused rather than
misread; ``low`` and ``high`` the caps, null where a column is open).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.rules import DIRECTIONS
from companion.vision import edges as edges_mod
from companion.vision.config import ScanConfig
from companion.vision.lattice import misfits
from companion.vision.logistic import LogisticModel

MODEL_PATH = Path(__file__).resolve().parent / "models" / "cells.json"

CLASS_FEATURES = tuple(f"share_{name}" for name in edges_mod.CLASSES)
FEATURES: tuple[str, ...] = (
    *CLASS_FEATURES,
    "game_rel",         # share of game colours (meadow, forest, grain), log of / median
    "art_rel",          # share of art colours (those, roofs, water, cobbles), likewise
    "texture_rel",      # log of texture (mean |Laplacian| inside) / median
    "spread_rel",       # log of grey standard deviation / median
    "flat_rel",         # share of flat pixels (grey spread below 4 over 7) - median
    "paper",            # share of flat, bright, grey pixels (blank paper)
    "paper_rel",        # paper - median paper
    "saturation_rel",   # log of mean HSV saturation / median
    "value_rel",        # log of mean HSV value / median
    "colour_dist",      # distance of the mean Lab colour from the median cell's / 100
    "coherence",        # how much the gradients run one way (0 every way .. 1 one way)
    "coherence_rel",    # coherence - median coherence
    "crossing",         # how much the gradients run two ways at right angles (checks)
    "misfit",           # 1 - seam agreement / median agreement, clipped to 0..1
    "neighbours",       # share of the six lattice neighbours that were located
    "tile_neighbours",  # share of the six that show enough game colours
    "table_seen",       # share of the inside the table model takes for table
    "glare_seen",       # share of the inside judged table in glare
)

HINGES: tuple[tuple[str, tuple[float, ...], int], ...] = (
    ("flat_rel", (0.0, 0.1, 0.2), 1),   # flatter than the tiles: felt, a lid, a pad
    ("texture_rel", (-0.3, -0.7), -1),  # smoother than the tiles
    ("misfit", (0.3,), 1),              # an outline the seams do not show
    ("crossing", (0.7,), 1),            # checks, gingham, a square weave
)
"""Hinge columns ``max(sign * (feature - knot), 0)`` the model adds (``design``): one
clearly flat cell is no tile however much meadow green it shows, which a weight per
feature alone cannot say."""
COLUMNS: tuple[str, ...] = FEATURES + tuple(
    f"{name}{'>' if sign > 0 else '<'}{knot:g}" for name, knots, sign in HINGES
    for knot in knots)

_INNER_CACHE: dict[tuple[int, int], np.ndarray] = {}


def _inner(radius: int, erode: int) -> np.ndarray:
    key = (radius, erode)
    if key not in _INNER_CACHE:
        _INNER_CACHE[key] = cv2.erode(edges_mod.hexagon_mask(radius),
                                      np.ones((erode, erode), np.uint8)) > 0
    return _INNER_CACHE[key]


def texture(tile: np.ndarray, config: ScanConfig) -> tuple[float, float]:
    """Mean |Laplacian| and grey standard deviation inside a rectified cell."""
    inner = _inner(config.rectify.radius, 15)
    gray = cv2.cvtColor(tile, cv2.COLOR_BGR2GRAY).astype(np.float64)
    return (float(np.abs(cv2.Laplacian(gray, cv2.CV_64F))[inner].mean()),
            float(gray[inner].std()))


def flat_and_paper(tile: np.ndarray, config: ScanConfig) -> tuple[float, float]:
    """The shares of a rectified cell's inside that are flat (grey spread below 4 over
    7 pixels) and flat, bright and grey (blank paper)."""
    flat, paper, _ = flat_paper_and_grey(tile, config)
    return flat, paper


def flat_paper_and_grey(tile: np.ndarray, config: ScanConfig) -> tuple[float, float, float]:
    """``flat_and_paper`` and the share that is flat and grey (saturation below 45) at
    any lightness: paper in dim or warm light, which ``flat_and_paper`` finds too dark
    to be paper. Tile art is coloured wherever it is flat."""
    inner = _inner(config.rectify.radius, 9)
    flat, hsv = _flat(tile), cv2.cvtColor(tile, cv2.COLOR_BGR2HSV)
    grey = flat & (hsv[:, :, 1] < 45)
    paper = grey & (hsv[:, :, 2] > 190)
    return float(flat[inner].mean()), float(paper[inner].mean()), float(grey[inner].mean())


def _flat(tile: np.ndarray) -> np.ndarray:
    """Where the grey spread over 7 pixels is below 4."""
    gray = cv2.cvtColor(tile, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mean = cv2.blur(gray, (7, 7))
    spread = np.sqrt(np.maximum(cv2.blur(gray * gray, (7, 7)) - mean * mean, 0.0))
    out: np.ndarray = spread < 4.0
    return out


def houses(classes: np.ndarray, config: ScanConfig) -> int:
    """How many separate blobs of roof red (``edges.ROOF``) inside a rectified cell's
    hexagon are the size of the game's houses (``find.house_share``, a share of the
    hexagon each): a village's art, whose cobbles and roofs are not the game's field
    colours. A red object is one blob far larger than a house."""
    inside = _inner(config.rectify.radius, 1)
    roof = ((classes == edges_mod.ROOF) & inside).astype(np.uint8)
    _, _, stats, _ = cv2.connectedComponentsWithStats(roof, connectivity=8)
    share = stats[1:, cv2.CC_STAT_AREA] / max(int(inside.sum()), 1)
    low, high = config.find.house_share
    return int(np.count_nonzero((share >= low) & (share <= high)))


def coherence(tile: np.ndarray, config: ScanConfig) -> float:
    """How much a cell's gradients share one orientation: (l1 - l2) / (l1 + l2) of the
    summed structure tensor of the squared-angle gradients (0: every way, 1: one way)."""
    return _one_way(*_inner_gradients(tile, config))


def crossing(tile: np.ndarray, config: ScanConfig) -> float:
    """How much a cell's gradients run two ways at right angles: the length of the
    gradient-weighted mean of their angles' fourfold phasors (0: every way, 1: two ways
    90 degrees apart, or one way). Checks seen through a hole in the map score 0.78-0.89
    (rectified, the table's squares are square again); tile art at most 0.68, the real
    tiles' 0.4."""
    return _two_ways(*_inner_gradients(tile, config))


def _inner_gradients(tile: np.ndarray, config: ScanConfig) -> tuple[np.ndarray, np.ndarray]:
    """The grey gradients (x, y; float32) inside a rectified cell, clear of its rim."""
    inner = _inner(config.rectify.radius, 15)
    gray = cv2.cvtColor(tile, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return (cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)[inner],
            cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)[inner])


def _one_way(gx: np.ndarray, gy: np.ndarray) -> float:
    """``coherence`` of the gradients."""
    # Doubling the angle makes opposite gradients (both sides of a line) agree.
    c, s = gx * gx - gy * gy, 2.0 * gx * gy
    total = float(np.sum(np.hypot(c, s)))
    return float(np.hypot(c.sum(), s.sum()) / total) if total > 1e-6 else 0.0


def _two_ways(gx: np.ndarray, gy: np.ndarray) -> float:
    """``crossing`` of the gradients."""
    gx, gy = gx.astype(np.float64), gy.astype(np.float64)
    weight = np.hypot(gx, gy)
    total = float(weight.sum())
    if total <= 1e-6:
        return 0.0
    unit = (gx + 1j * gy) / np.maximum(weight, 1e-12)
    return float(abs(np.sum(weight * unit ** 4)) / total)


def _mean_inside(image: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """The mean of each channel of an 8-bit ``image`` over the boolean mask ``inside``,
    the same float64 numbers as ``image[inside].mean(axis=0)``: ``cv2.mean`` (ten times
    as fast) multiplied back by the count is the exact integer sum, divided as numpy
    divides it."""
    count = int(np.count_nonzero(inside))
    if count == 0:
        return np.full(image.shape[2], np.nan)
    means = cv2.mean(image, inside.view(np.uint8))[:image.shape[2]]
    out: np.ndarray = np.rint(np.array(means) * count) / count
    return out


def _log_ratio(values: np.ndarray, mid: float) -> np.ndarray:
    return np.log(np.maximum(values, 1e-3) / max(mid, 1e-3))


def features(tiles: Sequence[np.ndarray], classes: Sequence[np.ndarray],
             cells: Sequence[tuple[int, int] | None], agreement: Sequence[float | None],
             config: ScanConfig, min_game_share: float,
             counted: Sequence[bool] | None = None,
             light: Sequence[float] | None = None,
             table: Sequence[tuple[float, float]] | None = None) -> np.ndarray:
    """The ``FEATURES`` rows (n x len(FEATURES)) of the located cells: ``tiles`` their
    rectified art, ``classes`` its pixel classes, ``cells`` their lattice cells,
    ``agreement`` their seam agreement (``lattice.CellFits``), ``light`` the brightness
    of their local meadow (``edges.local_meadows``; default: every cell lit alike),
    ``table`` the shares of their inside seen as table and as table in glare
    (``scan.with_table_seen``; default none).
    Each cell is judged as if lit like the median cell (``shade_gains``). The medians
    are those of the cells whose game-colour share reaches ``min_game_share`` when
    there are three, else of every cell; only the ``counted`` cells (default all) are
    medians and neighbours (the training's free neighbours of the map are not)."""
    n = len(tiles)
    if n == 0:
        return np.zeros((0, len(FEATURES)))
    inside = edges_mod.hexagon_mask(config.rectify.radius) > 0
    counts = np.array([np.bincount(c[inside].ravel(), minlength=len(edges_mod.CLASSES))
                       [:len(edges_mod.CLASSES)] for c in classes], np.float64)
    shares = counts / np.maximum(counts.sum(axis=1, keepdims=True), 1.0)
    game = shares[:, list(edges_mod.GAME_CLASSES)].sum(axis=1)
    art_classes = [edges_mod.MEADOW, edges_mod.FOREST, edges_mod.GRAIN, edges_mod.ROOF,
                   edges_mod.BLUE, edges_mod.PALE]
    art = shares[:, art_classes].sum(axis=1)
    member = np.ones(n, bool) if counted is None else np.asarray(counted, bool)
    ref = np.flatnonzero((game >= min_game_share) & member)
    if len(ref) < 3:
        ref = np.flatnonzero(member) if member.any() else np.arange(n)
    gains = shade_gains(light, ref, config.find.shade_gain_max, n)
    tiles = [t if g == 1.0 else cv2.convertScaleAbs(t, alpha=float(g))
             for t, g in zip(tiles, gains, strict=True)]
    busy = np.array([texture(t, config) for t in tiles])
    flat = np.array([flat_and_paper(t, config) for t in tiles])
    gradients = [_inner_gradients(t, config) for t in tiles]
    coh = np.array([_one_way(gx, gy) for gx, gy in gradients])
    cross = np.array([_two_ways(gx, gy) for gx, gy in gradients])
    hsv = np.array([_mean_inside(cv2.cvtColor(t, cv2.COLOR_BGR2HSV), inside) for t in tiles])
    lab = np.array([_mean_inside(cv2.cvtColor(t, cv2.COLOR_BGR2LAB), inside) for t in tiles])

    def mid(v: np.ndarray) -> float:
        return float(np.median(v[ref]))

    lab_mid = np.median(lab[ref], axis=0)
    # The seams' contrast falls with the light as the art's does.
    lit_agreement = [None if a is None else a * float(g)
                     for a, g in zip(agreement, gains, strict=True)]
    misfit = np.array(misfits(lit_agreement, member.tolist()))
    located = {c for c, m in zip(cells, member, strict=True) if c is not None and m}
    tile_like = {c for c, g, m in zip(cells, game, member, strict=True)
                 if c is not None and m and g >= min_game_share}

    def around(c: tuple[int, int] | None, among: set[tuple[int, int]]) -> float:
        if c is None:
            return 0.0
        return sum((c[0] + d.q, c[1] + d.r) in among for d in DIRECTIONS) / 6.0

    columns = [
        *shares.T,
        _log_ratio(game, mid(game)),
        _log_ratio(art, mid(art)),
        _log_ratio(busy[:, 0], mid(busy[:, 0])),
        _log_ratio(busy[:, 1], mid(busy[:, 1])),
        flat[:, 0] - mid(flat[:, 0]),
        flat[:, 1], flat[:, 1] - mid(flat[:, 1]),
        _log_ratio(hsv[:, 1], mid(hsv[:, 1])),
        _log_ratio(hsv[:, 2], mid(hsv[:, 2])),
        np.linalg.norm(lab - lab_mid, axis=1) / 100.0,
        coh, coh - mid(coh),
        cross,
        misfit,
        np.array([around(c, located) for c in cells]),
        np.array([around(c, tile_like) for c in cells]),
        *(np.zeros((2, n)) if table is None else np.asarray(table, np.float64).T),
    ]
    return np.column_stack(columns)


def shade_gains(light: Sequence[float] | None, ref: np.ndarray, most: float,
                n: int) -> np.ndarray:
    """Per cell, the gain (1 to ``most``) that lights it like the median of the ``ref``
    cells: that median ``light`` over its own, never below 1 (a cell lit better than
    the median is judged as it is). All 1 without ``light`` or when ``most`` <= 1."""
    if light is None or most <= 1.0:
        return np.ones(n)
    level = np.asarray(light, np.float64)
    mid = float(np.median(level[ref]))
    return np.clip(mid / np.maximum(level, 1.0), 1.0, most)


def design(rows: np.ndarray) -> np.ndarray:
    """The model's input columns (``COLUMNS``) of feature rows (n x ``FEATURES``)."""
    x = np.atleast_2d(np.asarray(rows, np.float64))
    cols = [x]
    for name, knots, sign in HINGES:
        v = x[:, FEATURES.index(name)][:, None]
        cols.append(np.maximum(sign * (v - np.asarray(knots)[None, :]), 0.0))
    return np.hstack(cols)


@dataclass(frozen=True)
class CellModel(LogisticModel):
    """Logistic model of P(tile | a cell's ``FEATURES``) and the keeping threshold;
    ``features`` names the input columns (``COLUMNS``), ``mean`` and ``scale``
    standardise them. ``low`` and ``high`` (when fitted, ``tile_caps``) clip each
    column before it is weighed: a value beyond the range the tiles show counts as no
    more evidence of a tile than the tiles' own extreme (a linear weight would make a
    cell all roof-red, a pink check under glare, more of a tile than any tile is)."""

    low: np.ndarray | None = None
    high: np.ndarray | None = None

    def probability(self, rows: np.ndarray) -> np.ndarray:
        """P(tile) of each row (n x len(FEATURES))."""
        columns = design(rows)
        if self.low is not None and self.high is not None:
            columns = np.clip(columns, self.low, self.high)
        return self.probability_of(columns)

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        if self.low is not None and self.high is not None:
            data["low"], data["high"] = _nullable(self.low), _nullable(self.high)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CellModel:
        model = cls.read(data, COLUMNS, "cell model fitted on other features than "
                                        "companion.vision.cell_art.FEATURES: run make fit-cells")
        if "low" not in data or "high" not in data:
            return model
        return replace(model, low=_opened(data["low"], -np.inf),
                       high=_opened(data["high"], np.inf))


def _nullable(caps: np.ndarray) -> list[float | None]:
    """Caps as JSON: null where the column is open."""
    return [round(float(v), 6) if np.isfinite(v) else None for v in caps]


def _opened(caps: list[float | None], open_end: float) -> np.ndarray:
    """Caps from JSON: ``open_end`` where null."""
    return np.array([open_end if v is None else v for v in caps], np.float64)


def tile_caps(columns: np.ndarray, is_tile: np.ndarray, weights: np.ndarray,
              share: float = 0.001) -> tuple[np.ndarray, np.ndarray]:
    """``CellModel.low`` and ``high`` for ``design`` columns: a column weighed towards a
    tile is capped above at the tiles' ``1 - share`` quantile, one weighed against at
    their ``share`` quantile; the other side stays open (evidence against a tile is
    never capped)."""
    tiles = columns[is_tile]
    low = np.full(columns.shape[1], -np.inf)
    high = np.full(columns.shape[1], np.inf)
    if len(tiles) == 0:
        return low, high
    up, down = np.quantile(tiles, 1.0 - share, axis=0), np.quantile(tiles, share, axis=0)
    high[weights > 0] = up[weights > 0]
    low[weights < 0] = down[weights < 0]
    return low, high


@lru_cache(maxsize=4)
def _load(path: str) -> CellModel:
    return CellModel.from_json(json.loads(Path(path).read_text("utf-8")))


def load_model(path: str | Path | None = None) -> CellModel | None:
    """The model in ``path`` (default: the shipped ``models/cells.json``), cached; None
    when there is no such file (the scan then uses its hand-set rules)."""
    where = Path(path) if path is not None else MODEL_PATH
    return _load(str(where)) if where.exists() else None
