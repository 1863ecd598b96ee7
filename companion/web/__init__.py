"""The web app: Flask application factory and its blueprints (flaskr style).

Representation: one blueprint per feature (``core``: home, score page, API;
``games``: new / import / download / share / edit; ``disputes``; ``rules_page``;
``pwa``: service worker, manifest, offline page; and, registered when present,
``play`` (recording a game on the phone), ``campaigns``, ``photos``), Jinja templates in the
top-level ``templates/`` folder and assets in ``static/``. The SQLite database
lives in the instance folder (``instance/companion.sqlite``), created on first start.
Cross-cutting pieces each live in one module: ``security`` (CSRF, size limits,
headers, CSP), ``errors`` (friendly error pages), ``i18n`` (Flask-Babel),
``render`` (full page or htmx fragment), ``repo`` (the games table).
"""

from __future__ import annotations

import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask

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
    if test_config is not None:
        app.config.from_mapping(test_config)
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    if app.config["SECRET_KEY"] == "dev" and not app.testing:
        app.config["SECRET_KEY"] = instance_secret(Path(app.instance_path))

    from companion.web import compress, db, errors, i18n, security

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
