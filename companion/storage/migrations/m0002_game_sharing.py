"""Migration 2: the owner of a game and its share links.

Representation: adds to ``games``:

- ``owner`` TEXT: the random identity kept in the creator's signed session cookie
  (no accounts); NULL for games created outside the web app (CLI, import);
- ``view_token``, ``edit_token`` TEXT: ``secrets.token_urlsafe`` strings of the share
  links ``/s/TOKEN`` (read-only, or allowed to edit), each with a unique index.

Was number 1001 of the web app's own list (renumbered on open).
"""

from __future__ import annotations

import sqlite_utils

from companion.storage.migrations.statements import add_owner_and_share_tokens

NUMBER = 2
NAME = "games.owner, games.view_token, games.edit_token"


def apply(db: sqlite_utils.Database) -> None:
    add_owner_and_share_tokens(db, "games")
