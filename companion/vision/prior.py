"""The tile catalogue as a prior over whole-tile codes.

Representation: the reading of one tile is a 6 x 6 array of letter probabilities
(rows edges 0..5, columns ``edges.LETTERS`` = F G V T S M). Every rotation of every
catalogue tile is a candidate code. The posterior over codes mixes two hypotheses:
the tile is in the catalogue (prior mass ``1 - off``, spread evenly over the distinct
candidates) or it is not (mass ``off``, spread over all 6**6 codes). ``apply_prior``
returns the most probable code under that posterior and, per edge, the posterior
probability of the chosen letter. So a reading snaps to a catalogue tile and rotation
exactly when that tile is much more likely than the raw, off-catalogue reading.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import numpy as np

from companion.rules import catalogue, rotate
from companion.vision.edges import LETTERS

_INDEX = {letter: i for i, letter in enumerate(LETTERS)}
_ALL_CODES = 6 ** 6


@lru_cache(maxsize=8)
def candidates(sections: tuple[str, ...] | None = None) -> np.ndarray:
    """K x 6 letter indices of every distinct rotation of the catalogue tiles."""
    codes: set[str] = set()
    for tile in catalogue():
        if sections is None or tile.section in sections:
            codes.update(rotate(tile.code, k) for k in range(6))
    rows = sorted(codes)
    out = np.array([[_INDEX[c] for c in code] for code in rows], np.int64)
    out.setflags(write=False)
    return out


def apply_prior(probs: np.ndarray, off_catalogue: float = 0.02,
                sections: Iterable[str] | None = None) -> tuple[str, tuple[float, ...], bool]:
    """Most probable code given edge probabilities and the catalogue prior.

    Returns (code, per-edge confidence, snapped) where ``snapped`` says that the code
    differs from the raw per-edge reading because the catalogue outweighed it.
    """
    code, conf, snapped, _ = decode(probs, off_catalogue, sections)
    return code, conf, snapped


FORBIDDEN = 1e-9
"""Likelihood left to a letter that a constraint rules out."""


def decode(probs: np.ndarray, off_catalogue: float = 0.02,
           sections: Iterable[str] | None = None,
           allowed: dict[int, str] | None = None,
           cand: np.ndarray | None = None,
           ) -> tuple[str, tuple[float, ...], bool, float]:
    """``apply_prior`` plus the log score of the chosen code (log prior + log likelihood).

    ``allowed`` maps an edge to the letters it may take (a constraint from a
    neighbour); the scores of different constraints on one tile are comparable, so
    the caller can ask which constraint the tile's art supports best. ``cand`` (K x 6
    letter indices) replaces the catalogue candidates of ``sections`` (the tiles still
    free in the inventory, ``inventory.free_candidates``); the prior's spread stays
    that of the sections, so scores do not depend on how many tiles are free.
    """
    p = np.clip(np.asarray(probs, np.float64), 1e-4, 1.0)
    p = p / p.sum(axis=1, keepdims=True)
    for e, letters in (allowed or {}).items():
        keep = np.array([letter in letters for letter in LETTERS])
        p[e, ~keep] = FORBIDDEN
    logp = np.log(p)
    full = candidates(tuple(sorted(sections)) if sections is not None else None)
    k_prior = len(full)
    if cand is None:
        cand = full
    raw_idx = p.argmax(axis=1)
    raw = "".join(LETTERS[i] for i in raw_idx)
    if len(cand) == 0 or off_catalogue >= 1.0:
        return (raw, tuple(float(p[e, i]) for e, i in enumerate(raw_idx)), False,
                float(logp[np.arange(6), raw_idx].sum()))
    ll = logp[np.arange(6)[None, :], cand].sum(axis=1)  # K log-likelihoods
    log_w_cat = np.log(max(1.0 - off_catalogue, 1e-12)) - np.log(max(k_prior, 1))
    log_w_off = np.log(max(off_catalogue, 1e-12)) - np.log(_ALL_CODES)
    scores = ll + log_w_cat
    top = float(scores.max())
    weights = np.exp(scores - top)  # catalogue candidates, relative
    off_weight = float(np.exp(log_w_off - top))  # off-catalogue mass (sum of products is 1)
    total = weights.sum() + off_weight
    # Marginal posterior of each letter at each edge.
    marg = np.zeros((6, 6))
    for e in range(6):
        marg[e] = np.bincount(cand[:, e], weights=weights, minlength=6)
    marg += off_weight * p
    marg /= total
    best = int(scores.argmax())
    raw_score = float(logp[np.arange(6), raw_idx].sum()) + log_w_off
    if raw_score > top:
        idx = raw_idx
    else:
        idx = cand[best]
    code = "".join(LETTERS[i] for i in idx)
    conf = tuple(float(min(1.0, marg[e, i])) for e, i in enumerate(idx))
    return code, conf, code != raw, max(raw_score, top)
