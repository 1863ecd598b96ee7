"""Neighbour consistency: track and stream edges must meet their own kind.

Representation: ``codes`` maps an axial cell ``(q, r)`` to its six-letter code.
``mismatches`` returns, per cell, the sorted edges whose neighbour across them
holds a tile whose touching edge disagrees about a track (``T``) or a stream
(``S``): ``companion.rules.edges_can_meet``, the engine's one edge rule; both sides
are flagged.
``resolve`` first corrects such edges where the tiles' evidence supports a
consistent reading better (joint decoding of the two tiles under each option).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from companion.rules import DIRECTIONS, edges_can_meet, opposite


def mismatches(codes: dict[tuple[int, int], str]) -> dict[tuple[int, int], list[int]]:
    """Edges of each cell that break the track/stream matching rule (both sides)."""
    out: dict[tuple[int, int], set[int]] = {cell: set() for cell in codes}
    for (q, r), code in codes.items():
        for e, (dq, dr) in enumerate(DIRECTIONS):
            nb = (q + dq, r + dr)
            other = codes.get(nb)
            if other is None:
                continue
            if not edges_can_meet(code[e], other[opposite(e)]):
                out[(q, r)].add(e)
                out[nb].add(opposite(e))
    return {cell: sorted(es) for cell, es in out.items()}


Decoder = Callable[[int, dict[int, str]], tuple[str, tuple[float, ...], float]]
"""``decoder(tile index, allowed letters per edge) -> (code, confidences, log score)``."""

OPTIONS: tuple[str, ...] = ("T", "S", "FGVM")
"""What two touching edges may be together: both track, both stream, or neither."""


Reading = tuple[str, tuple[float, ...]]
"""A tile's code and its six confidences."""
EdgePair = tuple[tuple[tuple[int, int], int], tuple[tuple[int, int], int]]
"""Two touching edges: ((cell, edge), (neighbour cell, its edge))."""


def resolve(cells: Sequence[tuple[int, int]], readings: Sequence[Reading],
            decoder: Decoder, max_cost: float = 4.0, rounds: int = 3
            ) -> tuple[list[Reading], list[EdgePair]]:
    """Correct track/stream mismatches where the tiles' own evidence allows it.

    For every pair of touching edges that break the rule, each option of ``OPTIONS``
    is imposed on both edges and both tiles are decoded again (catalogue prior
    included, with the constraints already chosen for their other edges); the option
    with the highest joint log score wins, unless it costs more than ``max_cost``
    (natural log) below the two tiles' unconstrained reading: then both tiles clearly
    show what they show, the mismatch stays and ``mismatches`` flags it. The edges
    changed get a confidence from the margin over the next best option, so a close
    call stays doubtful; the corrected pairs of touching edges are returned too, so
    the caller can keep pointing at them.
    """
    out = list(readings)
    index = {cell: i for i, cell in enumerate(cells)}
    constraints: list[dict[int, str]] = [{} for _ in cells]
    corrected: list[EdgePair] = []
    for _ in range(rounds):
        codes = {cells[i]: out[i][0] for i in range(len(cells))}
        todo = [(cell, e) for cell, es in mismatches(codes).items() for e in es if e < 3]
        if not todo:
            break
        for (q, r), e in todo:
            i = index[(q, r)]
            dq, dr = DIRECTIONS[e]
            j = index[(q + dq, r + dr)]
            f = opposite(e)
            if edges_can_meet(out[i][0][e], out[j][0][f]):
                continue  # fixed by an earlier choice this round
            tried = []
            for option in OPTIONS:
                ci = {**constraints[i], e: option}
                cj = {**constraints[j], f: option}
                ri, rj = decoder(i, ci), decoder(j, cj)
                tried.append((ri[2] + rj[2], option, ri, rj, ci, cj))
            tried.sort(key=lambda t: -t[0])
            score, _, ri, rj, ci, cj = tried[0]
            free = decoder(i, constraints[i])[2] + decoder(j, constraints[j])[2]
            if score < free - max_cost:
                continue
            margin = score - tried[1][0]
            doubt = float(1.0 / (1.0 + math.exp(-min(margin, 50.0))))
            constraints[i], constraints[j] = ci, cj
            out[i] = (ri[0], _capped(ri[1], e, doubt))
            out[j] = (rj[0], _capped(rj[1], f, doubt))
            corrected.append(((cells[i], e), (cells[j], f)))
    return out, corrected


def _capped(conf: tuple[float, ...], edge: int, cap: float) -> tuple[float, ...]:
    return tuple(min(c, cap) if k == edge else c for k, c in enumerate(conf))
