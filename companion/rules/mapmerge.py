"""Aligning and combining two partial maps of one landscape (two photos of a table).

Representation: a map is ``{Hex: code}`` (codes as they lie). A ``HexTransform``
is a rotation by ``steps`` x 60 degrees clockwise about the origin followed by a
translation; applied to a tile it moves the hex and rotates the code.
``best_alignment(a, b)`` finds the transform of ``b`` that makes the most
overlapping tiles of ``b`` agree with ``a`` (same code), trying every rotation
and every translation that lands some tile of ``b`` on some tile of ``a``.

>>> a = {Hex(0, 0): "GGMTTM", Hex(1, 0): "MMMMMM"}
>>> b = {Hex(5, 5): "GGMTTM", Hex(5, 6): "FFFFFF"}
>>> t, score = best_alignment(a, b)
>>> t.apply_hex(Hex(5, 5)), score
(Hex(q=0, r=0), 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from companion.rules.hexgrid import Hex
from companion.rules.tiles import rotate


class HexTransform(NamedTuple):
    steps: int
    dq: int
    dr: int

    def apply_hex(self, h: Hex) -> Hex:
        r = h.rotate(self.steps)
        return Hex(r.q + self.dq, r.r + self.dr)

    def apply_code(self, code: str) -> str:
        return rotate(code, self.steps)


def best_alignment(a: Mapping[Hex, str], b: Mapping[Hex, str]) -> tuple[HexTransform, int]:
    """The transform of ``b`` agreeing with ``a`` on the most tiles, and that count
    (ties: the smallest rotation, then the first translation found)."""
    best = (HexTransform(0, 0, 0), -1)
    for steps in range(6):
        turned = {h.rotate(steps): rotate(code, steps) for h, code in b.items()}
        tried: set[tuple[int, int]] = set()
        for hb in turned:
            for ha in a:
                d = (ha.q - hb.q, ha.r - hb.r)
                if d in tried:
                    continue
                tried.add(d)
                score = sum(
                    1 for h, code in turned.items()
                    if a.get(Hex(h.q + d[0], h.r + d[1])) == code
                )
                if score > best[1]:
                    best = (HexTransform(steps, d[0], d[1]), score)
    return best


def merge_maps(
    a: Mapping[Hex, str], b: Mapping[Hex, str], min_overlap: int = 2
) -> tuple[dict[Hex, str], HexTransform, list[Hex]]:
    """``a`` plus the tiles of ``b`` it lacks, ``b`` aligned onto ``a``; also the
    hexes where both maps hold different codes (kept from ``a``, to be checked).
    Raises ``ValueError`` when fewer than ``min_overlap`` tiles agree."""
    transform, score = best_alignment(a, b)
    if score < min_overlap:
        raise ValueError(
            f"the two maps share only {max(score, 0)} matching tile(s); need {min_overlap} "
            "to combine them (photograph an overlapping part of the table)"
        )
    merged = dict(a)
    conflicts: list[Hex] = []
    for h, code in b.items():
        th, tc = transform.apply_hex(h), transform.apply_code(code)
        if th not in merged:
            merged[th] = tc
        elif merged[th] != tc:
            conflicts.append(th)
    return merged, transform, conflicts
