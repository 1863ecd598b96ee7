"""Score rows both games share: tasks, flags, longest track and stream (rules.md §5, §7).

Representation: every function returns ``{JSON path: Explanation}`` (``tasks.forest``,
``flags.village``, ``longest.track`` ...) read off a replayed ``Board`` or a
``Landscape`` (``landscape_of``); ``marker_json`` is one entry of a sheet's
``markers`` list. The board-game sheet (``board_game``) and the Duel sheet
(``duel_sheet``) assemble their pads from these.
"""

from __future__ import annotations

from typing import Any

from companion.rules.board import COMPLETED, Board, Marker
from companion.rules.explain import Explanation, total_of
from companion.rules.hexgrid import DIRECTIONS, Hex, opposite
from companion.rules.landscape import CompletedMarker, Landscape
from companion.rules.notation import FLAG_TYPES, Record
from companion.rules.reasons import Reason
from companion.rules.territories import BoardTerritories, Territory
from companion.rules.tiles import LETTER_OF


def marker_json(m: Marker) -> dict[str, Any]:
    out: dict[str, Any] = {
        "line": m.line, "at": [m.at.q, m.at.r], "type": m.type, "value": m.value,
        "state": m.state, "turn": m.turn,
    }
    if m.task.type == "double":
        out["terrains"] = list(m.task.terrains)
    if m.state != "active":
        out["reason"] = m.reason
    return out


def completed_markers(record: Record, board: Board, section_index: int = 0) -> list[
        CompletedMarker]:
    out = [CompletedMarker(m.type, m.value, m.at, m.turn)
           for m in board.markers if m.state == COMPLETED]
    if section_index == 0:
        out += [CompletedMarker(t.type, t.value or 0, None, None) for t in record.completed]
    return out


def _marker_tiles(board: Board, m: Marker) -> list[Hex]:
    """The tiles of the territory that decided a marker (its tile alone for wraparound)."""
    if not m.nodes:
        return [m.at]
    node = m.nodes[m.task.terrains.index(m.via)] if m.via in m.task.terrains else m.nodes[0]
    return sorted(board.component_tiles(node), key=lambda h: (h.r, h.q))


def task_fields(record: Record, board: Board, types: tuple[str, ...],
                section_index: int = 0) -> dict[str, Explanation]:
    """``tasks.TYPE`` explanations: completed markers from the log and the header."""
    fields: dict[str, Explanation] = {}
    for t in types:
        items = []
        for m in board.markers:
            if m.type != t or m.state != COMPLETED:
                continue
            assert m.why is not None and m.turn is not None
            why = Reason("marker-completed", {
                "task": m.task.text(), "type": t, "value": m.value, "at": m.at,
                "line": m.line, "turn": m.turn, "via": m.via, "why": m.why,
                "tiles": _marker_tiles(board, m)})
            items.append(Explanation.of(m.value, why, [m.at], [m.turn]))
        if section_index == 0:
            for spec in record.completed:
                if spec.type == t and spec.value:
                    items.append(Explanation.of(spec.value, Reason("marker-from-header", {
                        "task": spec.text(), "type": t, "value": spec.value})))
        for m in board.markers:
            if m.type == t and m.state != COMPLETED:
                params = {"task": m.task.text(), "type": t, "value": m.value, "at": m.at,
                          "line": m.line, "turn": m.turn}
                if m.state == "failed":
                    assert m.why is not None
                    why = Reason("marker-failed", {**params, "why": m.why})
                else:
                    why = Reason("marker-active", {**params, "why": board.marker_state(m)[1]})
                items.append(Explanation.of(0, why, [m.at], [m.turn] if m.turn else []))
        fields[f"tasks.{t}"] = total_of(items, Reason("tasks-row", {"type": t}))
    return fields


def flag_fields(tiles: Landscape) -> dict[str, Explanation]:
    """C1-C3: each flag in a closed territory of its type scores the territory's size."""
    fields: dict[str, Explanation] = {}
    for kind in FLAG_TYPES:
        items = []
        for h, p in tiles.tiles.items():
            if p.flag != kind:
                continue
            t = tiles.territories.at(h, LETTER_OF[kind])
            assert t is not None
            params = {"at": h, "kind": kind, **t.params()}
            items.append(Explanation.of(t.size if t.closed else 0, Reason(
                "flag-closed" if t.closed else "flag-open", params), list(t.tiles)))
        fields[f"flags.{kind}"] = total_of(items, Reason("flags-row", {"kind": kind}))
    return fields


def longest_fields(tiles: Landscape) -> dict[str, Explanation]:
    """D1, D2: the size of the largest track / stream network, branches included (the
    books' rule); with the house rule R-2 on, the longest chain without branching back."""
    fields: dict[str, Explanation] = {}
    chain = tiles.rules.on("R-2")
    house = ["R-2"] if chain else []
    for kind in ("track", "stream"):
        nets = tiles.territories.of_terrain(LETTER_OF[kind])
        if not nets:
            fields[f"longest.{kind}"] = Explanation.of(0, Reason("longest-none", {"kind": kind}))
            continue
        if chain:
            paths = [longest_path(tiles, n) for n in nets]
            path = max(paths, key=len)
            fields[f"longest.{kind}"] = Explanation.of(
                len(path), Reason("longest-chain", {"kind": kind, "size": len(path)}), path,
                rulings=house)
            continue
        best = max(nets, key=lambda n: (n.size, -min((h.r, h.q) for h in n.tiles)[0]))
        fields[f"longest.{kind}"] = Explanation.of(
            best.size, Reason("longest-network", {"kind": kind, **best.params()}),
            list(best.tiles))
    return fields


def longest_path(land: Landscape, net: Territory, budget: int = 200_000) -> list[Hex]:
    """The longest simple chain of tiles through a network (house rule R-2); a depth-first
    search bounded by ``budget`` steps (networks at a table are small)."""
    letter = net.terrain
    links: dict[Hex, list[Hex]] = {h: [] for h in net.tiles}
    for h in net.tiles:
        code = land.tiles[h].code
        for e, d in enumerate(DIRECTIONS):
            nb = Hex(h.q + d.q, h.r + d.r)
            if code[e] == letter and nb in links and land.tiles[nb].code[opposite(e)] == letter:
                links[h].append(nb)
    best: list[Hex] = []
    steps = 0

    def walk(path: list[Hex], seen: set[Hex]) -> None:
        nonlocal best, steps
        steps += 1
        if len(path) > len(best):
            best = list(path)
        if steps > budget:
            return
        for nb in links[path[-1]]:
            if nb not in seen:
                seen.add(nb)
                path.append(nb)
                walk(path, seen)
                path.pop()
                seen.discard(nb)

    for start in sorted(links, key=lambda h: (h.r, h.q)):
        walk([start], {start})
    return best


def landscape_of(record: Record, board: Board, section_index: int = 0) -> Landscape:
    return Landscape(board.tiles, BoardTerritories(board),
                     completed_markers(record, board, section_index), record.ruleset)
