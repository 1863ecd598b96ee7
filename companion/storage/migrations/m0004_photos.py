"""Migration 4: the photos of a game's table and the photo review draft.

Representation: creates

- ``photos``: one uploaded photo of a game's table. ``game_id`` (the game, rows go
  with it), ``jpeg`` (the cleaned photo: EXIF-oriented, downscaled, re-encoded as
  JPEG without any metadata; NULL when ``path`` is used), ``path`` (alternatively a
  file under ``instance/photos/``), ``width``/``height`` (pixels of the stored JPEG),
  ``scan`` (the scanner's JSON, ``Scan.to_json()``, centres in stored pixels),
  ``created`` (ISO UTC).
- ``photo_reviews``: the review draft of a game, at most one. ``game_id`` (primary
  key), ``state`` (JSON written by ``companion.web.photos.review``), ``status``
  (``review`` while being checked, ``confirmed`` once it became the game's map),
  ``version`` (+1 on every change: stale edits are refused), ``updated``.

Was number 1201 of the web app's own list (renumbered on open).
"""

from __future__ import annotations

import sqlite_utils

from companion.storage.migrations.statements import run_statements

NUMBER = 4
NAME = "photos of a game's table and the photo review draft"


def apply(db: sqlite_utils.Database) -> None:
    run_statements(
        db,
        """
        CREATE TABLE IF NOT EXISTS photos (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            jpeg BLOB,
            path TEXT,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            scan TEXT,
            created TEXT NOT NULL,
            CHECK (jpeg IS NOT NULL OR path IS NOT NULL)
        );
        CREATE INDEX IF NOT EXISTS photos_game ON photos(game_id, id);
        CREATE TABLE IF NOT EXISTS photo_reviews (
            game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            state TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('review', 'confirmed')),
            version INTEGER NOT NULL DEFAULT 1,
            updated TEXT NOT NULL
        )
        """,
    )

