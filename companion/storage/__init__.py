"""Storage: SQLite through sqlite-utils, numbered migrations, one transaction per write.

Modules: ``database`` (``open_db``, ``transaction``), ``migrations`` (the numbered list
and how to extend it), ``games`` (game records, sheets, status, versions), ``campaigns``
(players, spending, achievements; the campaign record derived from them and replayed by
``companion.rules.campaign``), ``archive`` (zip export/import), ``errors``
(``StorageError``, ``NotFoundError``, ``StaleEditError``).

Records are stored in the notation (notation.md), never pickled. Refusals by the rules
engine (``CampaignError``) pass through unchanged and write nothing.
"""

from companion.storage.database import open_db, transaction
from companion.storage.errors import NotFoundError, StaleEditError, StorageError
from companion.storage.migrations import MIGRATIONS, Migration, migrate

__all__ = [
    "MIGRATIONS",
    "Migration",
    "NotFoundError",
    "StaleEditError",
    "StorageError",
    "migrate",
    "open_db",
    "transaction",
]
