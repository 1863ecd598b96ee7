"""Disputes at the table and the rules page: "may this tile go here?", "what happens to my
tasks?", and the rulings, searchable.

Representation: blueprint ``disputes``. ``GET /games/<id>/dispute`` with the query ``q``,
``r``, ``code`` (six letters, as printed on the tile before turning), ``rotation`` (0-5
steps clockwise), ``task`` (``forest/5``, optional), ``turn`` (the position: after that
many placements of the landscape; default the current one) and ``player`` (duel
landscape). The answer (``views.Ruling``) comes from the engine (``views.rule_on``). The
free hexes of the map are links to the same question asked there. Read-only: nothing is
stored. ``GET /rules?q=flag``: the rules page, searchable with a plain GET query
(``companion.rules.rulebook``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request, url_for
from flask_babel import gettext
from flask_babel import gettext as _

from companion.rules import Hex, RulesError, parse_record, search_rules
from companion.web import access
from companion.web.disputes.views import Ruling, board_at, rule_on
from companion.web.forms import whole
from companion.web.hexmap import SMALL, map_view
from companion.web.reasons import say
from companion.web.render import render

bp = Blueprint("disputes", __name__)


def query_int(name: str) -> int | None:
    return whole(request.args.get(name))


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
                error = say(err)
    status = 400 if error else 200
    frontier = board.frontier()
    keep = {k: v for k, v in args.items() if k not in ("q", "r") and v != ""}
    links = {f"{h.q},{h.r}": url_for("disputes.dispute", game_id=game_id, q=h.q, r=h.r, **keep)
             for h in frontier}
    return render("disputes/dispute.html", "disputes/_dispute.html", status=status, game=game,
                  level=level, args=args, ruling=ruling, error=error, players=players,
                  placements=len(board.history), drawing=map_view(board, size=SMALL),
                  free_links=links, asked=f"{args['q']},{args['r']}")


@bp.get("/rules")
def rules() -> Response:
    query = request.args.get("q", "").strip()[:100]
    sections, rulings = search_rules(query, gettext)
    return render("disputes/rules.html", "disputes/_rules.html", query=query,
                  sections=sections, rulings=rulings)
