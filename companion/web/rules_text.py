"""The rules in the project's own words (from rules.md), translatable.

Representation: ``SECTIONS`` is a tuple of ``Section(anchor, title, paragraphs)`` and
``RULINGS`` of ``RulingText(id, topic, default, alternative, switchable)``, every
string marked with ``lazy_gettext`` so the page is shown in the chosen language.
``search(query)`` keeps the sections and rulings whose translated (or English) text
contains every word of the query, case-insensitively.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import lazy_gettext as _l
from flask_babel.speaklater import LazyString

from companion.rules import RULINGS as ENGINE_RULINGS


@dataclass(frozen=True)
class Section:
    anchor: str
    title: LazyString
    paragraphs: tuple[LazyString, ...]


@dataclass(frozen=True)
class RulingText:
    id: str
    topic: LazyString
    default: LazyString
    alternative: LazyString

    @property
    def switchable(self) -> bool:
        return ENGINE_RULINGS[self.id].switchable


SECTIONS: tuple[Section, ...] = (
    Section("terrain", _l("Terrain and territories"), (
        _l("Each edge of a tile shows one terrain: forest, grain, village, track, stream or "
           "meadow. Forest, grain and village make territories; track and stream make "
           "networks; meadow never scores as a territory."),
        _l("Neighbouring edges of the same terrain join. The size of a territory or network "
           "is the number of different tiles in it, task and special tiles included."),
        _l("A territory is closed when none of its edges faces an empty space. An edge "
           "facing a tile of another terrain counts as closed."),
    )),
    Section("placement", _l("Placing a tile"), (
        _l("Every tile after the first must touch a tile already placed, and a space holds "
           "one tile only."),
        _l("A track edge may only meet a track edge or an empty space, and a stream edge "
           "only a stream edge or an empty space. Forest, grain, village and meadow edges "
           "meet each other freely."),
        _l("A task tile may not be placed where its own marker could no longer be met: "
           "right after placing it, its territory may not be larger than the marker's "
           "number, nor closed with fewer tiles. Completing at once is allowed, and so is "
           "breaking other markers."),
    )),
    Section("markers", _l("Task markers"), (
        _l("A marker belongs to the territory or network of its terrain on its task tile. "
           "After every placement each active marker is checked: exactly its number of "
           "tiles completes it (it scores, later growth does not matter); more tiles fail "
           "it; a closed territory with fewer tiles fails it."),
        _l("A marker completes only at exactly its number: joining two territories so the "
           "size jumps past the number fails it. One placement may complete and fail "
           "several markers at once."),
        _l("Board game markers: for each terrain one 4, two 5 and two 6. The campaign adds "
           "a second 4 per terrain and a 7 for forest, grain and village."),
    )),
    Section("duel-tasks", _l("Duel tasks"), (
        _l("Wraparound: the marker completes when exactly its number of tiles surround its "
           "task tile; it never fails."),
        _l("Double task (6): completes when either of its two territories through the tile "
           "has exactly 6 tiles; it fails only when neither can still reach 6."),
        _l("Each duel player has, for forest, grain, village, track, stream and wraparound, "
           "one marker each of 3, 4, 5 and 6, plus three double tasks."),
    )),
    Section("turns", _l("Turn order"), (
        _l("The first three turns reveal task tiles; afterwards a task tile comes while "
           "fewer than three markers are active, otherwise a landscape tile. In the duel a "
           "task tile comes while either player has fewer than three active markers."),
        _l("The companion only warns about a log that breaks this order, naming the turn: "
           "the score still comes out."),
    )),
    Section("sheet", _l("The board game score sheet"), (
        _l("B1 to B5: the completed markers of forest, grain, village, track and stream; "
           "S1 is their sum."),
        _l("C1 to C3: flags. A flag in a closed territory of its type scores the size of "
           "that territory; several flags in one territory each score; a flag in an open "
           "territory scores nothing."),
        _l("D1 and D2: the size of the largest track and stream network. S2 adds flags and "
           "longest networks."),
        _l("E: one row per unlocked campaign component; S3 is their sum. H is the total: "
           "S1 + S2 + S3."),
    )),
    Section("components", _l("Unlocked components"), (
        _l("Hearts score one point per edge matching the neighbouring edge (meadow to "
           "meadow counts). The Circus scores 10 when all six neighbours are filled. The "
           "Hill scores 2 per task tile nearby."),
        _l("Signalman, Shepherdess, Construction Site, Balloon Launch Site, Train Station, "
           "Harbor and the five marker tiles (Forest Cabin, Harvest Festival, Watchtower, "
           "Locomotive, Ship) each have their own row; every number explains itself on the "
           "score sheet."),
        _l("The Great Mill: once unlocked, the mill stands on a grain tile; if that grain "
           "territory is closed at the end it scores 2 per completed grain task and 2 per "
           "yellow flag in it."),
    )),
    Section("campaign", _l("Campaign"), (
        _l("After each game the total gives crosses (a title per 10 points from 100 up). "
           "Crosses are spent on the circles of the advancement track; reaching a hex opens "
           "a box or gives an achievement, and heart circles give red hearts."),
        _l("Everything unlocked is used in every later game: the matching score rows, tiles "
           "and markers."),
    )),
    Section("duel", _l("The Duel score sheet"), (
        _l("Per player: tasks per type (with wraparound and double), flags, longest track "
           "and stream, subtotal, Module 1, Module 2 and total. The higher total wins."),
        _l("Module 1, task cards: places score 8, 4, 2 and 0; tied players share the "
           "places they take. Large: first to a closed territory of 5 or more. Master: most "
           "closed territories of 2 or more. Many: points for each closed territory of 2 or "
           "more, without competition."),
        _l("Module 2, points of interest: the 4th, 7th and 10th completed task each give a "
           "choice: School, Granary or Old Oak (one special tile), Photographer, or Hearts."),
    )),
    Section("explain", _l("Why every number"), (
        _l("Every number on a sheet opens to its explanation: which tiles, which open edge, "
           "at which turn a marker completed or failed, and which ruling decided it."),
    )),
)

RULINGS: tuple[RulingText, ...] = (
    RulingText("R-1", _l("Areas"),
               _l("All edges of one terrain on a tile form one area; a record may split them "
                  "with split= for art that shows separate patches."),
               _l("Off: split= is ignored.")),
    RulingText("R-2", _l("Longest track and stream"),
               _l("The whole connected network counts, branches included."),
               _l("Off: only the longest chain without branching back.")),
    RulingText("R-3", _l("Signalman"),
               _l("2 points per grade crossing on the whole track network through the "
                  "Signalman."),
               _l("Off: only the Signalman tile and its direct track neighbours.")),
    RulingText("R-4", _l("Shepherdess"),
               _l("1 point per sheep on every tile joined to the Shepherdess through meadow "
                  "edges, her own tile included."),
               _l("Off: only her tile and its direct meadow neighbours.")),
    RulingText("R-5", _l("Hill"),
               _l("2 points per task tile at distance 1 or 2 from the Hill."),
               _l("Off: only task tiles next to the Hill.")),
    RulingText("R-6", _l("Advancement track"),
               _l("A hex costs nothing: it is reached with the last circle of a path into it. "
                  "Crosses not spent after a game are lost."),
               _l("Always on: the campaign pad is built on it.")),
    RulingText("R-7", _l("Duel tie"),
               _l("A tie in the duel is a shared win."),
               _l("Always on: the rulebook names no tie-breaker.")),
    RulingText("R-8", _l("Module 1 shared places"),
               _l("Tied players add the values of the places they share and split them, "
                  "rounded down."),
               _l("Off: rounded up.")),
    RulingText("R-9", _l("Master cards"),
               _l("A player without a closed territory of 2 or more tiles of that type scores "
                  "0 on a Master card."),
               _l("Off: that player still takes the place of their rank.")),
)


def _matches(words: list[str], texts: list[str]) -> bool:
    blob = " ".join(texts).lower()
    return all(w in blob for w in words)


def search(query: str) -> tuple[list[Section], list[RulingText]]:
    """Sections and rulings containing every word of ``query`` (all when empty)."""
    words = query.lower().split()
    if not words:
        return list(SECTIONS), list(RULINGS)
    sections = [s for s in SECTIONS if _matches(words, [
        str(s.title), *map(str, s.paragraphs), s.title._args[0], *(p._args[0]
                                                                   for p in s.paragraphs)])]
    rulings = [r for r in RULINGS if _matches(words, [
        r.id, str(r.topic), str(r.default), str(r.alternative), r.topic._args[0],
        r.default._args[0], r.alternative._args[0]])]
    return sections, rulings
