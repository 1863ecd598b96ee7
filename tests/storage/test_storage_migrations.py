"""Migrations: from an empty database file, idempotent, extensible, all-or-nothing, and a
database written before the sequence was one migrates to the same schema with its rows."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlite_utils

from companion.storage import MIGRATIONS, Migration, StorageError, migrate, open_db
from companion.storage.migrations import (
    LEGACY_NUMBERS,
    applied_migrations,
    m0001_core_tables,
    run_statements,
)

CORE_TABLES = {"migrations", "players", "campaigns", "campaign_players", "games", "spending",
               "achievements"}
ALL_TABLES = CORE_TABLES | {"photos", "photo_reviews", "play_redo", "unlock_notes"}
NUMBERS = [m.number for m in MIGRATIONS]
LEGACY_DUMP = Path(__file__).resolve().parents[1] / "data" / "legacy_web.sql"


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
        run_statements(db, "ALTER TABLE campaigns ADD COLUMN nickname TEXT;"
                           "CREATE TABLE share_tokens (token TEXT PRIMARY KEY)")

    web = [Migration(1001, "nicknames and share tokens", owners)]
    path = tmp_path / "web.db"
    open_db(path).close()  # the sequence only, as an older install
    db = open_db(path, extra=web)
    assert applied_migrations(db) == [*NUMBERS, 1001]
    assert "nickname" in db["campaigns"].columns_dict
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
    assert applied_migrations(db) == NUMBERS
    db.close()
    db = open_db(path, extra=extra)
    assert applied_migrations(db) == [*NUMBERS, 1002] and "half" in db.table_names()


def test_the_sequence_is_one_numbered_list_of_every_table() -> None:
    assert NUMBERS == list(range(1, len(MIGRATIONS) + 1))
    db = open_db(":memory:")
    assert set(db.table_names()) == ALL_TABLES
    assert {"owner", "view_token", "edit_token"} <= set(db["games"].columns_dict)
    assert {"owner", "view_token", "edit_token", "confirmed_seq"} <= set(
        db["campaigns"].columns_dict)


def schema_of(db: sqlite_utils.Database) -> dict[str, set[str]]:
    """Each table's and index's columns (the order of ALTER-added columns aside)."""
    found: dict[str, set[str]] = {}
    for kind, name in db.execute("SELECT type, name FROM sqlite_master WHERE name NOT LIKE "
                                 "'sqlite_%' AND type IN ('table', 'index')"):
        pragma = "table_info" if kind == "table" else "index_info"
        found[f"{kind} {name}"] = {row[2 if kind == "index" else 1]
                                   for row in db.execute(f"PRAGMA {pragma}({name})")}
    return found


def test_a_database_of_the_web_apps_old_numbers_migrates_to_the_same_schema(
        tmp_path: Path) -> None:
    path = tmp_path / "legacy.db"
    legacy = sqlite_utils.Database(path)
    legacy.conn.executescript(LEGACY_DUMP.read_text())
    assert applied_migrations(legacy) == [1, *LEGACY_NUMBERS]
    rows = ALL_TABLES - {"migrations", "unlock_notes"}  # unlock_notes: newer than the dump
    before = {t: legacy.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in rows}
    legacy.close()
    db = open_db(path)
    assert applied_migrations(db) == NUMBERS
    names = {row[0]: row[1] for row in db.execute("SELECT number, name FROM migrations")}
    assert names == {m.number: m.name for m in MIGRATIONS}
    assert schema_of(db) == schema_of(open_db(tmp_path / "fresh.db"))
    assert {t: db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in rows} == before
    game = next(db.query("SELECT owner, view_token, version FROM games WHERE owner IS NOT NULL"))
    assert game["owner"] == "owner-1" and game["view_token"] and game["version"] == 2
    assert db.execute("SELECT stack FROM play_redo WHERE version = 2").fetchone() is not None
    assert migrate(db) == []


def test_a_core_only_database_gets_the_rest_of_the_sequence(tmp_path: Path) -> None:
    """The command line used to open the database without the web app's migrations."""
    path = tmp_path / "cli.db"
    db = sqlite_utils.Database(path)
    run_statements(db, "CREATE TABLE migrations (number INTEGER PRIMARY KEY, name TEXT NOT "
                       "NULL, applied TEXT NOT NULL)")
    m0001_core_tables.apply(db)
    db.execute("INSERT INTO migrations VALUES (1, ?, '2026-01-01T00:00:00+00:00')",
               [m0001_core_tables.NAME])
    db.execute("INSERT INTO players (name, created) VALUES ('Ana', '2026-01-01')")
    db.conn.commit()
    db.close()
    db = open_db(path)
    assert applied_migrations(db) == NUMBERS
    assert schema_of(db) == schema_of(open_db(tmp_path / "fresh.db"))
    assert db.execute("SELECT name FROM players").fetchall() == [("Ana",)]
