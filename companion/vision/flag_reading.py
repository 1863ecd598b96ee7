"""The learned decision on a landscape tile's flag: none, forest, grain or village.

Representation: the pennant search of ``flags`` gives candidates twice, with the strict
thresholds on the tile at the standard exposure (``flags.lit``) and with the relaxed ones
(``flags.RELAXED``) on the tile brought up from deep shade (``flags.dim_lit``). For each
kind, ``kind_features`` gives ``N_FEATURES`` numbers: the strict search's best confidence,
the relaxed search's best candidate (confidence, triangle, outline, fill, value, area,
freed by erosion) and count, where that colour lies dense, compact and beside a thin light
line, whether the code as read shows the terrain, the share of light lines and both
exposure gains. A multinomial logistic model with weights shared by the three kinds and a
bias each scores them (``score_k = w . z_k + b_k``, z standardised; no flag scores 0) and a
softmax gives ``P`` over (none, forest, grain, village).

The tile carries the likeliest kind's flag when its probability exceeds ``found_above``;
that flag is doubtful below ``sure_above``; a tile without a flag whose summed flag
probability exceeds ``maybe_above`` is marked doubtful (the review asks). The three
thresholds are chosen out of fold by ``synth/train_flags.py`` (``make train-flags``) and
shipped with the weights in ``models/flags.json``. With no model file, or with
``config.flags.learned_flags`` off, the hand-set confidence decides (``flags.find_flag``).
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from companion.vision import flags
from companion.vision.config import DEFAULT_CONFIG, ScanConfig

MODEL_PATH = Path(__file__).resolve().parent / "models" / "flags.json"
KINDS = tuple(flags.KINDS)
"""The kinds in the order of ``P``'s columns 1..3."""
FEATURES = ("strict_conf", "strict_any", "relaxed_any", "relaxed_conf", "triangle", "outline",
            "fill", "value", "area_pct", "split", "relaxed_count", "dense", "dense_by_line",
            "compact", "compact_by_line", "colour_share", "in_code", "line_share", "gain",
            "dim_gain")
N_FEATURES = len(FEATURES)


@dataclass(frozen=True)
class FlagReading:
    """What the tile shows: its flag (or None) and whether the review must ask."""

    flag: flags.Flag | None
    doubtful: bool


def _relaxed_config(config: ScanConfig) -> ScanConfig:
    return dataclasses.replace(config, flags=dataclasses.replace(config.flags, **flags.RELAXED))


def _best(cands: list[flags.Candidate], config: ScanConfig) -> tuple[flags.Candidate | None,
                                                                     float]:
    best, conf = None, 0.0
    for c in cands:
        k = flags.confidence(c, config)
        if best is None or k > conf:
            best, conf = c, k
    return best, conf


def kind_features(tile: np.ndarray, code: str, config: ScanConfig = DEFAULT_CONFIG,
                  meadow_value: float | None = None, seen: flags.Lit | None = None,
                  strict: list[flags.Candidate] | None = None) -> np.ndarray:
    """(3, ``N_FEATURES``): the features of each kind (``KINDS`` order) on a rectified
    tile; ``seen`` and ``strict``: its ``flags.lit`` and strict ``flags.candidates`` when
    already computed."""
    if seen is None:
        seen = flags.lit(tile, meadow_value)
    if strict is None:
        strict = flags.candidates(tile, config, meadow_value, seen)
    dim = flags.dim_lit(tile, seen, meadow_value)
    relaxed = flags.candidates(tile, _relaxed_config(config), meadow_value, dim)
    radius = tile.shape[1] // 2
    core = flags._inside(radius, tile.shape[:2]) & (flags._rim(radius, tile.shape[:2]) == 0)
    hue, sat, val = dim.hsv[:, :, 0], dim.hsv[:, :, 1], dim.val
    line = ((dim.tophat > 25) & core).astype(np.float32)
    line_near = cv2.boxFilter(line, -1, (21, 21))
    line_share = float(line.mean()) * 10
    vivid = (sat >= 70) & (val >= 70) & core
    out = np.zeros((len(KINDS), N_FEATURES), np.float64)
    for i, kind in enumerate(KINDS):
        _, strict_conf = _best([c for c in strict if c.kind == kind], config)
        mine = [c for c in relaxed if c.kind == kind]
        best, conf = _best(mine, config)
        shape = ([1.0, conf, best.triangle, best.outline, best.fill, best.value / 255.0,
                  best.area_frac * 100, float(best.split)] if best is not None else [0.0] * 8)
        colour = (flags._hue_mask(hue, kind) & vivid).astype(np.float32)
        dense = cv2.boxFilter(colour, -1, (11, 11))
        wide = cv2.boxFilter(colour, -1, (33, 33))
        compact = dense * np.clip(1.0 - wide, 0.0, 1.0)  # dense here, sparse around
        out[i] = [strict_conf, float(strict_conf > 0), *shape, float(np.log1p(len(mine))),
                  float(dense.max()), float((dense * line_near).max()), float(compact.max()),
                  float((compact * line_near).max()), float(colour.mean()) * 10,
                  float(flags.KINDS[kind] in code), line_share, seen.gain, dim.gain]
    return out


