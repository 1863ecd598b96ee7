"""Recording a game on the phone: the map, placements, undo/redo, end-of-game entry.

Representation: blueprint ``play`` under ``/play/<game id>``. Every change is a
real form POST that answers with a redirect to the page (POST-redirect-GET), or,
for htmx (``HX-Request: true``), with the updated ``#play`` fragment and an
``HX-Push-Url`` of that page. A refused change (illegal placement, bad value,
someone else saved first) changes nothing and re-shows the page with one line
saying why (status 422, or 409 when someone else saved first; base.html's htmx
config swaps 4xx answers too).
The game itself is record text + version (``play.state``); all game logic is in
``companion.rules`` (``recording``: text in, text out); what a page shows is
``play.views``; every change is one ``companion.web.edits.versioned_edit``.

Routes:
  GET  /play/<id>                    the recorder (query: at, tile, rot, f, player, e0..e5)
  POST /play/<id>/place              place the chosen tile (fields: version, q, r, code, ...)
  POST /play/<id>/undo               take the most recent placement off (onto redo)
  POST /play/<id>/redo               put it back
  GET  /play/<id>/end                end-of-game entry: final map in any order + markers
  POST /play/<id>/completed          add a completed marker (type, value) to ``completed:``
  POST /play/<id>/completed/remove   remove one (index)
  GET  /play/<id>/map                the map with an explanation highlighted (?explain=PATH)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, abort, request, url_for
from flask_babel import gettext as _

from companion.rules import (
    Hex,
    Position,
    RulesError,
    add_completed,
    build_placement,
    load_position,
    place,
    redo,
    remove_completed,
    undo,
)
from companion.web.edits import (
    Refused,
    after_edit,
    expected_version,
    reason_of,
    versioned_edit,
)
from companion.web.errors import error_page
from companion.web.forms import int_field
from companion.web.play.explain import explanation_for
from companion.web.play.state import StoredGame, load_game, redo_stack, save_game
from companion.web.play.views import Selection, parse_hex, recorder_context
from companion.web.reasons import say, say_error
from companion.web.render import is_htmx, render

bp = Blueprint("play", __name__, url_prefix="/play")

MODES = ("live", "end")


def _mode() -> str:
    mode = request.values.get("mode", "live")
    return mode if mode in MODES else "live"


def _position(game: StoredGame) -> Position:
    try:
        return load_position(game.text)
    except RulesError as err:  # a stored record that no longer replays: say so, no trace
        abort(error_page(422, _("This game's record cannot be replayed: %(reason)s",
                                reason=say_error(err))))


def _page(game: StoredGame, sel: Selection, *, mode: str, error: str | None = None,
          notice: str | None = None, status: int = 200, form: dict[str, Any] | None = None,
          push: str | None = None, explain: list[Hex] | None = None) -> Response:
    position = _position(game)
    endpoint = "play.end" if mode == "end" else "play.board"
    ctx = recorder_context(position, sel, mode=mode, explain_tiles=explain,
                           base=url_for(endpoint, game_id=game.id))
    ctx.update(game=game, error=error, notice=notice, form=form or {},
               redo_count=len(redo_stack(game)) if game.editable else 0,
               endpoint=endpoint)
    headers = {"X-Game-Version": str(game.version)}
    if push and is_htmx():
        headers["HX-Push-Url"] = push
    return render("play/record.html", "play/_recorder.html", status=status, headers=headers,
                  **ctx)


def _page_url(game_id: int, mode: str, **query: Any) -> str:
    endpoint = "play.end" if mode == "end" else "play.board"
    return url_for(endpoint, game_id=game_id, **query)


def _done(game_id: int, mode: str, notice: str | None = None, **query: Any) -> Response:
    """After a successful change: redirect (plain) or the fresh fragment (htmx)."""
    url = _page_url(game_id, mode, **query)

    def fragment() -> Response:
        sel = Selection.parse({k: str(v) for k, v in query.items()})
        return _page(load_game(game_id, "edit"), sel, mode=mode, notice=notice)

    return after_edit(url, fragment)


def _stale(game_id: int, sel: Selection, mode: str) -> Response:
    return _page(load_game(game_id, "edit"), sel, mode=mode, status=409,
                 error=_("Someone else changed this game meanwhile; this is the current map. "
                         "Nothing of yours was saved: place your tile again."))


def _edit(game: StoredGame, mode: str, version: int, change: Callable[[], str | None],
          refusals: tuple[type[Exception], ...] = (RulesError,)) -> Response:
    """One versioned edit of the recorder without a selection (undo, redo, completed
    markers): stale -> the current map (409), refused -> the reason (422), done -> the
    page with ``change``'s notice, if any."""
    return versioned_edit(change, expected=version, current=game.version,
                          stale=lambda: _stale(game.id, Selection(), mode),
                          refused=_refused(game, mode), refusals=refusals,
                          done=lambda notice: _done(game.id, mode, notice))


