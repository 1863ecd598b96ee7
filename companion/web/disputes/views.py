"""The engine's answer to a dispute at the table, as plain data for the template.

Representation: ``board_at(record, player, turn)`` is the landscape of ``player`` after
``turn`` placements (all when None). ``rule_on(board, game, at, code, rotation, task)``
asks the engine about one proposed placement and returns a ``Ruling``: the placement
line, whether it is legal and the rule it breaks (``Board.why_illegal``), the markers
that would complete or fail (``MarkerChange``: a ``push`` / inspect / ``pop``, the board
is left unchanged), those still open, and the legal rotations of that tile on that hex.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.rules import Board, Hex, Record, parse_placement, replay, rotate
from companion.web.names import task_name
from companion.web.reasons import say


@dataclass
class MarkerChange:
    task: str
    at: str
    state: str
    reason: str
    new: bool = False


@dataclass
class Ruling:
    placement: str
    legal: bool
    reason: str | None
    changes: list[MarkerChange] = field(default_factory=list)
    still_active: list[MarkerChange] = field(default_factory=list)
    legal_rotations: list[int] = field(default_factory=list)


def board_at(record: Record, player: str | None, turn: int | None) -> Board:
    """The landscape of ``player`` after ``turn`` placements (all when None)."""
    game = replay(record)
    board = game.boards[player] if player in game.boards else game.board
    if turn is not None:
        while len(board.history) > max(turn, 0):
            board.pop()
    return board


def rule_on(board: Board, game: str, at: Hex, code: str, rotation: int,
            task: str | None) -> Ruling:
    """The engine's answer for one proposed placement (``board`` is left unchanged)."""
    text = f"{at.q} {at.r} {rotate(code, rotation)}" + (f" task={task}" if task else "")
    placement = parse_placement(text, game)
    base = placement.moved(at, code.upper())
    legal_rotations = [k for k in distinct_rotations(base.code)
                       if board.why_illegal(base.moved(at, rotate(base.code, k))) is None]
    why = board.illegal_reason(placement)
    reason = say(why) if why is not None else None
    ruling = Ruling(text, reason is None, reason, legal_rotations=legal_rotations)
    if reason is not None:
        return ruling
    before = {m.index: m.state for m in board.markers}
    board.push(placement)
    try:
        for m in board.markers:
            new = m.index not in before
            if m.state != "active" and (new or before[m.index] == "active"):
                ruling.changes.append(MarkerChange(task_name(m.task.text()), str(m.at),
                                                   m.state, say(m.why), new))
            elif m.state == "active":
                ruling.still_active.append(MarkerChange(
                    task_name(m.task.text()), str(m.at), "active", say(board.marker_state(m)[1]),
                    new))
    finally:
        board.pop()
    return ruling


def distinct_rotations(code: str) -> list[int]:
    """The rotation steps giving different codes (``GGGGGG`` has only 0)."""
    seen: dict[str, int] = {}
    for k in range(6):
        seen.setdefault(rotate(code, k), k)
    return sorted(seen.values())
