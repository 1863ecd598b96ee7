"""Scoring from a photo of the table: upload, scan, review and fix, confirm.

Representation: blueprint ``photos``. A game's photos and its one review draft live
in ``companion.storage.photos`` (tables of migration 4); the draft is a ``photos.review.Review``
(JSON) with its own version, so every edit form carries ``version`` and a stale edit
is refused (409) without changing anything. Every change is a real form POST
answered by a redirect (POST-redirect-GET), or for htmx (``HX-Request: true``) by the
``#review`` fragment with ``HX-Push-Url``. The review page's own state is its query:
``tile=Q,R`` (the tile being fixed) or ``add=Q,R`` (a free neighbour to fill).

Routes:
  GET  /games/<id>/photos/new              the upload form (camera on phones)
  POST /games/<id>/photos                  upload + scan (field ``photo``); a second
                                           photo is merged into the open draft
  GET  /games/<id>/photos/review           photo with the readings, the engine's map
  POST /games/<id>/photos/review/tile      fix, rotate, repaint or add a tile
  POST /games/<id>/photos/review/delete    delete a tile
  POST /games/<id>/photos/review/discard   drop the draft (photos stay stored)
  POST /games/<id>/photos/confirm          the draft becomes the game's final map
  GET  /games/<id>/photos/<photo id>.jpg   a stored photo (cleaned, no EXIF)
  POST /api/scan                           JSON of ``companion scan --json``
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    make_response,
    redirect,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from companion.rules import Hex, RulesError, in_play, parse_record
from companion.storage import photos as store
from companion.storage.errors import NotFoundError, StaleEditError
from companion.storage.limits import PHOTOS_PER_GAME
from companion.vision import DEFAULT_CONFIG, Scan, ScanConfig, ScanError, scan
from companion.web import access, records, scan_pool
from companion.web.db import get_db
from companion.web.edits import after_edit, expected_version, versioned_edit
from companion.web.errors import error_page
from companion.web.photos.image import (
    MAX_PIXELS,
    CleanPhoto,
    PhotoRefused,
    decoded_bytes,
    normalise,
)
from companion.web.photos.review import (
    Review,
    ReviewError,
    delete_tile,
    final_record,
    form_attributes,
    from_scan,
    merge_scan,
    set_tile,
)
from companion.web.photos.views import end_url, review_context
from companion.web.play.views import parse_hex
from companion.web.reasons import say_scan_error
from companion.web.render import go, is_htmx, render
from companion.web.scan_pool import ScanBusy
from companion.web.security import csrf_exempt, large_upload

bp = Blueprint("photos", __name__)

PHOTO_MAX_BYTES = 30 * 1024 * 1024


# ------------------------------------------------------------------ helpers
def max_bytes() -> int:
    """The upload limit: ``PHOTO_MAX_BYTES``, never above the app's hard cap."""
    cap = current_app.config.get("MAX_CONTENT_LENGTH") or PHOTO_MAX_BYTES
    return int(min(current_app.config.get("PHOTO_MAX_BYTES", PHOTO_MAX_BYTES), cap))


def scan_config() -> ScanConfig:
    seconds = float(current_app.config.get("PHOTO_SCAN_SECONDS",
                                           DEFAULT_CONFIG.io.time_limit_s))
    return DEFAULT_CONFIG.tuned(time_limit_s=seconds)


def game_scan_config(game: dict[str, Any]) -> ScanConfig:
    """``scan_config`` for a photo of ``game``: a Duel's tiles are not the board game's
    catalogue (no inventory); a board game's are read among the catalogue sections it
    plays with (the base box and the boxes its campaign has unlocked:
    ``rules.in_play``), so a tile of a box still closed is never read."""
    config = scan_config()
    try:
        record = parse_record(game["record"])
    except RulesError:
        return config
    if record.is_duel:
        return config.tuned(use_catalogue=False, use_inventory=False)
    return config.tuned(sections=in_play(record).sections)


def busy_message() -> str:
    return str(_("Other photos are being read right now. Wait a few seconds and send "
                 "it again: nothing was lost."))


