"""The rules in the project's own words (a summary of rules.md), for the rules page.

Representation: ``SECTIONS`` is a tuple of ``RuleSection(anchor, title, paragraphs)``
in English; the rulings' texts are ``rulings.RULINGS`` (one source for both).
Every English text is marked with ``N_`` for the translation catalogues, so a caller
renders it in another language by passing its ``gettext`` as ``translate``.
``search(query, translate)`` keeps the sections and rulings whose translated (or
English) text contains every word of the query, case-insensitively, and returns
them translated.

>>> sections, rulings = search("hill")
>>> [s.anchor for s in sections], [r.id for r in rulings]
(['components'], ['R-5'])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from companion.rules.rulings import N_, RULINGS, Ruling


@dataclass(frozen=True)
class RuleSection:
    anchor: str
    title: str
    paragraphs: tuple[str, ...]


SECTIONS: tuple[RuleSection, ...] = (
    RuleSection("terrain", N_("Terrain and territories"), (
        N_("Each edge of a tile shows one terrain: forest, grain, village, track, stream or "
           "meadow. Forest, grain and village make territories; track and stream make "
           "networks; meadow never scores as a territory."),
        N_("Neighbouring edges of the same terrain join. The size of a territory or network "
           "is the number of different tiles in it, task and special tiles included."),
        N_("A territory is closed when none of its edges faces an empty space. An edge "
           "facing a tile of another terrain counts as closed."),
    )),
    RuleSection("placement", N_("Placing a tile"), (
        N_("Every tile after the first must touch a tile already placed, and a space holds "
           "one tile only."),
        N_("A track edge may only meet a track edge or an empty space, and a stream edge "
           "only a stream edge or an empty space. Forest, grain, village and meadow edges "
           "meet each other freely."),
        N_("A task tile may not be placed where its own marker could no longer be met: "
           "right after placing it, its territory may not be larger than the marker's "
           "number, nor closed with fewer tiles. Completing at once is allowed, and so is "
           "breaking other markers."),
    )),
    RuleSection("markers", N_("Task markers"), (
        N_("A marker belongs to the territory or network of its terrain on its task tile. "
           "After every placement each active marker is checked: exactly its number of "
           "tiles completes it (it scores, later growth does not matter); more tiles fail "
           "it; a closed territory with fewer tiles fails it."),
        N_("A marker completes only at exactly its number: joining two territories so the "
           "size jumps past the number fails it. One placement may complete and fail "
           "several markers at once."),
        N_("Board game markers: for each terrain one 4, two 5 and two 6. The campaign adds "
           "a second 4 per terrain and a 7 for forest, grain and village."),
    )),
    RuleSection("duel-tasks", N_("Duel tasks"), (
        N_("Wraparound: the marker completes when exactly its number of tiles surround its "
           "task tile; it never fails."),
        N_("Double task (6): completes when either of its two territories through the tile "
           "has exactly 6 tiles; it fails only when neither can still reach 6."),
        N_("Each duel player has, for forest, grain, village, track, stream and wraparound, "
           "one marker each of 3, 4, 5 and 6, plus three double tasks."),
    )),
    RuleSection("turns", N_("Turn order"), (
        N_("The first three turns reveal task tiles; afterwards a task tile comes while "
           "fewer than three markers are active, otherwise a landscape tile. In the duel a "
           "task tile comes while either player has fewer than three active markers."),
        N_("The companion only warns about a log that breaks this order, naming the turn: "
           "the score still comes out."),
    )),
    RuleSection("sheet", N_("The board game score sheet"), (
        N_("B1 to B5: the completed markers of forest, grain, village, track and stream; "
           "S1 is their sum."),
        N_("C1 to C3: flags. A flag in a closed territory of its type scores the size of "
           "that territory; several flags in one territory each score; a flag in an open "
           "territory scores nothing."),
        N_("D1 and D2: the size of the largest track and stream network. S2 adds flags and "
           "longest networks."),
        N_("E: one row per unlocked campaign component; S3 is their sum. H is the total: "
           "S1 + S2 + S3."),
    )),
    RuleSection("components", N_("Unlocked components"), (
        N_("Hearts score one point per edge matching the neighbouring edge (meadow to "
           "meadow counts). The Circus scores 10 when all six neighbours are filled. The "
           "Hill scores 2 per task tile nearby."),
        N_("Signalman, Shepherdess, Construction Site, Balloon Launch Site, Train Station, "
           "Harbor and the five marker tiles (Forest Cabin, Harvest Festival, Watchtower, "
           "Locomotive, Ship) each have their own row; every number explains itself on the "
           "score sheet."),
        N_("The Great Mill: once unlocked, the mill stands on a grain tile; if that grain "
           "territory is closed at the end it scores 2 per completed grain task and 2 per "
           "yellow flag in it."),
    )),
    RuleSection("campaign", N_("Campaign"), (
        N_("After each game the total gives crosses (a title per 10 points from 100 up). "
           "Crosses are spent on the circles of the advancement track; reaching a hex opens "
           "a box or gives an achievement, and heart circles give red hearts."),
        N_("Everything unlocked is used in every later game: the matching score rows, tiles "
           "and markers."),
    )),
    RuleSection("duel", N_("The Duel score sheet"), (
        N_("Per player: tasks per type (with wraparound and double), flags, longest track "
           "and stream, subtotal, Module 1, Module 2 and total. The higher total wins."),
        N_("Module 1, task cards: places score 8, 4, 2 and 0; tied players share the "
           "places they take. Large: first to a closed territory of 5 or more. Master: most "
           "closed territories of 2 or more. Many: points for each closed territory of 2 or "
           "more, without competition."),
        N_("Module 2, points of interest: the 4th, 7th and 10th completed task each give a "
           "choice: School, Granary or Old Oak (one special tile), Photographer, or Hearts."),
    )),
    RuleSection("explain", N_("Why every number"), (
        N_("Every number on a sheet opens to its explanation: which tiles, which open edge, "
           "at which turn a marker completed or failed, and which ruling decided it."),
    )),
)


def _same(text: str) -> str:
    return text


def _matches(words: list[str], texts: list[str]) -> bool:
    blob = " ".join(texts).lower()
    return all(w in blob for w in words)


def search(query: str, translate: Callable[[str], str] = _same) -> tuple[
        list[RuleSection], list[Ruling]]:
    """Sections and rulings containing every word of ``query`` (all when empty), with
    their texts passed through ``translate``."""
    words = query.lower().split()
    sections = [
        RuleSection(s.anchor, translate(s.title), tuple(translate(p) for p in s.paragraphs))
        for s in SECTIONS
    ]
    rulings = [
        replace(r, topic=translate(r.topic), default=translate(r.default),
                alternative=translate(r.alternative))
        for r in RULINGS.values()
    ]
    if not words:
        return sections, rulings
    found = [t for s, t in zip(SECTIONS, sections, strict=True)
             if _matches(words, [s.title, *s.paragraphs, t.title, *t.paragraphs])]
    chosen = [t for r, t in zip(RULINGS.values(), rulings, strict=True)
              if _matches(words, [r.id, r.topic, r.default, r.alternative, t.topic,
                                  t.default, t.alternative])]
    return found, chosen
