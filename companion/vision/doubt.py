"""Which edges of a scan a person should check: a calibrated probability that each is wrong.

Representation: every edge of every scanned tile gets an *evidence* row of
``FEATURES`` (numbers the scanner already has: the terrain model's own reading of the
edge, the decoded posterior, whether the catalogue, the inventory or neighbour
consistency changed the art's reading, how far the chosen tile is from the next tile
that reads the edge otherwise, the neighbour's reading across the edge, how unsure
the tile's other five edges are, and how much of the edge's band the camera clipped;
"the model" is the edge reading as decoded: the terrain model joined by the colour
reading, ``terrain.colour_weight``). A small
logistic model (``Calibrator``: standardisation, weights, bias) turns the row into the
probability that the edge is wrong (the evidence and hinges of it, ``design``); the
edges at or above ``Calibrator.threshold`` are
``doubtful``, and so is every track/stream mismatch. The weights and the threshold are
fitted on scans of photos with known truth that no evaluation uses
(``companion.vision.synth.fit_doubt``, ``make fit-doubt``): the threshold is the
lowest flag rate at which the doubtful edges hold ``recall`` of the wrong edges. File:
``models/doubt.json`` (``features`` names the columns, so a file for other features is
refused rather than misread).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from companion.rules import DIRECTIONS, opposite
from companion.vision.edges import LETTERS
from companion.vision.logistic import LogisticModel
from companion.vision.prior import candidates

CALIBRATOR_PATH = Path(__file__).resolve().parent / "models" / "doubt.json"

_EDGE_FEATURES: tuple[str, ...] = (
    "logit_conf",     # decoded posterior of the chosen letter (prior.decode), as log-odds
    "log_p",          # the terrain model's log probability of the chosen letter
    "margin",         # the model's log-odds of its best letter over its second
    "not_argmax",     # the chosen letter is not the model's best letter
    "overruled",      # the inventory changed the tile's own best reading here
    "mismatch",       # a track or stream meets something else across this edge
    "corrected",      # neighbour consistency changed this edge
    "off_catalogue",  # the tile's code is no rotation of a catalogue tile
    "bend",           # log likelihood the whole tile gave up for its code (all edges)
    "entropy",        # the model's mean entropy over the tile's six edges
    "neighbour",      # a tile lies across this edge
    "nb_disagree",    # the neighbour's model: probability its touching edge is of another
                      # kind (track / stream / neither) than the chosen letter
    "gap_all",        # log likelihood of the code over the best catalogue code (taken or
                      # not) with another letter here (negative: the inventory forced it)
    "tile_gap",       # the same over the best other code at all (the tile's ambiguity)
    "task",           # a task tile (its speech bubble covers art)
    "second_log_p",   # the hand-set colour reading's (edges.letter_probabilities) log
                      # probability of the chosen letter: a second, differently made opinion
    "second_differs", # the colour reading's best letter is another
    "photo_entropy",  # the model's mean entropy over every tile of the photo (a hard photo)
    "misfit",         # how much worse the tile's outline agrees with the seams than the
                      # photo's median tile's (scan._misfits: a misplaced tile)
    "clipped",        # the share of the edge's band the camera clipped (edges.clipped_bands:
                      # overexposed or under glare, grain and meadow look alike there)
)
_OTHERS_FEATURES: tuple[str, ...] = (
    # the tile's other five edges (``_others``): a tile read wrong is often wrong at
    # several edges, only some of them unsure
    "others_logit_conf",      # the least sure of them (logit_conf)
    "others_not_argmax",      # how many are not the model's best letter
    "others_second_differs",  # how many the colour reading reads otherwise
    "others_log_p",           # the model's least probable chosen letter among them
    "others_second_log_p",    # the colour reading's least probable chosen letter
)
FEATURES = _EDGE_FEATURES + _OTHERS_FEATURES
_OWN = len(_EDGE_FEATURES)
HINGES: tuple[tuple[str, tuple[float, ...]], ...] = (
    ("logit_conf", (2.0, 4.0, 5.0, 6.0, 6.8)),
    ("log_p", (-0.01, -0.05, -0.2, -1.0)),
    ("second_log_p", (-0.01, -0.05, -0.2, -1.0)),
    ("clipped", (0.2, 0.5)),
)
"""Hinges ``max(knot - value, 0)`` added to the evidence (``design``): how far an edge's
posterior or reading falls below each level, so the calibrator can weigh "a little
unsure" and "very unsure" differently (chosen by cross-validation by photo in
``synth/fit_doubt``: a third fewer edges flagged for the same recall than the evidence
alone); with the clipped share itself, its hinges weigh a band clipped a little, half
or most differently (out of fold 5.9 % of the edges flagged against 6.7 % without them,
for the same recall)."""
COLUMNS: tuple[str, ...] = FEATURES + tuple(f"{name}<{k:g}" for name, knots in HINGES
                                            for k in knots)
"""The calibrator's inputs: ``FEATURES`` then the ``HINGES``."""
_CLIP = 1e-4
_KIND = {letter: ("T" if letter == "T" else "S" if letter == "S" else "-")
         for letter in LETTERS}