def busy(response: Response, err: ScanBusy) -> Response:
    """The busy answer: 503 with ``Retry-After`` (the page or JSON given)."""
    response.status_code = 503
    response.headers["Retry-After"] = str(err.retry_after)
    return response


def too_large_message() -> str:
    return str(_("That photo is larger than %(mb)s MB. Phone photos are usually 2 to 8 MB: "
                 "take it again at the normal size, or choose a smaller file.",
                 mb=max_bytes() // (1024 * 1024)))


def _kind(game: dict[str, Any]) -> str:
    return str(records.summary(game["record"])["kind"])


def duel_players(game: dict[str, Any]) -> list[str]:
    """The players of a Duel record (their landscapes can be photographed), else []."""
    try:
        record = parse_record(game["record"])
    except RulesError:
        return []
    return [str(s.player) for s in record.sections if record.is_duel and s.player]


def _form_page(game: dict[str, Any], level: str, error: str | None = None,
               status: int = 200) -> Response:
    db = get_db()
    draft = store.get_review(db, game["id"])
    open_draft = draft if draft is not None and draft.status == "review" else None
    tiles = len(Review.from_json(open_draft.state).tiles) if open_draft else 0
    return render("photos/new.html", "photos/_new.html", status=status, game=game, level=level,
                  error=error, draft=open_draft, draft_tiles=tiles,
                  duel=_kind(game) == "duel", players=duel_players(game),
                  max_mb=max_bytes() // (1024 * 1024))


def _review_page(game_id: int, *, error: str | None = None, notice: str | None = None,
                 status: int = 200, push: str | None = None,
                 query: dict[str, str] | None = None) -> Response:
    game, level = access.load_game(game_id)
    draft = store.get_review(get_db(), game_id)
    if draft is None:
        return _form_page(game, level, error=error, status=status if error else 200)
    ctx = review_context(game, level, draft, request.args if query is None else query,
                         error=error, notice=notice)
    headers = {"HX-Push-Url": push} if push and is_htmx() else {}
    return render("photos/review.html", "photos/_review.html", status=status, headers=headers,
                  **ctx)


def _done(game_id: int, notice: str, **query: str) -> Response:
    """After a change: redirect to the review (plain) or the fresh fragment (htmx)."""
    url = url_for("photos.review", game_id=game_id, **query)  # type: ignore[arg-type]
    return after_edit(url, lambda: _review_page(game_id, notice=notice, query=query))


def _draft_for_edit(game_id: int) -> tuple[store.StoredReview, Review] | Response:
    access.load_game(game_id, "edit")
    draft = store.get_review(get_db(), game_id)
    if draft is None:
        return _review_page(game_id, status=409, error=_("There is no photo to review any "
                                                          "more; take a new one."))
    if draft.version != expected_version():
        return _stale(game_id)
    if draft.status != "review":
        return _review_page(game_id, status=409, error=_("This map was already confirmed. "
                                                          "Take a new photo to start again."))
    return draft, Review.from_json(draft.state)


def _stale(game_id: int) -> Response:
    return _review_page(game_id, status=409, error=_(
        "Someone else changed this review meanwhile; here is the current state. Nothing of "
        "yours was saved: make your change again."))




def _hex_field() -> Hex:
    at = parse_hex(f"{request.form.get('q', '')},{request.form.get('r', '')}")
    if at is None:
        abort(400)
    return at


def _upload() -> bytes | None:
    upload = request.files.get("photo")
    if upload is None or not upload.filename:
        return None
    data: bytes = upload.read(max_bytes() + 1)
    if len(data) > max_bytes():
        raise RequestEntityTooLarge()
    return data


# ------------------------------------------------------------------- routes
@bp.get("/games/<int:game_id>/photos/new")
def new(game_id: int) -> Response:
    game, level = access.load_game(game_id, "edit")
    return _form_page(game, level)


@bp.post("/games/<int:game_id>/photos")
@large_upload
def upload(game_id: int) -> Response:
    game, level = access.load_game(game_id, "edit")
    duel = _kind(game) == "duel"
    player = request.form.get("player") if duel else None
    if duel and player not in duel_players(game):
        return _form_page(game, level, status=400, error=_(
            "Choose whose landscape the photo shows."))
    data = _upload()
    if data is None:
        return _form_page(game, level, status=400, error=_("Choose or take a photo first."))
    if len(store.photos_of(get_db(), game_id)) >= PHOTOS_PER_GAME:
        return _form_page(game, level, status=422, error=_(
            "This game already keeps %(n)d photos, the most one game holds. Confirm or "
            "discard the review to start again.", n=PHOTOS_PER_GAME))
    max_pixels = current_app.config.get("PHOTO_MAX_PIXELS", MAX_PIXELS)

    config = game_scan_config(game)

    def clean_and_scan() -> tuple[CleanPhoto, Scan]:
        clean = normalise(data, max_pixels=max_pixels)
        return clean, scan(clean.original, config)

    try:
        clean, found = scan_pool.of(current_app).run(
            clean_and_scan, decoded_bytes(data, max_pixels))
    except PhotoRefused as err:
        return _form_page(game, level, status=400, error=str(err))
    except ScanBusy as err:
        return busy(_form_page(game, level, status=503, error=busy_message()), err)
    except ScanError as err:
        return _form_page(game, level, status=422, error=_(
            "The photo could not be read: %(reason)s. Take it again from above, with the "
            "whole map in the picture and no strong shadows.", reason=say_scan_error(err)))
    result: dict[str, Any] = found.to_json()
    for tile in result["tiles"]:  # centres in the stored copy's pixels
        tile["center_px"] = [round(v, 1) for v in clean.to_stored(tile["center_px"])]
    fresh = request.form.get("fresh") == "1"

    def draft_with(draft: store.StoredReview | None,
                   photo_id: int) -> tuple[dict[str, Any], int | None]:
        """The open draft with this photo merged in, or a new draft of it alone."""
        if draft is not None and draft.status == "review" and not fresh and (
                Review.from_json(draft.state).player == player):
            return (merge_scan(Review.from_json(draft.state), result, photo_id).to_json(),
                    draft.version)
        return from_scan(result, photo_id, player).to_json(), None

    try:
        store.add_photo(get_db(), game_id, clean.jpeg, clean.width, clean.height, result,
                        draft_with)
    except ReviewError as err:
        return _form_page(game, level, status=422, error=str(err))
    return make_response(redirect(url_for("photos.review", game_id=game_id), 303))


@bp.get("/games/<int:game_id>/photos/review")
def review(game_id: int) -> Response:
    return _review_page(game_id)


Change = Callable[[Review, Hex], tuple[Review, str, dict[str, str]]]


def _edit(game_id: int, change: Change) -> Response:
    """Apply ``change`` (review, hex of the form -> new review, notice, page query) to
    the draft the form was made from; refusals re-show the review with the reason."""
    found = _draft_for_edit(game_id)
    if isinstance(found, Response):
        return found
    draft, current = found

    def save() -> tuple[str, dict[str, str]]:
        changed, notice, query = change(current, _hex_field())
        store.save_review(get_db(), game_id, changed.to_json(), draft.version)
        return notice, query

    return versioned_edit(save, expected=draft.version, stale=lambda: _stale(game_id),
                          refused=lambda reason: _review_page(game_id, status=422,
                                                              error=reason),
                          refusals=(ReviewError,),
                          done=lambda saved: _done(game_id, saved[0], **saved[1]))


@bp.post("/games/<int:game_id>/photos/review/tile")
def tile(game_id: int) -> Response:
    """Fix, rotate, repaint (fields ``e0``..``e5``) or add the tile at ``q``, ``r``."""
    form = request.form

    def change(current: Review, at: Hex) -> tuple[Review, str, dict[str, str]]:
        code = form.get("code") or "".join(form.get(f"e{i}", "") for i in range(6))
        old = current.tiles.get(at)
        attributes = form_attributes(old.attributes if old else {}, form.get("task_type", ""),
                                     form.get("task_value", ""), form.get("flag", ""))
        changed = set_tile(current, at, code, attributes)
        tile = changed.tiles[at]
        notice = (_("Added %(code)s at %(q)s %(r)s.", code=tile.code, q=at.q, r=at.r)
                  if old is None else
                  _("Set %(code)s at %(q)s %(r)s.", code=tile.code, q=at.q, r=at.r))
        return changed, notice, {"tile": f"{at.q},{at.r}"}

    return _edit(game_id, change)


@bp.post("/games/<int:game_id>/photos/review/delete")
def delete(game_id: int) -> Response:
    def change(current: Review, at: Hex) -> tuple[Review, str, dict[str, str]]:
        return (delete_tile(current, at),
                _("Deleted the tile at %(q)s %(r)s.", q=at.q, r=at.r), {})

    return _edit(game_id, change)


@bp.post("/games/<int:game_id>/photos/review/discard")
def discard(game_id: int) -> Response:
    access.load_game(game_id, "edit")
    version = expected_version()
    return versioned_edit(lambda: store.delete_review(get_db(), game_id, version),
                          expected=version, stale=lambda: _stale(game_id),
                          refused=lambda reason: _review_page(game_id, status=422, error=reason),
                          done=lambda _none: make_response(redirect(
                              url_for("photos.new", game_id=game_id), 303)))


@bp.post("/games/<int:game_id>/photos/confirm")
def confirm(game_id: int) -> Response:
    found = _draft_for_edit(game_id)
    if isinstance(found, Response):
        return found
    draft, current = found
    game, _level = access.load_game(game_id, "edit")
    game_version = expected_version("game_version")
    try:  # two versions are named here (the game's and the review's): said apart
        text = final_record(current, game["record"])
        store.confirm_review(get_db(), game_id, game_version, text,
                             records.sheet_for(text) or {}, draft)
    except ReviewError as err:
        return _review_page(game_id, status=422, error=str(err))
    except StaleEditError as err:
        if err.what.startswith("photo review"):
            return _stale(game_id)
        return _review_page(game_id, status=409, error=_(
            "The game was changed elsewhere since this page was loaded; nothing was saved. "
            "Check the review and confirm again."))
    return go(end_url(game_id))


@bp.get("/games/<int:game_id>/photos/<int:photo_id>.jpg")
def photo(game_id: int, photo_id: int) -> Response:
    access.load_game(game_id)
    try:
        data = store.photo_bytes(get_db(), game_id, photo_id)
    except NotFoundError:
        abort(404)
    response = make_response(data)
    response.mimetype = "image/jpeg"
    return response


@bp.post("/api/scan")
@csrf_exempt
@large_upload
def api_scan() -> tuple[Response, int] | Response:
    """Multipart field ``photo``; the JSON of ``companion scan --json``. A photo the
    scanner cannot read: 422 with ``error`` (English, as the CLI says it), ``code`` (the
    scanner's refusal code) and ``message`` (in the request's language)."""
    data = _upload()
    if data is None:
        return jsonify({"error": "send the photo as the multipart field 'photo'"}), 400
    try:
        memory = decoded_bytes(data, current_app.config.get("PHOTO_MAX_PIXELS", MAX_PIXELS))
        found = scan_pool.of(current_app).run(lambda: scan(data, scan_config()), memory)
    except PhotoRefused as err:
        return jsonify({"error": str(err)}), 400
    except ScanBusy as err:
        return busy(jsonify({"error": busy_message()}), err)
    except ScanError as err:
        return jsonify({"error": err.reason, "code": err.code,
                        "message": str(say_scan_error(err))}), 422
    return jsonify(found.to_json())


@bp.errorhandler(413)
def too_large(_err: Exception) -> Response | tuple[Response, int]:
    if request.path.startswith("/api/"):
        return jsonify({"error": too_large_message()}), 413
    game_id = (request.view_args or {}).get("game_id")
    try:
        game, level = access.load_game(int(str(game_id)), "edit")
    except (HTTPException, ValueError):  # not this browser's game: no form
        return error_page(413, too_large_message())
    return _form_page(game, level, status=413, error=too_large_message())
