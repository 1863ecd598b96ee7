"""The campaign on the phone: list, sheet with the advancement track, unlock moments,
next-game set-up, history, share links, export/import and ``POST /api/campaign``.

Representation: blueprint ``campaigns``. A campaign is the storage's rows (games,
spending, achievements; ``companion.storage.campaigns``) replayed by the rules engine on
every read; the web adds an owner, share tokens and the confirmed mark (migration 3,
``companion.storage.sharing``). Every change is a form POST carrying the campaign ``version`` (the
in-progress game's version for finishing it) and the CSRF token; it answers with a
redirect to the sheet (POST-redirect-GET), or for htmx with the sheet fragment. A
refusal by the engine (an illegal circle, no cross left) changes nothing and re-shows the
sheet with one line saying why (422); a stale version gets the current sheet with 409.

Spending: each tap crosses one circle and is stored at once as a *pending* row (it
counts on the sheet and survives a reload); "Undo" takes back the newest pending row,
"Confirm" makes them final (``companion.storage.campaigns``).

Routes:
  GET  /campaigns                         the group's campaigns, new, import
  POST /campaigns                         create (name, players)
  POST /campaigns/import                  import a campaign zip (file)
  GET  /campaigns/<id>                    the sheet: track, moments, spending, next game
  GET  /campaigns/<id>/history            games, crosses, score chart, best, average
  GET  /campaigns/<id>.zip                export;  GET /campaigns/<id>.txt the record
  POST /campaigns/<id>/cross              cross one circle (version, path, from, circle)
  POST /campaigns/<id>/undo               undo the newest pending spend/tick (version)
  POST /campaigns/<id>/confirm            confirm the pending spending (version)
  POST /campaigns/<id>/achieve            tick an achievement (version, achievement)
  POST /campaigns/<id>/score              a finished game known by its total (version, score)
  POST /campaigns/<id>/upload             a finished game's record (version, record|file)
  POST /campaigns/<id>/games/new          start the next game (its record has unlocked:)
  GET  /campaigns/<id>/games/<gid>        the game's set-up reminders (finished: its sheet)
  GET  /campaigns/<id>/games/<gid>/open   open the recorder (or the game page)
  POST /campaigns/<id>/games/<gid>/finish finish a game in progress (version, score or none)
  GET  /c/<token>                         share link (look or edit)
  POST /api/campaign                      campaign record (text/plain) -> sheet JSON
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, TypeVar

from flask import (
    Blueprint,
    Response,
    abort,
    jsonify,
    make_response,
    redirect,
    request,
    url_for,
)
from flask_babel import gettext as _

from companion.rules import (
    PATH_BY_ID,
    CampaignError,
    RulesError,
    load_campaign,
    parse_record,
    replay,
)
from companion.storage import archive, sharing
from companion.storage import campaigns as storage
from companion.storage import games as storage_games
from companion.storage.errors import StaleEditError, StorageError
from companion.web import access, records
from companion.web.access import CampaignDenied, grant_game
from companion.web.access import load_campaign as load
from companion.web.campaigns.views import campaign_context
from companion.web.db import get_db
from companion.web.edits import after_edit, expected_version, versioned_edit
from companion.web.errors import error_page
from companion.web.forms import int_field, record_from_form
from companion.web.reasons import say_error
from companion.web.render import go, render
from companion.web.security import csrf_exempt, large_upload

bp = Blueprint("campaigns", __name__)
T = TypeVar("T")

NAME = re.compile(r"^[^\n\r#]{1,60}$")
PLAYER = re.compile(r"^[^\n\r,:#]{1,40}$")
ZIP_MAX = 20_000_000


# ------------------------------------------------------------------ helpers
@bp.errorhandler(CampaignDenied)
def denied(_err: CampaignDenied) -> Response:
    return error_page(403, _("This campaign belongs to someone else. Ask them for a share "
                             "link."))


def sheet(campaign_id: int, status: int = 200, **extra: Any) -> Response:
    """The campaign sheet (full page, or the fragment for htmx)."""
    campaign, level = load(campaign_id)
    ctx = campaign_context(get_db(), campaign, level, **extra)
    response = render("campaigns/campaign.html", "campaigns/_campaign.html", status=status,
                      **ctx)
    response.headers["X-Campaign-Version"] = str(campaign["version"])
    return response


def done(campaign_id: int, fresh: list[str] | None = None) -> Response:
    """After a successful change: redirect to the sheet, or the fresh fragment (htmx)."""
    return after_edit(
        url_for("campaigns.show", campaign_id=campaign_id),
        lambda: sheet(campaign_id, fresh=fresh or []), header="HX-Replace-Url",
        plain_url=url_for("campaigns.show", campaign_id=campaign_id,
                          new=",".join(fresh) if fresh else None))


def stale(campaign_id: int) -> Response:
    return sheet(campaign_id, status=409, message=_(
        "Someone else changed this campaign while you were looking at it. Here is the current "
        "sheet; your change was not saved."))


def refused(campaign_id: int, reason: str, status: int = 422) -> Response:
    return sheet(campaign_id, status=status, error=_("Not done: %(reason)s", reason=reason))


def edit(campaign_id: int, version: int, change: Callable[[], T], *,
         fresh: Callable[[T], list[str] | None] = lambda _result: None,
         refusals: tuple[type[Exception], ...] = (CampaignError,)) -> Response:
    """One versioned edit of the campaign (``companion.web.edits.versioned_edit``): the
    sheet again with 409 when stale, with the engine's reason (422) when refused."""
    return versioned_edit(change, expected=version, stale=lambda: stale(campaign_id),
                          refused=lambda reason: refused(campaign_id, reason),
                          refusals=refusals, wording=say_error,
                          done=lambda result: done(campaign_id, fresh(result)))


