"""The board: placed tiles, incremental territories and the task-marker lifecycle.

Representation:

* ``Board.tiles`` maps ``Hex`` to the ``Placement`` lying there; ``Board.history``
  lists the placements in order, with ``Board.turns`` giving each one's turn.
* Every area of every placed tile is a node (an ``int``). A union-find without
  path compression (union by size, so it can be rolled back) joins nodes whose
  tiles share an edge of the same terrain. Each root knows the tiles of its
  component (``{Hex: number of its areas}``) and how many of its edges face an
  empty hex, so a territory's size and closedness are read in O(log n).
* ``Board.markers`` lists every marker placed on a task tile, with its state
  (``active``/``completed``/``failed``), the turn it changed and why.

``push`` is the cheap unchecked mutation; ``push_checked`` and ``is_legal`` /
``illegal_reason`` (a ``Reason`` code; ``why_illegal`` in words) apply the placement
rules (rules.md section 2); ``pop`` undoes
the last push exactly (territories and markers included); ``copy`` replays the
history into a new board.

>>> b = Board()
>>> b.push_checked(Placement.parse("0 0 GGGGGG task=grain/4", "board-game"))
>>> b.push_checked(Placement.parse("1 -1 MFFMGG", "board-game"))
>>> b.territory_size(Hex(0, 0), "G"), b.markers[0].state
(2, 'active')
>>> b.why_illegal(Placement.parse("0 1 TTMMMM", "board-game"))
'track edge 0 meets grain at (0, 0)'
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from companion.rules.errors import IllegalPlacementError
from companion.rules.hexgrid import DIRECTIONS, Hex, opposite
from companion.rules.notation import Placement, TaskSpec
from companion.rules.reasons import Reason, render
from companion.rules.tiles import (
    LETTER_OF,
    TERRAINS,
    area_index,
    areas,
    edges_can_meet,
    rotate,
)

ACTIVE, COMPLETED, FAILED = "active", "completed", "failed"
_D: tuple[tuple[int, int], ...] = tuple((d.q, d.r) for d in DIRECTIONS)
_OPP: tuple[int, ...] = tuple(opposite(e) for e in range(6))


@dataclass
class Marker:
    """A task marker lying on (or taken off) a task tile."""

    index: int
    at: Hex
    task: TaskSpec
    line: int | None
    placed_turn: int
    state: str = ACTIVE
    turn: int | None = None
    why: Reason | None = None
    via: str | None = None
    nodes: tuple[int, ...] = ()

    @property
    def reason(self) -> str:
        """Why the marker completed or failed, in words ("" while active)."""
        return "" if self.why is None else render(self.why)

    @property
    def type(self) -> str:
        return self.task.type

    @property
    def value(self) -> int:
        assert self.task.value is not None
        return self.task.value


class _Undo:
    """What one push changed, so that ``pop`` can reverse it exactly."""

    __slots__ = ("base", "turn_new", "ops", "marker_changes", "marker_added")

    def __init__(self, base: int, turn_new: bool) -> None:
        self.base = base
        self.turn_new = turn_new
        self.ops: list[tuple[int, ...]] = []
        self.marker_changes: list[tuple[Marker, str, int | None, Reason | None, str | None]] = []
        self.marker_added = False


class Board:
    """One landscape. See the module docstring for the representation."""

    def __init__(self) -> None:
        self.tiles: dict[Hex, Placement] = {}
        self.history: list[Placement] = []
        self.turns: list[int] = []
        self.markers: list[Marker] = []
        self.active_count = 0
        self._nodes: dict[Hex, tuple[int, ...]] = {}
        self._parent: list[int] = []
        self._size: list[int] = []
        self._open: list[int] = []
        self._tiles_of: list[dict[Hex, int]] = []
        self._terrain: list[str] = []
        self._undo: list[_Undo] = []

    # ----------------------------------------------------------------- queries
    def __len__(self) -> int:
        return len(self.tiles)

    def __contains__(self, at: object) -> bool:
        return at in self.tiles

    def __repr__(self) -> str:
        return f"<Board {len(self.tiles)} tiles, turn {self.turn}>"

    @property
    def turn(self) -> int:
        """The turn of the last placement (0 before the first)."""
        return self.turns[-1] if self.turns else 0

    def find(self, node: int) -> int:
        parent = self._parent
        up = parent[node]
        while up != node:
            node = up
            up = parent[node]
        return node

    def node_ids(self, at: Hex) -> tuple[int, ...]:
        """The area node of each edge 0..5 of the tile at ``at``."""
        return self._nodes[at]

    def roots(self, letter: str | None = None) -> list[int]:
        """The root node of every component (of terrain ``letter`` when given)."""
        parent, terrain = self._parent, self._terrain
        return [
            i for i in range(len(parent))
            if parent[i] == i and (letter is None or terrain[i] == letter)
        ]

    def terrain_of(self, node: int) -> str:
        return self._terrain[node]

    def node(self, at: Hex, edge: int) -> int:
        """The area node holding ``edge`` of the tile at ``at``."""
        return self._nodes[at][edge]

    def _node_of(self, at: Hex, letter: str) -> int:
        node = self.node_of(at, letter)
        assert node is not None, f"no {letter} on the tile at {at}"
        return node

    def node_of(self, at: Hex, letter: str) -> int | None:
        """The node of the largest area of terrain ``letter`` on the tile at ``at``."""
        p = self.tiles[at]
        best: tuple[int, int] | None = None
        for edge, c in enumerate(p.code):
            if c == letter:
                n = self._nodes[at][edge]
                count = p.code.count(letter) if not p.split else sum(
                    1 for e in range(6) if self._nodes[at][e] == n
                )
                if best is None or count > best[0]:
                    best = (count, n)
        return None if best is None else best[1]

    def component_size(self, node: int) -> int:
        return len(self._tiles_of[self.find(node)])

    def component_open(self, node: int) -> int:
        return self._open[self.find(node)]

    def component_tiles(self, node: int) -> list[Hex]:
        return list(self._tiles_of[self.find(node)])

    def territory_size(self, at: Hex, letter: str) -> int:
        n = self.node_of(at, letter)
        return 0 if n is None else self.component_size(n)

    def neighbors_count(self, at: Hex) -> int:
        tiles = self.tiles
        q, r = at
        return sum(1 for dq, dr in _D if (q + dq, r + dr) in tiles)

    def frontier(self) -> list[Hex]:
        """Empty hexes touching the landscape (or the origin on an empty board)."""
        if not self.tiles:
            return [Hex(0, 0)]
        seen: dict[tuple[int, int], None] = {}
        tiles = self.tiles
        for q, r in tiles:
            for dq, dr in _D:
                n = (q + dq, r + dr)
                if n not in tiles:
                    seen[n] = None
        return [Hex(q, r) for q, r in seen]

    def active_markers(self) -> list[Marker]:
        return [m for m in self.markers if m.state == ACTIVE]

    # ---------------------------------------------------------------- mutation
    def push(self, p: Placement, same_turn: bool = False) -> None:
        """Place ``p`` without any rule check (unchecked, cheap); see ``push_checked``."""
        at = p.at
        if at in self.tiles:
            raise IllegalPlacementError(Reason("hex-occupied", {"at": at, "line": None}))
        code = p.code
        tile_areas = areas(code, p.split)
        index = area_index(code, p.split)
        base = len(self._parent)
        turn_new = not (same_turn and self.turns)
        undo = _Undo(base, turn_new)
        parent, size, open_, tiles_of, terrain = (
            self._parent, self._size, self._open, self._tiles_of, self._terrain,
        )
        for k, a in enumerate(tile_areas):
            parent.append(base + k)
            size.append(1)
            open_.append(0)
            tiles_of.append({at: 1})
            terrain.append(a.terrain)
        nodes = tuple([base + i for i in index])
        self._nodes[at] = nodes
        tiles = self.tiles
        all_nodes = self._nodes
        q, r = at
        joins: list[tuple[int, int]] = []
        ops = undo.ops
        for e in range(6):
            dq, dr = _D[e]
            nb = (q + dq, r + dr)
            other = tiles.get(nb)  # type: ignore[call-overload]
            if other is None:
                open_[nodes[e]] += 1
                continue
            opp = _OPP[e]
            root = other_node = all_nodes[nb][opp]  # type: ignore[index]
            up = parent[root]
            while up != root:
                root = up
                up = parent[root]
            open_[root] -= 1
            ops.append((0, root))
            if other.code[opp] == code[e]:
                joins.append((nodes[e], other_node))
        for n1, n2 in joins:
            self._union(n1, n2, undo)
        tiles[at] = p
        self.history.append(p)
        turns = self.turns
        turn = (turns[-1] if turns else 0) + turn_new
        turns.append(turn)
        self._undo.append(undo)
        task = p.task
        if task is not None and task.value is not None:
            marker_nodes = tuple(self._node_of(at, LETTER_OF[name]) for name in task.terrains)
            self.markers.append(
                Marker(len(self.markers), at, task, p.line, turn, nodes=marker_nodes)
            )
            self.active_count += 1
            undo.marker_added = True
        if self.active_count:
            self._update_markers(undo)

    def _union(self, a: int, b: int, undo: _Undo) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return
        if self._size[ra] < self._size[rb]:
            ra, rb = rb, ra
        self._parent[rb] = ra
        self._size[ra] += self._size[rb]
        self._open[ra] += self._open[rb]
        big = self._tiles_of[ra]
        for h, c in self._tiles_of[rb].items():
            big[h] = big.get(h, 0) + c
        undo.ops.append((1, ra, rb))

    def pop(self) -> Placement:
        """Undo the last placement exactly, markers included; return it."""
        if not self.history:
            raise IndexError("pop from an empty board")
        undo = self._undo.pop()
        for m, state, turn, why, via in reversed(undo.marker_changes):
            m.state, m.turn, m.why, m.via = state, turn, why, via
        self.active_count += len(undo.marker_changes)
        if undo.marker_added:
            self.markers.pop()
            self.active_count -= 1
        for op in reversed(undo.ops):
            if op[0] == 1:
                _, ra, rb = op
                big = self._tiles_of[ra]
                for h, c in self._tiles_of[rb].items():
                    left = big[h] - c
                    if left:
                        big[h] = left
                    else:
                        del big[h]
                self._open[ra] -= self._open[rb]
                self._size[ra] -= self._size[rb]
                self._parent[rb] = rb
            else:
                self._open[op[1]] += 1
        base = undo.base
        del self._parent[base:], self._size[base:], self._open[base:]
        del self._tiles_of[base:], self._terrain[base:]
        p = self.history.pop()
        self.turns.pop()
        del self.tiles[p.at]
        del self._nodes[p.at]
        return p

    def copy(self) -> Board:
        """An independent board with the same history (and so the same state)."""
        other = Board()
        for p, turn in zip(self.history, self.turns, strict=True):
            other.push(p, same_turn=bool(other.turns) and other.turn == turn)
        return other

    # ----------------------------------------------------------------- markers
    def marker_status(self, m: Marker) -> tuple[str, str, str | None]:
        """``marker_state`` with the reason in words."""
        state, why, via = self.marker_state(m)
        return state, render(why), via

    def marker_state(self, m: Marker) -> tuple[str, Reason, str | None]:
        """What the marker's task says now: (state, reason, terrain that decided)."""
        task = m.task
        n = m.value
        if task.type == "wraparound":
            count = self.neighbors_count(m.at)
            if count == n:
                return COMPLETED, Reason("wraparound-exact", {"value": n}), None
            return ACTIVE, Reason("wraparound-growing", {"neighbours": count, "value": n}), None
        best: tuple[str, Reason, str | None] | None = None
        reasons: list[Reason] = []
        for name, node in zip(task.terrains, m.nodes, strict=True):
            root = self.find(node)
            size = len(self._tiles_of[root])
            if size == n:
                return COMPLETED, Reason("size-exact", {"terrain": name, "value": n}), name
            params = {"terrain": name, "size": size, "value": n}
            if size > n:
                reasons.append(Reason("size-over", params))
            elif not self._open[root]:
                reasons.append(Reason("closed-short", params))
            else:
                best = (ACTIVE, Reason("size-growing", params), None)
        if best is not None:
            return best
        if len(reasons) == 1:
            return FAILED, reasons[0], None
        return FAILED, Reason("all-of", {"parts": reasons}), None

    def _update_markers(self, undo: _Undo) -> None:
        turn = self.turns[-1]
        find = self.find
        touched = {op[1] for op in undo.ops}
        touched.update(op[2] for op in undo.ops if op[0] == 1)
        touched.update(range(undo.base, len(self._parent)))
        at = self.history[-1].at
        for m in self.markers:
            if m.state != ACTIVE:
                continue
            if m.task.type == "wraparound":
                if abs(m.at.q - at.q) + abs(m.at.r - at.r) + abs(m.at.q + m.at.r - at.q - at.r) > 2:
                    continue
            elif not any(find(n) in touched for n in m.nodes):
                continue
            state, why, via = self.marker_state(m)
            if state != ACTIVE:
                undo.marker_changes.append((m, m.state, m.turn, m.why, m.via))
                m.state, m.turn, m.why, m.via = state, turn, why, via
                self.active_count -= 1

    # ---------------------------------------------------------------- legality
    def edge_conflict(self, at: Hex, code: str) -> Reason | None:
        """Why ``code`` at ``at`` breaks the edge rules (``edge-mismatch``), or None
        (no task check)."""
        tiles = self.tiles
        q, r = at
        for e in range(6):
            dq, dr = _D[e]
            other = tiles.get((q + dq, r + dr))  # type: ignore[call-overload]
            if other is None:
                continue
            a, b = code[e], other.code[opposite(e)]
            if not edges_can_meet(a, b):
                return Reason("edge-mismatch", {"terrain": TERRAINS[a], "edge": e,
                                                "other": TERRAINS[b],
                                                "neighbour": Hex(q + dq, r + dr)})
        return None

    def illegal_reason(self, p: Placement) -> Reason | None:
        """The placement rule ``p`` breaks (rules.md section 2) as a ``Reason``, or None
        when legal. Codes: ``hex-occupied``, ``touches-nothing``, ``edge-mismatch``,
        ``task-fails-at-once``, ``wraparound-too-many-neighbours``."""
        at = p.at
        tiles = self.tiles
        if at in tiles:
            return Reason("hex-occupied", {"at": at, "line": tiles[at].line})
        q, r = at
        code = p.code
        count = 0
        for e in range(6):
            dq, dr = _D[e]
            other = tiles.get((q + dq, r + dr))  # type: ignore[call-overload]
            if other is None:
                continue
            count += 1
            a, b = code[e], other.code[_OPP[e]]
            if not edges_can_meet(a, b):
                return Reason("edge-mismatch", {"terrain": TERRAINS[a], "edge": e,
                                                "other": TERRAINS[b],
                                                "neighbour": Hex(q + dq, r + dr)})
        if tiles and not count:
            return Reason("touches-nothing", {"at": at})
        task = p.task
        if task is None or task.value is None:
            return None
        if task.type == "wraparound":
            if count > task.value:
                return Reason("wraparound-too-many-neighbours", {
                    "task": task.text(), "neighbours": count, "value": task.value})
            return None
        failed = self.own_marker_fails(p)
        if failed is not None:
            return Reason("task-fails-at-once", {"task": task.text(), "why": failed})
        return None

    def own_marker_fails(self, p: Placement) -> Reason | None:
        """Why the marker of task tile ``p`` would fail right after ``p`` is placed (its
        state as ``marker_state`` would give it), or None. Read off the union-find
        without placing the tile (no split areas: then ``p`` is pushed and popped)."""
        task = p.task
        assert task is not None and task.value is not None
        if p.split:
            self.push(p)
            try:
                state, why, _ = self.marker_state(self.markers[-1])
            finally:
                self.pop()
            return why if state == FAILED else None
        n = task.value
        reasons: list[Reason] = []
        tiles, nodes_of, find = self.tiles, self._nodes, self.find
        q, r = p.at
        code = p.code
        for name in task.terrains:
            letter = LETTER_OF[name]
            roots: set[int] = set()
            empty = 0
            facing: list[int] = []
            for e in range(6):
                dq, dr = _D[e]
                nb = (q + dq, r + dr)
                other = tiles.get(nb)  # type: ignore[call-overload]
                if other is None:
                    empty += code[e] == letter
                    continue
                opp = _OPP[e]
                root = find(nodes_of[nb][opp])  # type: ignore[index]
                facing.append(root)
                if code[e] == letter and other.code[opp] == letter:
                    roots.add(root)
            if not roots:
                size = 1
            elif len(roots) == 1:
                size = 1 + len(self._tiles_of[next(iter(roots))])
            else:
                joined: set[Hex] = set()
                for root in roots:
                    joined.update(self._tiles_of[root])
                size = 1 + len(joined)
            if size == n:
                return None
            params = {"terrain": name, "size": size, "value": n}
            if size > n:
                reasons.append(Reason("size-over", params))
                continue
            open_edges = empty + sum(self._open[root] for root in roots) - sum(
                1 for root in facing if root in roots)
            if open_edges:
                return None
            reasons.append(Reason("closed-short", params))
        return reasons[0] if len(reasons) == 1 else Reason("all-of", {"parts": reasons})

    def why_illegal(self, p: Placement) -> str | None:
        """``illegal_reason`` in words (``"track edge 0 meets grain at (0, 0)"``)."""
        why = self.illegal_reason(p)
        return None if why is None else render(why)

    def is_legal(self, p: Placement) -> bool:
        return self.illegal_reason(p) is None

    def push_checked(self, p: Placement, same_turn: bool = False) -> None:
        """Place ``p`` after checking every placement rule; raise
        ``IllegalPlacementError`` (naming the record line when ``p`` has one)."""
        why = self.illegal_reason(p)
        if why is not None:
            raise IllegalPlacementError(why, p.line)
        self.push(p, same_turn)

    def legal_placements(self, p: Placement) -> Iterator[tuple[Hex, int]]:
        """Lazily yield every legal (hex, rotation) for the tile of ``p`` (its code
        rotated by ``rotation`` steps clockwise); duplicate rotations are skipped."""
        codes: dict[str, int] = {}
        for k in range(6):
            codes.setdefault(rotate(p.code, k), k)
        needs_task_check = p.task is not None and p.task.value is not None
        for at in self.frontier():
            for code, k in codes.items():
                if self.edge_conflict(at, code) is not None:
                    continue
                if needs_task_check or p.split:
                    moved = p.moved(at, code)
                    if p.split:
                        moved = _rotated_split(moved, p, k)
                    if self.illegal_reason(moved) is not None:
                        continue
                yield at, k


def _rotated_split(moved: Placement, original: Placement, steps: int) -> Placement:
    from dataclasses import replace

    from companion.rules.tiles import parse_split, split_spec

    assert original.split is not None
    groups = parse_split(original.split, original.code)
    turned: dict[str, Iterable[Iterable[int]]] = {
        letter: [[(e + steps) % 6 for e in g] for g in gs] for letter, gs in groups.items()
    }
    return replace(moved, split=split_spec(turned))
