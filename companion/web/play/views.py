"""What the recorder page shows, computed from the game and the page's query.

Representation: the page's own state is in its URL (so it survives a reload and
works without JavaScript): ``at=Q,R`` the chosen free hex, ``tile=CODE`` the
chosen tile as listed, ``rot=K`` its rotation (steps clockwise), ``f=`` the typed
filter, ``player=`` the duel landscape being recorded, ``e0..e5`` painted edges.
``Selection.parse`` reads that; ``recorder_context`` turns it plus the replayed
game into the template's variables (maps, marker rows, catalogue, rotations).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from flask_babel import gettext as _

from companion.rules import (
    COMPLETED,
    DUEL_TASK_TYPES,
    FAILED,
    FLAG_TYPES,
    LETTER_OF,
    SPECIAL_TILES,
    TASK_TYPES,
    TERRAINS,
    TERRITORY_TYPES,
    Board,
    Fit,
    Hex,
    Placement,
    Position,
    Turn,
    box_flags,
    canonical,
    completed_total,
    duel_turn,
    fit,
    fits,
    in_play,
    marker_pool,
    markers_left,
    next_tile_kind,
    placement_flags,
    rotate,
    tiles_left,
)
from companion.web.forms import whole
from companion.web.hexmap import MapView, map_view, origin_shapes, tile_icon
from companion.web.play.offline import play_data
from companion.web.play.tiles import (
    Choice,
    choices,
    clean_pattern,
    filter_catalogue,
    painted_code,
    section_of,
)
from companion.web.reasons import say

CATALOGUE_LIMIT = 120


def parse_hex(text: str | None) -> Hex | None:
    if not text:
        return None
    parts = text.replace(" ", ",").split(",")
    parts = [p for p in parts if p]
    if len(parts) != 2:
        return None
    q, r = whole(parts[0]), whole(parts[1])
    return None if q is None or r is None else Hex(q, r)


@dataclass
class Selection:
    at: Hex | None = None
    tile: str | None = None
    rot: int | None = None
    pattern: str = ""
    player: str | None = None

    @classmethod
    def parse(cls, args: Mapping[str, str]) -> Selection:
        tile = painted_code([args.get(f"e{i}", "") for i in range(6)])
        if tile is None:
            tile = painted_code(list(args.get("tile", "")))
        rot = whole(args.get("rot"))
        return cls(parse_hex(args.get("at")), tile, None if rot is None else rot % 6,
                   args.get("f", "")[:12], args.get("player") or None)

    def query(self, **changes: Any) -> dict[str, Any]:
        """The URL query of this selection with ``changes`` (None drops a key)."""
        out: dict[str, Any] = {
            "at": f"{self.at.q},{self.at.r}" if self.at else None,
            "tile": self.tile, "rot": self.rot, "f": self.pattern or None,
            "player": self.player,
        }
        out.update(changes)
        return {k: v for k, v in out.items() if v is not None and v != ""}


def page_link(base: str, sel: Selection) -> Callable[..., str]:
    """``link(**changes)``: the page at ``base`` with the selection's query changed
    (one ``url_for`` per page instead of one per link)."""

    def link(**changes: Any) -> str:
        query = urlencode(sel.query(**changes))
        return f"{base}?{query}" if query else base

    return link


def link_prefix(base: str, sel: Selection, key: str, **changes: Any) -> str:
    """The page's address ending in ``key=``, for links that differ only in that
    value (catalogue tiles, free hexes): append a URL-safe value."""
    query = urlencode(sel.query(**{key: None, **changes}))
    return f"{base}?{query}&{key}=" if query else f"{base}?{key}="


@dataclass
class MarkerRow:
    type: str
    value: int
    at: Hex
    state: str
    text: str
    size: int | None = None
    needed: int | None = None


def marker_rows(board: Board) -> list[MarkerRow]:
    """Every marker of the landscape: size now / needed while active, else how it ended."""
    rows = []
    for m in board.markers:
        if m.state == COMPLETED:
            text = _("completed at turn %(turn)s: %(why)s", turn=m.turn, why=say(m.why))
        elif m.state == FAILED:
            text = _("failed at turn %(turn)s because %(why)s", turn=m.turn, why=say(m.why))
        else:
            text = say(board.marker_state(m)[1])
        size = None
        if m.state == "active" and m.task.type != "wraparound":
            size = max(board.territory_size(m.at, LETTER_OF[t]) for t in m.task.terrains)
        elif m.state == "active":
            size = board.neighbors_count(m.at)
        rows.append(MarkerRow(m.type, m.value, m.at, m.state, text, size, m.value))
    return rows


@dataclass
class RotationChoice:
    steps: int
    code: str
    legal: bool
    current: bool


@dataclass
class LandscapeView:
    player: str | None
    map: MapView
    markers: list[MarkerRow]
    tiles: int
    turn: int
    active: bool
    edges: list[str] = field(default_factory=list)


def task_options(code: str | None, duel: bool) -> list[str]:
    """Task types a tile can carry (its terrains; in the duel also wraparound/double)."""
    types = DUEL_TASK_TYPES if duel else TASK_TYPES
    shown = [t for t in types if t in TASK_TYPES and (code is None or LETTER_OF[t] in code)]
    if duel:
        shown.append("wraparound")
        shown += [f"double:{a}+{b}" for i, a in enumerate(shown) if a in TASK_TYPES
                  for b in shown[i + 1:] if b in TASK_TYPES]
    return shown


RECENT_LIMIT = 12


@dataclass
class Pick:
    """One tile of the picker: the catalogue tile (None: a recent duel pattern), how it
    fits the chosen hex, its copies left in the box."""

    choice: Choice | None
    fit: Fit
    left: int = 1

    @property
    def code(self) -> str:
        return self.fit.code

    @property
    def is_task(self) -> bool:
        return self.choice is not None and self.choice.is_task


def recent_patterns(position: Position) -> list[str]:
    """Distinct tiles (up to rotation) placed lately on any landscape, newest first."""
    placed: list[tuple[int, int, str]] = []
    for name in position.players:
        for i, p in enumerate(position.board(name).history):
            placed.append((i, len(placed), p.code))
    out: list[str] = []
    seen: set[str] = set()
    for _i, _n, code in sorted(placed, reverse=True):
        c = canonical(code)
        if c not in seen:
            seen.add(c)
            out.append(code)
        if len(out) >= RECENT_LIMIT:
            break
    return out


def picker(position: Position, board: Board, at: Hex) -> list[Pick]:
    """The tiles that fit on ``at``, best edge matches first: in the board game the
    catalogue tiles of this game's box not yet on the map, in the Duel recent patterns."""
    if position.is_duel:
        return [Pick(None, f) for f in fits(board, at, recent_patterns(position))]
    left = tiles_left(position.record, board)
    wanted = [c for c in choices() if left.get((c.section, canonical(c.code)), 0) > 0]
    by_code = {c.code: c for c in wanted}
    picks = [Pick(by_code[f.code], f, left[(by_code[f.code].section, canonical(f.code))])
             for f in fits(board, at, by_code)]
    due = next_tile_kind(position.game)
    if due in ("task", "landscape"):  # the stack this turn draws from first (stable sort)
        picks.sort(key=lambda p: p.is_task != (due == "task"))
    return picks


