"""Territories and networks by one flood fill over (hex, area) nodes.

Representation: a ``Territory`` is a connected set of areas of one terrain
(rules.md section 1). ``nodes`` are ``(Hex, area index)`` pairs (area index
into ``tiles.areas(code, split)``), ``tiles`` the distinct hexes (its size),
``open_edges`` the ``(Hex, edge)`` pairs facing an empty hex. This is the
from-scratch reference the incremental board is tested against;
``BoardTerritories`` builds the same territories off the board's union-find,
and is what every score and explanation reads.

>>> from companion.rules.notation import parse_record
>>> rec = parse_record("0 0 GGGGGG\\n0 -1 MMMGMM\\n")
>>> t = flood_fill(rec.placements)
>>> [(x.terrain, x.size, x.closed) for x in t if x.terrain == "G"]
[('G', 2, False)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.rules.hexgrid import DIRECTIONS, Hex, opposite
from companion.rules.notation import Placement
from companion.rules.tiles import TERRAINS, area_index, areas

if TYPE_CHECKING:
    from companion.rules.board import Board

Node = tuple[Hex, int]
_D: tuple[tuple[int, int], ...] = tuple((d.q, d.r) for d in DIRECTIONS)


@dataclass(frozen=True)
class Territory:
    """A territory (forest/grain/village), network (track/stream) or meadow patch."""

    terrain: str
    nodes: frozenset[Node]
    tiles: frozenset[Hex]
    open_edges: tuple[tuple[Hex, int], ...]

    @property
    def size(self) -> int:
        return len(self.tiles)

    @property
    def closed(self) -> bool:
        return not self.open_edges

    @property
    def name(self) -> str:
        return TERRAINS[self.terrain]

    def sorted_tiles(self) -> list[Hex]:
        return sorted(self.tiles, key=lambda h: (h.r, h.q))

    def params(self) -> dict[str, object]:
        """The territory as reason parameters: terrain name, size, how many edges are
        open and one of them (``reasons`` renders them)."""
        return {"terrain": self.name, "size": self.size, "open_edges": len(self.open_edges),
                "open_at": self.open_edges[0] if self.open_edges else None}


def flood_fill(placements: Iterable[Placement] | Mapping[Hex, Placement]) -> list[Territory]:
    """Every territory of the landscape, in a deterministic order."""
    tiles: dict[Hex, Placement] = (
        dict(placements) if isinstance(placements, Mapping) else {p.at: p for p in placements}
    )
    tile_areas = {h: areas(p.code, p.split) for h, p in tiles.items()}
    index = {h: area_index(p.code, p.split) for h, p in tiles.items()}
    seen: set[tuple[Hex, int]] = set()
    result: list[Territory] = []
    for h, own in tile_areas.items():
        for k, area in enumerate(own):
            if (h, k) in seen:
                continue
            terrain = area.terrain
            stack = [(h, k)]
            seen.add((h, k))
            nodes: list[Node] = []
            open_edges: list[tuple[Hex, int]] = []
            while stack:
                cur = stack.pop()
                nodes.append(cur)
                ch, ck = cur
                cq, cr = ch
                for e in tile_areas[ch][ck].edges:
                    dq, dr = _D[e]
                    nb = (cq + dq, cr + dr)
                    other = tiles.get(nb)  # type: ignore[call-overload]
                    if other is None:
                        open_edges.append((ch, e))
                        continue
                    opp = opposite(e)
                    if other.code[opp] != terrain:
                        continue
                    nxt = (other.at, index[other.at][opp])
                    if nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
            result.append(
                Territory(
                    terrain,
                    frozenset(nodes),
                    frozenset(n[0] for n in nodes),
                    tuple(sorted(open_edges, key=lambda x: (x[0].r, x[0].q, x[1]))),
                )
            )
    return result


class BoardTerritories:
    """Territories read lazily off a board's incremental components, with a lookup
    from (hex, terrain letter): only the territories asked for are built (what every
    score reads; a property test holds it equal to ``flood_fill``)."""

    def __init__(self, board: Board) -> None:
        self.tiles = board.tiles
        self.board = board
        self._cache: dict[int, Territory] = {}

    def _of_root(self, root: int) -> Territory:
        t = self._cache.get(root)
        if t is not None:
            return t
        board, tiles, find = self.board, self.tiles, self.board.find
        nodes: list[Node] = []
        open_edges: list[tuple[Hex, int]] = []
        hexes = board.component_tiles(root)
        for h in hexes:
            ids = board.node_ids(h)
            base = min(ids)
            for k in range(max(ids) - base + 1):
                if find(base + k) == root:
                    nodes.append((h, k))
            q, r = h
            for e in range(6):
                dq, dr = _D[e]
                if (q + dq, r + dr) not in tiles and find(ids[e]) == root:
                    open_edges.append((h, e))
        t = Territory(
            board.terrain_of(root),
            frozenset(nodes),
            frozenset(hexes),
            tuple(sorted(open_edges, key=lambda x: (x[0].r, x[0].q, x[1]))),
        )
        self._cache[root] = t
        return t

    @property
    def all(self) -> list[Territory]:
        return [self._of_root(root) for root in self.board.roots()]

    def at(self, h: Hex, letter: str) -> Territory | None:
        """The territory of the largest ``letter`` area on the tile at ``h``."""
        node = self.board.node_of(h, letter)
        return None if node is None else self._of_root(self.board.find(node))

    def all_at(self, h: Hex, letter: str) -> list[Territory]:
        """Every distinct ``letter`` territory touching the tile at ``h``."""
        roots = dict.fromkeys(
            self.board.find(n) for e, n in enumerate(self.board.node_ids(h))
            if self.tiles[h].code[e] == letter
        )
        return [self._of_root(root) for root in roots]

    def of_terrain(self, letter: str) -> list[Territory]:
        return [self._of_root(root) for root in self.board.roots(letter)]
