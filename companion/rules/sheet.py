"""The board-game score sheet (rules.md section 5) and the JSON of ``score --json``.

Representation: ``score_game(game)`` returns a ``Sheet``: the pad's fields
(``B1``..``H``) as ``Explanation`` values keyed by their JSON path (``tasks.forest``,
``flags.village``, ``longest.track``, ``unlocked.circus``, ``tasks_total`` ...), plus
the markers and warnings. ``Sheet.to_json()`` is exactly the object of
notation.md section 6 with two additions: ``explanations`` (path -> explanation)
and ``warnings``. Duel records are scored by ``companion.rules.duel``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules.board import COMPLETED, Board, Marker
from companion.rules.components import (
    ALIASES,
    COMPONENTS,
    CompletedMarker,
    Landscape,
)
from companion.rules.explain import Explanation, total_of
from companion.rules.game import Game, Warning, replay
from companion.rules.hexgrid import DIRECTIONS, Hex
from companion.rules.notation import FLAG_TYPES, TASK_TYPES, Record, parse_record
from companion.rules.territories import BoardTerritories, Territory
from companion.rules.tiles import LETTER_OF

PAD_FIELDS = {
    "tasks.forest": "B1", "tasks.grain": "B2", "tasks.village": "B3", "tasks.track": "B4",
    "tasks.stream": "B5", "tasks_total": "S1", "flags.forest": "C1", "flags.grain": "C2",
    "flags.village": "C3", "longest.track": "D1", "longest.stream": "D2",
    "bonus_total": "S2", "unlocked_total": "S3", "total": "H",
}


@dataclass
class Sheet:
    game: str
    fields: dict[str, Explanation]
    markers: list[Marker]
    warnings: list[Warning] = field(default_factory=list)
    unlocked: list[str] = field(default_factory=list)

    def value(self, path: str) -> int:
        return self.fields[path].value

    def to_json(self) -> dict[str, Any]:
        v = self.value
        return {
            "game": self.game,
            "tasks": {t: v(f"tasks.{t}") for t in TASK_TYPES},
            "tasks_total": v("tasks_total"),
            "flags": {t: v(f"flags.{t}") for t in FLAG_TYPES},
            "longest": {"track": v("longest.track"), "stream": v("longest.stream")},
            "bonus_total": v("bonus_total"),
            "unlocked": {u: v(f"unlocked.{u}") for u in self.unlocked},
            "unlocked_total": v("unlocked_total"),
            "total": v("total"),
            "markers": [marker_json(m) for m in self.markers],
            "pad": {pad: v(path) for path, pad in PAD_FIELDS.items()},
            "explanations": {k: e.to_json() for k, e in self.fields.items()},
            "warnings": [w.to_json() for w in self.warnings],
        }


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
            if code[e] == letter and nb in links and land.tiles[nb].code[(e + 3) % 6] == letter:
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


def unlocked_fields(record: Record, land: Landscape) -> tuple[dict[str, Explanation],
                                                               list[Warning]]:
    fields: dict[str, Explanation] = {}
    warnings: list[Warning] = []
    scored: set[str] = set()
    for uid in record.unlocked:  # ids were checked by replay (game.check_unlocked)
        if f"unlocked.{uid}" in fields:
            continue  # an id given twice (e.g. one red-heart per heart token) has one row
        row = ALIASES.get(uid, uid)
        if row in COMPONENTS and row not in scored:
            scored.add(row)
            fields[f"unlocked.{uid}"] = COMPONENTS[row](land)
        elif row in COMPONENTS:
            fields[f"unlocked.{uid}"] = Explanation(0, f"{uid}: scored once, under {row}")
        else:
            fields[f"unlocked.{uid}"] = Explanation(0, f"{uid}: unlocked, no row of its own")
    live = {ALIASES.get(u, u) for u in record.unlocked}
    for h, p in land.tiles.items():
        if p.special and p.special in COMPONENTS and p.special not in live:
            warnings.append(Warning(p.line, None, f"{p.special} tile at {h} is on the map but "
                                                  f"not unlocked: not scored"))
    return fields, warnings


def score_game(game: Game) -> Sheet:
    """The full board-game sheet of a replayed game."""
    record = game.record
    if record.is_duel:
        raise ValueError("score_game scores the board game; use companion.rules.duel")
    board = game.board
    land = landscape_of(record, board)
    fields = task_fields(record, board, TASK_TYPES)
    fields["tasks_total"] = total_of([fields[f"tasks.{t}"] for t in TASK_TYPES],
                                     "S1: sum of B1-B5", shallow=True)
    fields.update(flag_fields(land))
    fields.update(longest_fields(land))
    bonus = [fields[f"flags.{t}"] for t in FLAG_TYPES] + [
        fields["longest.track"], fields["longest.stream"]]
    fields["bonus_total"] = total_of(bonus, "S2: flags plus longest track and stream",
                                   shallow=True)
    unlocked, warnings = unlocked_fields(record, land)
    fields.update(unlocked)
    fields["unlocked_total"] = total_of(list(unlocked.values()), "S3: unlocked components",
                                      shallow=True)
    fields["total"] = total_of([fields["tasks_total"], fields["bonus_total"],
                                fields["unlocked_total"]], "H: S1 + S2 + S3", shallow=True)
    return Sheet(record.game, fields, list(board.markers), game.warnings + warnings,
                 list(dict.fromkeys(record.unlocked)))


def score_text(text: str) -> dict[str, Any]:
    """Parse, replay and score a record of either game; the JSON of ``score --json``."""
    record = parse_record(text)
    if record.is_duel:
        from companion.rules.duel import score_duel  # type: ignore[import-not-found,unused-ignore]

        result: dict[str, Any] = score_duel(replay(record)).to_json()
        return result
    return score_game(replay(record)).to_json()


def explain_lines(sheet_json: dict[str, Any]) -> list[str]:
    """Plain words for every explained number (``companion score --explain``)."""
    out: list[str] = []

    def walk(e: dict[str, Any], indent: str) -> None:
        rulings = f" [{', '.join(e['rulings'])}]" if e.get("rulings") else ""
        out.append(f"{indent}{e['text']}: {e['value']}{rulings}")
        for item in e.get("items", []):
            walk(item, indent + "  ")

    for path, e in sheet_json["explanations"].items():
        pad = PAD_FIELDS.get(path, "E" if path.startswith("unlocked.") else "")
        out.append(f"{pad} {path} = {e['value']}".strip())
        walk(e, "  ")
    return out
