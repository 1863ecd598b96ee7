"""The board-game score sheet (rules.md section 5) and the JSON of ``score --json``.

Representation: ``score_game(game)`` returns a ``Sheet``: the pad's fields
(``B1``..``H``) as ``Explanation`` values keyed by their JSON path (``tasks.forest``,
``flags.village``, ``longest.track``, ``unlocked.circus``, ``tasks_total`` ...), plus
the markers and warnings. ``Sheet.to_json()`` is exactly the object of
notation.md section 6 with two additions: ``explanations`` (path -> explanation)
and ``warnings``. The rows both games share are in ``fields``; the unlocked
components (rows E) in ``components``. Duel records are scored by ``duel_sheet``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules.board import Marker
from companion.rules.explain import Explanation, total_of
from companion.rules.game import Game, Warning
from companion.rules.landscape import Landscape
from companion.rules.notation import FLAG_TYPES, TASK_TYPES, Record
from companion.rules.reasons import Reason
from companion.rules.scoring.components import ALIASES, COMPONENTS
from companion.rules.scoring.fields import (
    flag_fields,
    landscape_of,
    longest_fields,
    marker_json,
    task_fields,
)

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
            fields[f"unlocked.{uid}"] = Explanation.of(0, Reason("unlocked-scored-once", {
                "id": uid, "row": row}))
        else:
            fields[f"unlocked.{uid}"] = Explanation.of(0, Reason("unlocked-no-row", {"id": uid}))
    live = {ALIASES.get(u, u) for u in record.unlocked}
    for h, p in land.tiles.items():
        if p.special and p.special in COMPONENTS and p.special not in live:
            warnings.append(Warning(p.line, None, Reason("special-not-unlocked", {
                "special": p.special, "at": h})))
    return fields, warnings


def score_game(game: Game) -> Sheet:
    """The full board-game sheet of a replayed game."""
    record = game.record
    if record.is_duel:
        raise ValueError("score_game scores the board game; score() scores either game")
    board = game.board
    land = landscape_of(record, board)
    fields = task_fields(record, board, TASK_TYPES)
    fields["tasks_total"] = total_of([fields[f"tasks.{t}"] for t in TASK_TYPES],
                                     Reason("pad-sum", {"pad": "S1"}), shallow=True)
    fields.update(flag_fields(land))
    fields.update(longest_fields(land))
    bonus = [fields[f"flags.{t}"] for t in FLAG_TYPES] + [
        fields["longest.track"], fields["longest.stream"]]
    fields["bonus_total"] = total_of(bonus, Reason("pad-sum", {"pad": "S2"}), shallow=True)
    unlocked, warnings = unlocked_fields(record, land)
    fields.update(unlocked)
    fields["unlocked_total"] = total_of(list(unlocked.values()),
                                      Reason("pad-sum", {"pad": "S3"}), shallow=True)
    fields["total"] = total_of([fields["tasks_total"], fields["bonus_total"],
                                fields["unlocked_total"]], Reason("pad-sum", {"pad": "H"}),
                               shallow=True)
    return Sheet(record.game, fields, list(board.markers), game.warnings + warnings,
                 list(dict.fromkeys(record.unlocked)))


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
