"""Replaying a record: one checked ``Board`` per landscape, plus warnings.

Representation: ``Game`` holds the parsed ``Record``, one ``Board`` per section
(keyed by player name; ``None`` in the board game) and a list of ``Warning``
values (line, turn, why: a ``Reason`` code) for things that never refuse a record:
reveal order (rules.md section 4), marker pool counts (section 3), R-10 hearts.

``replay`` raises ``IllegalPlacementError`` naming the record line at the first
illegal placement (``placement_reason``: the board's rules and where figures may
lie). An end-of-game entry (a board-game record with a ``completed:``
header) is a final map whose lines may come in any order: when they are not in a
connected order, it is replayed in one (``ordering.connected_order``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

from companion.rules.board import Board
from companion.rules.campaign.unlocks import RED_HEART, default_content
from companion.rules.errors import IllegalPlacementError, NotationError
from companion.rules.notation import (
    DUEL_SPECIALS,
    SCORE_ROW_ALIASES,
    SCORE_ROWS,
    Placement,
    Record,
    Section,
    TaskSpec,
    parse_record,
)
from companion.rules.ordering import connected_order, is_connected_order
from companion.rules.pools import marker_pool
from companion.rules.reasons import Reason, render

BOARD_GAME_LANDSCAPE = 45
BOARD_GAME_TASK_TILES = 25
DUEL_LANDSCAPE = 42
DUEL_TASK_TILES = 27
FIRST_TASK_TURNS = 3
"""Rules.md section 4: the first turns reveal task tiles ..."""
MIN_ACTIVE = 3
"""... then a task tile while fewer markers than this are active."""


@dataclass(frozen=True)
class Warning:
    """Something that never refuses a record: the record line and turn it names (either
    may be None) and why (a ``Reason`` code; ``text`` is its English sentence)."""

    line: int | None
    turn: int | None
    why: Reason

    @property
    def text(self) -> str:
        return render(self.why)

    @property
    def code(self) -> str:
        return self.why.code

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "turn": self.turn, "text": self.text, **self.why.to_json()}

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.turn is not None:
            where.append(f"turn {self.turn}")
        return (", ".join(where) + ": " if where else "") + self.text


@dataclass(frozen=True)
class Step:
    """One replayed placement: its turn, the markers active before it, and whether
    it completed or failed any marker."""

    placement: Placement
    turn: int
    active_before: int
    changed: bool


@dataclass
class Game:
    record: Record
    boards: dict[str | None, Board] = field(default_factory=dict)
    warnings: list[Warning] = field(default_factory=list)
    steps: dict[str | None, list[Step]] = field(default_factory=dict)

    @property
    def board(self) -> Board:
        """The first (in the board game, only) landscape."""
        return next(iter(self.boards.values()))


def replay(record: Record) -> Game:
    """Replay every section with all placement rules checked."""
    game = Game(record)
    check_unlocked(record)
    if not record.sections:
        record.sections.append(Section(None))
    keep_split = record.ruleset.on("R-1")
    for section in record.sections:
        board = Board()
        steps: list[Step] = []
        active = 0
        placements = section.placements
        if record.completed and not record.is_duel and not is_connected_order(placements):
            placements = connected_order(placements)
        for p in placements:
            if p.split and not keep_split:
                p = replace(p, split=None)
            same_turn = record.is_duel and p.special in DUEL_SPECIALS and bool(board.turns)
            markers_before = len(board.markers)
            why = placement_reason(record, board, p)
            if why is not None:
                raise IllegalPlacementError(why, p.line)
            board.push(p, same_turn=same_turn)
            if figure_warning(record, p):
                game.warnings.append(Warning(p.line, board.turn, Reason(
                    "heart-on-task-or-special", {"tile": _tile_kind(p), "at": p.at})))
            active_after = board.active_count
            new_marker = len(board.markers) - markers_before
            steps.append(Step(p, board.turn, active, active_after < active + new_marker))
            active = active_after
        game.boards[section.player] = board
        game.steps[section.player] = steps
    if not record.is_duel:
        game.warnings.extend(board_game_order_warnings(record, game.steps[None]))
    game.warnings.extend(pool_warnings(record, game))
    return game


def _tile_kind(p: Placement) -> str:
    return "task" if p.task is not None else "special" if p.special else "landscape"


def figure_reason(record: Record, p: Placement) -> Reason | None:
    """Why a figure on ``p`` may not lie there (rules.md section 2), or None: a Duel heart
    only on a landscape tile (``heart-not-on-landscape``); the Great Mill figure only on
    a grain landscape tile (``mill-not-on-landscape``), in the Duel and, once
    ``great-mill`` is unlocked, in the board game (before that, ``mill`` on a grain task
    tile marks the task tile that earns the achievement, ``campaign.mill``)."""
    kind = _tile_kind(p)
    if kind == "landscape":
        return None
    if p.heart and record.is_duel:
        return Reason("heart-not-on-landscape", {"tile": kind})
    if p.mill and (record.is_duel or "great-mill" in record.unlocked):
        return Reason("mill-not-on-landscape", {"tile": kind})
    return None


def figure_warning(record: Record, p: Placement) -> bool:
    """R-10: a board-game heart (red or golden) on a task or special tile is scored and
    warned about (its cards are not known; the Duel's rule by analogy)."""
    return (not record.is_duel and (p.heart or p.golden_heart)
            and _tile_kind(p) != "landscape" and record.ruleset.on("R-10"))


def placement_reason(record: Record, board: Board, p: Placement) -> Reason | None:
    """Every placement rule for ``p`` on ``board`` in this record's game: the board's
    (``Board.illegal_reason``) and the figures' (``figure_reason``)."""
    return board.illegal_reason(p) or figure_reason(record, p)


def check_unlocked(record: Record) -> None:
    """Every id of the ``unlocked:`` header must be known (a typo must not silently
    drop a score row)."""
    content = default_content()
    known = {*SCORE_ROWS, *SCORE_ROW_ALIASES, *content.boxes, *content.achievements, RED_HEART}
    for uid in record.unlocked:
        if uid not in known:
            raise NotationError(
                Reason("unknown-unlock", {"id": uid, "rows": list(SCORE_ROWS)}),
                record.header_lines.get("unlocked"),
            )


def replay_text(text: str) -> Game:
    return replay(parse_record(text))


def board_game_order_warnings(record: Record, steps: list[Step]) -> list[Warning]:
    """Reveal-order warnings (rules.md section 4). An end-of-game entry (a record
    with a ``completed:`` header) lists the final map in any order: no warnings."""
    if record.completed:
        return []
    out: list[Warning] = []
    landscape = 0
    tasks = 0
    landscape_limit, task_limit = stack_limits(record)
    last_changed = False
    for step in steps:
        p, turn, active = step.placement, step.turn, step.active_before
        is_task = p.task is not None
        expected = _expected_kind(turn, landscape, tasks, active, last_changed,
                                  landscape_limit, task_limit)
        if expected == "end":
            out.append(Warning(p.line, turn, Reason("game-over", {})))
        elif expected == "task" and not is_task:
            why = (Reason("first-turns", {"turns": FIRST_TASK_TURNS}) if turn <= 3
                   else Reason("few-active", {"active": active}))
            out.append(Warning(p.line, turn, Reason("task-tile-expected", {"why": why})))
        elif expected == "landscape" and is_task:
            why = (Reason("task-tiles-out", {"limit": task_limit}) if tasks >= task_limit
                   else Reason("enough-active", {"active": active}))
            out.append(Warning(p.line, turn, Reason("landscape-tile-expected", {"why": why})))
        last_changed = step.changed
        if is_task:
            tasks += 1
        else:
            landscape += 1
    if landscape > landscape_limit:
        out.append(Warning(None, None, Reason("too-many-landscape", {
            "placed": landscape, "limit": landscape_limit})))
    return out


def stack_limits(record: Record) -> tuple[int, int]:
    """The board game's landscape and task stacks (3 landscape tiles removed at setup),
    with the 5 tiles each unlocked box adds."""
    return (BOARD_GAME_LANDSCAPE + 5 * ("box2" in record.unlocked),
            BOARD_GAME_TASK_TILES + 5 * ("box1" in record.unlocked))


def _expected_kind(turn: int, landscape: int, tasks: int, active: int, last_changed: bool,
                   landscape_limit: int, task_limit: int) -> str:
    """Which stack the tile of ``turn`` comes from (rules.md section 4): ``task``,
    ``landscape`` or ``end`` (the game is over)."""
    if turn <= FIRST_TASK_TURNS:
        return "task"
    if landscape >= landscape_limit:
        return "task" if last_changed else "end"
    if active < MIN_ACTIVE and tasks < task_limit:
        return "task"
    return "landscape"


def next_tile_kind(game: Game) -> str | None:
    """Which stack the next board-game tile comes from (``task``, ``landscape`` or
    ``end``); None in the Duel and in an end-of-game entry (a final map in any order)."""
    record = game.record
    if record.is_duel or record.completed:
        return None
    steps = game.steps.get(None, [])
    tasks = sum(1 for s in steps if s.placement.task is not None)
    return _expected_kind(len(steps) + 1, len(steps) - tasks, tasks, game.board.active_count,
                          steps[-1].changed if steps else False, *stack_limits(record))


def pool_warnings(record: Record, game: Game) -> list[Warning]:
    pool = marker_pool(record)
    out: list[Warning] = []
    sections = record.sections
    for section in sections:
        used: Counter[tuple[str, int]] = Counter()
        first_line: dict[tuple[str, int], int | None] = {}
        specs: list[tuple[TaskSpec, int | None]] = [
            (p.task, p.line) for p in section.placements if p.task and p.task.value
        ]
        if section is sections[0]:
            specs += [(t, record.header_lines.get("completed")) for t in record.completed]
        for spec, line in specs:
            assert spec.value is not None
            key = (spec.type, spec.value)
            used[key] += 1
            if used[key] == pool.get(spec.type, {}).get(spec.value, 0) + 1:
                first_line[key] = line
        for (kind, value), n in used.items():
            have = pool.get(kind, {}).get(value, 0)
            if n > have:
                out.append(Warning(first_line.get((kind, value)), None, Reason(
                    "pool-exceeded", {"who": section.player, "used": n, "type": kind,
                                      "value": value, "have": have})))
    return out
