"""Automatic check of the Great Mill achievement from a game record (rules.md §5).

The condition: all 6 edges of the grain task tile with the mill meet grain edges of 6
neighbours. Decisions (the card is the authority; each is stated in the explanation):

- Which tile: the grain task tiles (``task=grain``, with or without a marker value) that
  carry the ``mill`` attribute. A record that puts ``mill`` on no grain task tile (the mill
  figure is often not recorded during the game that earns it) has every grain task tile
  checked, so the achievement is proposed whenever some grain task tile qualifies.
- "Meet grain" is read as six grain joins: each of the tile's own 6 edges is grain **and**
  the neighbour across it exists and shows grain on the facing edge. (Only an all-grain
  task tile such as ``GGGGGG`` can qualify.)
- Only the final landscape matters (placement order is irrelevant). In a duel record every
  landscape is checked.

The result is a proposal for the players to tick (``achieved: great-mill``), never an
automatic unlock. ``MillCheck.why`` is the outcome as a coded reason (``great-mill-met``:
player, hex, with the mill or not; ``great-mill-not-met``: per landscape
``mill-no-grain-task`` or ``mill-tile-faults`` with the edges at fault), so that it is
shown in the player's language; ``explanation`` is its English sentence.

>>> text = "game: board-game\\n0 0 GGGGGG task=grain/4 mill\\n" + "".join(
...     f"{q} {r} GGGGGG\\n" for q, r in [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)])
>>> detect_great_mill(text)
True
>>> check_great_mill("game: board-game\\n0 0 GGGGGG task=grain/4\\n0 -1 GGGGGG\\n").met
False
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.rules.hexgrid import Hex, opposite
from companion.rules.notation import Placement, parse_record
from companion.rules.reasons import Reason, render

GRAIN = "G"


@dataclass(frozen=True)
class MillCheck:
    """The outcome: ``met``, the tile that met it (or None) and a one-paragraph reason."""

    met: bool
    at: Hex | None
    explanation: str
    why: Reason | None = None


def _faults(p: Placement, tiles: dict[Hex, str]) -> list[Reason]:
    faults: list[Reason] = []
    for edge in range(6):
        if p.code[edge] != GRAIN:
            faults.append(Reason("mill-edge-not-grain", {"edge": edge}))
            continue
        other = p.at.neighbor(edge)
        code = tiles.get(other)
        if code is None:
            faults.append(Reason("mill-edge-empty", {"edge": edge, "other": other}))
        elif code[opposite(edge)] != GRAIN:
            faults.append(Reason("mill-edge-meets-other", {"edge": edge, "other": other}))
    return faults


def _checked(met: bool, at: Hex | None, why: Reason) -> MillCheck:
    return MillCheck(met, at, render(why), why)


def check_great_mill(record_text: str) -> MillCheck:
    """Check a game record for the Great Mill; ``NotationError`` for an unreadable record."""
    record = parse_record(record_text)
    reasons: list[Reason] = []
    for section in record.sections:
        tiles = {p.at: p.code for p in section.placements}
        grain_tasks = [
            p for p in section.placements if p.task is not None and p.task.type == "grain"
        ]
        with_mill = [p for p in grain_tasks if p.mill]
        candidates = with_mill or grain_tasks
        who = section.player
        if not candidates:
            reasons.append(Reason("mill-no-grain-task", {"who": who}))
        for p in candidates:
            faults = _faults(p, tiles)
            if not faults:
                return _checked(True, p.at, Reason("great-mill-met", {
                    "who": who, "at": p.at, "mill": p.mill}))
            reasons.append(Reason("mill-tile-faults", {"who": who, "at": p.at,
                                                       "faults": faults}))
    return _checked(False, None, Reason("great-mill-not-met", {"reasons": reasons}))


def detect_great_mill(record_text: str) -> bool:
    """True when the record's landscape meets the Great Mill condition."""
    return check_great_mill(record_text).met


__all__ = ["MillCheck", "check_great_mill", "detect_great_mill"]
