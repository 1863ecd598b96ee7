"""Numbered schema migrations, applied in order, each exactly once: the whole schema.

Representation: a ``Migration`` is ``(number, name, apply)`` where ``apply(db)`` changes
the schema. ``MIGRATIONS`` is the one numbered sequence, one module per step
(``mNNNN_what.py`` in this package, each exporting ``NUMBER``, ``NAME`` and ``apply``):

1. ``m0001_core_tables``: players, campaigns, campaign_players, games, spending, achievements;
2. ``m0002_game_sharing``: ``games.owner``, ``view_token``, ``edit_token``;
3. ``m0003_campaign_sharing``: the same for ``campaigns`` plus ``confirmed_seq``;
4. ``m0004_photos``: ``photos`` and ``photo_reviews`` (the photo review draft);
5. ``m0005_play_redo``: ``play_redo`` (the recorder's redo stack);
6. ``m0006_share_epoch``: ``share_epoch`` on games and campaigns (revocable share links);
7. ``m0007_unlock_notes``: ``unlock_notes`` (the players' notes on cards the companion
   does not know).

The ``migrations`` table records every applied number with its name and time.
``migrate(db)`` applies the missing ones in number order, each inside one transaction
together with its ``migrations`` row, so a failed migration leaves no trace and is retried
on the next start. Running ``migrate`` again changes nothing (idempotent).

Databases written before the sequence was one (the web app kept its own numbers 1001,
1101 and 1201, and created ``play_redo`` at request time) are renumbered on open
(``LEGACY_NUMBERS``); every step is idempotent (``IF NOT EXISTS``, columns checked), so
such a database ends with exactly the schema of a new one.

How to add a migration: write ``mNNNN_what.py`` with the next number and add it to
``STEPS``. Never edit or renumber a migration that has shipped; write a new one that
alters the schema. ``migrate(db, extra=...)`` applies further migrations after these
(tests use it to inject a failing step); a duplicate number is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from types import ModuleType
from typing import NamedTuple

import sqlite_utils

from companion.storage.errors import StorageError
from companion.storage.migrations import (
    m0001_core_tables,
    m0002_game_sharing,
    m0003_campaign_sharing,
    m0004_photos,
    m0005_play_redo,
    m0006_share_epoch,
    m0007_unlock_notes,
)
from companion.storage.migrations.statements import run_statements


class Migration(NamedTuple):
    number: int
    name: str
    apply: Callable[[sqlite_utils.Database], None]


STEPS: tuple[ModuleType, ...] = (
    m0001_core_tables,
    m0002_game_sharing,
    m0003_campaign_sharing,
    m0004_photos,
    m0005_play_redo,
    m0006_share_epoch,
    m0007_unlock_notes,
)

MIGRATIONS: tuple[Migration, ...] = tuple(Migration(m.NUMBER, m.NAME, m.apply) for m in STEPS)

# The numbers the web app's own migration lists used before the sequence was one.
LEGACY_NUMBERS: dict[int, int] = {1001: 2, 1101: 3, 1201: 4}


def _ensure_table(db: sqlite_utils.Database) -> None:
    db.execute(
        "CREATE TABLE IF NOT EXISTS migrations ("
        "number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)"
    )


def _renumber_legacy(db: sqlite_utils.Database) -> None:
    """Give the rows of the old web numbers their place in the one sequence."""
    names = {m.number: m.name for m in MIGRATIONS}
    done = set(applied_migrations(db))
    for old, new in LEGACY_NUMBERS.items():
        if old in done and new not in done:
            db.execute("UPDATE migrations SET number = ?, name = ? WHERE number = ?",
                       [new, names[new], old])


def applied_migrations(db: sqlite_utils.Database) -> list[int]:
    """Numbers of the migrations already applied, ascending."""
    if "migrations" not in db.table_names():
        return []
    return [row[0] for row in db.execute("SELECT number FROM migrations ORDER BY number")]


def migrate(db: sqlite_utils.Database, extra: Iterable[Migration] = ()) -> list[int]:
    """Apply every missing migration (``MIGRATIONS`` plus ``extra``) in number order;
    return the numbers applied now."""
    todo = sorted([*MIGRATIONS, *extra], key=lambda m: m.number)
    numbers = [m.number for m in todo]
    if len(set(numbers)) != len(numbers):
        dup = sorted({n for n in numbers if numbers.count(n) > 1})
        raise StorageError(f"two migrations share the number(s) {dup}")
    with db.atomic():
        _ensure_table(db)
        _renumber_legacy(db)
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


__all__ = ["LEGACY_NUMBERS", "MIGRATIONS", "Migration", "applied_migrations", "migrate",
           "run_statements"]
