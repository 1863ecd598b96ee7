"""What the score rows read: a landscape's tiles, territories and completed markers.

Representation: a ``Landscape`` bundles the tiles (``{Hex: Placement}``), their
territories (a ``BoardTerritories`` view of the board's union-find), the completed
markers (``CompletedMarker``: type, value, tile and turn; tile and turn ``None`` for a
marker named in the ``completed:`` header) and the rule set. ``matching_edges`` is the
hearts' rule (an edge meeting the same terrain, meadow included; both games) and
``joined_neighbours`` the tiles joined to one tile through one terrain's edges.

>>> from companion.rules.board import Board
>>> from companion.rules.notation import Placement
>>> b = Board()
>>> b.push(Placement.parse("0 0 MMMMMM heart")); b.push(Placement.parse("0 -1 MMMGMM"))
>>> land = Landscape(b.tiles, BoardTerritories(b), [])
>>> matching_edges(land, b.tiles[Hex(0, 0)])
(0, [])
>>> b.push(Placement.parse("1 0 MMMMMM")); matching_edges(land, b.tiles[Hex(0, 0)])
(1, [2])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.rules.hexgrid import DIRECTIONS, Hex, opposite
from companion.rules.notation import Placement
from companion.rules.rulings import RuleSet
from companion.rules.territories import BoardTerritories


@dataclass
class CompletedMarker:
    type: str
    value: int
    at: Hex | None
    turn: int | None


@dataclass
class Landscape:
    tiles: Mapping[Hex, Placement]
    territories: BoardTerritories
    completed: list[CompletedMarker]
    rules: RuleSet = field(default_factory=RuleSet)

    def with_special(self, name: str) -> list[Placement]:
        return [p for p in self.tiles.values() if p.special == name]


def matching_edges(land: Landscape, p: Placement) -> tuple[int, list[int]]:
    """Edges of ``p`` whose neighbour shows the same terrain on the facing edge."""
    edges = []
    for e in range(6):
        d = DIRECTIONS[e]
        other = land.tiles.get(Hex(p.at.q + d.q, p.at.r + d.r))
        if other is not None and other.code[opposite(e)] == p.code[e]:
            edges.append(e)
    return len(edges), edges


def joined_neighbours(land: Landscape, p: Placement, letter: str) -> set[Hex]:
    """``p``'s tile and its neighbours joined to it through a ``letter`` edge."""
    out = {p.at}
    for e in range(6):
        d = DIRECTIONS[e]
        nb = Hex(p.at.q + d.q, p.at.r + d.r)
        other = land.tiles.get(nb)
        if other is not None and p.code[e] == letter and other.code[opposite(e)] == letter:
            out.add(nb)
    return out
