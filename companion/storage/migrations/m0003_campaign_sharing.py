"""Migration 3: the owner of a campaign, its share links and the confirmed spending mark.

Representation: adds to ``campaigns``:

- ``owner`` TEXT: the random identity kept in the creator's signed session cookie (no
  accounts); NULL for campaigns created outside the web app (CLI, storage tools);
- ``view_token``, ``edit_token`` TEXT: ``secrets.token_urlsafe`` strings of the share links
  ``/c/TOKEN`` (look only, or allowed to record and spend), each with a unique index;
- ``confirmed_seq`` INTEGER (default 0): spending and achievement rows (``seq``) up to this
  number are confirmed by the players; rows after it are *pending* and may still be undone.
  Pending rows are ordinary rows of the campaign (they count on the sheet at once), so
  nothing is lost on reload.

Was number 1101 of the web app's own list (renumbered on open).
"""

from __future__ import annotations

import sqlite_utils

from companion.storage.migrations.statements import add_owner_and_share_tokens

NUMBER = 3
NAME = "campaigns.owner, view_token, edit_token, confirmed_seq"


def apply(db: sqlite_utils.Database) -> None:
    add_owner_and_share_tokens(db, "campaigns")
    if "confirmed_seq" not in db.table("campaigns").columns_dict:
        db.execute("ALTER TABLE campaigns ADD COLUMN confirmed_seq INTEGER NOT NULL DEFAULT 0")
