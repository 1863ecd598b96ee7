"""Unlocked campaign components and special tiles on the board-game sheet (rules.md
section 5, rows E), each a pure function of the landscape returning an Explanation.

Representation: ``COMPONENTS`` maps a score-row id to its scoring function
``(Landscape) -> Explanation``. ``Landscape`` bundles what they read: the tiles,
their territories (read off the board), and the completed markers with their tiles.
Further ids a campaign may put in ``unlocked:`` (boxes, achievements without a row,
red-heart tokens) come from the campaign content: ``game.check_unlocked``.
"""

from __future__ import annotations

from collections.abc import Callable

from companion.rules.explain import Explanation
from companion.rules.hexgrid import Hex, distance
from companion.rules.landscape import Landscape, joined_neighbours, matching_edges
from companion.rules.notation import SCORE_ROW_ALIASES, SCORE_ROWS, Placement
from companion.rules.tiles import LETTER_OF, TERRAINS


def _hearts(land: Landscape, attr: str, per_edge: int, label: str) -> Explanation:
    items = []
    for p in land.tiles.values():
        if getattr(p, attr):
            n, edges = matching_edges(land, p)
            items.append(Explanation(
                n * per_edge,
                f"{label} on {p.at}: {n} matching edge(s) {edges or ''} x {per_edge}".rstrip(),
                [p.at],
            ))
    if not items:
        return Explanation(0, f"no {label.lower()} on the map")
    total = sum(i.value for i in items)
    return Explanation(total, f"{label}: {per_edge} per edge meeting the same terrain "
                              f"(meadow too, empty hexes not)", [i for t in items for i in t.tiles],
                       items=items)


def red_hearts(land: Landscape) -> Explanation:
    return _hearts(land, "heart", 1, "Red heart")


def golden_heart(land: Landscape) -> Explanation:
    return _hearts(land, "golden_heart", 2, "Golden heart")


def _per_special(land: Landscape, name: str,
                 one: Callable[[Placement], Explanation]) -> Explanation:
    tiles = land.with_special(name)
    label = name.replace("-", " ").title()
    if not tiles:
        return Explanation(0, f"no {label} tile on the map")
    items = [one(p) for p in tiles]
    if len(items) == 1:
        return items[0]
    return Explanation(sum(i.value for i in items), f"{label}: {len(items)} tiles",
                       [t for i in items for t in i.tiles], items=items)


def circus(land: Landscape) -> Explanation:
    def one(p: Placement) -> Explanation:
        around = [n for n in p.at.neighbors() if n in land.tiles]
        if len(around) == 6:
            return Explanation(10, f"Circus at {p.at}: all 6 neighbouring hexes hold tiles",
                               [p.at, *around])
        empty = [str(n) for n in p.at.neighbors() if n not in land.tiles]
        return Explanation(0, f"Circus at {p.at}: {len(around)} of 6 neighbours; empty: "
                              f"{', '.join(empty)}", [p.at, *around])
    return _per_special(land, "circus", one)


def signalman(land: Landscape) -> Explanation:
    def one(p: Placement) -> Explanation:
        net = land.territories.at(p.at, "T")
        if net is None:
            return Explanation(0, f"Signalman at {p.at} shows no track", [p.at], rulings=["R-3"])
        counted = sorted(net.tiles if land.rules.on("R-3") else joined_neighbours(land, p, "T"),
                         key=lambda h: (h.r, h.q))
        crossings = [(h, land.tiles[h].crossing) for h in counted if land.tiles[h].crossing]
        n = sum(c for _, c in crossings)
        where = ", ".join(f"{c} at {h}" for h, c in crossings) or "none"
        scope = (f"its track network of {net.size} tiles" if land.rules.on("R-3")
                 else "its tile and direct track neighbours (R-3 off)")
        return Explanation(2 * n, f"Signalman at {p.at}: {n} grade crossing(s) on {scope} "
                                  f"({where}) x 2", counted, rulings=["R-3"])
    return _per_special(land, "signalman", one)


def shepherdess(land: Landscape) -> Explanation:
    def one(p: Placement) -> Explanation:
        joined: set[Hex] = {p.at}
        if land.rules.on("R-4"):
            for t in land.territories.all_at(p.at, "M"):
                joined |= t.tiles
        else:
            joined |= joined_neighbours(land, p, "M")
        sheep = [(h, land.tiles[h].sheep) for h in sorted(joined, key=lambda h: (h.r, h.q))
                 if land.tiles[h].sheep]
        n = sum(s for _, s in sheep)
        where = ", ".join(f"{s} at {h}" for h, s in sheep) or "none"
        return Explanation(n, f"Shepherdess at {p.at}: {n} sheep on {len(joined)} tile(s) "
                              f"joined through meadow ({where})", list(joined), rulings=["R-4"])
    return _per_special(land, "shepherdess", one)


def hill(land: Landscape) -> Explanation:
    def one(p: Placement) -> Explanation:
        reach = 2 if land.rules.on("R-5") else 1
        tasks = [h for h, t in land.tiles.items()
                 if t.task is not None and 1 <= distance(h, p.at) <= reach]
        return Explanation(2 * len(tasks), f"Hill at {p.at}: {len(tasks)} task tile(s) within "
                                           f"distance {reach} x 2", [p.at, *tasks],
                           rulings=["R-5"])
    return _per_special(land, "hill", one)