def fresh_ids(text: str) -> list[str]:
    return [u for u in text.split(",") if re.fullmatch(r"[a-z0-9-]{1,40}", u)][:20]


# -------------------------------------------------------------- list, create, import
@bp.get("/campaigns")
def index() -> Response:
    rows = storage.campaigns_for(get_db(), access.owner_id(), access.shared_ids("campaign"))
    return render("campaigns/index.html", "campaigns/_index.html", campaigns=rows,
                  form={"name": "", "players": ""}, error=None, import_error=None)


def _index_error(status: int, form: dict[str, str], error: str | None = None,
                 import_error: str | None = None) -> Response:
    rows = storage.campaigns_for(get_db(), access.owner_id(), access.shared_ids("campaign"))
    return render("campaigns/index.html", "campaigns/_index.html", status=status,
                  campaigns=rows, form=form, error=error, import_error=import_error)


@bp.post("/campaigns")
def create() -> Response:
    form = {"name": request.form.get("name", "").strip(),
            "players": request.form.get("players", "")}
    players = [p.strip() for p in form["players"].split(",") if p.strip()]
    if form["name"] and not NAME.match(form["name"]):
        return _index_error(400, form, _("Campaign name: up to 60 characters, no '#'."))
    if any(not PLAYER.match(p) for p in players) or len(set(players)) != len(players):
        return _index_error(400, form, _("Player names: up to 40 characters each, no ':' or "
                                         "'#', separated by commas, each once."))
    try:
        cid = storage.create_campaign(get_db(), form["name"] or None, players,
                                      owner=access.owner_id())
    except CampaignError as err:
        return _index_error(400, form, say_error(err))
    return go(url_for("campaigns.show", campaign_id=cid))


@bp.post("/campaigns/import")
@large_upload
def import_zip() -> Response:
    form = {"name": "", "players": ""}
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _index_error(400, form, import_error=_("Choose a campaign .zip file."))
    data = upload.read(ZIP_MAX + 1)
    try:
        owner = access.owner_id()
        cid = archive.import_campaign_zip(
            get_db(), data,
            on_insert=lambda db, new_id: sharing.give_to(db, "campaigns", new_id, owner))
    except StorageError as err:
        return _index_error(400, form, import_error=_("Not imported: %(reason)s",
                                                      reason=str(err)))
    return go(url_for("campaigns.show", campaign_id=cid))


# ------------------------------------------------------------------ reading
@bp.get("/campaigns/<int:campaign_id>")
def show(campaign_id: int) -> Response:
    return sheet(campaign_id, fresh=fresh_ids(request.args.get("new", "")))


@bp.get("/campaigns/<int:campaign_id>/history")
def history(campaign_id: int) -> Response:
    campaign, level = load(campaign_id)
    db = get_db()
    ctx = campaign_context(db, campaign, level)
    ctx["finished"] = {int(g["number"]): g for g in storage.finished_games(db, campaign_id)}
    return render("campaigns/history.html", "campaigns/_history.html", **ctx)


@bp.get("/campaigns/<int:campaign_id>.zip")
def export(campaign_id: int) -> Response:
    load(campaign_id)
    response = make_response(archive.export_campaign_zip(get_db(), campaign_id))
    response.mimetype = "application/zip"
    response.headers["Content-Disposition"] = (
        f'attachment; filename="campaign-{campaign_id}.zip"')
    return response


