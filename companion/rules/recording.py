"""Recording a game: every change is a function from record text to record text.

Representation: the single source of truth for a game is its record text
(notation.md section 3) plus a version number kept by the store. This module
never stores anything: ``place`` / ``undo`` / ``redo`` / ``add_completed`` take
the current text and return the new text (written back with ``write_record``,
so it is always canonical). ``Position`` is the replayed text (record, boards)
that the views read. A redo entry is ``RedoEntry(player, line)``: the placement
line an undo took off, with the duel section it came from (``None`` in the
board game).

A refusal is the engine's ``Reason`` (``illegal_now``); ``place`` raises it wrapped
as ``rule-broken`` (the reason with the rule it breaks, ``explain_illegal``): callers
read the codes, never the words. The marker pools are ``companion.rules.pools``;
whose turn it is in a duel, ``companion.rules.duel.turns``.

Chronological order in a duel: both players place the same tile in a turn,
the first section first. So the last placement made is the last line of the
section with the most turns (on a tie, the later section).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import NamedTuple

from companion.rules.board import Board
from companion.rules.errors import IllegalPlacementError, NotationError
from companion.rules.game import Game, placement_reason, replay
from companion.rules.notation import (
    DUEL_SPECIALS,
    Placement,
    Record,
    Section,
    format_placement,
    parse_placement,
    parse_record,
    parse_task,
    write_record,
)
from companion.rules.pools import markers_left
from companion.rules.reasons import Reason, render


class RedoEntry(NamedTuple):
    """A placement line taken off by undo, with its duel section (None: board game)."""

    player: str | None
    line: str


@dataclass
class Position:
    """A record text replayed: what every view of a game reads."""

    text: str
    record: Record
    game: Game

    @property
    def is_duel(self) -> bool:
        return self.record.is_duel

    @property
    def players(self) -> list[str | None]:
        return [s.player for s in self.record.sections] or [None]

    def board(self, player: str | None = None) -> Board:
        if player is None or player not in self.game.boards:
            return self.game.board
        return self.game.boards[player]


_CACHE = threading.local()
CACHE_SIZE = 16


def load_position(text: str) -> Position:
    """Parse and replay ``text``; raise ``RulesError`` naming the line when it is bad.

    Replays are kept per thread (the last ``CACHE_SIZE`` texts), so one request
    never shares a board with another; callers treat a Position as read-only
    (``Board.why_illegal`` pushes and pops, leaving it as it was). Changes parse
    their own fresh ``Record``.
    """
    cache: OrderedDict[str, Position] | None = getattr(_CACHE, "positions", None)
    if cache is None:
        cache = _CACHE.positions = OrderedDict()
    found = cache.get(text)
    if found is not None:
        cache.move_to_end(text)
        return found
    record = parse_record(text)
    position = Position(text, record, replay(record))
    cache[text] = position
    if len(cache) > CACHE_SIZE:
        cache.popitem(last=False)
    return position


def section_of(record: Record, player: str | None) -> Section:
    if not record.sections:
        record.sections.append(Section(None))
    if player is None:
        return record.sections[0]
    for s in record.sections:
        if s.player == player:
            return s
    raise NotationError(Reason("no-such-player", {"player": player}))


# ------------------------------------------------------------------ placing
def explain_illegal(why: Reason) -> str:
    """A refusal for the players: the reason with the edge named in words and the rule it
    breaks (code ``rule-broken``, rendered by ``reasons.render``)."""
    return render(Reason("rule-broken", {"why": why}))


def build_placement(game: str, q: int, r: int, code: str, attributes: dict[str, str]) -> Placement:
    """A placement from form values; ``NotationError`` (one line) when a value is bad.

    ``attributes`` holds notation attribute values by name (``task``, ``flag``,
    ``special``, ``sheep``, ``crossing``; bare ones ``heart`` ... with any true value).
    """
    tokens = [str(q), str(r), code.strip().upper()]
    for key in ("task", "flag", "special", "sheep", "crossing"):
        value = attributes.get(key, "").strip()
        if value and value != "0":
            tokens.append(f"{key}={value}")
    for key in ("heart", "golden-heart", "camera", "balloon", "mill"):
        if attributes.get(key):
            tokens.append(key)
    return parse_placement(" ".join(tokens), game)


def is_extra_tile(record: Record, p: Placement, board: Board) -> bool:
    """A duel Module 2 special tile belongs to the turn of the line above it."""
    return record.is_duel and p.special in DUEL_SPECIALS and bool(board.turns)


def illegal_now(position: Position, player: str | None, p: Placement) -> Reason | None:
    """Why ``p`` may not go on ``player``'s board now (every placement rule), or None."""
    return placement_reason(position.record, position.board(player), p)


def check_placement(position: Position, player: str | None, p: Placement) -> str | None:
    """Why ``p`` may not go on ``player``'s board now, explained (``explain_illegal``)."""
    why = illegal_now(position, player, p)
    return None if why is None else explain_illegal(why)


def place(text: str, player: str | None, p: Placement) -> str:
    """The record with ``p`` appended to ``player``'s section, after every rule check."""
    position = load_position(text)
    why = illegal_now(position, player, p)
    if why is not None:
        raise IllegalPlacementError(Reason("rule-broken", {"why": why}))
    record = parse_record(text)
    section_of(record, player).placements.append(replace(p, line=None))
    return write_record(record)


def last_section(record: Record, game: Game) -> Section | None:
    """The section holding the most recent placement (see the module docstring)."""
    best: Section | None = None
    best_turn = -1
    for s in record.sections:
        if not s.placements:
            continue
        turn = game.boards[s.player].turn
        if turn >= best_turn:
            best, best_turn = s, turn
    return best


def undo(text: str) -> tuple[str, RedoEntry]:
    """Take the most recent placement off; return the new text and what to redo."""
    position = load_position(text)
    last = last_section(position.record, position.game)
    if last is None:
        raise NotationError(Reason("nothing-to-undo", {}))
    record = parse_record(text)
    section = section_of(record, last.player)
    p = section.placements.pop()
    return write_record(record), RedoEntry(section.player, format_placement(p))


def redo(text: str, entry: RedoEntry) -> str:
    """Put an undone placement back (checked again: the map may have changed)."""
    p = parse_placement(entry.line, load_position(text).record.game)
    return place(text, entry.player, p)


# ------------------------------------------------------- end-of-game entry
def add_completed(text: str, kind: str, value: int) -> str:
    """Append ``kind/value`` to the ``completed:`` header (refused when the box has
    no such marker left, so no impossible total can be entered)."""
    record = parse_record(text)
    spec = parse_task(f"{kind}/{value}", record.game)
    if markers_left(record, spec.type, value) <= 0:
        raise NotationError(Reason("marker-not-left", {"type": spec.type, "value": value}))
    record.completed.append(spec)
    out = write_record(record)
    parse_record(out)  # the header's own checks (marker values)
    return out


def remove_completed(text: str, index: int) -> str:
    record = parse_record(text)
    if not 0 <= index < len(record.completed):
        raise NotationError(Reason("completed-not-listed", {}))
    del record.completed[index]
    return write_record(record)


def completed_total(record: Record) -> int:
    return sum(t.value or 0 for t in record.completed)
