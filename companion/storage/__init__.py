"""Storage: every table and every query, SQLite through sqlite-utils, numbered migrations.

Modules, one per group of tables:

- ``database``: ``open_db`` (open and migrate), ``connect`` (one connection per web
  request), ``transaction`` (one write, all or nothing), ``now``;
- ``migrations/``: the one numbered sequence of schema steps (``m0001_core_tables`` ...
  ``m0005_play_redo``), each applied once, old web numbers renumbered on open;
- ``games``: game records, sheets, status, versions;
- ``sharing``: owners and share tokens of games and campaigns, the games of a browser;
- ``campaigns``: players, spending, achievements, pending/confirmed spending; the campaign
  record derived from them and replayed by the engine;
- ``photos``: photos of a game's table and the photo review draft;
- ``redo``: the recorder's redo stack;
- ``archive``: zip export/import of a campaign;
- ``errors``: ``StorageError``, ``NotFoundError``, ``StaleEditError``.

No other package writes SQL: the web app calls these functions. Records are stored in the
notation (notation.md), never pickled. Every change names the version it was made from
(``StaleEditError`` when someone saved first). Refusals by the rules engine
(``CampaignError``) pass through unchanged and write nothing.
"""

from companion.storage.database import connect, open_db, transaction
from companion.storage.errors import NotFoundError, StaleEditError, StorageError
from companion.storage.migrations import MIGRATIONS, Migration, migrate

__all__ = [
    "MIGRATIONS",
    "Migration",
    "NotFoundError",
    "StaleEditError",
    "StorageError",
    "connect",
    "migrate",
    "open_db",
    "transaction",
]