def _refused(game: StoredGame, mode: str, sel: Selection | None = None,
             form: dict[str, Any] | None = None) -> Callable[[str], Response]:
    """``refused`` of ``versioned_edit``: the page with the reason, 422."""

    def page(reason: str) -> Response:
        return _page(game, sel or Selection(), mode=mode, status=422, form=form, error=reason)

    return page


@bp.get("/<int:game_id>")
def board(game_id: int) -> Response:
    game = load_game(game_id, "view")
    return _page(game, Selection.parse(request.args), mode="live")


@bp.get("/<int:game_id>/end")
def end(game_id: int) -> Response:
    game = load_game(game_id, "view")
    return _page(game, Selection.parse(request.args), mode="end")


@bp.get("/<int:game_id>/map")
def explained_map(game_id: int) -> Response:
    """The map with the tiles behind one score-sheet number highlighted."""
    game = load_game(game_id, "view")
    position = _position(game)
    path = request.args.get("explain", "")
    player = request.args.get("player") or None
    found = explanation_for(position, path, player)
    sel = Selection(player=player)
    ctx = recorder_context(position, sel, mode="view", explain_tiles=found.tiles,
                           base=url_for("play.board", game_id=game.id))
    ctx.update(game=game, explanation=found, path=path, endpoint="play.board")
    return render("play/map.html", "play/_map_page.html", **ctx)


def _attributes() -> dict[str, str]:
    form = request.form
    task = form.get("task_type", "").strip()
    value = form.get("task_value", "").strip()
    if value and not task:
        raise Refused(_("Choose the task type for the marker %(value)s first.", value=value))
    if task and value:
        task = f"{task}/{value}"
    return {
        "task": task, "flag": form.get("flag", ""), "special": form.get("special", ""),
        "sheep": form.get("sheep", ""), "crossing": form.get("crossing", ""),
        "heart": form.get("heart", ""), "golden-heart": form.get("golden_heart", ""),
        "camera": form.get("camera", ""), "balloon": form.get("balloon", ""),
        "mill": form.get("mill", ""),
    }


def _form_selection() -> Selection:
    form = request.form
    sel = Selection.parse(form)
    q, r = form.get("q", ""), form.get("r", "")
    sel.at = parse_hex(f"{q},{r}") or sel.at
    return sel


@bp.post("/<int:game_id>/place")
def place_tile(game_id: int) -> Response:
    game = load_game(game_id, "edit")
    mode = _mode()
    sel = _form_selection()
    version = expected_version()

    def change() -> str:
        if sel.at is None:
            raise Refused(_("Choose a free hex next to the map first."))
        p = build_placement(_position(game).record.game, sel.at.q, sel.at.r,
                            request.form.get("code", ""),
                            _attributes())  # a cached replay: place() reuses it
        save_game(game.id, place(game.text, sel.player, p), version)  # clears redo
        return str(_("Placed %(code)s at %(q)s %(r)s.", code=p.code, q=p.at.q, r=p.at.r))

    next_query = {"player": sel.player} if mode == "end" and sel.player else {}
    return versioned_edit(
        change, expected=version, current=game.version,
        stale=lambda: _stale(game_id, sel, mode),
        refused=_refused(game, mode, sel, dict(request.form)),
        wording=lambda err: _("Not allowed: %(reason)s", reason=reason_of(err)),
        done=lambda notice: _done(game_id, mode, notice, **next_query))


@bp.post("/<int:game_id>/undo")
def undo_last(game_id: int) -> Response:
    game = load_game(game_id, "edit")
    mode = _mode()
    version = expected_version()

    def change() -> str:
        text, entry = undo(game.text)
        save_game(game.id, text, version, redo=[*redo_stack(game), entry])
        return str(_("Took back %(line)s.", line=entry.line))

    return _edit(game, mode, version, change)


@bp.post("/<int:game_id>/redo")
def redo_last(game_id: int) -> Response:
    game = load_game(game_id, "edit")
    mode = _mode()
    version = expected_version()

    def change() -> str:
        stack = redo_stack(game)
        if not stack:
            raise Refused(_("Nothing to redo."))
        entry = stack[-1]
        try:
            text = redo(game.text, entry)
        except RulesError as err:
            raise Refused(_("Cannot redo: %(reason)s", reason=say(err))) from err
        save_game(game.id, text, version, redo=stack[:-1])
        return str(_("Put back %(line)s.", line=entry.line))

    return _edit(game, mode, version, change)


@bp.post("/<int:game_id>/completed")
def completed_add(game_id: int) -> Response:
    game = load_game(game_id, "edit")
    version = expected_version()

    def change() -> None:
        value = int_field("value")
        if value is None:
            raise Refused(_("choose a marker value"))
        save_game(game.id, add_completed(game.text, request.form.get("type", ""), value),
                  version)

    return _edit(game, "end", version, change)


@bp.post("/<int:game_id>/completed/remove")
def completed_remove(game_id: int) -> Response:
    game = load_game(game_id, "edit")
    version = expected_version()

    def change() -> None:
        index = int_field("index")
        text = remove_completed(game.text, -1 if index is None else index)
        save_game(game.id, text, version)

    return _edit(game, "end", version, change, refusals=(ValueError,))
