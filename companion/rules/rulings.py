"""Rulings R-n (rules.md): where the rulebooks are silent, the companion decides.

Representation: ``RULINGS`` maps each id (``"R-5"``) to a ``Ruling`` with its topic,
the default decision and the alternative a table may switch to (for a house rule, R-2 and
R-9, the default is the books' answer and the house rule is switched on), in English (the one
source of ruling texts: the rules page renders them, translated, from here). A ``RuleSet`` is
the frozen set of switched-off rulings, read from a record's ``rulings:`` header
(``rulings: R-5=off, R-2=off``); every score function receives it. The default
``RuleSet()`` applies every ruling.

>>> RuleSet.parse(["R-5=off"]).on("R-5")
False
>>> RuleSet().on("R-5"), RuleSet().on("R-9"), RuleSet.parse(["R-9=on"]).on("R-9")
(True, False, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.rules.errors import NotationError
from companion.rules.reasons import Reason


def N_(text: str) -> str:
    """Mark an English text for the translation catalogues (pybabel's default keyword
    ``N_``); the text itself is returned unchanged."""
    return text


@dataclass(frozen=True)
class Ruling:
    """A ruling: where the books are silent, ``default`` applies unless switched off.
    A ``house_rule`` is the other way round: the books settle the question, ``default``
    is their answer and the house rule (``alternative``) applies only when switched on."""

    id: str
    topic: str
    default: str
    alternative: str
    switchable: bool = True
    house_rule: bool = False

    @property
    def switch(self) -> str:
        """The ``rulings:`` header item that switches away from the default."""
        return f"{self.id}={'on' if self.house_rule else 'off'}"


RULINGS: dict[str, Ruling] = {r.id: r for r in (
    Ruling("R-1", N_("Areas"),
           N_("All edges of one terrain on a tile form one area; a record may split them "
              "with split= for art that shows separate patches."),
           N_("Off: split= is ignored.")),
    Ruling("R-2", N_("Longest track and stream"),
           N_("The whole connected network counts, branches included (the Duel book)."),
           N_("House rule, on: only the longest chain without branching back."),
           house_rule=True),
    Ruling("R-3", N_("Signalman"),
           N_("2 points per grade crossing on the whole track network through the "
              "Signalman."),
           N_("Off: only the Signalman tile and its direct track neighbours.")),
    Ruling("R-4", N_("Shepherdess"),
           N_("1 point per sheep on every tile joined to the Shepherdess through meadow "
              "edges, her own tile included."),
           N_("Off: only her tile and its direct meadow neighbours.")),
    Ruling("R-5", N_("Hill"),
           N_("2 points per task tile at distance 1 or 2 from the Hill."),
           N_("Off: only task tiles next to the Hill.")),
    Ruling("R-6", N_("Advancement track"),
           N_("A hex costs nothing: it is reached with the last circle of a path into it. "
              "Crosses not spent after a game are lost."),
           N_("Always on: the campaign pad is built on it."), switchable=False),
    Ruling("R-7", N_("Duel tie"),
           N_("A tie in the duel is a shared win."),
           N_("Always on: the rulebook names no tie-breaker."), switchable=False),
    Ruling("R-8", N_("Module 1 shared places"),
           N_("Tied players add the values of the places they share and split them, "
              "rounded down."),
           N_("Off: rounded up.")),
    Ruling("R-9", N_("Master cards"),
           N_("Players rank by their number of closed territories of 2 or more tiles, a "
              "count of 0 included (the card names no minimum)."),
           N_("House rule, on: a player without such a territory scores 0."),
           house_rule=True),
    Ruling("R-10", N_("Board-game hearts"),
           N_("A red or golden heart on a task or special tile is scored and warned about "
              "(the Duel's rule by analogy: a heart lies only on a landscape tile)."),
           N_("Off: no warning.")),
)}


@dataclass(frozen=True)
class RuleSet:
    """The rulings switched away from their default for one game: rulings switched off
    and house rules switched on (empty: every ruling applies, no house rule does).
    ``on(id)`` tells whether a ruling or house rule applies."""

    off: frozenset[str] = frozenset()
    house: frozenset[str] = frozenset()

    def on(self, ruling: str) -> bool:
        if RULINGS[ruling].house_rule:
            return ruling in self.house
        return ruling not in self.off

    @staticmethod
    def parse(items: Iterable[str]) -> RuleSet:
        """Read ``R-5=off``, ``R-9=on`` ...; a bare id switches away from its default."""
        off: set[str] = set()
        house: set[str] = set()
        for item in items:
            rid, eq, state = item.partition("=")
            rid = rid.strip().upper()
            if rid not in RULINGS:
                raise NotationError(Reason("unknown-ruling", {"item": item}))
            ruling = RULINGS[rid]
            state = state.strip().lower() if eq else ("on" if ruling.house_rule else "off")
            if state not in ("on", "off"):
                raise NotationError(Reason("ruling-state", {"item": item, "id": rid}))
            if ruling.house_rule:
                (house.add if state == "on" else house.discard)(rid)
            elif state == "off":
                if not ruling.switchable:
                    raise NotationError(Reason("ruling-fixed", {"id": rid}))
                off.add(rid)
            else:
                off.discard(rid)
        return RuleSet(frozenset(off), frozenset(house))

    def header(self) -> str:
        items = [f"{r}=off" for r in self.off] + [f"{r}=on" for r in self.house]
        return ", ".join(sorted(items))
