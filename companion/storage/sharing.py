"""Who owns a game or a campaign and its share links: owner, view and edit tokens.

Representation: the columns of migrations 2 and 3 on ``games`` and ``campaigns``:
``owner`` (the random identity kept in the creator's signed session cookie; no accounts)
and ``view_token`` / ``edit_token`` (``secrets.token_urlsafe(16)`` strings of the share
links ``/s/TOKEN`` and ``/c/TOKEN``). ``give_to`` sets the owner and fresh tokens of one
row (inside the caller's transaction), ``find_token`` answers which row a token opens and
at which level (``"view"`` or ``"edit"``) and share epoch (migration 6), ``reissue`` gives
the row new links and a new epoch (the old links and the grants they gave stop working),
``games_for`` lists the games one browser owns or
was given a link to (``companion.storage.campaigns.campaigns_for`` the campaigns).
"""

from __future__ import annotations

import secrets
from typing import Any, Literal

import sqlite_utils

from companion.storage.database import transaction

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


def find_token(db: sqlite_utils.Database, table: Table, token: str
               ) -> tuple[int, str, int] | None:
    """(row id, "edit" or "view", share epoch) of a share token, or None."""
    for row in db.query(
        f"SELECT id, edit_token, share_epoch FROM {_table(table)} "
        "WHERE view_token = ? OR edit_token = ?", [token, token],
    ):
        level = "edit" if row["edit_token"] == token else "view"
        return int(row["id"]), level, int(row["share_epoch"])
    return None


def reissue(db: sqlite_utils.Database, table: Table, row_id: int) -> None:
    """New view and edit links for the row and a new share epoch: the old links open
    nothing any more, and browsers that opened them lose their access (the owner keeps
    theirs)."""
    with transaction(db):
        db.execute(
            f"UPDATE {_table(table)} SET view_token = ?, edit_token = ?, "
            "share_epoch = share_epoch + 1 WHERE id = ?",
            [secrets.token_urlsafe(16), secrets.token_urlsafe(16), row_id])


def marks(ids: list[int]) -> str:
    """The ``?, ?, ...`` of an ``IN (...)`` over ``ids`` (``NULL`` when empty)."""
    return ", ".join("?" for _ in ids) or "NULL"


def games_for(db: sqlite_utils.Database, owner: str, shared: list[int]) -> list[dict[str, Any]]:
    """The games this browser owns or was given a link to, newest first (id, record,
    status, score, version, updated, owner, campaign_id)."""
    return list(db.query(
        "SELECT id, record, status, score, version, updated, owner, campaign_id FROM games "
        f"WHERE owner = ? OR id IN ({marks(shared)}) ORDER BY updated DESC, id DESC",
        [owner, *shared]))


__all__ = ["TABLES", "find_token", "games_for", "give_to", "marks", "reissue"]
