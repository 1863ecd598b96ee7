"""Web-only schema: the owner of a game and its share tokens (numbered from 1001).

Representation: ``WEB_MIGRATIONS`` is a tuple of storage ``Migration(number, name,
apply)`` numbered from 1001 up (the storage's convention for another package),
passed to ``open_db(path, extra=WEB_MIGRATIONS)`` / ``migrate(db, extra=...)``.
Migration 1001 adds to ``games``:

- ``owner`` TEXT: the random identity kept in the creator's signed session cookie
  (no accounts); NULL for games created outside the web app (CLI, import);
- ``view_token``, ``edit_token`` TEXT: ``secrets.token_urlsafe`` strings of the share
  links ``/s/TOKEN`` (read-only, or allowed to edit), each with a unique index.
"""

from __future__ import annotations

import sqlite_utils

from companion.storage.migrations import Migration, run_statements


def add_owner_and_share_tokens(db: sqlite_utils.Database, table: str) -> None:
    """Add ``owner``, ``view_token`` and ``edit_token`` to ``table``, an index on the
    owner and unique indexes on the tokens (idempotent)."""
    columns = set(db.table(table).columns_dict)
    for name in ("owner", "view_token", "edit_token"):
        if name not in columns:
            db.execute(f"ALTER TABLE {table} ADD COLUMN {name} TEXT")
    run_statements(
        db,
        f"""
        CREATE INDEX IF NOT EXISTS {table}_owner ON {table}(owner, updated);
        CREATE UNIQUE INDEX IF NOT EXISTS {table}_view_token ON {table}(view_token);
        CREATE UNIQUE INDEX IF NOT EXISTS {table}_edit_token ON {table}(edit_token)
        """,
    )


def _1001_owner_and_share_tokens(db: sqlite_utils.Database) -> None:
    add_owner_and_share_tokens(db, "games")


WEB_MIGRATIONS: tuple[Migration, ...] = (
    Migration(1001, "web: games.owner, games.view_token, games.edit_token",
              _1001_owner_and_share_tokens),
)

__all__ = ["WEB_MIGRATIONS"]
