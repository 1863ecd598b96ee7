"""Migrations: from an empty database file, idempotent, extensible, all-or-nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlite_utils

from companion.storage import MIGRATIONS, Migration, StorageError, migrate, open_db
from companion.storage.migrations import applied_migrations, run_statements

CORE_TABLES = {"migrations", "players", "campaigns", "campaign_players", "games", "spending",
               "achievements"}


def test_migrate_an_empty_database_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.db"
    db = sqlite_utils.Database(path)
    assert db.table_names() == []
    assert migrate(db) == [m.number for m in MIGRATIONS]
    db.close()
    reopened = sqlite_utils.Database(path)
    assert CORE_TABLES <= set(reopened.table_names())
    assert applied_migrations(reopened) == [m.number for m in MIGRATIONS]
    games = reopened["games"].columns_dict
    for column in ("record", "sheet", "status", "version", "created", "updated",
                   "campaign_id", "score", "number"):
        assert column in games


def test_migrate_twice_changes_nothing(tmp_path: Path) -> None:
    db = open_db(tmp_path / "a.db")
    schema = db.schema
    assert migrate(db) == []
    assert db.schema == schema
    assert db.execute("SELECT COUNT(*) FROM migrations").fetchone()[0] == len(MIGRATIONS)


def test_extra_migrations_apply_after_core_and_only_once(tmp_path: Path) -> None:
    def owners(db: sqlite_utils.Database) -> None:
        run_statements(db, "ALTER TABLE campaigns ADD COLUMN owner TEXT;"
                           "CREATE TABLE share_tokens (token TEXT PRIMARY KEY)")

    web = [Migration(1001, "owners and share tokens", owners)]
    path = tmp_path / "web.db"
    open_db(path).close()  # core only, as an older install
    db = open_db(path, extra=web)
    assert applied_migrations(db) == [1, 1001]
    assert "owner" in db["campaigns"].columns_dict
    db.close()
    assert migrate(open_db(path, extra=web), extra=web) == []


def test_duplicate_numbers_refused() -> None:
    db = sqlite_utils.Database(memory=True)
    with pytest.raises(StorageError, match=r"share the number\(s\) \[1\]"):
        migrate(db, extra=[Migration(1, "clash", lambda d: None)])


def test_a_failing_migration_leaves_no_trace_and_is_retried(tmp_path: Path) -> None:
    calls = []

    def half_then_fail(db: sqlite_utils.Database) -> None:
        db.execute("CREATE TABLE half (x INTEGER)")
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("disk full")

    extra = [Migration(1002, "fails once", half_then_fail)]
    path = tmp_path / "m.db"
    with pytest.raises(RuntimeError):
        open_db(path, extra=extra)
    db = sqlite_utils.Database(path)
    assert "half" not in db.table_names()
    assert applied_migrations(db) == [1]
    db.close()
    db = open_db(path, extra=extra)
    assert applied_migrations(db) == [1, 1002] and "half" in db.table_names()
