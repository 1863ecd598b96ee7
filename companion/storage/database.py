"""Opening the database and running one write as one transaction.

Representation: a ``sqlite_utils.Database`` on a file (or ``:memory:``), migrated on open,
with foreign keys on, WAL journal for files (readers never block the writer) and a busy
timeout. ``transaction(db)`` is the only way this package writes: ``BEGIN IMMEDIATE`` takes
the write lock first (two writers queue instead of failing half-way), ``COMMIT`` on
success, ``ROLLBACK`` on any exception, so a failed or interrupted write leaves the
previous state intact (SQLite's journal undoes a transaction cut off by a crash).
``connect(path)`` opens an already migrated file without migrating (one per web request).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import sqlite_utils

from companion.storage.migrations import Migration, migrate


def open_db(path: str | Path, extra: Iterable[Migration] = ()) -> sqlite_utils.Database:
    """Open (creating if needed) and migrate the database at ``path`` (``:memory:`` too)."""
    memory = str(path) == ":memory:"
    db = sqlite_utils.Database(memory=True) if memory else sqlite_utils.Database(path)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 5000")
    if not memory:
        db.enable_wal()
    migrate(db, extra)
    return db


def connect(path: str | Path) -> sqlite_utils.Database:
    """A connection to a database ``open_db`` has migrated: autocommit (``transaction``
    opens each write), foreign keys on, busy timeout."""
    conn = sqlite3.connect(str(path), timeout=5.0, isolation_level=None)
    db = sqlite_utils.Database(conn)
    db.execute("PRAGMA foreign_keys = ON")
    db.execute("PRAGMA busy_timeout = 5000")
    return db


@contextmanager
def transaction(db: sqlite_utils.Database) -> Iterator[sqlite_utils.Database]:
    """One write: everything inside commits together or not at all."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.rollback()
        raise
    else:
        db.conn.commit()


def now() -> str:
    """The current time as an ISO 8601 UTC string (what the tables store)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


__all__ = ["connect", "now", "open_db", "transaction"]
