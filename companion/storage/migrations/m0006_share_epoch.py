"""Migration 6: share links that the owner can revoke.

Representation: adds ``share_epoch`` INTEGER (default 0) to ``games`` and ``campaigns``.
A browser that opens a share link keeps the row's epoch with its grant; when the owner
issues new links (``companion.storage.sharing.reissue``) the epoch grows, so every grant
given before, like the old links themselves, stops opening the row.
"""

from __future__ import annotations

import sqlite_utils

NUMBER = 6
NAME = "games.share_epoch, campaigns.share_epoch"


def apply(db: sqlite_utils.Database) -> None:
    for table in ("games", "campaigns"):
        if "share_epoch" not in db.table(table).columns_dict:
            db.execute(f"ALTER TABLE {table} ADD COLUMN share_epoch INTEGER NOT NULL DEFAULT 0")