@bp.get("/campaigns/<int:campaign_id>.txt")
def record_text(campaign_id: int) -> Response:
    load(campaign_id)
    response = make_response(storage.campaign_record_text(get_db(), campaign_id))
    response.headers["Content-Type"] = "text/plain; charset=utf-8"
    response.headers["Content-Disposition"] = (
        f'attachment; filename="campaign-{campaign_id}.txt"')
    return response


@bp.get("/c/<token>")
def shared(token: str) -> Response:
    campaign_id = access.open_link("campaign", token)
    return make_response(redirect(url_for("campaigns.show", campaign_id=campaign_id), 303))


@bp.post("/campaigns/<int:campaign_id>/share/new")
def new_links(campaign_id: int) -> Response:
    """The owner revokes the campaign's share links (see ``games.new_links``)."""
    load(campaign_id, need="owner")
    sharing.reissue(get_db(), "campaigns", campaign_id)
    return make_response(redirect(url_for("campaigns.show", campaign_id=campaign_id), 303))


# ------------------------------------------------------------------ spending
@bp.post("/campaigns/<int:campaign_id>/cross")
def cross(campaign_id: int) -> Response:
    load(campaign_id, need="edit")
    version = expected_version()
    path = request.form.get("path", "")
    from_hex = request.form.get("from", "")
    circle = int_field("circle")
    db = get_db()
    before = storage.load_state(db, campaign_id)
    offered = {(c.path, c.from_hex): c.circle for c in before.legal_spends()}
    if path not in PATH_BY_ID or (path, from_hex) not in offered or (
            circle is not None and offered[(path, from_hex)] != circle):
        if storage.get_campaign(db, campaign_id)["version"] != version:
            return stale(campaign_id)
        return refused(campaign_id, _("that circle cannot be crossed now (only the circles "
                                      "next to a reached hex or a crossed circle, while "
                                      "crosses are left)."))
    return edit(campaign_id, version,
                lambda: storage.spend(db, campaign_id, path, 1, from_hex,
                                      expected_version=version),
                fresh=lambda after: after.unlock_log[len(before.unlock_log):])


@bp.post("/campaigns/<int:campaign_id>/undo")
def undo(campaign_id: int) -> Response:
    campaign, _level = load(campaign_id, need="edit")
    version = expected_version()
    return edit(campaign_id, version,
                lambda: storage.undo_pending(get_db(), campaign, version))


@bp.post("/campaigns/<int:campaign_id>/confirm")
def confirm(campaign_id: int) -> Response:
    load(campaign_id, need="edit")
    version = expected_version()
    return edit(campaign_id, version, lambda: storage.confirm(get_db(), campaign_id, version))


@bp.post("/campaigns/<int:campaign_id>/achieve")
def achieve(campaign_id: int) -> Response:
    load(campaign_id, need="edit")
    version = expected_version()
    achievement = request.form.get("achievement", "")
    return edit(campaign_id, version,
                lambda: storage.achieve(get_db(), campaign_id, achievement,
                                        expected_version=version),
                fresh=lambda _state: [achievement])


@bp.post("/campaigns/<int:campaign_id>/notes")
def note(campaign_id: int) -> Response:
    """The players' own note on an unlock whose card text the companion does not know."""
    load(campaign_id, need="edit")
    unlock_id = request.form.get("unlock", "")
    state = storage.load_state(get_db(), campaign_id)
    if unlock_id not in state.unlock_log:
        abort(400)
    try:
        storage.set_unlock_note(get_db(), campaign_id, unlock_id, request.form.get("text", ""))
    except StorageError:
        return refused(campaign_id, _("a note holds at most %(n)s characters.",
                                      n=storage.NOTE_LIMIT), 400)
    return done(campaign_id, None)


# ------------------------------------------------------------------ games
@bp.post("/campaigns/<int:campaign_id>/score")
def score(campaign_id: int) -> Response:
    load(campaign_id, need="edit")
    version = expected_version()
    total = int_field("score")
    if total is None or not 0 <= total <= 1000:
        return refused(campaign_id, _("type the game's total, a number from 0 to 1000."), 400)
    return edit(campaign_id, version,
                lambda: storage.record_score(get_db(), campaign_id, total,
                                             expected_version=version))


def _scored(text: str) -> tuple[dict[str, Any] | None, str | None]:
    """The sheet of a finished board-game record, or a one-line reason."""
    try:
        record = parse_record(text)
        replay(record)
    except RulesError as err:
        return None, say_error(err)
    if record.is_duel:
        return None, _("a campaign game is a board game, not a duel.")
    sheet_json = records.sheet_for(text)
    if sheet_json is None:
        return None, _("the record cannot be scored.")
    return sheet_json, None


