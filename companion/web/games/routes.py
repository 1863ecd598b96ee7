"""Games: the home list, the score page, new game, import, the game page, download, share
links, edits, and ``POST /api/score``.

Representation: blueprint ``games``. Every edit form carries the game's ``version``
(hidden field); an edit goes through ``companion.web.edits.versioned_edit``: a stale one
gets ``conflict_response`` (409, saying so and showing the current state). Writes go
through ``records`` (one transaction each). Successful edits answer with the header
``X-Game-Version`` (the offline queue uses it to rebase waiting submissions).
``POST /api/score`` (JSON, CSRF-exempt: it changes nothing) scores a record.

Routes:
  GET  /                        the games in progress and finished
  GET  /score, POST /score      score a record without saving it
  POST /api/score               record (text/plain) -> sheet JSON
  GET  /games/new, POST         a new game (board game or duel), then the recorder
  GET  /games/import, POST      import a record (finished or not)
  GET  /games/<id>              the game page: score sheet, maps, actions
  GET  /games/<id>.dorf         download the record
  GET  /s/<token>               share link (look or edit)
  POST /games/<id>/share/new     the owner revokes the links and gets new ones
  GET  /games/<id>/edit, POST   edit the record text (version)
  POST /games/<id>/finish       mark the game finished (version)
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from flask import Blueprint, Response, jsonify, make_response, redirect, request, url_for
from flask_babel import gettext as _

from companion.rules import RulesError, parse_record, replay, score_text
from companion.storage import sharing
from companion.web import access, records
from companion.web.db import get_db
from companion.web.edits import after_edit, expected_version, versioned_edit
from companion.web.forms import record_from_form
from companion.web.games.views import game_context, score_view
from companion.web.reasons import say_error
from companion.web.render import go, render
from companion.web.security import csrf_exempt

bp = Blueprint("games", __name__)

CARDS = tuple(f"{kind}-{t}" for kind in ("large", "master", "many")
              for t in ("forest", "grain", "village"))
THEN = {"play": "play.board", "end": "play.end", "photo": "photos.new"}
"""Where a new game opens: the recorder, the final-map entry or the photo upload."""
NAME = re.compile(r"^[^\n\r,:#]{1,40}$")
EXAMPLE = """game: board-game
players: Ana, Rui
0 0 GGGGGG task=grain/4
0 -1 MMMGMM
1 -1 MGGMGG flag=grain
1 0 MMMMMG
"""


# ------------------------------------------------------------------ helpers
def with_version(response: Response, version: int) -> Response:
    response.headers["X-Game-Version"] = str(version)
    return response


def conflict_response(game_id: int, message: str | None = None) -> Response:
    """409: someone saved first; show the current state of the game."""
    game, level = access.load_game(game_id)
    context = game_context(game, level, message=message or _(
        "Someone else changed this game while you were editing it. Here is the current "
        "state; your change was not saved."))
    page = render("games/conflict.html", "games/_conflict.html", status=409, **context)
    return with_version(page, game["version"])


def see_game(game_id: int, version: int | None = None) -> Response:
    """POST-redirect-GET to the game page (htmx: the fragment, with HX-Push-Url)."""

    def fragment() -> Response:
        game, level = access.load_game(game_id)
        return render("games/game.html", "games/_game.html", **game_context(game, level))

    response = after_edit(url_for("games.show", game_id=game_id), fragment)
    if version is not None:
        with_version(response, version)
    return response


def validate(text: str) -> str | None:
    try:
        replay(parse_record(text))
    except RulesError as err:
        return say_error(err)
    return None


# -------------------------------------------------------------------- routes
@bp.route("/games/new", methods=["GET", "POST"])
def new() -> Response:
    then = request.values.get("then", "play")
    then = then if then in THEN else "play"
    form: dict[str, Any] = {"kind": "board-game", "players": "", "modules": ["1", "2"],
                            "cards": [], "then": then}
    if request.method == "GET":
        return render("games/new_game.html", "games/_new_game.html", form=form, cards=CARDS,
                      error=None)
    form = {"kind": request.form.get("kind", "board-game"),
            "players": request.form.get("players", ""),
            "modules": request.form.getlist("modules"), "cards": request.form.getlist("cards"),
            "then": then}
    text, error = new_record(form)
    if error is None:
        error = validate(text)
    if error is not None:
        return render("games/new_game.html", "games/_new_game.html", status=400, form=form,
                      cards=CARDS, error=error)
    game_id = records.create_game(get_db(), text, access.owner_id())
    return go(url_for(THEN[then], game_id=game_id))


def new_record(form: dict[str, Any]) -> tuple[str, str | None]:
    """The header of a new game's record, or a translated error."""
    names = [n.strip() for n in form["players"].split(",") if n.strip()]
    if any(not NAME.match(n) for n in names):
        return "", _("Player names: up to 40 characters each, no ':' or '#', separated by "
                     "commas.")
    lines = [f"date: {date.today().isoformat()}"]
    if form["kind"] == "duel":
        names = names or ["red", "blue"]
        if not 2 <= len(names) <= 4 or len(set(names)) != len(names):
            return "", _("The duel needs two to four different player (or team) names.")
        modules = sorted({m for m in form["modules"] if m in ("1", "2")})
        cards = [c for c in form["cards"] if c in CARDS]
        if cards and "1" not in modules:
            return "", _("Task cards belong to Module 1: tick Module 1 or no cards.")
        lines.insert(0, "game: duel")
        if modules:
            lines.append("modules: " + ", ".join(modules))
        if cards:
            lines.append("cards: " + ", ".join(cards))
        lines.extend(f"player: {n}" for n in names)
    elif form["kind"] == "board-game":
        lines.insert(0, "game: board-game")
        if names:
            lines.append("players: " + ", ".join(names))
    else:
        return "", _("Choose the board game or the duel.")
    return "\n".join(lines) + "\n", None


