"""What the recorder page carries so choosing, rotating, placing and undoing work offline.

Representation: ``play_data(...)`` is a plain JSON-able dict, embedded in the page as
``<script type="application/json" id="play-data">`` (data, never run: the CSP stays
``script-src 'self'``) and read by ``static/play-offline.js``:

* ``edges``: the edge-compatibility table, letter -> the letters it may meet, generated
  from the engine's ``edges_can_meet`` (never written by hand; a test checks every pair).
* ``dirs``: the six neighbour offsets (edge order 0..5), ``size``: the map's hex size.
* ``cells``: the active landscape in placement order, ``[q, r, code, has task]``;
  ``turns``: the turn of each of them (the heading counts on from there).
* ``lands``: every landscape in the record's order (one in the board game, player ``""``):
  ``{"player", "cells": [[q, r, code, task text or "", a Duel special tile (same turn as
  the line above), turn, and the tile's ``split=`` when it has one], ...]}``;
  ``player``: the landscape shown; ``duel``;
  ``duel_specials``: the special tiles that share the turn of the line above.
* ``tiles``: every catalogue tile (``companion.web.play.tiles.choices``), ``[code, section,
  copies left in this game's box (0 when none or not in play), copies the box holds,
  whether its section is in play]``.
* ``due``: the stack the next tile comes from (``task``, ``landscape``; None otherwise).
* ``order``: the inputs of the reveal order (rules.md section 4) for the script to know the
  stack due after the placements waiting in the queue (``nextKind`` in play-offline.js,
  the engine's ``next_tile_kind``): ``first`` turns reveal task tiles, then a task tile
  while fewer than ``min_active`` markers are active and fewer than ``tasks`` task tiles
  are placed; after ``landscape`` landscape tiles only a tile that completed or failed a
  marker lets task tiles go on. None when the engine names no stack (the Duel, an
  end-of-game entry): placements never change that.
* ``sel``: the page's selection (``at`` as ``[q, r]``, ``tile``, ``rot``).
* ``local``: whether the page may record offline (the board game's live and end-of-game
  entry, the Duel's live recording).
* ``page``: the page's address without a query (refreshed when the queue is sent).
* ``text``: the strings the script shows, in the page's language.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from companion.rules import (
    DIRECTIONS,
    DUEL_SPECIALS,
    FIRST_TASK_TURNS,
    LETTER_OF,
    MIN_ACTIVE,
    TERRAINS,
    Board,
    Position,
    Record,
    canonical,
    edges_can_meet,
    in_play,
    next_tile_kind,
    stack_limits,
    tiles_left,
)
from companion.web.hexmap import SIZE
from companion.web.play.tiles import choices


def edge_table() -> dict[str, str]:
    """Each terrain letter -> the letters its edge may touch (``edges_can_meet``)."""
    return {a: "".join(b for b in TERRAINS if edges_can_meet(a, b)) for a in TERRAINS}


def texts() -> dict[str, str]:
    """The script's strings, translated (placeholders ``%(name)s`` are filled in JS)."""
    return {
        "hex": _("Hex %(q)s %(r)s"),
        "turn": _("Turn %(n)s"),
        "duel_turn": _("Turn %(n)s: %(player)s places"),
        "tiles": _("%(n)s tiles"),
        "offered": _("The tile the other player placed this turn is chosen for you."),
        "no_recent": _("No recent pattern fits here: paint the edges below."),
        "tap_hex": _("Tap a dashed hex next to the map."),
        "other_tile": _("other tile"),
        "free_hex": _("Free hex"),
        "picker": _("Tiles that fit here"),
        "none_fits": _("No tile left in the box fits here."),
        "task_due": _("This turn draws a task tile: task tiles come first."),
        "task": _("task"),
        "fits": _("fits"),
        "rotation": _("Rotation"),
        "rotate_right": _("Rotate right"),
        "no_fit_here": _("This rotation does not fit here (placing it will say why)."),
        "fits_nowhere": _("This tile fits nowhere on the map."),
        "place": _("Place %(code)s at %(q)s %(r)s"),
        "place_no_marker": _("Place without a marker"),
        "refused_place": _("Not placed: %(code)s at %(q)s %(r)s. %(reason)s"),
        "refused_other": _("Not saved: %(reason)s"),
        "dismiss": _("Dismiss"),
        "redo": _("Redo"),
        "needs_connection": _("You are offline: this needs the connection."),
    }


def land(position: Position, player: str | None) -> dict[str, Any]:
    board = position.board(player)
    return {"player": player or "",
            "cells": [[p.at.q, p.at.r, p.code, p.task.text() if p.task else "",
                       p.special in DUEL_SPECIALS, turn, *([p.split] if p.split else [])]
                      for p, turn in zip(board.history, board.turns, strict=True)]}


def reveal_order(record: Record) -> dict[str, int]:
    """The board game's reveal-order inputs (``order`` above), from the engine."""
    landscape, tasks = stack_limits(record)
    return {"first": FIRST_TASK_TURNS, "min_active": MIN_ACTIVE,
            "landscape": landscape, "tasks": tasks}


def play_data(position: Position, board: Board, *, mode: str, at: tuple[int, int] | None,
              tile: str | None, rot: int | None, page: str,
              player: str | None = None) -> dict[str, Any]:
    record = position.record
    left = tiles_left(record, board) if not position.is_duel else None
    playing = in_play(record).sections
    tiles = [[c.code, c.section, 0 if left is None
              else max(0, left.get((c.section, canonical(c.code)), 0)), c.count,
              c.section in playing]
             for c in choices()]
    due = next_tile_kind(position.game) if mode == "live" else None
    return {
        "edges": edge_table(),
        "dirs": [[d.q, d.r] for d in DIRECTIONS],
        "size": SIZE,
        "letters": LETTER_OF,
        "cells": [[p.at.q, p.at.r, p.code, p.task is not None] for p in board.history],
        "turns": list(board.turns),
        "mode": mode,
        "tiles": tiles,
        "due": due if due in ("task", "landscape") else None,
        "order": reveal_order(record) if due is not None else None,
        "lands": [land(position, name) for name in position.players],
        "player": player or "",
        "duel": position.is_duel,
        "duel_specials": list(DUEL_SPECIALS),
        "sel": {"at": list(at) if at else None, "tile": tile, "rot": rot},
        "local": mode == "live" or (mode == "end" and not position.is_duel),
        "page": page,
        "text": texts(),
    }
