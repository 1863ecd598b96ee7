"""Joint decoding of one photo's tiles over the tile inventory (issue 14 item 3).

Representation: a game's map holds each physical tile of ``companion.rules.catalogue()``
at most once. ``Inventory`` lists those tiles (one row per physical tile, with its
section) and their six rotations as letter indices (``edges.LETTERS`` = F G V T S M).
A tile of the photo is read as a 6 x 6 array of letter probabilities (rows edges
0..5) and may come only from its ``sections`` (task tiles from the task sections,
the others from the landscape sections).

``assign`` chooses, for all tiles of the photo together, one physical tile each (or
"off the catalogue") maximising the summed log score: the best rotation's log
likelihood plus the catalogue prior of ``prior.decode``, or for an off-catalogue
reading the raw per-edge reading plus the far smaller off-catalogue prior. It is an
assignment problem (``assignment.least_cost_assignment`` over photo tiles x
(physical tiles + one off-catalogue column per photo tile)). ``free_candidates``
then gives each photo tile the rotations of its own assigned tile and of every tile
nobody took, so the per-tile decoder (``prior.decode``) and neighbour consistency
only choose among tiles still in the box.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from companion.rules import catalogue, rotate
from companion.vision.assignment import least_cost_assignment
from companion.vision.edges import LETTERS
from companion.vision.prior import candidates

_INDEX = {letter: i for i, letter in enumerate(LETTERS)}
_ALL_CODES = 6 ** 6
_IMPOSSIBLE = 1e6
"""Cost of a pairing the sections forbid (a task tile read where no task tile lies)."""


@dataclass(frozen=True)
class Inventory:
    sections: tuple[str, ...]
    """Section of each physical tile (``catalogue()`` order)."""
    rotations: np.ndarray
    """P x 6 x 6 letter indices: physical tile, rotation k, edge."""


@lru_cache(maxsize=1)
def inventory() -> Inventory:
    """Every physical tile of the catalogue (base box and boxes 1 and 2)."""
    tiles = catalogue()
    rot = np.array([[[_INDEX[c] for c in rotate(t.code, k)] for k in range(6)]
                    for t in tiles], np.int64)
    rot.setflags(write=False)
    return Inventory(tuple(t.section for t in tiles), rot)


def _log_probs(probs: np.ndarray) -> np.ndarray:
    """Clipped, normalised log letter probabilities (as ``prior.decode`` takes them)."""
    p = np.clip(np.asarray(probs, np.float64), 1e-4, 1.0)
    return np.log(p / p.sum(axis=1, keepdims=True))


def assign(probs: Sequence[np.ndarray], sections: Sequence[tuple[str, ...]],
           off_catalogue: float) -> list[int | None]:
    """The physical tile (index into ``catalogue()``) of each photo tile, ``None`` for
    an off-catalogue reading; each physical tile is used at most once."""
    inv = inventory()
    n, p_count = len(probs), len(inv.sections)
    if n == 0:
        return []
    cost = np.full((n, p_count + n), _IMPOSSIBLE)
    for i, (pr, secs) in enumerate(zip(probs, sections, strict=True)):
        logp = _log_probs(pr)
        allowed = np.array([s in secs for s in inv.sections])
        k_prior = max(len(candidates(tuple(sorted(secs)))), 1)
        log_w_cat = np.log(max(1.0 - off_catalogue, 1e-12)) - np.log(k_prior)
        log_w_off = np.log(max(off_catalogue, 1e-12)) - np.log(_ALL_CODES)
        ll = logp[np.arange(6), inv.rotations].sum(axis=2).max(axis=1)  # best turn each
        cost[i, :p_count] = np.where(allowed, -(ll + log_w_cat), _IMPOSSIBLE)
        cost[i, p_count + i] = -(float(logp.max(axis=1).sum()) + log_w_off)
    rows, cols = least_cost_assignment(cost)
    out: list[int | None] = [None] * n
    for i, j in zip(rows, cols, strict=True):
        out[int(i)] = int(j) if j < p_count else None
    return out


def free_candidates(assigned: Sequence[int | None], sections: Sequence[tuple[str, ...]]
                    ) -> list[np.ndarray]:
    """For each photo tile, the K x 6 letter indices of the distinct rotations of its
    assigned tile and of every physical tile of its sections nobody was assigned."""
    inv = inventory()
    taken = {j for j in assigned if j is not None}
    out = []
    for own, secs in zip(assigned, sections, strict=True):
        keep = [j for j, s in enumerate(inv.sections)
                if s in secs and (j == own or j not in taken)]
        rows = inv.rotations[keep].reshape(-1, 6) if keep else np.zeros((0, 6), np.int64)
        out.append(np.unique(rows, axis=0))
    return out
