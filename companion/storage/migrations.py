"""Numbered schema migrations, applied in order, each exactly once.

Representation: a ``Migration`` is ``(number, name, apply)`` where ``apply(db)`` changes
the schema. The ``migrations`` table records every applied number with its name and time.
``migrate(db)`` applies the missing ones in number order, each inside one transaction
together with its ``migrations`` row, so a failed migration leaves no trace and is retried
on the next start. Running ``migrate`` again changes nothing (idempotent).

How to add a migration:

- Core tables (this package): append ``Migration(N, "what", _function)`` to ``MIGRATIONS``
  with the next number below 1000. Never edit or renumber a migration that has shipped;
  write a new one that alters the schema.
- Another package (the web app: owners, share tokens...): keep its own list, numbered from
  1001 up, and pass it in: ``migrate(db, extra=WEB_MIGRATIONS)`` (or
  ``open_db(path, extra=WEB_MIGRATIONS)``). Numbers are one global sequence; a duplicate
  number is refused. Applied numbers are tracked one by one, so a core migration added
  later is still applied on a database that already has web migrations.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import NamedTuple

import sqlite_utils

from companion.storage.errors import StorageError


class Migration(NamedTuple):
    number: int
    name: str
    apply: Callable[[sqlite_utils.Database], None]


def run_statements(db: sqlite_utils.Database, script: str) -> None:
    """Run ``;``-separated DDL one statement at a time: ``executescript`` would COMMIT
    first and break the migration's transaction."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _0001_core_tables(db: sqlite_utils.Database) -> None:
    run_statements(
        db,
        """
        CREATE TABLE IF NOT EXISTS players (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            created TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS campaigns (
            id INTEGER PRIMARY KEY,
            name TEXT,
            version INTEGER NOT NULL DEFAULT 1,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS campaign_players (
            campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
            player_id INTEGER NOT NULL REFERENCES players(id),
            position INTEGER NOT NULL,
            PRIMARY KEY (campaign_id, player_id)
        );
        CREATE TABLE IF NOT EXISTS games (
            id INTEGER PRIMARY KEY,
            campaign_id INTEGER REFERENCES campaigns(id) ON DELETE CASCADE,
            number INTEGER,
            record TEXT NOT NULL,
            sheet TEXT,
            score INTEGER,
            status TEXT NOT NULL CHECK (status IN ('in_progress', 'finished')),
            version INTEGER NOT NULL DEFAULT 1,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            CHECK (status = 'in_progress' OR score IS NOT NULL OR campaign_id IS NULL),
            UNIQUE (campaign_id, number)
        );
        CREATE TABLE IF NOT EXISTS spending (
            id INTEGER PRIMARY KEY,
            campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            path TEXT NOT NULL,
            count INTEGER NOT NULL CHECK (count > 0),
            from_hex TEXT,
            created TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS achievements (
            id INTEGER PRIMARY KEY,
            campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            achievement TEXT NOT NULL,
            created TEXT NOT NULL,
            UNIQUE (campaign_id, achievement)
        );
        CREATE INDEX IF NOT EXISTS games_campaign ON games(campaign_id, number);
        CREATE INDEX IF NOT EXISTS spending_campaign ON spending(campaign_id, seq);
        CREATE INDEX IF NOT EXISTS achievements_campaign ON achievements(campaign_id, seq);
        """
    )


MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "core tables: players, campaigns, games, spending, achievements",
              _0001_core_tables),
)


def _ensure_table(db: sqlite_utils.Database) -> None:
    db.execute(
        "CREATE TABLE IF NOT EXISTS migrations ("
        "number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)"
    )


def applied_migrations(db: sqlite_utils.Database) -> list[int]:
    """Numbers of the migrations already applied, ascending."""
    if "migrations" not in db.table_names():
        return []
    return [row[0] for row in db.execute("SELECT number FROM migrations ORDER BY number")]


def migrate(db: sqlite_utils.Database, extra: Iterable[Migration] = ()) -> list[int]:
    """Apply every missing migration (core plus ``extra``) in number order; return the
    numbers applied now."""
    todo = sorted([*MIGRATIONS, *extra], key=lambda m: m.number)
    numbers = [m.number for m in todo]
    if len(set(numbers)) != len(numbers):
        dup = sorted({n for n in numbers if numbers.count(n) > 1})
        raise StorageError(f"two migrations share the number(s) {dup}")
    with db.atomic():
        _ensure_table(db)
    done = set(applied_migrations(db))
    applied: list[int] = []
    for m in todo:
        if m.number in done:
            continue
        with db.atomic():
            m.apply(db)
            db.execute(
                "INSERT INTO migrations (number, name, applied) VALUES (?, ?, ?)",
                [m.number, m.name, datetime.now(UTC).isoformat(timespec="seconds")],
            )
        applied.append(m.number)
    return applied


__all__ = ["MIGRATIONS", "Migration", "applied_migrations", "migrate", "run_statements"]
