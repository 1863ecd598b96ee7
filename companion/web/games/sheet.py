"""The score sheet laid out like the paper pads, for the templates.

Representation: ``pad_rows(sheet)`` turns the JSON of ``score --json`` (board game)
into ``Row``s in the official pad's order: B1-B5, S1, C1-C3, D1-D2, S2, one E row
per unlocked component, S3, H. ``duel_rows(sheet)`` gives one ``DuelRow`` per line
of the Duel pad with one ``Cell`` per player (tasks incl. wraparound and double,
flags, longest, subtotal, Module 1, Module 2, total). Every row or cell carries
its explanation (``{"value", "text", "tiles", "turns", "rulings", "items"}``) or
None; ``tiles_attr`` renders tiles as the ``data-tiles`` string ``"q,r q,r"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l

TASK_LABELS = {
    "forest": _l("Forest"), "grain": _l("Grain"), "village": _l("Village"),
    "track": _l("Track"), "stream": _l("Stream"), "wraparound": _l("Wraparound"),
    "double": _l("Double task"),
}


@dataclass
class Row:
    pad: str
    label: Any
    value: int
    explanation: dict[str, Any] | None
    kind: str = "field"  # field | subtotal | total


@dataclass
class Cell:
    value: int | None
    explanation: dict[str, Any] | None


@dataclass
class DuelRow:
    label: Any
    cells: list[Cell]
    kind: str = "field"


def tiles_attr(explanation: dict[str, Any] | None) -> str:
    """All tiles behind an explanation as ``"q,r q,r"`` (items included)."""
    if not explanation:
        return ""
    seen: dict[tuple[int, int], None] = {}

    def walk(e: dict[str, Any]) -> None:
        for q, r in e.get("tiles", []):
            seen[(q, r)] = None
        for item in e.get("items", []):
            walk(item)

    walk(explanation)
    return " ".join(f"{q},{r}" for q, r in seen)


def component_name(uid: str) -> str:
    from companion.web.names import unlock_name

    return unlock_name(uid)


def pad_rows(sheet: dict[str, Any]) -> list[Row]:
    ex = sheet.get("explanations", {})
    rows: list[Row] = []

    def add(pad: str, path: str, label: Any, kind: str = "field") -> None:
        rows.append(Row(pad, label, int(lookup(sheet, path) or 0), ex.get(path), kind))

    for i, t in enumerate(("forest", "grain", "village", "track", "stream"), start=1):
        add(f"B{i}", f"tasks.{t}", TASK_LABELS[t])
    add("S1", "tasks_total", _l("Tasks"), "subtotal")
    for i, t in enumerate(("forest", "grain", "village"), start=1):
        add(f"C{i}", f"flags.{t}", _l("%(kind)s flags", kind=TASK_LABELS[t]))
    add("D1", "longest.track", _l("Longest track"))
    add("D2", "longest.stream", _l("Longest stream"))
    add("S2", "bonus_total", _l("Flags and longest"), "subtotal")
    for uid in sheet.get("unlocked", {}):
        add("E", f"unlocked.{uid}", component_name(uid))
    add("S3", "unlocked_total", _l("Unlocked components"), "subtotal")
    add("H", "total", _l("Total"), "total")
    return rows


def lookup(sheet: dict[str, Any], path: str) -> int | None:
    """``tasks.forest`` -> ``sheet["tasks"]["forest"]``; a dict with ``total`` gives it."""
    node: Any = sheet
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    if isinstance(node, dict):
        node = node.get("total")
    return int(node) if isinstance(node, int | float) else None


def duel_value(sheet: dict[str, Any], path: str) -> int | None:
    if path == "subtotal" and "subtotal" not in sheet:
        parts = [lookup(sheet, "tasks_total"), lookup(sheet, "bonus_total")]
        return sum(p for p in parts if p is not None) if any(
            p is not None for p in parts) else None
    return lookup(sheet, path)


DUEL_LINES: tuple[tuple[str, Any, str], ...] = (
    *((f"tasks.{t}", TASK_LABELS[t], "field") for t in (
        "forest", "grain", "village", "track", "stream", "wraparound", "double")),
    *((f"flags.{t}", _l("%(kind)s flags", kind=TASK_LABELS[t]), "field")
      for t in ("forest", "grain", "village")),
    ("longest.track", _l("Longest track"), "field"),
    ("longest.stream", _l("Longest stream"), "field"),
    ("subtotal", _l("Subtotal"), "subtotal"),
    ("module1", _l("Module 1: task cards"), "field"),
    ("module2", _l("Module 2: points of interest"), "field"),
    ("total", _l("Total"), "total"),
)


def duel_rows(sheet: dict[str, Any]) -> list[DuelRow]:
    players: dict[str, dict[str, Any]] = sheet.get("players", {})
    rows = []
    for path, label, kind in DUEL_LINES:
        cells = []
        for p in players.values():
            ex = p.get("explanations", {})
            explanation = ex.get(path) or ex.get(f"{path}.total")
            cells.append(Cell(duel_value(p, path), explanation))
        rows.append(DuelRow(label, cells, kind))
    return rows


def warnings_of(sheet: dict[str, Any]) -> list[dict[str, Any]]:
    """The sheet's warnings, and each duel player's (named) not already among them."""
    out: list[dict[str, Any]] = list(sheet.get("warnings", []))
    seen = {(w.get("line"), w.get("text")) for w in out}
    for name, p in sheet.get("players", {}).items():
        for w in p.get("warnings", []):
            if (w.get("line"), w.get("text")) not in seen:
                seen.add((w.get("line"), w.get("text")))
                out.append(dict(w, player=name))
    return out



def path_label(path: str) -> str:
    """A sheet field path (``tasks.forest``, ``module1.large-forest``, ``unlocked.circus``)
    as the name of its row, in the player's language."""
    from companion.web.names import card_name, special_name

    fixed: dict[str, Any] = {
        "tasks_total": _l("Tasks"), "longest.track": _l("Longest track"),
        "longest.stream": _l("Longest stream"), "bonus_total": _l("Flags and longest"),
        "unlocked_total": _l("Unlocked components"), "total": _l("Total"),
        "subtotal": _l("Subtotal"), "module1.total": _l("Module 1: task cards"),
        "module2.total": _l("Module 2: points of interest"),
        "module2.points_of_interest": _l("Module 2: points of interest"),
    }
    if path in fixed:
        return str(fixed[path])
    head, _sep, tail = path.partition(".")
    if head == "tasks" and tail in TASK_LABELS:
        return str(TASK_LABELS[tail])
    if head == "flags" and tail in TASK_LABELS:
        return str(_l("%(kind)s flags", kind=TASK_LABELS[tail]))
    if head == "module1":
        return card_name(tail)
    if head in ("module2", "unlocked"):
        return component_name(tail) if head == "unlocked" else special_name(tail)
    return special_name(path)
