"""Duel warnings that compare the landscapes turn by turn (rules.md sections 3 and 4).

Representation: every function returns ``{player: [Warning, ...]}``; each warning
names that player's record line. The turn's tile of a section is its first
placement of that turn (a Module 2 special tile shares the turn and is not
compared). Checks: the same tile in every landscape each turn (codes compared up
to rotation, task tile or not), the reveal order (a task tile while any player
has fewer than 3 active markers, else a landscape tile; the first 3 turns reveal
task tiles; 42 landscape and 27 task tiles per player), and the marker-pool
warnings of ``companion.rules.game`` sorted to the player whose line they name.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.rules.game import DUEL_LANDSCAPE, DUEL_TASK_TILES, Game, Step, Warning
from companion.rules.notation import Placement
from companion.rules.tiles import canonical

FIRST_TASK_TURNS = 3
MIN_ACTIVE = 3


def turn_steps(steps: list[Step]) -> dict[int, Step]:
    """The first step (the turn's tile) of every turn of one section."""
    out: dict[int, Step] = {}
    for s in steps:
        out.setdefault(s.turn, s)
    return out


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
                out[me].append(Warning(p.line, turn, f"{me} placed {_kind(p)} {p.code}, {other} "
                                                     f"{_kind(q)} {q.code} (line {q.line}): every "
                                                     f"player places the same tile each turn"))
        if len(mine) != len(ref):
            short, long_ = (who, ref_name) if len(mine) < len(ref) else (ref_name, who)
            out[short].append(Warning(None, None, f"{short} played {len(firsts[short])} turns, "
                                                  f"{long_} {len(firsts[long_])}"))
    return out


def reveal_warnings(game: Game) -> dict[str, list[Warning]]:
    """Reveal-order warnings naming the turn (never a refusal). An end-of-game entry
    (a ``completed:`` header) lists the final map in any order: none."""
    firsts = {str(w): turn_steps(s) for w, s in game.steps.items()}
    out: dict[str, list[Warning]] = {w: [] for w in firsts}
    if game.record.completed:
        return out
    landscape = dict.fromkeys(firsts, 0)
    tasks = dict.fromkeys(firsts, 0)
    changed_turns = {s.turn for steps in game.steps.values() for s in steps if s.changed}
    last = max((max(f, default=0) for f in firsts.values()), default=0)
    for turn in range(1, last + 1):
        here = {w: f[turn] for w, f in firsts.items() if turn in f}
        low = {w: s.active_before for w, s in here.items() if s.active_before < MIN_ACTIVE}
        for who, step in here.items():
            expected, why = _expected(turn, low, landscape[who], tasks[who], turn - 1 in
                                      changed_turns, here)
            p = step.placement
            is_task = p.task is not None
            if expected == "end":
                out[who].append(Warning(p.line, turn, f"{who}: the game was over: no landscape "
                                                      f"tile was left and the last one changed "
                                                      f"no task"))
            elif (expected == "task") != is_task:
                out[who].append(Warning(p.line, turn, f"{who}: a {expected} tile should have "
                                                      f"been revealed ({why})"))
            landscape[who] += not is_task
            tasks[who] += is_task
    for who, n in landscape.items():
        if n > DUEL_LANDSCAPE:
            out[who].append(Warning(None, None, f"{who}: {n} landscape tiles placed; a player "
                                                f"has {DUEL_LANDSCAPE} for a game"))
    return out


def _expected(turn: int, low: Mapping[str, int], landscape: int, tasks: int,
              last_changed: bool, here: Mapping[str, Step]) -> tuple[str, str]:
    if turn <= FIRST_TASK_TURNS:
        return "task", f"one of the first {FIRST_TASK_TURNS} turns"
    if landscape >= DUEL_LANDSCAPE:
        return ("task", "the last landscape tile changed a task") if last_changed else (
            "end", "")
    if low and tasks < DUEL_TASK_TILES:
        return "task", ", ".join(f"{w} has {n} active marker{'' if n == 1 else 's'}"
                                for w, n in low.items())
    counts = ", ".join(f"{w} {s.active_before}" for w, s in here.items())
    return "landscape", f"every player has {MIN_ACTIVE}+ active markers: {counts}"


def pool_by_player(game: Game) -> tuple[dict[str, list[Warning]], list[Warning]]:
    """The game's marker-pool warnings, each given to the player whose section holds
    its line (or whose name starts it); the rest concern the whole game."""
    sections = [s for s in game.record.sections if s.player is not None]
    out: dict[str, list[Warning]] = {s.player: [] for s in sections if s.player}
    lines = {p.line: s.player for s in sections for p in s.placements}
    rest: list[Warning] = []
    for w in game.warnings:
        who = lines.get(w.line) or next(
            (s.player for s in sections if s.player and w.text.startswith(f"{s.player}: ")),
            None)
        (out[who] if who else rest).append(w)
    return out, rest


def merge(*parts: Mapping[str, list[Warning]]) -> dict[str, list[Warning]]:
    out: dict[str, list[Warning]] = {}
    for part in parts:
        for who, ws in part.items():
            out.setdefault(who, []).extend(ws)
    return out
