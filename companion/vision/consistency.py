"""Neighbour consistency: track and stream edges must meet their own kind.

Representation: ``codes`` maps an axial cell ``(q, r)`` to its six-letter code.
``mismatches`` returns, per cell, the sorted edges whose neighbour across them
holds a tile whose touching edge disagrees about a track (``T``) or a stream
(``S``): a ``T`` or ``S`` must meet the same letter (rules.md); both sides are flagged.
"""

from __future__ import annotations

from companion.rules.hexgrid import DIRECTIONS

NETWORK = frozenset("TS")


def edges_agree(a: str, b: str) -> bool:
    """Whether two touching edge letters are allowed to meet."""
    if a in NETWORK or b in NETWORK:
        return a == b
    return True


def mismatches(codes: dict[tuple[int, int], str]) -> dict[tuple[int, int], list[int]]:
    """Edges of each cell that break the track/stream matching rule (both sides)."""
    out: dict[tuple[int, int], set[int]] = {cell: set() for cell in codes}
    for (q, r), code in codes.items():
        for e, (dq, dr) in enumerate(DIRECTIONS):
            nb = (q + dq, r + dr)
            other = codes.get(nb)
            if other is None:
                continue
            if not edges_agree(code[e], other[(e + 3) % 6]):
                out[(q, r)].add(e)
                out[nb].add((e + 3) % 6)
    return {cell: sorted(es) for cell, es in out.items()}