@dataclass(frozen=True)
class FlagModel:
    """The shipped decision (see the module docstring)."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    biases: np.ndarray
    found_above: float
    sure_above: float
    maybe_above: float

    def probabilities(self, x: np.ndarray) -> np.ndarray:
        """P over (none, forest, grain, village) of ``x`` (3, F) or of n tiles (n, 3, F)."""
        return probabilities(x, self.mean, self.scale, self.weights, self.biases)

    def decide(self, p: np.ndarray) -> tuple[str | None, float, bool]:
        """(kind or None, its probability, doubtful) from one tile's ``P``."""
        k = int(np.argmax(p[1:]))
        if p[1 + k] > self.found_above:
            return KINDS[k], float(p[1 + k]), bool(p[1 + k] < self.sure_above)
        return None, 0.0, bool(p[1:].sum() > self.maybe_above)

    def to_json(self) -> dict[str, object]:
        return {"features": list(FEATURES), "mean": self.mean.tolist(),
                "scale": self.scale.tolist(), "weights": self.weights.tolist(),
                "biases": self.biases.tolist(), "found_above": self.found_above,
                "sure_above": self.sure_above, "maybe_above": self.maybe_above}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> FlagModel:
        if data.get("features") != list(FEATURES):
            raise ValueError("flag model made for other features")

        def arr(name: str, n: int) -> np.ndarray:
            a = np.asarray(data[name], np.float64)
            if a.shape != (n,) or not np.all(np.isfinite(a)):
                raise ValueError(f"flag model: {name} is not {n} finite numbers")
            return a

        return cls(arr("mean", N_FEATURES), arr("scale", N_FEATURES),
                   arr("weights", N_FEATURES), arr("biases", len(KINDS)),
                   float(data["found_above"]), float(data["sure_above"]),  # type: ignore[arg-type]
                   float(data["maybe_above"]))  # type: ignore[arg-type]


def probabilities(x: np.ndarray, mean: np.ndarray, scale: np.ndarray, weights: np.ndarray,
                  biases: np.ndarray) -> np.ndarray:
    """Softmax over (none, kinds) of the shared-weight scores (see the module docstring)."""
    z = (np.asarray(x, np.float64) - mean) / scale
    scores = z @ weights + biases
    scores = np.concatenate([np.zeros(scores.shape[:-1] + (1,)), scores], axis=-1)
    scores -= scores.max(axis=-1, keepdims=True)
    e = np.exp(scores)
    return np.asarray(e / e.sum(axis=-1, keepdims=True))


@lru_cache(maxsize=4)
def load_model(path: Path = MODEL_PATH) -> FlagModel | None:
    """The shipped model; None when the file is missing or made for other features."""
    try:
        return FlagModel.from_json(json.loads(Path(path).read_text()))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def read_flag(tile: np.ndarray, code: str, config: ScanConfig = DEFAULT_CONFIG,
              meadow_value: float | None = None, seen: flags.Lit | None = None,
              strict: list[flags.Candidate] | None = None) -> FlagReading:
    """The flag of a rectified landscape tile whose code reads ``code`` (see the module
    docstring); ``meadow_value``: the scan's meadow estimate; ``seen``, ``strict``: the
    tile's ``flags.lit`` and strict candidates when already computed."""
    model = load_model() if config.flags.learned_flags else None
    if model is None:
        flag = flags.find_flag(tile, code, config, meadow_value, strict)
        return FlagReading(flag, flag is not None
                           and flag.confidence < config.flags.flag_doubt_below)
    p = model.probabilities(kind_features(tile, code, config, meadow_value, seen, strict))
    kind, prob, doubtful = model.decide(p)
    if kind is None:
        return FlagReading(None, doubtful)
    best, _ = _best([c for c in (strict or []) if c.kind == kind], config)
    centre = best.center if best is not None else (tile.shape[1] / 2, tile.shape[0] / 2)
    return FlagReading(flags.Flag(kind, prob, centre), doubtful)
