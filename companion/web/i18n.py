"""Languages: English, Brazilian Portuguese, Spanish, German (Flask-Babel).

Representation: the catalogues are ``companion/translations/LOCALE/LC_MESSAGES/
messages.po``; their compiled ``.mo`` files are (re)built at start-up when
missing or older than the ``.po`` (so a fresh clone works without a build step).
The locale comes from the ``lang`` cookie (set by the footer form, ``POST
/language``, blueprint ``i18n``) or else from the browser's ``Accept-Language``; English otherwise.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, Flask, Response, abort, make_response, redirect, request
from flask_babel import Babel, get_locale

TRANSLATIONS = Path(__file__).resolve().parents[1] / "translations"
LANGUAGES: dict[str, str] = {
    "en": "English",
    "pt_BR": "Português (Brasil)",
    "es": "Español",
    "de": "Deutsch",
}
COOKIE = "lang"

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    tags = {code.replace("_", "-"): code for code in LANGUAGES}
    best = request.accept_languages.best_match(list(tags), default="en")
    if best == "en" and any(lang.lower().startswith("pt") for lang, _ in
                            request.accept_languages):
        return "pt_BR"
    return tags.get(best, "en")


def current_language() -> str:
    return str(get_locale() or "en")


def ensure_compiled(root: Path = TRANSLATIONS) -> list[Path]:
    """Compile every ``messages.po`` whose ``.mo`` is missing or stale; return them."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    built: list[Path] = []
    for po in sorted(root.glob("*/LC_MESSAGES/messages.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        try:
            with po.open("rb") as fh:
                catalog = read_po(fh, locale=po.parts[-3])
            with mo.open("wb") as out:
                write_mo(out, catalog)
            built.append(mo)
        except OSError:  # read-only install: the packaged .mo files are used
            continue
    return built


def init_app(app: Flask) -> None:
    ensure_compiled()
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    app.config.setdefault("BABEL_DEFAULT_LOCALE", "en")
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals.update(LANGUAGES=LANGUAGES, current_language=current_language)
    from companion.web import names
    from companion.web.games.sheet import path_label
    from companion.web.reasons import say

    app.jinja_env.filters.update(
        say=say, terrain=names.terrain_name, card=names.card_name, hex_name=names.hex_name,
        title_name=names.title_name, box=names.box_name, pool=names.pool_name,
        special=names.special_name, unlock=names.unlock_name, task=names.task_name,
        path=names.path_name, path_label=path_label)


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