@bp.route("/games/import", methods=["GET", "POST"])
def upload() -> Response:
    if request.method == "GET":
        return render("games/import.html", "games/_import.html", text="", error=None, finished=True)
    text, error = record_from_form()
    finished = request.form.get("finished") == "1"
    if error is None:
        error = validate(text)
    if error is not None:
        return render("games/import.html", "games/_import.html", status=400, text=text, error=error,
                      finished=finished)
    game_id = records.create_game(get_db(), text, access.owner_id(), finished=finished)
    return see_game(game_id)


@bp.get("/games/<int:game_id>")
def show(game_id: int) -> Response:
    game, level = access.load_game(game_id)
    return with_version(render("games/game.html", "games/_game.html", **game_context(game, level)),
                        game["version"])


@bp.get("/games/<int:game_id>.dorf")
def download(game_id: int) -> Response:
    game, _level = access.load_game(game_id)
    response = make_response(game["record"])
    response.content_type = "text/plain; charset=utf-8"
    response.headers["Content-Disposition"] = f'attachment; filename="game-{game_id}.dorf"'
    return response


@bp.get("/s/<token>")
def shared(token: str) -> Response:
    game_id = access.open_link("game", token)
    return make_response(redirect(url_for("games.show", game_id=game_id), 303))


@bp.post("/games/<int:game_id>/share/new")
def new_links(game_id: int) -> Response:
    """The owner revokes the game's share links: new ones, and whoever opened the old
    ones loses access (a leaked edit link stops working)."""
    access.load_game(game_id, need="owner")
    sharing.reissue(get_db(), "games", game_id)
    return make_response(redirect(url_for("games.show", game_id=game_id), 303))


@bp.route("/games/<int:game_id>/edit", methods=["GET", "POST"])
def edit(game_id: int) -> Response:
    game, level = access.load_game(game_id, need="edit")
    if request.method == "GET":
        return render("games/edit.html", "games/_edit.html", game=game, text=game["record"],
                      error=None, version=game["version"])
    version = expected_version()
    text, error = record_from_form()
    if error is None:
        error = validate(text)
    if error is not None:
        return render("games/edit.html", "games/_edit.html", status=400, game=game, text=text,
                      error=error, version=version)
    return versioned_edit(lambda: records.save_record(get_db(), game_id, version, text),
                          expected=version, stale=lambda: conflict_response(game_id),
                          refused=lambda reason: conflict_response(game_id, reason),
                          done=lambda new_version: see_game(game_id, new_version))


@bp.post("/games/<int:game_id>/finish")
def finish(game_id: int) -> Response:
    game, _level = access.load_game(game_id, need="edit")
    version = expected_version()
    if game["status"] == "finished":
        return see_game(game_id)
    return versioned_edit(lambda: records.finish(get_db(), game_id, version),
                          expected=version, stale=lambda: conflict_response(game_id),
                          refused=lambda reason: conflict_response(game_id, reason),
                          done=lambda new_version: see_game(game_id, new_version))


@bp.get("/")
def home() -> Response:
    owner = access.owner_id()
    games = records.games_for(get_db(), owner, access.shared_ids("game"))
    campaigns = records.campaign_names(get_db(), {g.get("campaign_id") for g in games})
    for g in games:
        g["campaign"] = campaigns.get(g.get("campaign_id"))
    playing = [g for g in games if g["status"] == "in_progress"]
    finished = [g for g in games if g["status"] == "finished"]
    return render("games/home.html", "games/_games_list.html", playing=playing, finished=finished)


@bp.route("/score", methods=["GET", "POST"])
def score() -> Response:
    if request.method == "GET":
        return render("games/score.html", "games/_score.html", text=EXAMPLE, error=None,
                      result=None)
    text, error = record_from_form()
    result = None
    if error is None:
        try:
            result = score_view(text)
        except RulesError as err:
            error = say_error(err)
    status = 400 if error else 200
    return render("games/score.html", "games/_score.html", status=status, text=text, error=error,
                  result=result)


@bp.post("/api/score")
@csrf_exempt
def api_score() -> tuple[Response, int] | Response:
    text = request.get_data(as_text=True)
    try:
        return jsonify(score_text(text))
    except RulesError as err:
        return jsonify({"error": str(err), "line": err.line}), 400
