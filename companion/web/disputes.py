"""Disputes at the table: "may this tile go here?" and "what happens to my tasks?".

Representation: ``GET /games/<id>/dispute`` with the query ``q``, ``r``, ``code`` (six
letters, as printed on the tile before turning), ``rotation`` (0-5 steps clockwise),
``task`` (``forest/5``, optional), ``turn`` (the position: after that many placements
of the landscape; default the current one) and ``player`` (duel landscape). The answer
(``Ruling``) comes from the engine: ``Board.why_illegal`` for the rule broken, and a
``push`` / inspect / ``pop`` for the markers that would complete or fail, plus the
legal rotations of that tile on that hex. The free hexes of the map are links to the
same question asked there. Read-only: nothing is stored.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import Blueprint, Response, request, url_for
from flask_babel import gettext as _

from companion.rules import (
    Board,
    Hex,
    Record,
    RulesError,
    parse_placement,
    parse_record,
    replay,
    rotate,
)
from companion.web import access
from companion.web.mapsvg import draw
from companion.web.render import render

bp = Blueprint("disputes", __name__)


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
    reason = board.why_illegal(placement)
    ruling = Ruling(text, reason is None, reason, legal_rotations=legal_rotations)
    if reason is not None:
        return ruling
    before = {m.index: m.state for m in board.markers}
    board.push(placement)
    try:
        for m in board.markers:
            new = m.index not in before
            if m.state != "active" and (new or before[m.index] == "active"):
                ruling.changes.append(MarkerChange(m.task.text(), str(m.at), m.state,
                                                   m.reason, new))
            elif m.state == "active":
                ruling.still_active.append(MarkerChange(
                    m.task.text(), str(m.at), "active", board.marker_status(m)[1], new))
    finally:
        board.pop()
    return ruling


def distinct_rotations(code: str) -> list[int]:
    """The rotation steps giving different codes (``GGGGGG`` has only 0)."""
    seen: dict[str, int] = {}
    for k in range(6):
        seen.setdefault(rotate(code, k), k)
    return sorted(seen.values())


def query_int(name: str) -> int | None:
    try:
        return int(request.args.get(name, ""))
    except ValueError:
        return None


@bp.get("/games/<int:game_id>/dispute")
def dispute(game_id: int) -> Response:
    game, level = access.load_game(game_id)
    record = parse_record(game["record"])
    players = [s.player for s in record.sections if s.player]
    player = request.args.get("player") or (players[0] if players else None)
    turn = query_int("turn")
    args: dict[str, Any] = {
        "q": request.args.get("q", ""), "r": request.args.get("r", ""),
        "code": request.args.get("code", "").strip().upper(),
        "rotation": query_int("rotation") or 0, "task": request.args.get("task", "").strip(),
        "turn": "" if turn is None else turn, "player": player or "",
    }
    ruling: Ruling | None = None
    error: str | None = None
    board = board_at(record, player, turn)
    q, r = query_int("q"), query_int("r")
    asked = bool(args["code"])
    if asked:
        if q is None or r is None:
            error = _("Give the position as two whole numbers q and r.")
        elif not 0 <= args["rotation"] <= 5:
            error = _("Rotation is 0 to 5 steps clockwise.")
        else:
            try:
                ruling = rule_on(board, record.game, Hex(q, r), args["code"],
                                 args["rotation"], args["task"] or None)
            except RulesError as err:
                error = err.reason
    status = 400 if error else 200
    frontier = board.frontier()
    keep = {k: v for k, v in args.items() if k not in ("q", "r") and v != ""}
    links = {f"{h.q},{h.r}": url_for("disputes.dispute", game_id=game_id, q=h.q, r=h.r, **keep)
             for h in frontier}
    return render("dispute.html", "_dispute.html", status=status, game=game, level=level,
                  args=args, ruling=ruling, error=error, players=players,
                  placements=len(board.history), drawing=draw(board.tiles, frontier),
                  free_links=links, asked=f"{args['q']},{args['r']}")
