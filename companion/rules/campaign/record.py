"""Reading and writing the campaign record (notation.md section 4).

Representation: a ``CampaignRecord`` holds the optional ``campaign:`` name and
``players:`` list, then the events in order: ``GameEvent`` (a finished game's total),
``SpendEvent`` (one ``spend:`` line: one or more ``SpendItem``) and ``AchievedEvent``
(one ``achieved:`` line). Each event keeps its 1-based record line (None when built in
code). This module checks only the notation; the campaign rules (budget, reachability)
are checked when the record is replayed (``companion.rules.campaign``).

The notation is extended, never changed: a spend item may end with ``from HEX`` to cross a
path between two reached hexes from its upper end (``spend: warehouse-signalman 2 from
signalman``); without it, crossing starts at the lower hex when that one is reached.
``achieved:`` may list several ids separated by commas.

>>> rec = parse_campaign("campaign: Sunday\\ngame: 78\\nspend: start-box1 1 # first\\n")
>>> rec.events[1]
SpendEvent(items=(SpendItem(path='start-box1', count=1, from_hex=None),), line=3)
>>> print(write_campaign(rec), end="")
campaign: Sunday
game: 78
spend: start-box1 1
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from companion.rules.errors import CampaignError
from companion.rules.numbers import SCORE_LIMIT, SPEND_LIMIT, whole_number
from companion.rules.reasons import Reason

KEYS = ("campaign", "players", "game", "spend", "achieved")
_SPEND_ITEM = re.compile(
    r"^(?P<path>[a-z0-9-]+)\s+(?P<count>-?\d+)(?:\s+from\s+(?P<hex>[a-z0-9-]+))?$"
)
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


@dataclass(frozen=True)
class SpendItem:
    """Cross ``count`` circles of ``path``, from ``from_hex`` (None: the default end)."""

    path: str
    count: int
    from_hex: str | None = None

    def text(self) -> str:
        tail = f" from {self.from_hex}" if self.from_hex else ""
        return f"{self.path} {self.count}{tail}"


@dataclass(frozen=True)
class GameEvent:
    score: int
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class SpendEvent:
    items: tuple[SpendItem, ...]
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class AchievedEvent:
    ids: tuple[str, ...]
    line: int | None = field(default=None, compare=False)


Event = GameEvent | SpendEvent | AchievedEvent


@dataclass
class CampaignRecord:
    """A whole campaign record."""

    name: str | None = None
    players: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


def parse_spend_items(value: str) -> tuple[SpendItem, ...]:
    """Parse the value of ``spend:``: ``PATH N[ from HEX][, PATH N...]``."""
    items: list[SpendItem] = []
    for part in value.split(","):
        text = " ".join(part.split())
        m = _SPEND_ITEM.match(text)
        if not m:
            raise CampaignError(Reason("spend-form", {"text": text}))
        count = whole_number(m["count"], -SPEND_LIMIT, SPEND_LIMIT)
        if count is None:
            raise CampaignError(Reason("spend-too-many", {"text": text, "limit": SPEND_LIMIT}))
        if count < 1:
            raise CampaignError(Reason("spend-at-least-one", {"text": text}))
        items.append(SpendItem(m["path"], count, m["hex"]))
    return tuple(items)


def _parse_score(value: str) -> int:
    score = whole_number(value, 0, SCORE_LIMIT)
    if score is None or not value.isdigit():
        raise CampaignError(Reason("not-a-score", {"value": value, "limit": SCORE_LIMIT}))
    return score


def _parse_ids(value: str) -> tuple[str, ...]:
    ids = tuple(v.strip() for v in value.split(","))
    for v in ids:
        if not _ID.match(v):
            raise CampaignError(Reason("not-an-achievement-id", {"value": v}))
    return ids


def parse_campaign(text: str) -> CampaignRecord:
    """Parse a campaign record; raise ``CampaignError`` ("line N: reason") on any fault."""
    record = CampaignRecord()
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            key, colon, value = line.partition(":")
            key = key.strip().lower()
            value = value.strip()
            if not colon:
                raise CampaignError(Reason("campaign-line-form", {"line": line,
                                                                  "known": list(KEYS)}))
            if key not in KEYS:
                raise CampaignError(Reason("campaign-unknown-key", {"key": key,
                                                                    "known": list(KEYS)}))
            if key in ("campaign", "players"):
                if record.events:
                    raise CampaignError(Reason("campaign-key-after-game", {"key": key}))
                if key in seen:
                    raise CampaignError(Reason("campaign-key-twice", {"key": key}))
                seen.add(key)
                if key == "campaign":
                    record.name = value or None
                else:
                    record.players = [p.strip() for p in value.split(",") if p.strip()]
            elif key == "game":
                record.events.append(GameEvent(_parse_score(value), number))
            elif key == "spend":
                record.events.append(SpendEvent(parse_spend_items(value), number))
            else:
                record.events.append(AchievedEvent(_parse_ids(value), number))
        except CampaignError as err:
            raise err.at_line(number) from None
    return record


def write_campaign(record: CampaignRecord) -> str:
    """Write a campaign record; ``parse_campaign(write_campaign(r)) == r``."""
    out: list[str] = []
    if record.name:
        out.append(f"campaign: {record.name}")
    if record.players:
        out.append("players: " + ", ".join(record.players))
    for event in record.events:
        if isinstance(event, GameEvent):
            out.append(f"game: {event.score}")
        elif isinstance(event, SpendEvent):
            out.append("spend: " + ", ".join(i.text() for i in event.items))
        else:
            out.append("achieved: " + ", ".join(event.ids))
    return "\n".join(out) + "\n"


__all__ = [
    "AchievedEvent",
    "CampaignRecord",
    "Event",
    "GameEvent",
    "SpendEvent",
    "SpendItem",
    "parse_campaign",
    "parse_spend_items",
    "write_campaign",
]
