"""Random legal board-game records built from the tile catalogue.

For property tests, benchmarks and the photo renderer. A game follows the
reveal order of rules.md section 4 (task tiles in the first 3 turns and while
fewer than 3 markers are active), draws landscape tiles from the 48 of the base
box (45 played), task tiles from the 25 with a marker from the base pool, and
places each tile at a random legal (hex, rotation); a tile with no legal place
is set aside. Deterministic for a seed.

>>> text = random_record(7, landscape=10)
>>> from companion.rules.game import replay_text
>>> len(replay_text(text).board) >= 10
True
"""

from __future__ import annotations

import random

from companion.rules.board import Board
from companion.rules.hexgrid import Hex
from companion.rules.notation import (
    TERRITORY_TYPES,
    Placement,
    Record,
    Section,
    TaskSpec,
    write_record,
)
from companion.rules.tiles import LETTER_OF, TERRAINS, catalogue, rotate

SCORED_LETTERS = "FGVTS"


def random_game(
    seed: int, landscape: int = 45, flags: float = 0.1
) -> tuple[Record, Board]:
    """A random legal game and its board."""
    rng = random.Random(seed)
    land = [t.code for t in catalogue() if t.section == "landscape"]
    tasks = [t.code for t in catalogue() if t.section == "task"]
    rng.shuffle(land)
    rng.shuffle(tasks)
    land = land[:landscape]
    pool = {t: [4, 5, 5, 6, 6] for t in ("forest", "grain", "village", "track", "stream")}
    board = Board()
    record = Record(game="board-game", sections=[Section(None, [])])
    line = 2
    while land:
        turn = board.turn + 1
        use_task = tasks and (turn <= 3 or len(board.active_markers()) < 3)
        code = tasks.pop() if use_task else land.pop()
        base = Placement(Hex(0, 0), code)
        if use_task:
            base = Placement(Hex(0, 0), code, task=_pick_task(rng, code, pool))
        elif flags and rng.random() < flags:
            kinds = [TERRAINS[c] for c in dict.fromkeys(code) if TERRAINS[c] in TERRITORY_TYPES]
            if kinds:
                base = Placement(Hex(0, 0), code, flag=rng.choice(kinds))
        options = list(board.legal_placements(base))
        if not options:
            if base.task is not None and base.task.value is not None:
                pool[base.task.type].append(base.task.value)
            continue
        at, k = rng.choice(options)
        p = Placement(at, rotate(code, k), base.task, base.flag, line=line)
        board.push(p)
        record.placements.append(p)
        line += 1
    return record, board


def _pick_task(rng: random.Random, code: str, pool: dict[str, list[int]]) -> TaskSpec:
    shown = [TERRAINS[c] for c in dict.fromkeys(code) if c in SCORED_LETTERS]
    rng.shuffle(shown)
    for kind in shown:
        if pool[kind]:
            value = pool[kind].pop(rng.randrange(len(pool[kind])))
            return TaskSpec(kind, value, (kind,))
    kind = shown[0] if shown else "forest"
    assert LETTER_OF[kind] in code or not shown
    return TaskSpec(kind, None, (kind,))


def random_record(seed: int, landscape: int = 45) -> str:
    """The text of a random legal board-game record (see ``random_game``)."""
    return write_record(random_game(seed, landscape)[0])
