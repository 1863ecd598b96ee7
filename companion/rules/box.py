"""What the box holds for one game, which tiles fit a free hex, and impossible states.

Representation: ``in_play(record)`` is the game's ``InPlay``: the catalogue sections
(``landscape`` and ``task`` always; ``box-1-task`` / ``box-2-landscape`` once the campaign
unlocked them), the special tiles that may lie on the map and the marker pool. Every
physical tile exists once in the box: ``tiles_left(record, board)`` counts, per catalogue
tile up to rotation (``canonical`` code and section), how many copies are not on the map
yet. ``fits(board, at, codes)`` lists the codes that may go on ``at`` (some rotation meets
every neighbour's edges), best edge matches first, each with its best legal rotation
(most edges meeting the same terrain; the first such rotation on a tie).
``box_flags(record, boards)`` lists what the box makes impossible (``BoxFlag``: a code and
its parameters): ``tile-over-box`` (more copies on the map than the box holds),
``tile-not-unlocked`` (a tile of a box the game has not unlocked), ``marker-not-in-pool``
(a marker value the pool does not hold, e.g. 7 in a base game), ``marker-over-pool`` (more
markers of a value than the pool holds) and ``special-not-unlocked``. The Duel has its own
tiles (not the board game's catalogue, and no list of them by code): what its box holds is
known per kind and per player (rules.md sections 4 and 7; "More players": with two copies
every landscape has its own set), ``DUEL_HOLDS``: 42 landscape tiles, 27 task tiles and
one of each special tile (School, Granary, Old Oak, Photographer). A Duel landscape holding
more of a kind is flagged ``tile-over-box`` too, on every tile beyond the count, with
``why`` the coded reason ``duel-tile-over-box`` (kind, count). ``placement_flags`` gives
the flags one more placement would add (a warning before it is placed).

>>> from companion.rules.notation import parse_record
>>> in_play(parse_record("game: board-game\\n")).sections
('landscape', 'task')
>>> in_play(parse_record("game: board-game\\nunlocked: box2\\n")).pool["forest"]
{4: 1, 5: 2, 6: 2, 7: 1}
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.rules.board import Board
from companion.rules.campaign.unlocks import default_content, live_effects
from companion.rules.game import DUEL_LANDSCAPE, DUEL_TASK_TILES
from companion.rules.hexgrid import DIRECTIONS, Hex, opposite
from companion.rules.notation import DUEL_SPECIALS, Placement, Record
from companion.rules.pools import marker_pool
from companion.rules.reasons import Reason
from companion.rules.tiles import canonical, catalogue, rotate

BASE_SECTIONS = ("landscape", "task")
DUEL_HOLDS: dict[str, int] = {"landscape": DUEL_LANDSCAPE, "task": DUEL_TASK_TILES,
                              **dict.fromkeys(DUEL_SPECIALS, 1)}
"""What one Duel landscape's box holds, per kind: ``landscape``, ``task`` and each
special tile (rules.md section 4; copies of special tiles: one each, section 7)."""


@dataclass(frozen=True)
class InPlay:
    """What a game plays with: catalogue sections, special tiles, the marker pool."""

    sections: tuple[str, ...]
    specials: tuple[str, ...]
    pool: dict[str, dict[int, int]] = field(default_factory=dict)

    def values(self, types: Iterable[str]) -> list[int]:
        """Marker values the pool holds for any of ``types``, ascending."""
        return sorted({v for t in types for v, n in self.pool.get(t, {}).items() if n > 0})


def in_play(record: Record) -> InPlay:
    if record.is_duel:
        specials = DUEL_SPECIALS if 2 in record.modules else ()
        return InPlay((), specials, marker_pool(record))
    content = default_content()
    known = [u for u in record.unlocked
             if u in content.boxes or u in content.achievements or u == "red-heart"]
    effects = live_effects(known, content)
    sections = BASE_SECTIONS + tuple(s for s in effects.tiles if s not in BASE_SECTIONS)
    return InPlay(sections, effects.special_tiles, marker_pool(record))


def box_holds() -> Counter[tuple[str, str]]:
    """Copies in the box of every catalogue tile: (section, canonical code) -> count."""
    return Counter((t.section, canonical(t.code)) for t in catalogue())


def _is_task_section(section: str) -> bool:
    return "task" in section


def assign_sections(record: Record, placements: Iterable[Placement]
                    ) -> list[tuple[Placement, str | None, bool]]:
    """Each catalogue-like placement (no special tile) with the catalogue section its tile
    comes from and whether that section is in play; section None when every copy the box
    holds is on the map already (or the code is not a catalogue tile)."""
    holds = box_holds()
    playing = in_play(record).sections
    used: Counter[tuple[str, str]] = Counter()
    out: list[tuple[Placement, str | None, bool]] = []
    for p in placements:
        if p.special:
            continue
        c = canonical(p.code)
        want_task = p.task is not None
        sections = sorted({s for s, code in holds if code == c},
                          key=lambda s: (s not in playing, _is_task_section(s) != want_task))
        chosen = next((s for s in sections if used[(s, c)] < holds[(s, c)]), None)
        if chosen is not None:
            used[(chosen, c)] += 1
        out.append((p, chosen, chosen in playing if chosen else False))
    return out


def tiles_left(record: Record, board: Board) -> Counter[tuple[str, str]]:
    """Copies not yet on the map, per (section, canonical code), for the sections in
    play (empty in the Duel)."""
    if record.is_duel:
        return Counter()
    playing = in_play(record).sections
    left = Counter({k: n for k, n in box_holds().items() if k[0] in playing})
    for _p, section, _live in assign_sections(record, board.history):
        if section is not None and (section, canonical(_p.code)) in left:
            left[(section, canonical(_p.code))] -= 1
    return left


@dataclass(frozen=True)
class Fit:
    """A tile that fits a free hex: its code as given, the best legal rotation (steps
    clockwise), how many neighbour edges meet the same terrain, out of ``neighbours``,
    and every legal rotation."""

    code: str
    rotation: int
    matches: int
    neighbours: int
    legal: tuple[int, ...]

    @property
    def placed(self) -> str:
        return rotate(self.code, self.rotation)

    @property
    def perfect(self) -> bool:
        return self.matches == self.neighbours


def edge_matches(board: Board, at: Hex, code: str) -> tuple[int, int]:
    """(edges meeting the same terrain, neighbours) of ``code`` lying on ``at``."""
    same = count = 0
    for e, (dq, dr) in enumerate(DIRECTIONS):
        other = board.tiles.get(Hex(at.q + dq, at.r + dr))
        if other is None:
            continue
        count += 1
        same += code[e] == other.code[opposite(e)]
    return same, count


def fit(board: Board, at: Hex, code: str) -> Fit | None:
    """How ``code`` fits on free hex ``at`` (its best legal rotation), None if it cannot."""
    if at in board.tiles:
        return None
    seen: set[str] = set()
    best: tuple[int, int] | None = None
    legal: list[int] = []
    neighbours = 0
    for k in range(6):
        turned = rotate(code, k)
        if turned in seen:
            continue
        seen.add(turned)
        if board.illegal_reason(Placement(at, turned)) is not None:
            continue
        legal.append(k)
        same, neighbours = edge_matches(board, at, turned)
        if best is None or same > best[0]:
            best = (same, k)
    if best is None:
        return None
    return Fit(code, best[1], best[0], neighbours, tuple(legal))


def fits(board: Board, at: Hex, codes: Iterable[str]) -> list[Fit]:
    """The codes that fit on ``at``, best edge matches first (stable for ties)."""
    found = [f for f in (fit(board, at, c) for c in codes) if f is not None]
    return sorted(found, key=lambda f: (-f.matches, f.neighbours - f.matches))


@dataclass(frozen=True)
class BoxFlag:
    """Something the box makes impossible: a code and its parameters (``at`` the hex
    when a tile is named)."""

    code: str
    params: dict[str, Any]
    at: Hex | None = None
    why: Reason | None = None


def _tile_flag(p: Placement, section: str | None, live: bool) -> BoxFlag | None:
    if section is None and any(code == canonical(p.code) for _s, code in box_holds()):
        return BoxFlag("tile-over-box", {"code": p.code}, p.at)
    if section is not None and not live:
        return BoxFlag("tile-not-unlocked", {"code": p.code, "section": section}, p.at)
    return None


def _figure_flags(playing: InPlay, p: Placement, used: Counter[tuple[str, int]]
                  ) -> list[BoxFlag]:
    """The special tile and the marker of ``p`` (``used``: markers before it, updated)."""
    flags: list[BoxFlag] = []
    if p.special and p.special not in playing.specials:
        flags.append(BoxFlag("special-not-unlocked", {"special": p.special}, p.at))
    if p.task is None or p.task.value is None:
        return flags
    key = (p.task.type, p.task.value)
    have = playing.pool.get(key[0], {}).get(key[1], 0)
    used[key] += 1
    if have == 0:
        flags.append(BoxFlag("marker-not-in-pool", {"type": key[0], "value": key[1]}, p.at))
    elif used[key] == have + 1:
        flags.append(BoxFlag("marker-over-pool", {"type": key[0], "value": key[1],
                                                  "have": have}, p.at))
    return flags


def duel_kind(p: Placement) -> str:
    """The kind of a Duel tile for ``DUEL_HOLDS``: its special tile, ``task`` or
    ``landscape``."""
    if p.special:
        return p.special
    return "task" if p.task is not None else "landscape"


def _duel_flag(p: Placement, used: Counter[str]) -> BoxFlag | None:
    """``p`` counted in ``used`` (the kinds placed before it, updated): flagged when the
    box holds fewer of its kind."""
    kind = duel_kind(p)
    have = DUEL_HOLDS.get(kind)
    if have is None:  # a special tile the Duel does not have: special-not-unlocked
        return None
    used[kind] += 1
    if used[kind] <= have:
        return None
    why = Reason("duel-tile-over-box", {"code": p.code, "kind": kind, "have": have, "at": p.at})
    return BoxFlag("tile-over-box", {"code": p.code, "kind": kind, "have": have}, p.at, why)


def box_flags(record: Record, boards: Iterable[Board]) -> list[BoxFlag]:
    """Impossible states of a record being recorded (see the module docstring)."""
    flags: list[BoxFlag] = []
    playing = in_play(record)
    for board in boards:
        if record.is_duel:
            kinds: Counter[str] = Counter()
            found = (_duel_flag(p, kinds) for p in board.history)
            flags.extend(f for f in found if f is not None)
        else:
            for p, section, live in assign_sections(record, board.history):
                flag = _tile_flag(p, section, live)
                if flag is not None:
                    flags.append(flag)
        used: Counter[tuple[str, int]] = Counter()
        for p in board.history:
            flags.extend(_figure_flags(playing, p, used))
    return flags


def placement_flags(record: Record, board: Board, p: Placement) -> list[BoxFlag]:
    """What ``p`` would add to ``box_flags`` if placed next on ``board`` (a warning
    before the tile is placed)."""
    flags: list[BoxFlag] = []
    flag: BoxFlag | None = None
    if record.is_duel:
        kinds = Counter(duel_kind(q) for q in board.history)
        flag = _duel_flag(p, kinds)
    elif not p.special:
        _q, section, live = assign_sections(record, [*board.history, p])[-1]
        flag = _tile_flag(p, section, live)
    if flag is not None:
        flags.append(flag)
    used: Counter[tuple[str, int]] = Counter()
    for q in board.history:
        if q.task is not None and q.task.value is not None:
            used[(q.task.type, q.task.value)] += 1
    return flags + _figure_flags(in_play(record), p, used)
