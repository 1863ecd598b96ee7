"""Records for the renderer: what lies where, and random legal maps to draw.

Representation: a ``LaidTile`` is one placement as the renderer needs it: axial
position, code as it lies, task type, marker value (``None`` when gone), flag.
``laid_tiles(text)`` reads a record with ``companion.rules.parse_record`` (first
section only: a photo shows one landscape). Random maps come from the engine's
``companion.rules.random_record``; ``pool_record(seed, tiles, pool)`` draws from a
given pool of physical tiles instead (the composite photos draw from the real tile
crops only): turned at random, laid connected with every touching edge allowed by
``companion.rules.edges_can_meet``, written with ``companion.rules.write_record``;
``legal_random_record`` redraws that until the rules engine replays it.
``with_holes`` leaves tiles deep inside a map out, keeping it in one piece: the table
then shows through holes, as in real maps (``evaluate --holes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from companion.rules import (
    DIRECTIONS,
    Hex,
    Placement,
    Record,
    Section,
    catalogue,
    edges_can_meet,
    opposite,
    parse_record,
    parse_task,
    random_record,
    rotate,
    write_record,
)


class LaidTile(NamedTuple):
    at: Hex
    code: str
    task_type: str | None
    marker: int | None
    flag: str | None


def laid_tiles(record_text: str) -> list[LaidTile]:
    """The tiles of a record's first landscape; a later line on the same hex wins."""
    record = parse_record(record_text)
    if not record.sections:
        return []
    out: dict[Hex, LaidTile] = {}
    for p in record.sections[0].placements:
        task_type = p.task.type if p.task else None
        marker = p.task.value if p.task else None
        out[Hex(*p.at)] = LaidTile(Hex(*p.at), p.code, task_type, marker, p.flag)
    return list(out.values())


HOLE_NEIGHBOURS_MIN = 4
"""A tile ``with_holes`` may leave out has at least this many neighbours on the map (the
random maps are loose: hardly a tile has six), so the table shows in a hole or a deep
bay between tiles."""


def with_holes(tiles: Sequence[LaidTile], share: float, seed: int) -> list[LaidTile]:
    """``tiles`` less ``share`` (at least one) of those with ``HOLE_NEIGHBOURS_MIN``
    neighbours on the map, drawn from ``seed``: a map with holes, the table showing
    through where a tile is missing inside it, as real maps have. A tile whose absence
    would cut the map in two stays (every tile of a game is laid beside another, so a
    map is one piece). Unchanged when no tile lies that far inside or ``share`` is 0."""
    if share <= 0:
        return list(tiles)
    cells = {t.at for t in tiles}
    inner = [i for i, t in enumerate(tiles)
             if sum(n in cells for n in t.at.neighbors()) >= HOLE_NEIGHBOURS_MIN]
    if not inner:
        return list(tiles)
    count = min(len(inner), max(1, round(share * len(inner))))
    gone: set[int] = set()
    for i in np.random.default_rng([seed, 31]).permutation(inner).tolist():
        if len(gone) == count:
            break
        if _in_one_piece(cells - {tiles[j].at for j in gone | {i}}):
            gone.add(i)
    return [t for i, t in enumerate(tiles) if i not in gone]


def _in_one_piece(cells: set[Hex]) -> bool:
    """Whether the cells are connected through shared edges."""
    if not cells:
        return True
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        for n in todo.pop().neighbors():
            if n in cells and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def _fits(board: dict[Hex, str], at: Hex, code: str) -> bool:
    touching = False
    for e, d in enumerate(DIRECTIONS):
        other = board.get(Hex(at.q + d.q, at.r + d.r))
        if other is None:
            continue
        touching = True
        if not edges_can_meet(code[e], other[opposite(e)]):
            return False
    return touching


PoolTile = tuple[str, str, str | None]
"""``(section, code, task type or None)``: one physical tile a generator may draw."""


