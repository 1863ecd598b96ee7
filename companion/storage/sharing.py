"""Who owns a game or a campaign and its share links: owner, view and edit tokens.

Representation: the columns of migrations 2 and 3 on ``games`` and ``campaigns``:
``owner`` (the random identity kept in the creator's signed session cookie; no accounts)
and ``view_token`` / ``edit_token`` (``secrets.token_urlsafe(16)`` strings of the share
links ``/s/TOKEN`` and ``/c/TOKEN``). ``give_to`` sets the owner and fresh tokens of one
row (inside the caller's transaction), ``find_token`` answers which row a token opens and
at which level (``"view"`` or ``"edit"``), ``games_for`` lists the games one browser owns or
was given a link to (``companion.storage.campaigns.campaigns_for`` the campaigns).
"""

from __future__ import annotations

import secrets
from typing import Any, Literal

import sqlite_utils

Table = Literal["games", "campaigns"]
TABLES: tuple[Table, ...] = ("games", "campaigns")


def _table(table: str) -> str:
    if table not in TABLES:
        raise ValueError(f"no share links on {table!r}")
    return table


def give_to(db: sqlite_utils.Database, table: Table, row_id: int, owner: str) -> None:
    """Make ``owner`` the owner of the row, with new share tokens (no transaction of its
    own: call inside the one that created the row)."""
    db.execute(
        f"UPDATE {_table(table)} SET owner = ?, view_token = ?, edit_token = ? WHERE id = ?",
        [owner, secrets.token_urlsafe(16), secrets.token_urlsafe(16), row_id],
    )


def find_token(db: sqlite_utils.Database, table: Table, token: str) -> tuple[int, str] | None:
    """(row id, "edit" or "view") of a share token, or None."""
    for row in db.query(
        f"SELECT id, edit_token FROM {_table(table)} WHERE view_token = ? OR edit_token = ?",
        [token, token],
    ):
        return int(row["id"]), "edit" if row["edit_token"] == token else "view"
    return None


def marks(ids: list[int]) -> str:
    """The ``?, ?, ...`` of an ``IN (...)`` over ``ids`` (``NULL`` when empty)."""
    return ", ".join("?" for _ in ids) or "NULL"


def games_for(db: sqlite_utils.Database, owner: str, shared: list[int]) -> list[dict[str, Any]]:
    """The games this browser owns or was given a link to, newest first (id, record,
    status, score, version, updated, owner)."""
    return list(db.query(
        "SELECT id, record, status, score, version, updated, owner FROM games "
        f"WHERE owner = ? OR id IN ({marks(shared)}) ORDER BY updated DESC, id DESC",
        [owner, *shared]))


__all__ = ["TABLES", "find_token", "games_for", "give_to", "marks"]
