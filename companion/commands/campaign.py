"""``companion campaign FILE [--json]``: replay a campaign record and print its sheet.

Plain text is a sheet for people (games, crosses, track, what is unlocked, the
``unlocked:`` header for the next game record); ``--json`` prints the object of
notation.md §4 (plus extra keys). A refused record prints ``line N: reason`` on standard
error and exits with status 1.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.commands.console import InputError, read_text, refuse
from companion.rules import (
    HEX_BY_ID,
    PATH_BY_ID,
    PATHS,
    CampaignState,
    RulesError,
    load_campaign,
    setup_reminders,
    unlocked_header,
)


def _circles(state: CampaignState, path_id: str, circles: int, heart: int | None) -> str:
    crossed = set(state.crossed_circles(path_id))
    out = []
    for i in range(circles):
        if i == heart:
            out.append("H" if i in crossed else "h")
        else:
            out.append("x" if i in crossed else "o")
    return "".join(out)


def format_sheet(state: CampaignState) -> str:
    """The campaign sheet as plain text."""
    lines: list[str] = []
    if state.name:
        lines.append(f"Campaign: {state.name}")
    if state.players:
        lines.append("Players: " + ", ".join(state.players))
    lines.append("")
    lines.append(f"{'game':>4}  {'score':>5}  {'title':<16}{'crosses':>7}  {'spent':>5}  lost")
    last = len(state.games) - 1
    for i, g in enumerate(state.games):
        lost = "" if i == last else str(g.unspent)
        lines.append(
            f"{g.number:>4}  {g.score:>5}  {g.title:<16}{g.crosses:>7}  {g.spent:>5}  {lost:>4}"
        )
    lines.append("")
    lines.append(
        f"Crosses: earned {state.crosses_earned}, spent {state.crosses_spent}, "
        f"lost {state.crosses_lost}, available {state.crosses_available}"
    )
    reached = ", ".join(HEX_BY_ID[h].name for h in state.reached) or "-"
    lines.append(f"Reached: {reached}")
    lines.append(f"Hearts: {state.hearts}")
    lines.append("Unlocked: " + (", ".join(state.unlocked()) or "-"))
    lines.append("Achieved: " + (", ".join(state.achieved) or "-"))
    lines.append("Next game record header: unlocked: " + (unlocked_header(state) or "-"))
    reminders = setup_reminders(state)
    if reminders:
        lines.append("At setup:")
        lines.extend(f"  {r}" for r in reminders)
    lines.append("")
    lines.append("Advancement track (x crossed, o open, h heart circle, H crossed heart):")
    width = max(len(p.id) for p in PATHS)
    for p in PATHS:
        lines.append(f"  {p.id:<{width}}  {_circles(state, p.id, p.circles, p.heart)}")
    legal = state.legal_spends()
    if legal:
        lines.append("")
        lines.append(
            "Can cross now: "
            + ", ".join(
                c.path if c.from_hex == PATH_BY_ID[c.path].low else f"{c.path} from {c.from_hex}"
                for c in legal
            )
        )
    for warning in state.warnings:
        lines.append(f"warning: {warning}")
    return "\n".join(lines) + "\n"


NAME = "campaign"
HELP = "replay a campaign record and print the campaign sheet"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file")
    parser.add_argument("--json", action="store_true", help="print the campaign sheet as JSON")


def run(args: argparse.Namespace) -> int:
    try:
        state = load_campaign(read_text(args.file))
    except InputError as err:
        return refuse(str(err))
    except RulesError as err:
        return refuse(str(err))
    if getattr(args, "json", False):
        print(json.dumps(state.to_json(), ensure_ascii=False))
    else:
        sys.stdout.write(format_sheet(state))
    return 0
