"""Where the recorder reads and writes a game: its record, version and redo stack.

Representation: a game is its record text + version (``StoredGame``), read through
``companion.web.access`` (404 / 403 when missing or not this browser's); ``load_game`` /
``save_game`` are the only two calls the recorder makes for that. The redo stack is the
storage's ``play_redo`` row of the game (``companion.storage.redo``): valid only while the
game still has the version it was written for, so any other edit (a placement, another
phone) clears it. ``save_game`` writes the record and the new stack in one transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules import RedoEntry
from companion.storage import redo as storage_redo
from companion.storage.errors import StaleEditError
from companion.web import access, records
from companion.web.db import get_db

__all__ = ["StaleEditError", "StoredGame", "load_game", "redo_stack", "save_game"]


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


def load_game(game_id: int, need: str = "view") -> StoredGame:
    """The game's text and version; 404 / 403 (friendly pages) when missing or not ours."""
    row, level = access.load_game(game_id, need)
    return StoredGame(int(row["id"]), str(row["record"]), int(row["version"]), level,
                      str(row.get("status") or "in_progress"))


def save_game(game_id: int, record_text: str, expected_version: int,
              redo: list[RedoEntry] | None = None) -> int:
    """Save the text made from ``expected_version`` (``StaleEditError`` if someone saved
    first); keep ``redo`` as the redo stack of the new version (None: a new placement,
    which clears redo). Return the new version."""
    sheet = records.sheet_for(record_text)
    stack = None if redo is None else [(e.player, e.line) for e in redo]
    return storage_redo.save_with_redo(get_db(), game_id, expected_version, record_text,
                                       sheet if sheet is not None else {}, stack)


def redo_stack(game: StoredGame) -> list[RedoEntry]:
    """The redo stack of the game's current version (empty when stale or none)."""
    return [RedoEntry(player, line)
            for player, line in storage_redo.redo_stack(get_db(), game.id, game.version)]
