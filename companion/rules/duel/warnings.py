"""Duel warnings that compare the landscapes turn by turn (rules.md sections 3 and 4).

Representation: every function returns ``{player: [Warning, ...]}``; each warning
names that player's record line. The turn's tile of a section is its first
placement of that turn (``duel.turns.turn_steps``; a Module 2 special tile shares
the turn and is not compared). Checks: the same tile in every landscape each turn
(codes compared up to rotation, task tile or not), and the marker-pool warnings of
``companion.rules.game`` sorted to the player whose line they name. The reveal
order is ``duel.turns``.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules.duel.turns import turn_steps
from companion.rules.game import Game, Warning
from companion.rules.notation import Placement
from companion.rules.reasons import Reason
from companion.rules.tiles import canonical


def _kind(p: Placement) -> str:
    return "task tile" if p.task is not None else "landscape tile"


def tile_warnings(game: Game) -> dict[str, list[Warning]]:
    """Warn, turn by turn, where a section's tile differs from the first section's."""
    firsts = {str(w): turn_steps(s) for w, s in game.steps.items()}
    out: dict[str, list[Warning]] = {w: [] for w in firsts}
    players = list(firsts)
    if len(players) < 2:
        return out
    ref_name = players[0]
    ref = firsts[ref_name]
    for who in players[1:]:
        mine = firsts[who]
        for turn in sorted(set(ref) & set(mine)):
            a, b = ref[turn].placement, mine[turn].placement
            if canonical(a.code) == canonical(b.code) and (a.task is None) == (b.task is None):
                continue
            for me, p, other, q in ((who, b, ref_name, a), (ref_name, a, who, b)):
                out[me].append(Warning(p.line, turn, Reason("tiles-differ", {
                    "who": me, "kind": _kind(p), "code": p.code, "other": other,
                    "other_kind": _kind(q), "other_code": q.code, "other_line": q.line})))
        if len(mine) != len(ref):
            short, long_ = (who, ref_name) if len(mine) < len(ref) else (ref_name, who)
            out[short].append(Warning(None, None, Reason("turn-counts-differ", {
                "short": short, "short_turns": len(firsts[short]), "long": long_,
                "long_turns": len(firsts[long_])})))
    return out


def pool_by_player(game: Game) -> tuple[dict[str, list[Warning]], list[Warning]]:
    """The game's marker-pool warnings, each given to the player whose section holds
    its line (or whom the warning names, parameter ``who``); the rest concern the whole
    game."""
    sections = [s for s in game.record.sections if s.player is not None]
    out: dict[str, list[Warning]] = {s.player: [] for s in sections if s.player}
    lines = {p.line: s.player for s in sections for p in s.placements}
    rest: list[Warning] = []
    for w in game.warnings:
        who = lines.get(w.line) or w.why.params.get("who")
        (out[who] if who in out else rest).append(w)
    return out, rest


def merge(*parts: Mapping[str, list[Warning]]) -> dict[str, list[Warning]]:
    out: dict[str, list[Warning]] = {}
    for part in parts:
        for who, ws in part.items():
            out.setdefault(who, []).extend(ws)
    return out
