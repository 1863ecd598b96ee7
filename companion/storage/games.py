"""Games: each game's record in the notation, its sheet, status and version.

Representation: a row of ``games`` — ``record`` (the game record text, notation.md §3),
``sheet`` (the score sheet as JSON text, or NULL), ``score`` (the total once finished),
``status`` (``in_progress`` or ``finished``), ``version`` (starts at 1, +1 on every
change), ``created``/``updated`` (ISO UTC), ``campaign_id`` (NULL for a game outside a
campaign) and ``number`` (its place among the campaign's finished games), plus the
owner and share tokens of migration 2 (``companion.storage.sharing``). ``get_game``
returns a plain dict with ``sheet`` decoded.

Every change names the version it was made from; a change from an older version raises
``StaleEditError`` and changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils

from companion.rules import title_for
from companion.storage.database import now, transaction
from companion.storage.errors import NotFoundError, StaleEditError, StorageError
from companion.storage.sharing import give_to

STATUSES = ("in_progress", "finished")


def _row(db: sqlite_utils.Database, game_id: int) -> dict[str, Any]:
    rows = list(db.query("SELECT * FROM games WHERE id = ?", [game_id]))
    if not rows:
        raise NotFoundError(f"no game {game_id}")
    row = rows[0]
    row["sheet"] = json.loads(row["sheet"]) if row["sheet"] else None
    return row


def get_game(db: sqlite_utils.Database, game_id: int) -> dict[str, Any]:
    return _row(db, game_id)


def list_games(db: sqlite_utils.Database, campaign_id: int | None = None) -> list[dict[str, Any]]:
    """Games (without their sheets), newest first; of one campaign in play order."""
    if campaign_id is None:
        sql = "SELECT id, campaign_id, number, score, status, version, created, updated " \
              "FROM games ORDER BY updated DESC, id DESC"
        return list(db.query(sql))
    sql = "SELECT id, campaign_id, number, score, status, version, created, updated FROM " \
          "games WHERE campaign_id = ? ORDER BY number IS NULL, number, id"
    return list(db.query(sql, [campaign_id]))


def insert_game_row(
    db: sqlite_utils.Database, record: str, *, sheet: dict[str, Any] | None = None,
    status: str = "in_progress", score: int | None = None, campaign_id: int | None = None,
    number: int | None = None,
) -> int:
    """Insert one games row (no transaction of its own: call inside ``transaction``)."""
    if status not in STATUSES:
        raise StorageError(f"unknown game status {status!r} (in_progress or finished)")
    stamp = now()
    cursor = db.execute(
        "INSERT INTO games (campaign_id, number, record, sheet, score, status, version, "
        "created, updated) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?)",
        [campaign_id, number, record, None if sheet is None else json.dumps(sheet), score,
         status, stamp, stamp],
    )
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def create_game(
    db: sqlite_utils.Database, record: str, *, sheet: dict[str, Any] | None = None,
    campaign_id: int | None = None, owner: str | None = None, status: str = "in_progress",
    score: int | None = None,
) -> int:
    """Store a game (in progress unless ``status`` says finished, with its ``score``),
    owned by ``owner`` with fresh share tokens when given; return its id."""
    with transaction(db):
        game_id = insert_game_row(db, record, sheet=sheet, campaign_id=campaign_id,
                                  status=status, score=score)
        if owner is not None:
            give_to(db, "games", game_id, owner)
        return game_id


def _check_version(db: sqlite_utils.Database, game_id: int, expected: int, changed: int) -> None:
    if changed:
        return
    current = _row(db, game_id)["version"]  # raises NotFoundError
    raise StaleEditError(f"game {game_id}", expected, current)


def update_game_row(
    db: sqlite_utils.Database, game_id: int, expected_version: int, *,
    record: str | None = None, sheet: dict[str, Any] | None = None,
) -> int:
    """``update_game`` without a transaction of its own (call inside one)."""
    cursor = db.execute(
        "UPDATE games SET record = COALESCE(?, record), sheet = COALESCE(?, sheet), "
        "version = version + 1, updated = ? WHERE id = ? AND version = ?",
        [record, None if sheet is None else json.dumps(sheet), now(), game_id,
         expected_version],
    )
    _check_version(db, game_id, expected_version, cursor.rowcount)
    return expected_version + 1


def update_game(
    db: sqlite_utils.Database, game_id: int, expected_version: int, *,
    record: str | None = None, sheet: dict[str, Any] | None = None,
) -> int:
    """Save a new record and/or sheet made from ``expected_version``; return the new version."""
    with transaction(db):
        return update_game_row(db, game_id, expected_version, record=record, sheet=sheet)


def finish_game(
    db: sqlite_utils.Database, game_id: int, expected_version: int, score: int, *,
    sheet: dict[str, Any] | None = None, record: str | None = None,
) -> int:
    """Mark a game finished with its total; a campaign game takes the next game number
    in its campaign (and the campaign's version moves on). Return the new game version."""
    title_for(score)  # refuses a negative score
    with transaction(db):
        game = _row(db, game_id)
        if game["status"] == "finished":
            raise StorageError(f"game {game_id} is already finished")
        number = None
        if game["campaign_id"] is not None:
            number = 1 + (db.execute(
                "SELECT COALESCE(MAX(number), 0) FROM games WHERE campaign_id = ?",
                [game["campaign_id"]],
            ).fetchone()[0])
            db.execute(
                "UPDATE campaigns SET version = version + 1, updated = ? WHERE id = ?",
                [now(), game["campaign_id"]],
            )
        cursor = db.execute(
            "UPDATE games SET status = 'finished', score = ?, number = ?, "
            "sheet = COALESCE(?, sheet), record = COALESCE(?, record), "
            "version = version + 1, updated = ? WHERE id = ? AND version = ?",
            [score, number, None if sheet is None else json.dumps(sheet), record, now(),
             game_id, expected_version],
        )
        _check_version(db, game_id, expected_version, cursor.rowcount)
    return expected_version + 1


__all__ = [
    "STATUSES",
    "create_game",
    "finish_game",
    "get_game",
    "insert_game_row",
    "list_games",
    "update_game",
    "update_game_row",
]
