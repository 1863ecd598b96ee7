"""The Duel's turn order (rules.md sections 4 and 7): whose turn, and the reveal order.

Representation: a section's turns are read off its replayed ``Step`` list: the
turn's tile is the first placement of that turn (``turn_steps``; a Module 2 special
tile shares the turn of the line above it). ``duel_turn(game)`` names the player to
place next (the one with fewer turns, the first on a tie) and the tile the other
player placed that turn. ``reveal_warnings(game)`` checks the reveal order: the
first 3 turns reveal task tiles, afterwards a task tile while any player has fewer
than 3 active markers (and task tiles are left), else a landscape tile; 42 landscape
and 27 task tiles per player; after the last landscape tile, task tiles go on only
when it completed or failed a task, until both landscapes hold 3 active markers (or
the task tiles run out). Every warning names the turn (a log is never refused for
its order).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from companion.rules.game import (
    DUEL_LANDSCAPE,
    DUEL_TASK_TILES,
    FIRST_TASK_TURNS,
    MIN_ACTIVE,
    Game,
    Step,
    Warning,
)
from companion.rules.notation import DUEL_SPECIALS, Placement
from companion.rules.reasons import Reason


def turn_steps(steps: list[Step]) -> dict[int, Step]:
    """The first step (the turn's tile) of every turn of one section."""
    out: dict[int, Step] = {}
    for s in steps:
        out.setdefault(s.turn, s)
    return out


@dataclass(frozen=True)
class Turn:
    """Whose turn it is in a duel and the tile the other player placed this turn."""

    player: str | None
    number: int
    offered: Placement | None


def duel_turn(game: Game) -> Turn:
    """The player to place next: the one with fewer turns (the first on a tie); the
    tile offered is the other player's placement of that turn, if any."""
    record = game.record
    if not record.is_duel or not record.sections:
        return Turn(None, game.board.turn + 1, None)
    turns = [(game.boards[s.player].turn, i, s) for i, s in enumerate(record.sections)]
    turn, _, section = min(turns, key=lambda t: (t[0], t[1]))
    number = turn + 1
    offered: Placement | None = None
    for other_turn, _, other in turns:
        if other is section or other_turn < number:
            continue
        board = game.boards[other.player]
        for p, t in zip(board.history, board.turns, strict=True):
            if t == number and p.special not in DUEL_SPECIALS:
                offered = p
                break
        if offered is not None:
            break
    return Turn(section.player, number, offered)


def reveal_warnings(game: Game) -> dict[str, list[Warning]]:
    """Reveal-order warnings naming the turn (never a refusal). An end-of-game entry
    (a ``completed:`` header) lists the final map in any order: none.

    After a player's last landscape tile the game ends, unless that turn completed or
    failed a task: then task tiles go on while either player has fewer than 3 active
    markers and task tiles are left (rules.md section 4)."""
    firsts = {str(w): turn_steps(s) for w, s in game.steps.items()}
    out: dict[str, list[Warning]] = {w: [] for w in firsts}
    if game.record.completed:
        return out
    landscape = dict.fromkeys(firsts, 0)
    tasks = dict.fromkeys(firsts, 0)
    changed_turns = {s.turn for steps in game.steps.values() for s in steps if s.changed}
    last_landscape_turn: dict[str, int] = {}
    last = max((max(f, default=0) for f in firsts.values()), default=0)
    for turn in range(1, last + 1):
        here = {w: f[turn] for w, f in firsts.items() if turn in f}
        low = {w: s.active_before for w, s in here.items() if s.active_before < MIN_ACTIVE}
        for who, step in here.items():
            ending = last_landscape_turn.get(who)
            go_on = ending is not None and ending in changed_turns
            expected, why = _expected(turn, low, landscape[who], tasks[who], go_on, here)
            p = step.placement
            is_task = p.task is not None
            if expected == "end":
                out[who].append(Warning(p.line, turn, Reason("game-over", {"who": who})))
            elif (expected == "task") != is_task:
                code = "task-tile-expected" if expected == "task" else "landscape-tile-expected"
                out[who].append(Warning(p.line, turn, Reason(code, {"who": who, "why": why})))
            landscape[who] += not is_task
            tasks[who] += is_task
            if landscape[who] == DUEL_LANDSCAPE and not is_task:
                last_landscape_turn[who] = turn
    for who, n in landscape.items():
        if n > DUEL_LANDSCAPE:
            out[who].append(Warning(None, None, Reason("too-many-landscape", {
                "who": who, "placed": n, "limit": DUEL_LANDSCAPE})))
    return out


def _expected(turn: int, low: Mapping[str, int], landscape: int, tasks: int,
              go_on: bool, here: Mapping[str, Step]) -> tuple[str, Reason]:
    """The tile kind the reveal order expects this turn, and why."""
    if turn <= FIRST_TASK_TURNS:
        return "task", Reason("first-turns", {"turns": FIRST_TASK_TURNS})
    few = Reason("players-few-active", {"players": [(w, n) for w, n in low.items()]})
    if landscape >= DUEL_LANDSCAPE:
        if go_on and low and tasks < DUEL_TASK_TILES:
            return "task", Reason("last-landscape-changed", {"then": few})
        return "end", Reason("game-over", {})
    if low and tasks < DUEL_TASK_TILES:
        return "task", few
    if low:  # the task tiles ran out: landscape tiles only
        return "landscape", Reason("task-tiles-out", {"limit": DUEL_TASK_TILES})
    return "landscape", Reason("players-enough-active", {
        "minimum": MIN_ACTIVE, "players": [(w, s.active_before) for w, s in here.items()]})
