"""The engine's answer to a dispute at the table, as plain data for the template.

Representation: ``board_at(record, player, turn)`` is the landscape of ``player`` after
``turn`` placements (all when None). ``rule_on(board, game, at, code, rotation, task)``
asks the engine about one proposed placement and returns a ``Ruling``: the placement
line, whether it is legal and the rule it breaks (``Board.why_illegal``), the markers
that would complete or fail (``MarkerChange``: a ``push`` / inspect / ``pop``, the board
is left unchanged), those still open, the legal rotations of that tile on that hex and,
given the record, the box flags the placement would raise (``placement_flags``: a tile
the box holds no more copies of, a marker not in the pool).

The page's question is its URL (``Question.parse``): ``at=Q,R`` the free hex (or the
older ``q`` / ``r``), ``code`` the tile as listed (six letters, before turning),
``rotation`` (steps clockwise; missing: the best fitting rotation), ``task``, ``turn``
and ``player``. ``picks(position, board, at)`` are the recorder's picker for that hex
(``companion.web.play.views.picker``: the tiles that fit, best edge match first, tiles
already on the map left out; in the Duel the recent patterns); ``rotations`` the
rotate buttons of the chosen tile (``RotationChoice``, legal ones marked).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from companion.rules import (
    Board,
    BoxFlag,
    Hex,
    Position,
    Record,
    fit,
    parse_placement,
    placement_flags,
    replay,
    rotate,
)
from companion.web.forms import whole
from companion.web.names import task_name
from companion.web.play.views import Pick, parse_hex, picker
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
    flags: list[BoxFlag] = field(default_factory=list)


def board_at(record: Record, player: str | None, turn: int | None) -> Board:
    """The landscape of ``player`` after ``turn`` placements (all when None)."""
    game = replay(record)
    return back_to(game.boards[player] if player in game.boards else game.board, turn)


def back_to(board: Board, turn: int | None) -> Board:
    """``board`` (a fresh replay's, it is changed) after ``turn`` placements."""
    if turn is not None:
        while len(board.history) > max(turn, 0):
            board.pop()
    return board


def rule_on(board: Board, game: str, at: Hex, code: str, rotation: int,
            task: str | None, record: Record | None = None) -> Ruling:
    """The engine's answer for one proposed placement (``board`` is left unchanged)."""
    text = f"{at.q} {at.r} {rotate(code, rotation)}" + (f" task={task}" if task else "")
    placement = parse_placement(text, game)
    base = placement.moved(at, code.upper())
    legal_rotations = [k for k in distinct_rotations(base.code)
                       if board.why_illegal(base.moved(at, rotate(base.code, k))) is None]
    why = board.illegal_reason(placement)
    reason = say(why) if why is not None else None
    ruling = Ruling(text, reason is None, reason, legal_rotations=legal_rotations)
    if record is not None and at not in board.tiles:
        ruling.flags = placement_flags(record, board, placement)
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


@dataclass
class Question:
    """The dispute page's question, read from its URL (see the module docstring)."""

    at: Hex | None = None
    code: str = ""
    rotation: int | None = None
    task: str = ""
    turn: int | None = None
    player: str = ""
    bad_at: bool = False

    @classmethod
    def parse(cls, args: Mapping[str, str]) -> Question:
        at = parse_hex(args.get("at"))
        bad = bool(args.get("at")) and at is None
        if at is None and ("q" in args or "r" in args):
            q, r = whole(args.get("q")), whole(args.get("r"))
            at = Hex(q, r) if q is not None and r is not None else None
            bad = at is None
        code = (args.get("code") or args.get("tile") or "").strip().upper()[:12]
        rotation = whole(args.get("rotation") if "rotation" in args else args.get("rot"))
        return cls(at, code, rotation, args.get("task", "").strip()[:40],
                   whole(args.get("turn")), (args.get("player") or "")[:80], bad)

    def query(self, **changes: Any) -> dict[str, Any]:
        """The URL query of this question with ``changes`` (None drops a key)."""
        out: dict[str, Any] = {
            "player": self.player, "turn": self.turn,
            "at": f"{self.at.q},{self.at.r}" if self.at else None,
            "code": self.code, "rotation": self.rotation, "task": self.task,
        }
        out.update(changes)
        return {k: v for k, v in out.items() if v is not None and v != ""}


def question_link(base: str, question: Question) -> Callable[..., str]:
    """``link(**changes)``: the dispute page with the question's query changed."""

    def link(**changes: Any) -> str:
        query = urlencode(question.query(**changes))
        return f"{base}?{query}" if query else base

    return link


def hex_prefix(base: str, question: Question) -> str:
    """The page's address ending in ``at=`` (the map's free hexes append ``Q,R``): the
    same tile asked on another hex, in its best rotation there."""
    query = urlencode(question.query(at=None, rotation=None))
    return f"{base}?{query}&at=" if query else f"{base}?at="


def picks(position: Position, board: Board, at: Hex) -> list[Pick]:
    """The recorder's picker on ``at`` (``companion.web.play.views.picker``)."""
    if at in board.tiles:
        return []
    return picker(position, board, at)


def best_rotation(board: Board, at: Hex, code: str) -> int:
    """The rotation of ``code`` meeting most neighbour edges on ``at``; 0 when none fits."""
    found = fit(board, at, code) if at not in board.tiles else None
    return found.rotation if found is not None else 0


@dataclass(frozen=True)
class RotationChoice:
    steps: int
    code: str
    legal: bool
    current: bool


def rotations(code: str, current: int, legal: list[int]) -> list[RotationChoice]:
    """One button per distinct rotation of ``code`` (the legal ones marked)."""
    now = rotate(code, current)
    return [RotationChoice(k, rotate(code, k), k in legal, rotate(code, k) == now)
            for k in distinct_rotations(code)]
