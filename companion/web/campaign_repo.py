"""The web app's campaign rows: owner, share tokens and the confirmed spending mark.

Representation: the storage's ``campaigns`` row plus the columns of migration 1101
(``owner``, ``view_token``, ``edit_token``, ``confirmed_seq``). Spending and ticked
achievements are stored at once as ordinary rows (``companion.storage.campaigns``); the
rows whose ``seq`` is above ``confirmed_seq`` are *pending*: they show on the sheet and
survive a reload, and may be undone until the players press "confirm" (which moves
``confirmed_seq`` to the last row). A newly recorded game makes them final as well (the
engine only undoes events after the last game). Every write here is one transaction and
checks the campaign version it was made from (``StaleEditError``).
"""

from __future__ import annotations

import secrets
from typing import Any

import sqlite_utils

from companion.rules import CampaignError
from companion.storage import campaigns as storage
from companion.storage.database import now, transaction
from companion.storage.errors import NotFoundError, StaleEditError

__all__ = [
    "NotFoundError",
    "StaleEditError",
    "by_token",
    "campaigns_for",
    "confirm",
    "create",
    "last_seq",
    "pending_count",
    "assign_owner",
]


def _tokens(db: sqlite_utils.Database, campaign_id: int, owner: str) -> None:
    db.execute(
        "UPDATE campaigns SET owner = ?, view_token = ?, edit_token = ? WHERE id = ?",
        [owner, secrets.token_urlsafe(16), secrets.token_urlsafe(16), campaign_id],
    )


def create(db: sqlite_utils.Database, name: str | None, players: list[str], owner: str) -> int:
    """A new campaign owned by this browser, with fresh share tokens; return its id."""
    with transaction(db):
        cid = storage.insert_campaign_row(db, name, players)
        _tokens(db, cid, owner)
    return cid


def assign_owner(db: sqlite_utils.Database, campaign_id: int, owner: str) -> None:
    """Give a campaign to this browser with new share tokens (inside the caller's
    transaction: an import passes it as ``on_insert``)."""
    _tokens(db, campaign_id, owner)


def by_token(db: sqlite_utils.Database, token: str) -> tuple[int, str] | None:
    """(campaign id, "edit" or "view") of a share token, or None."""
    for row in db.query(
        "SELECT id, edit_token FROM campaigns WHERE view_token = ? OR edit_token = ?",
        [token, token],
    ):
        return int(row["id"]), "edit" if row["edit_token"] == token else "view"
    return None


def campaigns_for(db: sqlite_utils.Database, owner: str, shared: list[int]) -> list[dict[str, Any]]:
    """The campaigns this browser owns or was given a link to, last changed first, each with
    its players and number of finished games."""
    marks = ", ".join("?" for _ in shared) or "NULL"
    rows = list(db.query(
        "SELECT c.*, (SELECT COUNT(*) FROM games g WHERE g.campaign_id = c.id AND "
        "g.status = 'finished') AS games, (SELECT COUNT(*) FROM games g WHERE "
        "g.campaign_id = c.id AND g.status = 'in_progress') AS playing FROM campaigns c "
        f"WHERE c.owner = ? OR c.id IN ({marks}) ORDER BY c.updated DESC, c.id DESC",
        [owner, *shared],
    ))
    for row in rows:
        row["players"] = storage.get_campaign(db, int(row["id"]))["players"]
    return rows


def last_seq(db: sqlite_utils.Database, campaign_id: int) -> int:
    """The ``seq`` of the newest spending or achievement row after the last game (0: none)."""
    games = storage.finished_games(db, campaign_id)
    if not games:
        return 0
    row = db.execute(
        "SELECT MAX(s) FROM (SELECT MAX(seq) AS s FROM spending WHERE game_id = :g "
        "UNION ALL SELECT MAX(seq) FROM achievements WHERE game_id = :g)",
        {"g": games[-1]["id"]},
    ).fetchone()
    return int(row[0] or 0)


def pending_count(db: sqlite_utils.Database, campaign: dict[str, Any]) -> int:
    """How many spending/achievement rows after the last game are not confirmed yet."""
    games = storage.finished_games(db, int(campaign["id"]))
    if not games:
        return 0
    row = db.execute(
        "SELECT (SELECT COUNT(*) FROM spending WHERE game_id = :g AND seq > :c) + "
        "(SELECT COUNT(*) FROM achievements WHERE game_id = :g AND seq > :c)",
        {"g": games[-1]["id"], "c": int(campaign.get("confirmed_seq") or 0)},
    ).fetchone()
    return int(row[0])


def confirm(db: sqlite_utils.Database, campaign_id: int, expected_version: int) -> int:
    """Make the pending spending final (no undo past it); return the new version."""
    with transaction(db):
        cursor = db.execute(
            "UPDATE campaigns SET version = version + 1, updated = :now, confirmed_seq = "
            "MAX(confirmed_seq, :seq) WHERE id = :id AND version = :v",
            {"now": now(), "seq": last_seq(db, campaign_id), "id": campaign_id,
             "v": expected_version},
        )
        if cursor.rowcount == 0:
            current = storage.get_campaign(db, campaign_id)["version"]
            raise StaleEditError(f"campaign {campaign_id}", expected_version, current)
    return expected_version + 1


def undo_pending(db: sqlite_utils.Database, campaign: dict[str, Any],
                 expected_version: int) -> None:
    """Take back the newest pending row; confirmed rows stay (``CampaignError``)."""
    if last_seq(db, int(campaign["id"])) <= int(campaign.get("confirmed_seq") or 0):
        raise CampaignError("nothing to undo: the spending is confirmed")
    storage.undo_last(db, int(campaign["id"]), expected_version=expected_version)
