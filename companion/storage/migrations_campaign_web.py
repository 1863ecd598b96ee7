"""Web-only schema of campaigns: owner, share tokens, confirmed spending (numbered from 1101).

Representation: ``CAMPAIGN_WEB_MIGRATIONS`` is a tuple of storage ``Migration(number,
name, apply)`` numbered from 1101 up (the web app's games use 1001+), passed to
``open_db(path, extra=(*WEB_MIGRATIONS, *CAMPAIGN_WEB_MIGRATIONS))``. Migration 1101 adds
to ``campaigns``:

- ``owner`` TEXT: the random identity kept in the creator's signed session cookie (no
  accounts); NULL for campaigns created outside the web app (CLI, storage tools);
- ``view_token``, ``edit_token`` TEXT: ``secrets.token_urlsafe`` strings of the share links
  ``/c/TOKEN`` (look only, or allowed to record and spend), each with a unique index;
- ``confirmed_seq`` INTEGER (default 0): spending and achievement rows (``seq``) up to this
  number are confirmed by the players; rows after it are *pending* and may still be undone.
  Pending rows are ordinary rows of the campaign (they count on the sheet at once), so
  nothing is lost on reload.
"""

from __future__ import annotations

import sqlite_utils

from companion.storage.migrations import Migration
from companion.storage.migrations_web import add_owner_and_share_tokens


def _1101_campaign_owner_tokens_confirmed(db: sqlite_utils.Database) -> None:
    add_owner_and_share_tokens(db, "campaigns")
    if "confirmed_seq" not in db.table("campaigns").columns_dict:
        db.execute("ALTER TABLE campaigns ADD COLUMN confirmed_seq INTEGER NOT NULL DEFAULT 0")


CAMPAIGN_WEB_MIGRATIONS: tuple[Migration, ...] = (
    Migration(1101, "web: campaigns.owner, view_token, edit_token, confirmed_seq",
              _1101_campaign_owner_tokens_confirmed),
)

__all__ = ["CAMPAIGN_WEB_MIGRATIONS"]
