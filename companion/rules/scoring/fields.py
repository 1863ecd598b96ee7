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


def task_fields(record: Record, board: Board, types: tuple[str, ...],
                section_index: int = 0) -> dict[str, Explanation]:
    """``tasks.TYPE`` explanations: completed markers from the log and the header."""
    fields: dict[str, Explanation] = {}
    for t in types:
        items = []
        for m in board.markers:
            if m.type != t or m.state != COMPLETED:
                continue
            via = f" through its {m.via} territory" if m.via else ""
            items.append(Explanation(m.value, f"{t}/{m.value} at {m.at} (line {m.line}) "
                                              f"completed at turn {m.turn}{via}: {m.reason}",
                                     [m.at], [m.turn] if m.turn else []))
        if section_index == 0:
            for spec in record.completed:
                if spec.type == t and spec.value:
                    items.append(Explanation(spec.value, f"{t}/{spec.value} completed (from the "
                                                         f"'completed:' header)"))
        for m in board.markers:
            if m.type == t and m.state != COMPLETED:
                why = (f"failed at turn {m.turn}: {m.reason}" if m.state == "failed"
                       else f"still active: {board.marker_status(m)[1]}")
                items.append(Explanation(0, f"{t}/{m.value} at {m.at} (line {m.line}) {why}",
                                         [m.at], [m.turn] if m.turn else []))
        fields[f"tasks.{t}"] = total_of(items, f"{t} tasks: sum of completed markers")
    return fields


def flag_fields(tiles: Landscape) -> dict[str, Explanation]:
    fields: dict[str, Explanation] = {}
    for kind in FLAG_TYPES:
        items = []
        for h, p in tiles.tiles.items():
            if p.flag != kind:
                continue
            t = tiles.territories.at(h, LETTER_OF[kind])
            assert t is not None
            if t.closed:
                items.append(Explanation(t.size, f"flag at {h}: closed {kind} territory of "
                                                 f"{t.size} tile(s)", list(t.tiles)))
            else:
                items.append(Explanation(0, f"flag at {h}: {t.describe()}: 0", list(t.tiles)))
        fields[f"flags.{kind}"] = total_of(
            items, f"{kind} flags: each flag in a closed {kind} territory scores its size")
    return fields


def longest_fields(tiles: Landscape) -> dict[str, Explanation]:
    fields: dict[str, Explanation] = {}
    for kind in ("track", "stream"):
        nets = tiles.territories.of_terrain(LETTER_OF[kind])
        if not nets:
            fields[f"longest.{kind}"] = Explanation(0, f"no {kind} on the map", rulings=["R-2"])
            continue
        if not tiles.rules.on("R-2"):
            paths = [longest_path(tiles, n) for n in nets]
            path = max(paths, key=len)
            fields[f"longest.{kind}"] = Explanation(
                len(path), f"longest {kind}: the longest chain of {len(path)} tile(s) without "
                           f"branching back (R-2 off)", path, rulings=["R-2"])
            continue
        best = max(nets, key=lambda n: (n.size, -min((h.r, h.q) for h in n.tiles)[0]))
        fields[f"longest.{kind}"] = Explanation(
            best.size, f"longest {kind}: the largest {kind} network, {best.describe()} "
                       f"(all connected tiles, branches included)", list(best.tiles),
            rulings=["R-2"])
    return fields


def longest_path(land: Landscape, net: Territory, budget: int = 200_000) -> list[Hex]:
    """The longest simple chain of tiles through a network (for R-2 off); a depth-first
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
