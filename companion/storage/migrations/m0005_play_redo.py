"""Migration 5: the recorder's redo stack (``play_redo``).

Representation: one row per game: ``game_id`` (primary key), ``version`` (the game
version the stack belongs to: any other edit makes it stale) and ``stack`` (JSON list of
``[player, line]``, the top last); see ``companion.storage.redo``. Older installs created
the same table at request time, hence ``IF NOT EXISTS``.
"""

from __future__ import annotations

import sqlite_utils

NUMBER = 5
NAME = "play_redo: the recorder's redo stack of a game version"


def apply(db: sqlite_utils.Database) -> None:
    db.execute("CREATE TABLE IF NOT EXISTS play_redo (game_id INTEGER PRIMARY KEY, "
               "version INTEGER NOT NULL, stack TEXT NOT NULL)")