def _logp(probs: np.ndarray) -> np.ndarray:
    p = np.clip(np.asarray(probs, np.float64), _CLIP, 1.0)
    logp: np.ndarray = np.log(p / p.sum(axis=1, keepdims=True))
    return logp


def tile_evidence(probs: np.ndarray, code: str, conf: Sequence[float],
                  sections: tuple[str, ...], overruled: Sequence[int] = (),
                  mismatch: Sequence[int] = (), corrected: Sequence[int] = (),
                  across: dict[int, np.ndarray] | None = None,
                  second: np.ndarray | None = None, photo_entropy: float | None = None,
                  misfit: float = 0.0, clipped: Sequence[float] | None = None
                  ) -> np.ndarray:
    """6 x len(FEATURES) evidence of one tile's edges (see ``FEATURES``).

    ``probs`` is the model's 6 x 6 letter probabilities, ``code`` and ``conf`` the final
    reading, ``across`` maps an edge to the neighbour's model probabilities (6 letters)
    of the edge touching it, ``second`` is the colour reading's 6 x 6 probabilities
    (the model's own when absent), ``photo_entropy`` the mean ``entropy`` of the photo's
    tiles (this tile's when absent), ``misfit`` how badly its outline fits (0: well),
    ``clipped`` each edge band's clipped share (none when absent).
    """
    logp = _logp(probs)
    idx = np.array([LETTERS.index(c) for c in code])
    rows = np.arange(6)
    chosen = logp[rows, idx]
    srt = np.sort(logp, axis=1)
    margin = srt[:, -1] - srt[:, -2]
    cand = candidates(tuple(sorted(sections)))
    ll = logp[rows[None, :], cand].sum(axis=1)
    own = float(chosen.sum())
    differs = cand != idx[None, :]
    in_catalogue = bool((~differs.any(axis=1)).any())
    other = ll[differs.any(axis=1)]
    tile_gap = own - float(other.max()) if len(other) else 30.0
    p = np.exp(logp)
    entropy = float(-(p * logp).sum(axis=1).mean())
    bend = float((logp.max(axis=1) - chosen).sum())
    second_logp = _logp(second) if second is not None else logp
    photo = entropy if photo_entropy is None else float(photo_entropy)
    out = np.zeros((6, len(FEATURES)))
    for e in range(6):
        c = min(max(float(conf[e]), 1e-3), 1 - 1e-3)
        alt = ll[differs[:, e]]
        gap = own - float(alt.max()) if len(alt) else 30.0
        nb = (across or {}).get(e)
        if nb is None:
            disagree = 0.0
        else:
            q = np.clip(np.asarray(nb, np.float64), 0.0, 1.0)
            q = q / max(q.sum(), 1e-9)
            same = sum(float(q[k]) for k, letter in enumerate(LETTERS)
                       if _KIND[letter] == _KIND[code[e]])
            disagree = 1.0 - same
        out[e, :_OWN] = (math.log(c / (1 - c)), chosen[e], margin[e],
                  float(idx[e] != int(logp[e].argmax())), float(e in overruled),
                  float(e in mismatch), float(e in corrected), float(not in_catalogue),
                  min(bend, 30.0), entropy, float(nb is not None), disagree,
                  float(np.clip(gap, -30.0, 30.0)), float(np.clip(tile_gap, -30.0, 30.0)),
                  float(any("task" in s for s in sections)), second_logp[e, idx[e]],
                  float(int(second_logp[e].argmax()) != idx[e]), photo, float(misfit),
                  float(clipped[e]) if clipped is not None else 0.0)
    out[:, _OWN:] = _others(out[:, :_OWN])
    return out


