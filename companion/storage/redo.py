"""The recorder's redo stack: the ``play_redo`` table (migration 5).

Representation: one row per game: ``game_id``, ``version`` (the game version the stack
belongs to) and ``stack`` (JSON list of ``[player, line]``: the duel landscape or None,
and the placement line taken back; the top last). A stack is valid only while the game
still has that version: any other edit (a placement, another phone) makes it stale, which
is exactly "a new placement clears redo". ``save_with_redo`` writes the game's new record
and the stack of its new version in one transaction.
"""

from __future__ import annotations

import json
from typing import Any

import sqlite_utils

from companion.storage.database import transaction
from companion.storage.games import update_game_row

Entry = tuple[str | None, str]


def redo_stack(db: sqlite_utils.Database, game_id: int, version: int) -> list[Entry]:
    """The redo stack of the game at ``version`` (empty when stale or none)."""
    row: Any = db.execute("SELECT version, stack FROM play_redo WHERE game_id = ?",
                          [game_id]).fetchone()
    if row is None or int(row[0]) != version:
        return []
    return [(player, str(line)) for player, line in json.loads(row[1])]


def save_with_redo(db: sqlite_utils.Database, game_id: int, expected_version: int,
                   record: str, sheet: dict[str, Any] | None,
                   stack: list[Entry] | None) -> int:
    """Save ``record`` (and its ``sheet``) made from ``expected_version`` and keep ``stack``
    as the redo stack of the new version (None: no redo, which needs no write since the
    old stack belongs to the old version); return the new version (``StaleEditError``
    when someone saved first)."""
    with transaction(db):
        version = update_game_row(db, game_id, expected_version, record=record, sheet=sheet)
        if stack is not None:
            db.execute(
                "INSERT INTO play_redo (game_id, version, stack) VALUES (?, ?, ?) "
                "ON CONFLICT(game_id) DO UPDATE SET version = excluded.version, "
                "stack = excluded.stack",
                [game_id, version, json.dumps([list(e) for e in stack])])
    return version


__all__ = ["Entry", "redo_stack", "save_with_redo"]
