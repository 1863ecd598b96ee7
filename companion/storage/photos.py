"""Photos of a game's table and its photo review draft: the ``photos`` and ``photo_reviews``
tables.

Representation: see ``companion.storage.migrations.m0004_photos``. A photo row is a dict
``{id, game_id, width, height, scan (decoded JSON), created}`` (``jpeg`` only through
``photo_bytes``). Photos are kept in the database (``jpeg``); the schema's ``path``
column (a file under ``instance/photos/``) is not used by this version.
A review is ``StoredReview(game_id, state (decoded JSON), status,
version)``. Every write is one transaction; ``save_review`` names the version it was
made from and raises ``StaleEditError`` when someone else saved first.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from companion.storage.database import now, transaction
from companion.storage.errors import NotFoundError, StaleEditError
from companion.storage.games import update_game_row
from companion.storage.limits import PHOTOS_PER_GAME, check

__all__ = ["StoredReview", "add_photo", "confirm_review", "delete_review", "get_review",
           "insert_photo", "photo_bytes", "photos_of", "put_review", "save_review"]


@dataclass(frozen=True)
class StoredReview:
    game_id: int
    state: dict[str, Any]
    status: str
    version: int


def insert_photo(db: sqlite_utils.Database, game_id: int, jpeg: bytes, width: int,
                 height: int, scan: dict[str, Any] | None) -> int:
    """Store a cleaned photo (no transaction of its own: call inside one)."""
    cursor = db.execute(
        "INSERT INTO photos (game_id, jpeg, width, height, scan, created) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        [game_id, jpeg, width, height, None if scan is None else json.dumps(scan), now()])
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def photos_of(db: sqlite_utils.Database, game_id: int) -> list[dict[str, Any]]:
    rows = db.query("SELECT id, game_id, width, height, scan, created FROM photos "
                    "WHERE game_id = ? ORDER BY id", [game_id])
    return [dict(row, scan=json.loads(row["scan"]) if row["scan"] else None) for row in rows]


def photo_bytes(db: sqlite_utils.Database, game_id: int, photo_id: int) -> bytes:
    """The stored JPEG of one photo of ``game_id`` (``NotFoundError`` otherwise)."""
    row = db.execute("SELECT jpeg FROM photos WHERE id = ? AND game_id = ? AND jpeg IS NOT NULL",
                     [photo_id, game_id]).fetchone()
    if row is None:
        raise NotFoundError(f"no photo {photo_id} of game {game_id}")
    return bytes(row[0])


def get_review(db: sqlite_utils.Database, game_id: int) -> StoredReview | None:
    row = db.execute("SELECT state, status, version FROM photo_reviews WHERE game_id = ?",
                     [game_id]).fetchone()
    if row is None:
        return None
    return StoredReview(game_id, json.loads(row[0]), str(row[1]), int(row[2]))


def put_review(db: sqlite_utils.Database, game_id: int, state: dict[str, Any],
               expected: int | None, status: str = "review") -> int:
    """Write the review (no transaction of its own). ``expected`` None: start a new
    draft (replacing a confirmed or discarded one); else the version it was made from."""
    text = json.dumps(state)
    if expected is None:
        current = db.execute("SELECT version FROM photo_reviews WHERE game_id = ?",
                             [game_id]).fetchone()
        version = 1 if current is None else int(current[0]) + 1
        db.execute("INSERT INTO photo_reviews (game_id, state, status, version, updated) "
                   "VALUES (?, ?, ?, ?, ?) ON CONFLICT(game_id) DO UPDATE SET "
                   "state = excluded.state, status = excluded.status, "
                   "version = excluded.version, updated = excluded.updated",
                   [game_id, text, status, version, now()])
        return version
    cursor = db.execute(
        "UPDATE photo_reviews SET state = ?, status = ?, version = version + 1, updated = ? "
        "WHERE game_id = ? AND version = ?", [text, status, now(), game_id, expected])
    if not cursor.rowcount:
        current = db.execute("SELECT version FROM photo_reviews WHERE game_id = ?",
                             [game_id]).fetchone()
        raise StaleEditError(f"photo review of game {game_id}", expected,
                             0 if current is None else int(current[0]))
    return expected + 1


def add_photo(
    db: sqlite_utils.Database, game_id: int, jpeg: bytes, width: int, height: int,
    scan: dict[str, Any] | None,
    draft: Callable[[StoredReview | None, int], tuple[dict[str, Any], int | None]],
) -> int:
    """Store a cleaned photo and the review draft that ``draft(current review, photo id)``
    returns (its state, and the version it was made from: None starts a new draft) in one
    transaction; return the photo id. When ``draft`` raises, nothing is stored."""
    with transaction(db):
        check(len(photos_of(db, game_id)) + 1, PHOTOS_PER_GAME, "photos of a game")
        photo_id = insert_photo(db, game_id, jpeg, width, height, scan)
        state, expected = draft(get_review(db, game_id), photo_id)
        put_review(db, game_id, state, expected)
    return photo_id


def confirm_review(
    db: sqlite_utils.Database, game_id: int, game_version: int, record: str,
    sheet: dict[str, Any] | None, review: StoredReview,
) -> int:
    """The review becomes the game's map: save ``record`` (and its ``sheet``) made from
    ``game_version`` and mark the review (made from ``review.version``) confirmed, in one
    transaction; return the game's new version. ``StaleEditError`` (its ``what`` names the
    game or the photo review) when either changed meanwhile: nothing is saved."""
    with transaction(db):
        version = update_game_row(db, game_id, game_version, record=record, sheet=sheet)
        put_review(db, game_id, review.state, review.version, status="confirmed")
    return version


def save_review(db: sqlite_utils.Database, game_id: int, state: dict[str, Any],
                expected: int | None, status: str = "review") -> int:
    """``put_review`` as one transaction; return the new version."""
    with transaction(db):
        return put_review(db, game_id, state, expected, status)


def delete_review(db: sqlite_utils.Database, game_id: int, expected: int) -> None:
    with transaction(db):
        cursor = db.execute("DELETE FROM photo_reviews WHERE game_id = ? AND version = ?",
                            [game_id, expected])
        if not cursor.rowcount:
            raise StaleEditError(f"photo review of game {game_id}", expected, 0)