def available_catalogue(position: Position, board: Board, pattern: str) -> list[Choice]:
    """The catalogue filtered by ``pattern``, without tiles of boxes not in play and
    tiles whose every copy is on the map."""
    if position.is_duel:
        return filter_catalogue(pattern)
    left = tiles_left(position.record, board)
    return [c for c in filter_catalogue(pattern)
            if left.get((c.section, canonical(c.code)), 0) > 0]


def recorder_context(position: Position, sel: Selection, *, mode: str = "live",
                     explain_tiles: list[Hex] | None = None, base: str = "") -> dict[str, Any]:
    """Template variables of the recorder (``mode``: ``live``, ``end`` or ``view``);
    ``base`` is the page's path, for ``link``."""
    record = position.record
    turn: Turn = duel_turn(position.game) if position.is_duel else Turn(None, 0, None)
    player = sel.player if sel.player in position.game.boards else turn.player
    if not position.is_duel:
        player = None
    sel.player = player
    offered = turn.offered if player == turn.player and mode == "live" else None
    if sel.tile is None and offered is not None:
        sel.tile = offered.code
    board = position.board(player)
    legal: dict[Hex, list[int]] = {}
    if sel.tile is not None:
        for h, k in board.legal_placements(Placement(Hex(0, 0), sel.tile)):
            legal.setdefault(h, []).append(k)
    if sel.tile is not None and sel.at is not None and sel.rot is None:
        best = fit(board, sel.at, sel.tile) if sel.at in legal else None
        sel.rot = best.rotation if best is not None else min(legal.get(sel.at, [0]))
    rot = sel.rot or 0
    preview = None
    preview_legal = True
    if sel.tile is not None and sel.at is not None:
        preview = Placement(sel.at, rotate(sel.tile, rot))
        preview_legal = rot in legal.get(sel.at, []) or any(
            rotate(sel.tile, k) == preview.code for k in legal.get(sel.at, []))
    landscapes = []
    for name in position.players:
        b = position.board(name)
        mine = name == player
        landscapes.append(LandscapeView(
            name,
            map_view(b, legal=legal if mine else (), selected=sel.at if mine else None,
                     preview=preview if mine else None, preview_legal=preview_legal,
                     highlight=explain_tiles or (), slots=mine and mode != "view"),
            marker_rows(b), len(b), b.turn, mine))
    rotations = []
    if sel.tile is not None:
        here = legal.get(sel.at, []) if sel.at is not None else [
            k for ks in legal.values() for k in ks]
        seen: set[str] = set()
        current = rotate(sel.tile, rot)
        for k in range(6):  # one button per distinct rotation
            code = rotate(sel.tile, k)
            if code not in seen:
                seen.add(code)
                rotations.append(RotationChoice(k, code, k in here, code == current))
    pattern = clean_pattern(sel.pattern)
    catalogue = available_catalogue(position, board, pattern)
    section = section_of(sel.tile) if sel.tile else None
    duel = position.is_duel
    playing = in_play(record)
    picks = (picker(position, board, sel.at) if sel.at is not None and sel.tile is None
             and mode != "view" else [])
    types = task_options(sel.tile, duel)
    task_values = [(v, sum(max(0, markers_left(record, t, v)) for t in types
                           if v in playing.pool.get(t, {})))
                   for v in playing.values(types)]
    flags = box_flags(record, [position.board(name) for name in position.players])
    chosen_flags = (placement_flags(record, board, preview)
                    if preview is not None and mode != "view" else [])
    completed_buttons = []
    if mode == "end" and not duel:
        pool = marker_pool(record)
        for kind in TASK_TYPES:
            values = [(v, markers_left(record, kind, v)) for v in sorted(pool[kind])]
            completed_buttons.append((kind, values))
    tile_task = None
    if offered is not None and offered.task is not None:
        tile_task = offered.task
    data = None
    all_task_values: list[tuple[int, int]] = []
    if mode != "view":
        data = play_data(position, board, mode=mode, at=sel.at, tile=sel.tile, rot=sel.rot,
                         page=base, player=player)
        all_types = task_options(None, duel)
        all_task_values = [(v, sum(max(0, markers_left(record, t, v)) for t in all_types
                                   if v in playing.pool.get(t, {})))
                           for v in playing.values(all_types)]
    return {
        "position": position,
        "record": record,
        "sel": sel,
        "mode": mode,
        "duel": duel,
        "turn": turn,
        "player": player,
        "offered": offered,
        "landscapes": landscapes,
        "board": board,
        "legal_hexes": sorted(legal),
        "rotations": rotations,
        "rot": rot,
        "preview": preview,
        "preview_legal": preview_legal,
        "catalogue": catalogue[:CATALOGUE_LIMIT],
        "catalogue_more": max(0, len(catalogue) - CATALOGUE_LIMIT),
        "pattern": pattern,
        "tile_section": section,
        "task_types": types,
        "task_values": task_values,
        "picks": picks,
        "task_due": not duel and mode == "live" and next_tile_kind(position.game) == "task",
        "flags": flags,
        "chosen_flags": chosen_flags,
        "is_task_tile": duel or section is None or "task" in section,
        "tile_task": tile_task,
        "play_data": data,
        "all_task_types": task_options(None, duel),
        "all_task_values": all_task_values,
        "all_flag_types": FLAG_TYPES,
        "letter_of": LETTER_OF,
        "flag_types": [f for f in FLAG_TYPES if sel.tile is None or LETTER_OF[f] in sel.tile],
        "specials": [s for s in SPECIAL_TILES if s in playing.specials] + [
            s for s in playing.specials if s not in SPECIAL_TILES],
        "terrains": list(TERRAINS.items()),
        "territory_types": TERRITORY_TYPES,
        "completed": record.completed,
        "completed_total": completed_total(record),
        "completed_buttons": completed_buttons,
        "link": page_link(base, sel),
        "tile_link": link_prefix(base, sel, "tile", rot=None, f=None),
        "hex_link": link_prefix(base, sel, "at", rot=None),
        "shapes": origin_shapes(),
        "tile_icon": tile_icon,
    }
