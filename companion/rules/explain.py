"""Explanations: why every number on a sheet is what it is (rules.md section 8).

Representation: an ``Explanation`` is the value of one sheet field with a plain
sentence, the tiles behind it, the turns involved, the rulings (``R-n``) that
decided it and optional sub-items (one per marker, flag, heart ...).
``to_json`` gives ``{"value", "text", "tiles": [[q, r], ...], "turns", "rulings",
"items"}``, plus ``code`` and ``params`` when the explanation was made from a ``Reason``
(``Explanation.of``: the sentence is then rendered from the code).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.rules.hexgrid import Hex
from companion.rules.reasons import Reason, render


def hexes_json(tiles: Iterable[Hex]) -> list[list[int]]:
    return [[h.q, h.r] for h in sorted(set(tiles), key=lambda h: (h.r, h.q))]


@dataclass
class Explanation:
    value: int
    text: str
    tiles: list[Hex] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    rulings: list[str] = field(default_factory=list)
    items: list[Explanation] = field(default_factory=list)
    why: Reason | None = None

    @staticmethod
    def of(value: int, why: Reason, tiles: list[Hex] | None = None,
           turns: list[int] | None = None, rulings: list[str] | None = None) -> Explanation:
        """An explanation whose sentence is rendered from ``why`` (its code and
        parameters go into the JSON too)."""
        return Explanation(value, render(why), list(tiles or []), list(turns or []),
                           list(rulings or []), why=why)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "value": self.value,
            "text": self.text,
            "tiles": hexes_json(self.tiles),
            "turns": sorted(set(self.turns)),
            "rulings": sorted(set(self.rulings)),
        }
        if self.why is not None:
            out.update(self.why.to_json())
        if self.items:
            out["items"] = [i.to_json() for i in self.items]
        return out

    def lines(self, indent: str = "  ") -> list[str]:
        """Plain-words form for ``companion score --explain``."""
        rulings = f" [{', '.join(sorted(set(self.rulings)))}]" if self.rulings else ""
        out = [f"{indent}{self.text}{rulings}"]
        for item in self.items:
            out.extend(item.lines(indent + "  "))
        return out


def total_of(
    items: list[Explanation], why: Reason, rulings: Iterable[str] = (), shallow: bool = False
) -> Explanation:
    """An explanation summing ``items``, its sentence rendered from ``why`` (``shallow``:
    keep only the parts' value, text and code, for subtotals whose parts are explained
    in their own rows)."""
    tiles = [t for i in items for t in i.tiles]
    turns = [t for i in items for t in i.turns]
    rulings = [*rulings, *(r for i in items for r in i.rulings)]
    parts = [Explanation(i.value, i.text, why=i.why) for i in items] if shallow else items
    return Explanation(sum(i.value for i in items), render(why), tiles, turns, rulings, parts,
                       why)
