"""The web app's access to the database: games with their owner and share tokens.

Representation: one ``sqlite_utils.Database`` per request (``get_db()``, kept on
``flask.g`` and closed at teardown) on ``DATABASE`` in the instance folder. The
schema is the storage's numbered migrations, applied once when the app starts.
Rows are the storage's ``games`` dicts (``record``
text, ``sheet`` decoded JSON, ``status`` ``in_progress``/``finished``, ``version``)
plus ``owner``, ``view_token``, ``edit_token``. Every write is one transaction
(``companion.storage.transaction``); edits name the version they were made from
and raise ``StaleEditError`` when someone else saved first.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import sqlite_utils
from flask import Flask, current_app, g

from companion.rules import RulesError, parse_record, score_text
from companion.storage import connect, open_db, sharing
from companion.storage import games as storage_games
from companion.storage.errors import NotFoundError, StaleEditError

__all__ = ["NotFoundError", "StaleEditError", "create_game", "get_db", "get_game"]


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


def sheet_for(text: str) -> dict[str, Any] | None:
    """The score sheet JSON of a record, or None when the record does not replay."""
    try:
        return score_text(text)
    except RulesError:
        return None


def total_of(sheet: dict[str, Any] | None) -> int:
    """The number stored as ``score``: the total, or the best total of a duel."""
    if not sheet:
        return 0
    if "total" in sheet:
        return int(sheet["total"])
    totals = [int(p.get("total", 0)) for p in sheet.get("players", {}).values()]
    return max(totals, default=0)


def create_game(db: sqlite_utils.Database, record: str, owner: str,
                finished: bool = False) -> int:
    """Store a new game (validated record text) with fresh share tokens; return its id."""
    sheet = sheet_for(record)
    return storage_games.create_game(
        db, record, sheet=sheet, owner=owner, status="finished" if finished else "in_progress",
        score=total_of(sheet) if finished else None)


def get_game(db: sqlite_utils.Database, game_id: int) -> dict[str, Any]:
    """The game row (raises ``NotFoundError``)."""
    return storage_games.get_game(db, game_id)


def save_record(db: sqlite_utils.Database, game_id: int, version: int, record: str) -> int:
    """Replace the record (made from ``version``); return the new version."""
    sheet = sheet_for(record)
    return storage_games.update_game(db, game_id, version, record=record,
                                     sheet=sheet if sheet is not None else {})


def finish(db: sqlite_utils.Database, game_id: int, version: int) -> int:
    """Mark the game finished with its current total; return the new version."""
    game = get_game(db, game_id)
    if game["version"] != version:
        raise StaleEditError(f"game {game_id}", version, game["version"])
    sheet = sheet_for(game["record"])
    return storage_games.finish_game(db, game_id, version, total_of(sheet), sheet=sheet)


def by_token(db: sqlite_utils.Database, token: str) -> tuple[int, str] | None:
    """(game id, "edit" or "view") of a share token, or None."""
    return sharing.find_token(db, "games", token)


def games_for(db: sqlite_utils.Database, owner: str, shared: list[int]) -> list[dict[str, Any]]:
    """The games this browser owns or was given a link to, newest first, with a summary."""
    return [dict(row, **summary(row["record"])) for row in sharing.games_for(db, owner, shared)]


@lru_cache(maxsize=1024)
def summary(record: str) -> dict[str, Any]:
    """Game kind, players and number of placements of a record, for lists (cached by
    the record text; callers copy, never change, the dict)."""
    try:
        rec = parse_record(record)
    except RulesError:
        return {"kind": "?", "players": [], "tiles": 0}
    players = rec.players or [s.player for s in rec.sections if s.player]
    return {"kind": rec.game, "players": players,
            "tiles": sum(len(s.placements) for s in rec.sections), "date": rec.date}


def dumps(sheet: dict[str, Any] | None) -> str:
    return json.dumps(sheet)
