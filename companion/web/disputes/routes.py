"""Disputes at the table and the rules page: "may this tile go here?", "what happens to my
tasks?", and the rulings, searchable.

Representation: blueprint ``disputes``. ``GET /games/<id>/dispute`` asks with the URL
(``views.Question``): ``at=Q,R`` (or ``q`` and ``r``), ``code`` (six letters, as printed
on the tile before turning), ``rotation`` (0-5 steps clockwise; missing: the best
fitting one), ``task`` (``forest/5``, optional), ``turn`` (the position: after that many
placements of the landscape; default the current one) and ``player`` (duel landscape).
The player taps a free hex of the map, then a tile of the picker (the recorder's: the
tiles that fit there, best match first, ``views.picks``), and sees the answer
(``views.Ruling`` from ``views.rule_on``) with the rotate buttons; a tile the picker
does not show is typed ("other tile"). Read-only: nothing is stored.
``GET /rules?q=flag``: the rules page, searchable with a plain GET query
(``companion.rules.rulebook``).
"""

from __future__ import annotations

from flask import Blueprint, Response, request, url_for
from flask_babel import gettext
from flask_babel import gettext as _

from companion.rules import (
    Hex,
    Placement,
    Position,
    RulesError,
    next_tile_kind,
    parse_record,
    replay,
    rotate,
    search_rules,
)
from companion.web import access
from companion.web.disputes.views import (
    Question,
    Ruling,
    back_to,
    best_rotation,
    hex_prefix,
    picks,
    question_link,
    rotations,
    rule_on,
)
from companion.web.hexmap import map_view, origin_shapes, tile_icon
from companion.web.play.tiles import painted_code
from companion.web.reasons import say
from companion.web.render import render

bp = Blueprint("disputes", __name__)


@bp.get("/games/<int:game_id>/dispute")
def dispute(game_id: int) -> Response:
    game, level = access.load_game(game_id)
    record = parse_record(game["record"])
    players = [s.player for s in record.sections if s.player]
    ask = Question.parse(request.args)
    if ask.player not in players:
        ask.player = players[0] if players else ""
    position = Position(game["record"], record, replay(record))  # fresh: it is popped
    board = back_to(position.board(ask.player or None), ask.turn)
    base = url_for("disputes.dispute", game_id=game_id)
    error: str | None = None
    ruling: Ruling | None = None
    at = ask.at
    tile = painted_code(list(ask.code)) if len(ask.code) == 6 else None
    if ask.bad_at:
        error = _("Give the position as two whole numbers q and r.")
    elif ask.code and at is None:
        error = _("Tap a dashed space on the map first.")
    elif ask.rotation is not None and not 0 <= ask.rotation <= 5:
        error = _("Rotation is 0 to 5 steps clockwise.")
    elif ask.code and at is not None:
        if ask.rotation is None and tile is not None:
            ask.rotation = best_rotation(board, at, tile)
        try:
            ruling = rule_on(board, record.game, at, ask.code, ask.rotation or 0,
                             ask.task or None, record)
        except RulesError as err:
            error = say(err)
    rot = ask.rotation or 0
    legal: list[Hex] = []
    preview = None
    if ruling is not None and at is not None:
        legal = sorted({h for h, _k in board.legal_placements(Placement(at, ask.code))})
        preview = Placement(at, rotate(ask.code, rot))
    drawing = map_view(board, legal=legal, selected=at, preview=preview,
                       preview_legal=bool(ruling and ruling.legal))
    found = picks(position, board, at) if at is not None and not ask.code else []
    taken = at is not None and at in board.tiles
    return render("disputes/dispute.html", "disputes/_dispute.html",
                  status=400 if error else 200, game=game, level=level, ask=ask,
                  ruling=ruling, error=error, players=players,
                  placements=len(board.history), map=drawing, picks=found,
                  duel=record.is_duel, rot=rot, taken=taken,
                  task_due=bool(found) and ask.turn is None and not record.is_duel
                  and next_tile_kind(position.game) == "task",
                  rotations=rotations(ask.code, rot, ruling.legal_rotations) if ruling else [],
                  link=question_link(base, ask), hex_link=hex_prefix(base, ask),
                  shapes=origin_shapes(), tile_icon=tile_icon)


@bp.get("/rules")
def rules() -> Response:
    query = request.args.get("q", "").strip()[:100]
    sections, rulings = search_rules(query, gettext)
    return render("disputes/rules.html", "disputes/_rules.html", query=query,
                  sections=sections, rulings=rulings)
