"""Helpers the migration steps share: DDL statements and the owner/share-token columns."""

from __future__ import annotations

import sqlite_utils


def run_statements(db: sqlite_utils.Database, script: str) -> None:
    """Run ``;``-separated DDL one statement at a time: ``executescript`` would COMMIT
    first and break the migration's transaction."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


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
