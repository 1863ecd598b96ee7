"""Migration 7: the players' own notes on unlocks whose card text the companion lacks.

Representation: ``unlock_notes`` (``campaign_id`` -> campaigns, ``unlock_id`` a box,
achievement or ``red-heart`` id, ``text`` what the players copied from the card,
``updated`` an ISO time), one row per campaign and unlock.
"""

from __future__ import annotations

import sqlite_utils

NUMBER = 7
NAME = "unlock_notes"


def apply(db: sqlite_utils.Database) -> None:
    db.execute("""
        CREATE TABLE IF NOT EXISTS unlock_notes (
            campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
            unlock_id TEXT NOT NULL,
            text TEXT NOT NULL,
            updated TEXT NOT NULL,
            PRIMARY KEY (campaign_id, unlock_id)
        )""")