@bp.post("/campaigns/<int:campaign_id>/upload")
def upload(campaign_id: int) -> Response:
    load(campaign_id, need="edit")
    version = expected_version()
    text, error = record_from_form()
    sheet_json = None
    if error is None:
        sheet_json, error = _scored(text)
    if error is not None or sheet_json is None:
        return refused(campaign_id, error or "", 400)
    total = records.total_of(sheet_json)
    return edit(campaign_id, version,
                lambda: storage.record_score(get_db(), campaign_id, total, record=text,
                                             sheet=sheet_json, expected_version=version))


def _finished_url(campaign_id: int, game: dict[str, Any]) -> str:
    """A finished game's score sheet; a game known only by its total has none, so its
    place in the campaign history instead."""
    if str(game["record"]).strip():
        return url_for("games.show", game_id=game["id"])
    return url_for("campaigns.history", campaign_id=campaign_id)


def _has_tiles(text: str) -> bool:
    try:
        return any(section.placements for section in parse_record(text).sections)
    except RulesError:
        return False


def _campaign_game(campaign_id: int, game_id: int) -> dict[str, Any]:
    try:
        game = storage_games.get_game(get_db(), game_id)
    except StorageError:
        abort(404)
    if game["campaign_id"] != campaign_id:
        abort(404)
    return game


@bp.post("/campaigns/<int:campaign_id>/games/new")
def new_game(campaign_id: int) -> Response:
    """Start the next game once per version of the campaign: a double tap, a resent form
    or another phone posting the same version is taken to the game already started."""
    _campaign, level = load(campaign_id, need="edit")
    db = get_db()
    try:
        game_id = storage.start_campaign_game(db, campaign_id, int_field("version"))
    except StaleEditError:
        started = storage.games_in_progress(db, campaign_id)
        if not started:
            return stale(campaign_id)
        game_id = int(started[-1]["id"])
    grant_game(game_id, level)
    return go(url_for("campaigns.game", campaign_id=campaign_id, game_id=game_id))


@bp.get("/campaigns/<int:campaign_id>/games/<int:game_id>")
def game(campaign_id: int, game_id: int) -> Response:
    campaign, level = load(campaign_id)
    found = _campaign_game(campaign_id, game_id)
    grant_game(game_id, level)
    if found["status"] == "finished":
        return make_response(redirect(_finished_url(campaign_id, found), 303))
    ctx = campaign_context(get_db(), campaign, level)
    try:
        unlocked = parse_record(found["record"]).unlocked
    except RulesError:
        unlocked = []
    return render("campaigns/game.html", "campaigns/_game.html", game=found,
                  record_unlocked=unlocked, **ctx)


@bp.get("/campaigns/<int:campaign_id>/games/<int:game_id>/open")
def open_game(campaign_id: int, game_id: int) -> Response:
    _campaign, level = load(campaign_id)
    found = _campaign_game(campaign_id, game_id)
    grant_game(game_id, level)
    if found["status"] == "finished":
        return make_response(redirect(_finished_url(campaign_id, found), 303))
    return make_response(redirect(url_for("play.board", game_id=game_id), 303))


@bp.post("/campaigns/<int:campaign_id>/games/<int:game_id>/finish")
def finish(campaign_id: int, game_id: int) -> Response:
    load(campaign_id, need="edit")
    found = _campaign_game(campaign_id, game_id)
    version = expected_version()
    typed = request.form.get("score", "").strip()
    sheet_json = None
    if typed:
        total = int_field("score")
        if total is None or not 0 <= total <= 1000:
            return refused(campaign_id, _("type the game's total, a number from 0 to 1000."),
                           400)
    else:
        sheet_json, error = _scored(found["record"])
        if sheet_json is not None and not _has_tiles(found["record"]):
            sheet_json, error = None, _("no tile recorded")
        if sheet_json is None:
            return refused(campaign_id, _("the record cannot be scored yet (%(reason)s); "
                                          "type the total instead.", reason=error), 400)
        total = records.total_of(sheet_json)
    if found["status"] == "finished":
        return done(campaign_id)
    return edit(campaign_id, version,
                lambda: storage_games.finish_game(get_db(), game_id, version, total,
                                                  sheet=sheet_json),
                refusals=(CampaignError, StorageError))


# ------------------------------------------------------------------ API
@bp.post("/api/campaign")
@csrf_exempt
def api_campaign() -> tuple[Response, int] | Response:
    text = request.get_data(as_text=True)
    try:
        return jsonify(load_campaign(text).to_json())
    except RulesError as err:
        return jsonify({"error": str(err), "line": err.line}), 400