_SUMMARY: dict[str, Callable[[np.ndarray], Any]] = {
    "logit_conf": np.min, "not_argmax": np.sum, "second_differs": np.sum, "log_p": np.min,
    "second_log_p": np.min}
"""How ``_others`` sums up each column over the other edges."""


def _others(own: np.ndarray) -> np.ndarray:
    """6 x len(``_OTHERS_FEATURES``): for each edge, each ``others_`` column's
    ``_SUMMARY`` over the tile's other five edges (``own``: 6 x ``_EDGE_FEATURES``)."""
    rest = ~np.eye(6, dtype=bool)
    columns = [name.removeprefix("others_") for name in _OTHERS_FEATURES]
    return np.array([[float(_SUMMARY[c](own[rest[e], _EDGE_FEATURES.index(c)]))
                      for c in columns] for e in range(6)])


def map_evidence(cells: Sequence[tuple[int, int] | None], codes: Sequence[str],
                 confs: Sequence[Sequence[float]],
                 tile_probs: Sequence[tuple[np.ndarray, tuple[str, ...]]],
                 overruled: Sequence[Sequence[int]], mismatch: Sequence[Sequence[int]],
                 corrected: Sequence[Sequence[int]],
                 second: Sequence[np.ndarray] | None = None,
                 misfit: Sequence[float] | None = None,
                 clipped: Sequence[Sequence[float]] | None = None) -> list[np.ndarray]:
    """``tile_evidence`` of every tile of a photo (``cells`` None for loose tiles)."""
    where = {c: i for i, c in enumerate(cells) if c is not None}
    photo = float(np.mean([entropy_of(p) for p, _ in tile_probs])) if tile_probs else 0.0
    out = []
    for i, cell in enumerate(cells):
        across: dict[int, np.ndarray] = {}
        if cell is not None:
            for e, d in enumerate(DIRECTIONS):
                j = where.get((cell[0] + d.q, cell[1] + d.r))
                if j is not None:
                    across[e] = np.asarray(tile_probs[j][0])[opposite(e)]
        out.append(tile_evidence(tile_probs[i][0], codes[i], confs[i], tile_probs[i][1],
                                 overruled[i], mismatch[i], corrected[i], across,
                                 second[i] if second is not None else None, photo,
                                 misfit[i] if misfit is not None else 0.0,
                                 clipped[i] if clipped is not None else None))
    return out


def entropy_of(probs: np.ndarray) -> float:
    """The mean entropy (nats) of a tile's six letter distributions."""
    logp = _logp(probs)
    return float(-(np.exp(logp) * logp).sum(axis=1).mean())


def design(evidence: np.ndarray) -> np.ndarray:
    """The calibrator's input columns (``COLUMNS``) of evidence rows (n x ``FEATURES``)."""
    x = np.atleast_2d(np.asarray(evidence, np.float64))
    cols = [x]
    for name, knots in HINGES:
        v = x[:, FEATURES.index(name)][:, None]
        cols.append(np.maximum(np.asarray(knots)[None, :] - v, 0.0))
    return np.hstack(cols)


@dataclass(frozen=True)
class Calibrator(LogisticModel):
    """Logistic model of P(edge wrong | evidence) and the doubt threshold. ``features``
    names the input columns (``COLUMNS``); ``mean`` and ``scale`` standardise them."""

    def probability(self, evidence: np.ndarray) -> np.ndarray:
        """P(wrong) of each row of ``evidence`` (n x len(FEATURES))."""
        return self.probability_of(design(evidence))

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibrator:
        return cls.read(data, COLUMNS, "doubt calibrator fitted on other features than "
                                       "companion.vision.doubt.FEATURES: run make fit-doubt")


@lru_cache(maxsize=4)
def _load(path: str) -> Calibrator:
    return Calibrator.from_json(json.loads(Path(path).read_text("utf-8")))


def load_calibrator(path: str | Path | None = None) -> Calibrator:
    """The calibrator in ``path`` (default: the shipped ``models/doubt.json``), cached."""
    return _load(str(Path(path) if path is not None else CALIBRATOR_PATH))


def doubtful(evidence: np.ndarray, mismatch: Sequence[int] = (),
             calibrator: Calibrator | None = None) -> tuple[int, ...]:
    """The edges to check: P(wrong) at or above the threshold, and every mismatch."""
    cal = calibrator if calibrator is not None else load_calibrator()
    p = cal.probability(evidence)
    return tuple(sorted({e for e in range(len(p)) if p[e] >= cal.threshold} | set(mismatch)))
