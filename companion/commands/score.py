"""``companion score RECORD [--json] [--explain]``: validate and score a record.

Prints the sheet laid out like the paper pad (the Duel: a column per player), or with
``--json`` the object of notation.md section 6, or with ``--explain`` the sheet and every
number in plain words. Exit status 0 on success; 1 with one line ``line N: reason`` on
standard error for an unreadable or illegal record (notation.md section 5).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.commands.console import InputError, read_text, refuse
from companion.rules import RulesError, explain_lines, score_text

NAME = "score"
HELP = "validate and score a record (file path or - for stdin)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record")
    parser.add_argument("--json", action="store_true", help="print the sheet as JSON")
    parser.add_argument("--explain", action="store_true",
                        help="explain every number in plain words")


def run(args: argparse.Namespace) -> int:
    try:
        sheet = score_text(read_text(args.record))
    except InputError as err:
        return refuse(f"companion: {err}")
    except RulesError as err:
        return refuse(str(err))
    if args.json:
        print(json.dumps(sheet, indent=2))
    elif args.explain:
        print(format_sheet(sheet))
        print()
        print("\n".join(explain_lines_any(sheet, explain_lines)))
    else:
        print(format_sheet(sheet))
    return 0


def explain_lines_any(sheet: dict[str, Any], explain: Any) -> list[str]:
    if sheet["game"] == "duel":
        out: list[str] = []
        for name, player in sheet["players"].items():
            out.append(f"== {name}")
            out.extend(explain(player))
        return out
    lines: list[str] = explain(sheet)
    return lines


def format_sheet(sheet: dict[str, Any]) -> str:
    """The sheet in plain text, laid out like the paper pad (the Duel: a column per player)."""
    if sheet["game"] == "duel":
        return _duel_lines(sheet)
    return _board_lines(sheet)


def _duel_lines(sheet: dict[str, Any]) -> str:
    players: dict[str, dict[str, Any]] = sheet["players"]
    names = list(players)
    rows: list[tuple[str, list[Any]]] = []
    for kind in ("forest", "grain", "village", "track", "stream", "wraparound", "double"):
        rows.append((f"{kind} tasks", [p["tasks"].get(kind, 0) for p in players.values()]))
    for kind, label in (("forest", "green flags"), ("grain", "yellow flags"),
                        ("village", "red flags")):
        rows.append((label, [p["flags"][kind] for p in players.values()]))
    rows.append(("longest track", [p["longest"]["track"] for p in players.values()]))
    rows.append(("longest stream", [p["longest"]["stream"] for p in players.values()]))
    rows.append(("subtotal", [p.get("subtotal", p["tasks_total"] + p["bonus_total"])
                              for p in players.values()]))
    for module in ("module1", "module2"):
        keys = [k for k, v in next(iter(players.values()))[module].items()
                if k != "total" and isinstance(v, int)]
        for key in keys:
            rows.append((f"  {key}", [p[module].get(key, 0) for p in players.values()]))
        rows.append((module.replace("module", "Module "),
                     [p[module]["total"] for p in players.values()]))
    rows.append(("total", [p["total"] for p in players.values()]))
    width = max(len(r[0]) for r in rows)
    cols = [max(len(n), 4) for n in names]
    lines = [" " * width + "  " + "  ".join(n.rjust(c) for n, c in zip(names, cols, strict=True))]
    for label, values in rows:
        lines.append(label.ljust(width) + "  " + "  ".join(
            str(v).rjust(c) for v, c in zip(values, cols, strict=True)))
    winner = sheet.get("winner")
    shared = sheet.get("shared_winners") or []
    lines.append("")
    lines.append(f"Winner: {winner}" if winner else f"Shared win: {', '.join(shared)}")
    for w in sheet.get("warnings", []):
        lines.append(f"warning: {_warning_text(w)}")
    for p in players.values():
        lines.extend(f"warning: {_warning_text(w)}" for w in p.get("warnings", []))
    return "\n".join(lines)


def _board_lines(s: dict[str, Any]) -> str:
    t, f, lg = s["tasks"], s["flags"], s["longest"]
    rows = [
        ("B1 forest tasks", t["forest"]), ("B2 grain tasks", t["grain"]),
        ("B3 village tasks", t["village"]), ("B4 track tasks", t["track"]),
        ("B5 stream tasks", t["stream"]),
    ]
    for extra in ("wraparound", "double"):
        if extra in t:
            rows.append((f"   {extra} tasks", t[extra]))
    rows += [
        ("S1 tasks", s["tasks_total"]),
        ("C1 green flags", f["forest"]), ("C2 yellow flags", f["grain"]),
        ("C3 red flags", f["village"]), ("D1 longest track", lg["track"]),
        ("D2 longest stream", lg["stream"]), ("S2 flags and longest", s["bonus_total"]),
    ]
    for uid, v in s.get("unlocked", {}).items():
        rows.append((f"E  {uid}", v))
    if "unlocked_total" in s:
        rows.append(("S3 unlocked", s["unlocked_total"]))
    for mod in ("module1", "module2"):
        if mod in s:
            rows.append((f"   {mod.replace('module', 'Module ')}", s[mod]["total"]))
    rows.append(("H  total", s["total"]))
    width = max(len(r[0]) for r in rows)
    lines = [f"{label.ljust(width)}  {value:>4}" for label, value in rows]
    for w in s.get("warnings", []):
        lines.append(f"warning: {_warning_text(w)}")
    return "\n".join(lines)


def _warning_text(w: dict[str, Any]) -> str:
    where = []
    if w.get("line") is not None:
        where.append(f"line {w['line']}")
    if w.get("turn") is not None:
        where.append(f"turn {w['turn']}")
    return (", ".join(where) + ": " if where else "") + w["text"]