def construction_site(land: Landscape) -> Explanation:
    def one(p: Placement) -> Explanation:
        items = []
        for name in ("forest", "grain", "village"):
            t = land.territories.at(p.at, LETTER_OF[name])
            if t is None:
                continue
            v = 7 if t.size >= 7 else 0
            items.append(Explanation(v, f"{name} territory of {t.size} tile(s)"
                                        f"{' (7+): 7' if v else ' (under 7): 0'}",
                                     list(t.tiles)))
        return Explanation(sum(i.value for i in items),
                           f"Construction Site at {p.at}: 7 per forest/grain/village territory "
                           f"of 7+ tiles", [p.at], items=items)
    return _per_special(land, "construction-site", one)


def balloon_launch_site(land: Landscape) -> Explanation:
    balloons = [h for h, p in land.tiles.items() if p.balloon]

    def one(p: Placement) -> Explanation:
        if not balloons:
            return Explanation(0, f"Balloon Launch Site at {p.at}: no balloon on the map", [p.at])
        far = max(balloons, key=lambda b: distance(b, p.at))
        d = distance(far, p.at)
        return Explanation(2 * d, f"Balloon Launch Site at {p.at}: balloon at {far}, "
                                  f"{d} hex(es) away x 2", [p.at, far])
    return _per_special(land, "balloon-launch-site", one)


def _second_time(special: str, kind: str) -> Callable[[Landscape], Explanation]:
    def score(land: Landscape) -> Explanation:
        def one(p: Placement) -> Explanation:
            values = list(p.markers)
            done = sorted(m.value for m in land.completed if m.type == kind)
            unmatched = [v for v in values if values.count(v) > done.count(v)]
            note = (f" (warning: no completed {kind} marker of {sorted(set(unmatched))} to lay)"
                    if unmatched else "")
            return Explanation(sum(values), f"{special.replace('-', ' ').title()} at {p.at}: "
                                            f"completed {kind} markers "
                                            f"{values or 'none'} score again{note}", [p.at])
        return _per_special(land, special, one)
    return score


def _closed_network(special: str, letter: str) -> Callable[[Landscape], Explanation]:
    def score(land: Landscape) -> Explanation:
        def one(p: Placement) -> Explanation:
            kind = TERRAINS[letter]
            net = land.territories.at(p.at, letter)
            label = special.replace("-", " ").title()
            if net is None:
                return Explanation(0, f"{label} at {p.at} shows no {kind}", [p.at])
            if not net.closed:
                return Explanation(0, f"{label} at {p.at}: its {net.describe()}: 0",
                                   list(net.tiles))
            return Explanation(net.size, f"{label} at {p.at}: closed {kind} network of "
                                         f"{net.size} tiles", list(net.tiles))
        return _per_special(land, special, one)
    return score


def great_mill(land: Landscape) -> Explanation:
    mills = [p for p in land.tiles.values() if p.mill]
    if not mills:
        return Explanation(0, "no Great Mill figure on the map")
    items = []
    for p in mills:
        if p.task is not None or p.special:
            kind = "a task tile" if p.task is not None else "a special tile"
            items.append(Explanation(0, f"Great Mill at {p.at}: the figure stands on {kind}; "
                                        f"it may only go on a grain landscape tile: 0", [p.at]))
            continue
        t = land.territories.at(p.at, "G")
        if t is None:
            items.append(Explanation(0, f"Great Mill at {p.at}: the tile shows no grain", [p.at]))
            continue
        if not t.closed:
            items.append(Explanation(0, f"Great Mill at {p.at}: its {t.describe()}: 0",
                                     list(t.tiles)))
            continue
        tasks = [m for m in land.completed if m.type == "grain" and m.at in t.tiles]
        flags = [h for h in t.tiles if land.tiles[h].flag == "grain"]
        items.append(Explanation(
            2 * len(tasks) + 2 * len(flags),
            f"Great Mill at {p.at}: closed grain territory of {t.size} tiles with "
            f"{len(tasks)} completed grain task(s) and {len(flags)} yellow flag(s), 2 each",
            list(t.tiles), turns=[m.turn for m in tasks if m.turn is not None]))
    return Explanation(sum(i.value for i in items), "Great Mill",
                       [h for i in items for h in i.tiles], items=items)


COMPONENTS: dict[str, Callable[[Landscape], Explanation]] = {
    "red-hearts": red_hearts,
    "circus": circus,
    "signalman": signalman,
    "shepherdess": shepherdess,
    "hill": hill,
    "construction-site": construction_site,
    "balloon-launch-site": balloon_launch_site,
    "golden-heart": golden_heart,
    "forest-cabin": _second_time("forest-cabin", "forest"),
    "harvest-festival": _second_time("harvest-festival", "grain"),
    "watchtower": _second_time("watchtower", "village"),
    "locomotive": _second_time("locomotive", "track"),
    "ship": _second_time("ship", "stream"),
    "train-station": _closed_network("train-station", "T"),
    "harbor": _closed_network("harbor", "S"),
    "great-mill": great_mill,
}

ALIASES = SCORE_ROW_ALIASES
assert tuple(COMPONENTS) == SCORE_ROWS, "notation.SCORE_ROWS names every score row, in order"

