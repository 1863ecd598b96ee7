"""The web app: Flask application factory, one package per feature (flaskr style).

Representation: ``create_app`` registers one blueprint per feature package, each a
``routes.py`` (the blueprint) with its ``views.py`` (the view model the templates draw)
and its templates in ``templates/<feature>/``:

- ``games``: home, score page and ``/api/score``, new game, import, the game page with
  its score sheet, download, share links, record edits;
- ``play``: recording a game on the phone (map, placements, undo/redo, end of game);
- ``campaigns``: the campaign sheet, track, unlocks, history, share links, export/import;
- ``photos``: scoring from a photo of the table (upload, scan, review, confirm);
- ``disputes``: "may this tile go here?" and the searchable rules page.

Shared helpers, one module each: ``access`` (who may see or change a game or a
campaign: cookie owner, grants, share links), ``edits`` (the one versioned edit: stale ->
409 with the current state, refused -> the reason, done -> redirect or htmx fragment),
``render`` (full page or fragment, ``Vary: HX-Request``), ``hexmap`` (the one SVG hex-map
drawer), ``records`` (a record scored by the engine, saved by storage), ``db`` (the
request's connection), ``forms``, ``security`` (CSRF, size limits, headers, CSP),
``errors`` (friendly error pages), ``i18n`` (Flask-Babel and the language switch),
``compress``, ``pwa`` (service worker, manifest, offline page), ``icons``. The web asks
the engine (``companion.rules``) and never decides a rule; it calls
``companion.storage`` and never writes SQL. Shared templates (``base.html``, errors, the
hex maps) are at the top of ``templates/``, assets in ``static/``; the SQLite database
lives in the instance folder (``instance/companion.sqlite``), created on first start.
"""
from __future__ import annotations

import os
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask

from companion.web import settings

ROOT = Path(__file__).resolve().parents[2]
if not (ROOT / "templates").is_dir():  # installed from a wheel: see pyproject data-files
    ROOT = Path(sys.prefix) / "share" / "companion"

def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_mapping(
        SECRET_KEY="dev",
        DATABASE=str(Path(app.instance_path) / "companion.sqlite"),
        # Hard cap for any request (photos); record forms get RECORD_MAX_BYTES.
        MAX_CONTENT_LENGTH=25 * 1024 * 1024,
        RECORD_MAX_BYTES=512 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_mapping(settings.from_environment(os.environ))
    if test_config is not None:
        app.config.from_mapping(test_config)
    settings.apply(app)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if app.config["SECRET_KEY"] == "dev" and not app.testing:
        app.config["SECRET_KEY"] = instance_secret(Path(app.instance_path))

    from companion.web import compress, db, errors, i18n, routing, scan_pool, security

    routing.init_app(app)
    scan_pool.init_app(app)
    security.init_app(app)
    compress.init_app(app)
    i18n.init_app(app)
    errors.init_app(app)
    db.init_app(app)

    from companion.web import pwa
    from companion.web.campaigns import routes as campaigns
    from companion.web.disputes import routes as disputes
    from companion.web.games import routes as games
    from companion.web.photos import routes as photos
    from companion.web.play import routes as play

    for module in (games, play, campaigns, photos, disputes, i18n, pwa):
        app.register_blueprint(module.bp)

    from companion.web.games.sheet import tiles_attr

    app.jinja_env.globals.update(tiles_attr=tiles_attr)
    return app


def instance_secret(instance: Path) -> str:
    """A random secret kept in the instance folder, so signed cookies (the owner
    identity, CSRF tokens) survive restarts of ``make run`` on a fresh clone."""
    import secrets

    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(48), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()
