"""Games: new game, import a record, the game page, download, share links, edits.

Every edit form carries the game's ``version`` (hidden field); a stale edit gets
``conflict_response`` (409, saying so and showing the current state). Writes go
through ``records`` (one transaction each). Successful edits answer with the header
``X-Game-Version`` (the offline queue uses it to rebase waiting submissions).
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    make_response,
    redirect,
    request,
    url_for,
)
from flask_babel import gettext as _

from companion.rules import RulesError, parse_record, replay
from companion.storage import sharing
from companion.storage.errors import StaleEditError
from companion.web import access, records
from companion.web.db import get_db
from companion.web.forms import int_field, record_from_form
from companion.web.render import is_htmx, render
from companion.web.scoring import ScoreView, score_view

bp = Blueprint("games", __name__)

CARDS = tuple(f"{kind}-{t}" for kind in ("large", "master", "many")
              for t in ("forest", "grain", "village"))
NAME = re.compile(r"^[^\n\r,:#]{1,40}$")


# ------------------------------------------------------------------ helpers
def view_of(record: str) -> tuple[ScoreView | None, str | None]:
    try:
        return score_view(record), None
    except RulesError as err:
        return None, str(err)


def game_context(game: dict[str, Any], level: str, **extra: Any) -> dict[str, Any]:
    view, error = view_of(game["record"])
    share = None
    if level == "owner":
        share = {
            "view": url_for("games.shared", token=game["view_token"], _external=True),
            "edit": url_for("games.shared", token=game["edit_token"], _external=True),
        }
    return dict(game=game, level=level, view=view, view_error=error,
                summary=records.summary(game["record"]), share=share,
                can_edit=access.can_edit(level), **extra)


def with_version(response: Response, version: int) -> Response:
    response.headers["X-Game-Version"] = str(version)
    return response


def conflict_response(game_id: int, message: str | None = None) -> Response:
    """409: someone saved first; show the current state of the game."""
    game, level = access.load_game(game_id)
    context = game_context(game, level, message=message or _(
        "Someone else changed this game while you were editing it. Here is the current "
        "state; your change was not saved."))
    return with_version(render("conflict.html", "_conflict.html", status=409, **context),
                        game["version"])


def see_game(game_id: int, version: int | None = None) -> Response:
    """POST-redirect-GET to the game page (htmx: the fragment, with HX-Push-Url)."""
    target = url_for("games.show", game_id=game_id)
    if is_htmx():
        game, level = access.load_game(game_id)
        response = render("game.html", "_game.html", **game_context(game, level))
        response.headers["HX-Push-Url"] = target
    else:
        response = make_response(redirect(target, 303))
    if version is not None:
        with_version(response, version)
    return response


def validate(text: str) -> str | None:
    try:
        replay(parse_record(text))
    except RulesError as err:
        return str(err)
    return None


# -------------------------------------------------------------------- routes
@bp.route("/games/new", methods=["GET", "POST"])
def new() -> Response:
    form: dict[str, Any] = {"kind": "board-game", "players": "", "modules": ["1", "2"],
                            "cards": []}
    if request.method == "GET":
        return render("new_game.html", "_new_game.html", form=form, cards=CARDS, error=None)
    form = {"kind": request.form.get("kind", "board-game"),
            "players": request.form.get("players", ""),
            "modules": request.form.getlist("modules"), "cards": request.form.getlist("cards")}
    text, error = new_record(form)
    if error is None:
        error = validate(text)
    if error is not None:
        return render("new_game.html", "_new_game.html", status=400, form=form, cards=CARDS,
                      error=error)
    game_id = records.create_game(get_db(), text, access.owner_id())
    target = url_for("play.board", game_id=game_id)
    if is_htmx():
        response = make_response("", 204)
        response.headers["HX-Redirect"] = target
        return response
    return make_response(redirect(target, 303))


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
        return render("import.html", "_import.html", text="", error=None, finished=True)
    text, error = record_from_form()
    finished = request.form.get("finished") == "1"
    if error is None:
        error = validate(text)
    if error is not None:
        return render("import.html", "_import.html", status=400, text=text, error=error,
                      finished=finished)
    game_id = records.create_game(get_db(), text, access.owner_id(), finished=finished)
    return see_game(game_id)


@bp.get("/games/<int:game_id>")
def show(game_id: int) -> Response:
    game, level = access.load_game(game_id)
    return with_version(render("game.html", "_game.html", **game_context(game, level)),
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
    found = sharing.find_token(get_db(), "games", token) if len(token) <= 64 else None
    if found is None:
        abort(404)
    game_id, level = found
    access.grant("game", game_id, level)
    return make_response(redirect(url_for("games.show", game_id=game_id), 303))


@bp.route("/games/<int:game_id>/edit", methods=["GET", "POST"])
def edit(game_id: int) -> Response:
    game, level = access.load_game(game_id, need="edit")
    if request.method == "GET":
        return render("edit.html", "_edit.html", game=game, text=game["record"], error=None,
                      version=game["version"])
    version = int_field("version")
    if version is None:
        abort(400)
    text, error = record_from_form()
    if error is None:
        error = validate(text)
    if error is not None:
        return render("edit.html", "_edit.html", status=400, game=game, text=text,
                      error=error, version=version)
    try:
        new_version = records.save_record(get_db(), game_id, version, text)
    except StaleEditError:
        return conflict_response(game_id)
    return see_game(game_id, new_version)


@bp.post("/games/<int:game_id>/finish")
def finish(game_id: int) -> Response:
    game, _level = access.load_game(game_id, need="edit")
    version = int_field("version")
    if version is None:
        abort(400)
    if game["status"] == "finished":
        return see_game(game_id)
    try:
        new_version = records.finish(get_db(), game_id, version)
    except StaleEditError:
        return conflict_response(game_id)
    return see_game(game_id, new_version)
