"""Where the recorder reads and writes a game: the games table plus a redo table.

Representation: a game is its record text + version, stored by the web app's
repository (``companion.web.repo``: the ``games`` table, access through
``companion.web.access``). ``load_game`` / ``save_game`` are the only two calls
the recorder makes for that, so pointing it at another store means changing
them alone.

The redo stack lives in the table ``play_redo`` (``game_id`` primary key,
``version``: the game version it belongs to, ``stack``: JSON list of
``[player, line]``, the top last). A stack is valid only while the game still
has that version: any other edit (a placement, another phone) makes it stale,
which is exactly "a new placement clears redo". It is written right after the
game's own transaction; if that second write were lost the only effect is an
empty redo stack, never a wrong game.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from typing import Any

import sqlite_utils

from companion.rules import RedoEntry
from companion.web import access, repo

StaleEditError = repo.StaleEditError

_READY: set[str] = set()
_LOCK = threading.Lock()


@dataclass(frozen=True)
class StoredGame:
    id: int
    text: str
    version: int
    level: str
    status: str

    @property
    def editable(self) -> bool:
        return access.can_edit(self.level)


def _db() -> sqlite_utils.Database:
    db = repo.get_db()
    path = str(db.conn.execute("PRAGMA database_list").fetchone()[2])
    if path not in _READY:
        with _LOCK:
            db.execute("CREATE TABLE IF NOT EXISTS play_redo (game_id INTEGER PRIMARY KEY, "
                       "version INTEGER NOT NULL, stack TEXT NOT NULL)")
            _READY.add(path)
    return db


def load_game(game_id: int, need: str = "view") -> StoredGame:
    """The game's text and version; 404 / 403 (friendly pages) when missing or not ours."""
    row, level = access.load_game(game_id, need)
    return StoredGame(int(row["id"]), str(row["record"]), int(row["version"]), level,
                      str(row.get("status") or "in_progress"))


def save_game(game_id: int, record_text: str, expected_version: int,
              redo: list[RedoEntry] | None = None) -> int:
    """Save the text made from ``expected_version`` (``StaleEditError`` if someone saved
    first); keep ``redo`` as the redo stack of the new version (None: no redo, which
    needs no write since the old stack belongs to the old version). Return the new
    version."""
    db = _db()
    version = repo.save_record(db, game_id, expected_version, record_text)
    if redo is None:
        return version
    stack = json.dumps([list(e) for e in redo])
    db.execute("INSERT INTO play_redo (game_id, version, stack) VALUES (?, ?, ?) "
               "ON CONFLICT(game_id) DO UPDATE SET version = excluded.version, "
               "stack = excluded.stack", [game_id, version, stack])
    return version


def redo_stack(game: StoredGame) -> list[RedoEntry]:
    """The redo stack of the game's current version (empty when stale or none)."""
    row: Any = _db().execute("SELECT version, stack FROM play_redo WHERE game_id = ?",
                             [game.id]).fetchone()
    if row is None or int(row[0]) != game.version:
        return []
    return [RedoEntry(p, line) for p, line in json.loads(row[1])]
