"""The web app's database connection: one per request, on the instance folder's file.

Representation: ``init_app`` creates and migrates ``DATABASE`` once at start-up
(``companion.storage.open_db``); ``get_db()`` opens a ``companion.storage.connect``
connection on first use in a request, kept on ``flask.g`` and closed at teardown. All
reading and writing goes through ``companion.storage`` functions given this connection.
"""

from __future__ import annotations

import sqlite_utils
from flask import Flask, current_app, g

from companion.storage import connect, open_db


def init_app(app: Flask) -> None:
    """Create and migrate the database file once, at start-up."""
    open_db(app.config["DATABASE"]).close()
    app.teardown_appcontext(close_db)


def get_db() -> sqlite_utils.Database:
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    db: sqlite_utils.Database = g.db
    return db


def close_db(_exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


__all__ = ["get_db", "init_app"]
