"""How much one campaign, import or game may hold: far beyond any real table, small enough
that no page or import becomes slow (README, "Limits").

A real campaign is a few dozen games; a game has one or two photos.
"""

from __future__ import annotations

from companion.storage.errors import StorageError

GAMES_PER_CAMPAIGN = 500
DRAFTS_PER_IMPORT = 20
PHOTOS_PER_GAME = 12
ZIP_ENTRIES = 2 * GAMES_PER_CAMPAIGN + DRAFTS_PER_IMPORT + 1
"""A campaign archive: campaign.txt, a record and a sheet per game, the drafts."""


class LimitError(StorageError):
    """A write would pass one of the limits above; the message names it."""


def check(count: int, limit: int, what: str) -> None:
    """Refuse when ``count`` items of ``what`` would pass ``limit``."""
    if count > limit:
        raise LimitError(f"{what}: at most {limit} (this would make {count})")