def pool_record(seed: int, landscape: int = 45,
                pool: Sequence[PoolTile] | None = None, attempt: int = 0) -> str:
    """A random legal-looking board-game record drawn from ``pool``.

    ``pool`` lists tiles to draw from without replacement (default: the base-box
    landscape and task tiles of the catalogue); task tiles get ``task=TYPE/N`` with
    their own type when the pool knows it, else a type their code can serve; a few
    landscape tiles get a flag.
    """
    rng = np.random.default_rng(seed if attempt == 0 else [seed, attempt])
    if pool is None:
        pool = [(t.section, t.code, None) for t in catalogue()
                if t.section in ("landscape", "task")]
    order = list(rng.permutation(len(pool)))
    all_tasks = [i for i in order if pool[i][0] == "task"]
    with_marker = set(all_tasks[: max(1, landscape // 7)])
    lands = [i for i in order if pool[i][0] != "task"][: max(0, landscape - len(with_marker))]
    # a small pool runs out of landscape tiles: top up with task tiles whose marker is gone
    tasks = all_tasks[: max(len(with_marker), landscape - len(lands))]
    picks = [int(i) for i in rng.permutation(tasks + lands)]
    board: dict[Hex, str] = {}
    placements: list[Placement] = []
    progress = True
    while picks and progress:  # tiles that fit nowhere yet get another chance later
        progress = False
        waiting: list[int] = []
        for i in picks:
            section, code, task = pool[i]
            spot = _place(board, code, rng)
            if spot is None:
                waiting.append(i)
                continue
            progress = True
            at, laid = spot
            board[at] = laid
            placements.append(_placement(at, section, laid, task, rng,
                                         marker=i in with_marker))
        picks = waiting
    return write_record(Record(sections=[Section(None, placements)]))


def _placement(at: Hex, section: str, laid: str, task: str | None,
               rng: np.random.Generator, marker: bool) -> Placement:
    if section == "task":
        kinds = [k for k, letter in (("forest", "F"), ("grain", "G"), ("village", "V"),
                                     ("track", "T"), ("stream", "S")) if letter in laid]
        kind = kinds[int(rng.integers(0, len(kinds)))] if kinds else "forest"
        kind = task or kind
        value = int(rng.integers(4, 7))
        spec = parse_task(f"{kind}/{value}" if marker else kind, "board-game")
        return Placement(at, laid, task=spec)
    if rng.random() < 0.08:
        flags = [k for k, letter in (("forest", "F"), ("grain", "G"), ("village", "V"))
                 if letter in laid]
        if flags:
            return Placement(at, laid, flag=flags[int(rng.integers(0, len(flags)))])
    return Placement(at, laid)


def legal_random_record(seed: int, landscape: int = 45,
                        pool: Sequence[PoolTile] | None = None, attempts: int = 30) -> str:
    """``pool_record`` redrawn until the rules engine replays it without error.

    The simple generator only matches tracks and streams; the engine also refuses task
    tiles whose marker can no longer be reached, so a few draws are thrown away.
    """
    from companion.rules import RulesError, replay_text

    text = ""
    for attempt in range(attempts):
        text = pool_record(seed, landscape, pool, attempt)
        try:
            replay_text(text)
        except RulesError:
            continue
        return text
    raise ValueError(f"no legal record found for seed {seed} in {attempts} draws")


def _place(board: dict[Hex, str], code: str,
           rng: np.random.Generator) -> tuple[Hex, str] | None:
    if not board:
        return Hex(0, 0), rotate(code, int(rng.integers(0, 6)))
    frontier = sorted({Hex(h.q + d.q, h.r + d.r) for h in board for d in DIRECTIONS} - set(board))
    # prefer compact maps: spots with many neighbours first, ties at random
    weights = [sum(Hex(h.q + d.q, h.r + d.r) in board for d in DIRECTIONS) for h in frontier]
    keys = np.array(weights, float) + rng.random(len(frontier)) * 1.5
    for idx in np.argsort(-keys):
        at = frontier[int(idx)]
        for k in rng.permutation(6):
            laid = rotate(code, int(k))
            if _fits(board, at, laid):
                return at, laid
    return None


__all__ = ["LaidTile", "PoolTile", "laid_tiles", "legal_random_record", "pool_record",
           "random_record"]
