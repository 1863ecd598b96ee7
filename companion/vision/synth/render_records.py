"""Records for the renderer: what lies where, and random legal maps to draw.

Representation: a ``LaidTile`` is one placement as the renderer needs it: axial
position, code as it lies, task type, marker value (``None`` when gone), flag.
``laid_tiles(text)`` reads a record with ``companion.rules.notation.parse_record``
(first section only: a photo shows one landscape). ``random_record(seed, tiles)``
uses ``companion.rules.randomgame.random_record`` when the rules package has it,
else a small private generator: tiles from the catalogue, turned at random, laid
connected with every track/stream edge meeting the same letter or an empty space;
``legal_random_record`` redraws that until the rules engine replays it (the composite
photos use it, drawing from the real tile crops only).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from companion.rules import DIRECTIONS, Hex, catalogue, opposite, parse_record, rotate


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


def _fits(board: dict[Hex, str], at: Hex, code: str) -> bool:
    touching = False
    for e, d in enumerate(DIRECTIONS):
        other = board.get(Hex(at.q + d.q, at.r + d.r))
        if other is None:
            continue
        touching = True
        mine, theirs = code[e], other[opposite(e)]
        if (mine in "TS" or theirs in "TS") and mine != theirs:
            return False
    return touching


PoolTile = tuple[str, str, str | None]
"""``(section, code, task type or None)``: one physical tile a generator may draw."""


def private_random_record(seed: int, landscape: int = 45,
                          pool: Sequence[PoolTile] | None = None, attempt: int = 0) -> str:
    """A random legal-looking board-game record (the fallback generator).

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
    lines = ["game: board-game"]
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
            attrs = _attributes(section, laid, task, rng, marker=i in with_marker)
            lines.append(f"{at.q} {at.r} {laid}{attrs}")
        picks = waiting
    return "\n".join(lines) + "\n"


def _attributes(section: str, laid: str, task: str | None, rng: np.random.Generator,
                marker: bool) -> str:
    if section == "task":
        kinds = [k for k, letter in (("forest", "F"), ("grain", "G"), ("village", "V"),
                                     ("track", "T"), ("stream", "S")) if letter in laid]
        kind = kinds[int(rng.integers(0, len(kinds)))] if kinds else "forest"
        kind = task or kind
        value = int(rng.integers(4, 7))
        return f" task={kind}/{value}" if marker else f" task={kind}"
    if rng.random() < 0.08:
        flags = [k for k, letter in (("forest", "F"), ("grain", "G"), ("village", "V"))
                 if letter in laid]
        if flags:
            return f" flag={flags[int(rng.integers(0, len(flags)))]}"
    return ""


def legal_random_record(seed: int, landscape: int = 45,
                        pool: Sequence[PoolTile] | None = None, attempts: int = 30) -> str:
    """``private_random_record`` redrawn until the rules engine replays it without error.

    The simple generator only matches tracks and streams; the engine also refuses task
    tiles whose marker can no longer be reached, so a few draws are thrown away.
    """
    from companion.rules import RulesError, replay_text

    text = ""
    for attempt in range(attempts):
        text = private_random_record(seed, landscape, pool, attempt)
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


def random_record(seed: int, landscape: int = 45) -> str:
    """A random legal record: the rules package's generator when present, else the fallback."""
    try:
        module = importlib.import_module("companion.rules.randomgame")
    except ImportError:
        return private_random_record(seed, landscape)
    return str(module.random_record(seed, landscape))
