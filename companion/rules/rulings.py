"""Rulings R-n (rules.md): where the rulebooks are silent, the companion decides.

Representation: ``RULINGS`` maps each id (``"R-5"``) to a ``Ruling`` with the
default decision and the alternative a table may switch to. A ``RuleSet`` is
the frozen set of switched-off rulings, read from a record's ``rulings:`` header
(``rulings: R-5=off, R-2=off``); every score function receives it. The default
``RuleSet()`` applies every ruling.

>>> RuleSet.parse(["R-5=off"]).on("R-5")
False
>>> RuleSet().on("R-2")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.rules.errors import NotationError


@dataclass(frozen=True)
class Ruling:
    id: str
    topic: str
    default: str
    alternative: str
    switchable: bool = True


RULINGS: dict[str, Ruling] = {r.id: r for r in (
    Ruling("R-1", "Areas",
           "All edges of one terrain on a tile form one area (territories are counted in "
           "tiles); a record may split them with split=.",
           "Off: split= attributes are ignored, every tile has one area per terrain."),
    Ruling("R-2", "Longest track and stream",
           "The longest track / stream is the whole connected network, branches included.",
           "Off: only the longest chain of tiles without branching back counts (longest "
           "simple path through the network)."),
    Ruling("R-3", "Signalman",
           "2 points per grade crossing on the whole track network through the Signalman.",
           "Off: only crossings on the Signalman tile and its direct track neighbours."),
    Ruling("R-4", "Shepherdess",
           "1 point per sheep on every tile joined to the Shepherdess through meadow edges, "
           "the Shepherdess tile included.",
           "Off: only sheep on the Shepherdess tile and its direct meadow neighbours."),
    Ruling("R-5", "Hill",
           "2 points per task tile at distance 1 or 2 from the Hill.",
           "Off: only task tiles next to the Hill (distance 1)."),
    Ruling("R-6", "Advancement track",
           "A hex costs nothing: it is reached when the last circle of a path into it is "
           "crossed; crosses not spent after a game are lost.",
           "Not switchable: the campaign pad is built on it.", switchable=False),
    Ruling("R-7", "Duel tie",
           "A tie in the Duel is a shared win.",
           "Not switchable: the rulebook names no tie-breaker.", switchable=False),
    Ruling("R-8", "Module 1 shared places",
           "Tied players add the values of the places they share and split them, rounded "
           "down.",
           "Off: rounded up."),
    Ruling("R-9", "Master cards",
           "A player with no closed territory of 2+ tiles of that type scores 0 on a "
           "Master card.",
           "Off: such a player still takes the place of their rank."),
)}


@dataclass(frozen=True)
class RuleSet:
    """The rulings switched off for one game (empty: all rulings apply)."""

    off: frozenset[str] = frozenset()

    def on(self, ruling: str) -> bool:
        return ruling not in self.off

    @staticmethod
    def parse(items: Iterable[str]) -> RuleSet:
        off: set[str] = set()
        for item in items:
            rid, eq, state = item.partition("=")
            rid = rid.strip().upper()
            state = state.strip().lower() if eq else "off"
            if rid not in RULINGS:
                raise NotationError(f"rulings: unknown ruling {item!r} (R-1 to R-9)")
            if state not in ("on", "off"):
                raise NotationError(f"rulings: {item!r}: use {rid}=on or {rid}=off")
            if state == "off":
                if not RULINGS[rid].switchable:
                    raise NotationError(f"rulings: {rid} cannot be switched off")
                off.add(rid)
            else:
                off.discard(rid)
        return RuleSet(frozenset(off))

    def header(self) -> str:
        return ", ".join(f"{r}=off" for r in sorted(self.off))
