"""Core pages: home (games in progress and finished), the score page,
``POST /api/score`` (JSON, CSRF-exempt: it changes nothing) and the language switch."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Response, abort, jsonify, make_response, redirect, request

from companion.rules import RulesError, score_text
from companion.web import access, records
from companion.web.db import get_db
from companion.web.forms import record_from_form
from companion.web.i18n import COOKIE, LANGUAGES
from companion.web.render import render
from companion.web.scoring import score_view
from companion.web.security import csrf_exempt

bp = Blueprint("core", __name__)

EXAMPLE = """game: board-game
players: Ana, Rui
0 0 GGGGGG task=grain/4
0 -1 MMMGMM
1 -1 MGGMGG flag=grain
1 0 MMMMMG
"""


@bp.get("/")
def home() -> Response:
    owner = access.owner_id()
    games = records.games_for(get_db(), owner, access.shared_ids("game"))
    playing = [g for g in games if g["status"] == "in_progress"]
    finished = [g for g in games if g["status"] == "finished"]
    return render("home.html", "_games_list.html", playing=playing, finished=finished)


@bp.route("/score", methods=["GET", "POST"])
def score() -> Response:
    if request.method == "GET":
        return render("score.html", "_score.html", text=EXAMPLE, error=None, result=None)
    text, error = record_from_form()
    result = None
    if error is None:
        try:
            result = score_view(text)
        except RulesError as err:
            error = str(err)
    status = 400 if error else 200
    return render("score.html", "_score.html", status=status, text=text, error=error,
                  result=result)


@bp.post("/api/score")
@csrf_exempt
def api_score() -> tuple[Response, int] | Response:
    text = request.get_data(as_text=True)
    try:
        return jsonify(score_text(text))
    except RulesError as err:
        return jsonify({"error": str(err), "line": err.line}), 400


def safe_next(target: str | None) -> str:
    """A same-site path to go back to (never another host)."""
    if not target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not parts.path.startswith("/") or target.startswith("//"):
        return "/"
    return target


@bp.post("/language")
def language() -> Response:
    lang = request.form.get("lang", "")
    if lang not in LANGUAGES:
        abort(400)
    response = make_response(redirect(safe_next(request.form.get("next")), 303))
    response.set_cookie(COOKIE, lang, max_age=400 * 24 * 3600, samesite="Lax", httponly=True)
    return response
