"""Score to title and crosses: the "Your Results" table of the campaign pad (rules.md §6).

Representation: ``TITLES`` is a tuple of ``Title(threshold, name, crosses)`` rows in
ascending threshold order; a score earns the last row whose threshold it reaches.

>>> title_for(78)
Title(threshold=0, name='Vagabond', crosses=1)
>>> title_for(140).name, title_for(140).crosses
('Actress', 4)
>>> title_for(374).name, title_for(375).name
('Baroness', 'Crown Prince')
"""

from __future__ import annotations

from bisect import bisect_right
from typing import NamedTuple

from companion.rules.errors import CampaignError
from companion.rules.reasons import Reason


class Title(NamedTuple):
    """One row of the results table: from ``threshold`` points up, ``name`` and ``crosses``."""

    threshold: int
    name: str
    crosses: int


TITLES: tuple[Title, ...] = (
    Title(0, "Vagabond", 1),
    Title(100, "Newsboy", 2),
    Title(110, "Fisherwoman", 3),
    Title(120, "Coachman", 3),
    Title(130, "Night Watchman", 4),
    Title(140, "Actress", 4),
    Title(150, "Landlady", 5),
    Title(160, "Forest Ranger", 5),
    Title(170, "Farmer's Wife", 6),
    Title(180, "Engineer", 6),
    Title(190, "Ringmaster", 7),
    Title(200, "Captain", 7),
    Title(210, "Harbormaster", 8),
    Title(220, "Station Master", 8),
    Title(230, "Photographer", 9),
    Title(240, "Merchant", 9),
    Title(250, "Architect", 10),
    Title(260, "Inventor", 10),
    Title(270, "Astronomer", 11),
    Title(280, "Doctor", 11),
    Title(290, "Diplomat", 12),
    Title(300, "Balloonist", 12),
    Title(310, "Manufacturer", 13),
    Title(320, "Mayor", 13),
    Title(330, "Councilor", 14),
    Title(340, "Magnate", 14),
    Title(350, "Baroness", 15),
    Title(375, "Crown Prince", 15),
    Title(400, "Empress", 15),
)

_THRESHOLDS = [t.threshold for t in TITLES]


def title_for(score: int) -> Title:
    """The title row a finished game's total earns; a negative score is refused."""
    if score < 0:
        raise CampaignError(Reason("negative-score", {"score": score}))
    return TITLES[bisect_right(_THRESHOLDS, score) - 1]


def crosses_for(score: int) -> int:
    """The number of crosses a finished game's total earns."""
    return title_for(score).crosses


__all__ = ["TITLES", "Title", "crosses_for", "title_for"]
