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
from companion.rules.reasons import Reason
from companion.rules.tiles import LETTER_OF, TERRAINS


def _hearts(land: Landscape, attr: str, per_edge: int, label: str) -> Explanation:
    items = []
    for p in land.tiles.values():
        if getattr(p, attr):
            n, edges = matching_edges(land, p)
            items.append(Explanation.of(n * per_edge, Reason("heart-matching", {
                "label": label, "at": p.at, "count": n, "edges": edges, "per_edge": per_edge}),
                [p.at]))
    if not items:
        return Explanation.of(0, Reason("none-on-map", {"what": label.lower()}))
    out = Explanation.of(sum(i.value for i in items), Reason("hearts-total", {
        "label": label, "per_edge": per_edge}), [h for i in items for h in i.tiles])
    out.items = items
    return out


def red_hearts(land: Landscape) -> Explanation:
    return _hearts(land, "heart", 1, "Red heart")


def golden_heart(land: Landscape) -> Explanation:
    return _hearts(land, "golden_heart", 2, "Golden heart")


def _per_special(land: Landscape, name: str,
                 one: Callable[[Placement], Explanation]) -> Explanation:
    tiles = land.with_special(name)
    if not tiles:
        return Explanation.of(0, Reason("no-special-tile", {"special": name}))
    items = [one(p) for p in tiles]
    if len(items) == 1:
        return items[0]
    out = Explanation.of(sum(i.value for i in items), Reason("special-tiles", {
        "special": name, "count": len(items)}), [t for i in items for t in i.tiles])
    out.items = items
    return out


def circus(land: Landscape) -> Explanation:
    def one(p: Placement) -> Explanation:
        around = [n for n in p.at.neighbors() if n in land.tiles]
        empty = [n for n in p.at.neighbors() if n not in land.tiles]
        why = Reason("circus", {"at": p.at, "around": len(around), "empty": empty})
        return Explanation.of(10 if len(around) == 6 else 0, why, [p.at, *around])
    return _per_special(land, "circus", one)


def signalman(land: Landscape) -> Explanation:
    def one(p: Placement) -> Explanation:
        net = land.territories.at(p.at, "T")
        if net is None:
            return Explanation.of(0, Reason("special-shows-no", {
                "special": "signalman", "at": p.at, "kind": "track"}), [p.at], rulings=["R-3"])
        whole = land.rules.on("R-3")
        counted = sorted(net.tiles if whole else joined_neighbours(land, p, "T"),
                         key=lambda h: (h.r, h.q))
        crossings = [(h, land.tiles[h].crossing) for h in counted if land.tiles[h].crossing]
        n = sum(c for _, c in crossings)
        why = Reason("signalman", {"at": p.at, "count": n, "whole": whole, "size": net.size,
                                   "where": [(c, h) for h, c in crossings]})
        return Explanation.of(2 * n, why, counted, rulings=["R-3"])
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
        why = Reason("shepherdess", {"at": p.at, "count": n, "tiles": len(joined),
                                     "where": [(s, h) for h, s in sheep]})
        return Explanation.of(n, why, list(joined), rulings=["R-4"])
    return _per_special(land, "shepherdess", one)


def hill(land: Landscape) -> Explanation:
    def one(p: Placement) -> Explanation:
        reach = 2 if land.rules.on("R-5") else 1
        tasks = [h for h, t in land.tiles.items()
                 if t.task is not None and 1 <= distance(h, p.at) <= reach]
        why = Reason("hill", {"at": p.at, "count": len(tasks), "reach": reach})
        return Explanation.of(2 * len(tasks), why, [p.at, *tasks], rulings=["R-5"])
    return _per_special(land, "hill", one)


def construction_site(land: Landscape) -> Explanation:
    def one(p: Placement) -> Explanation:
        items = []
        for name in ("forest", "grain", "village"):
            t = land.territories.at(p.at, LETTER_OF[name])
            if t is None:
                continue
            v = 7 if t.size >= 7 else 0
            items.append(Explanation.of(v, Reason("construction-territory", {
                "kind": name, "size": t.size, "points": v}), list(t.tiles)))
        out = Explanation.of(sum(i.value for i in items), Reason("construction-site", {
            "at": p.at}), [p.at])
        out.items = items
        return out
    return _per_special(land, "construction-site", one)


def balloon_launch_site(land: Landscape) -> Explanation:
    balloons = [h for h, p in land.tiles.items() if p.balloon]

    def one(p: Placement) -> Explanation:
        if not balloons:
            return Explanation.of(0, Reason("balloon-none", {"at": p.at}), [p.at])
        far = max(balloons, key=lambda b: distance(b, p.at))
        d = distance(far, p.at)
        return Explanation.of(2 * d, Reason("balloon", {"at": p.at, "balloon": far,
                                                        "distance": d}), [p.at, far])
    return _per_special(land, "balloon-launch-site", one)


def _second_time(special: str, kind: str) -> Callable[[Landscape], Explanation]:
    def score(land: Landscape) -> Explanation:
        def one(p: Placement) -> Explanation:
            values = list(p.markers)
            done = sorted(m.value for m in land.completed if m.type == kind)
            unmatched = sorted({v for v in values if values.count(v) > done.count(v)})
            return Explanation.of(sum(values), Reason("second-time", {
                "special": special, "at": p.at, "kind": kind, "values": values,
                "unmatched": unmatched}), [p.at])
        return _per_special(land, special, one)
    return score


def _closed_network(special: str, letter: str) -> Callable[[Landscape], Explanation]:
    def score(land: Landscape) -> Explanation:
        def one(p: Placement) -> Explanation:
            kind = TERRAINS[letter]
            net = land.territories.at(p.at, letter)
            if net is None:
                return Explanation.of(0, Reason("special-shows-no", {
                    "special": special, "at": p.at, "kind": kind}), [p.at])
            why = Reason("closed-network" if net.closed else "open-network", {
                "special": special, "at": p.at, **net.params()})
            return Explanation.of(net.size if net.closed else 0, why, list(net.tiles))
        return _per_special(land, special, one)
    return score


def great_mill(land: Landscape) -> Explanation:
    mills = [p for p in land.tiles.values() if p.mill]
    if not mills:
        return Explanation.of(0, Reason("none-on-map", {"what": "Great Mill figure"}))
    items = []
    for p in mills:
        if p.task is not None or p.special:
            kind = "task" if p.task is not None else "special"
            items.append(Explanation.of(0, Reason("mill-misplaced", {"at": p.at, "tile": kind}),
                                        [p.at]))
            continue
        t = land.territories.at(p.at, "G")
        if t is None:
            items.append(Explanation.of(0, Reason("special-shows-no", {
                "special": "great-mill", "at": p.at, "kind": "grain"}), [p.at]))
            continue
        if not t.closed:
            items.append(Explanation.of(0, Reason("mill-open", {"at": p.at, **t.params()}),
                                        list(t.tiles)))
            continue
        tasks = [m for m in land.completed if m.type == "grain" and m.at in t.tiles]
        flags = [h for h in t.tiles if land.tiles[h].flag == "grain"]
        items.append(Explanation.of(
            2 * len(tasks) + 2 * len(flags), Reason("mill-closed", {
                "at": p.at, "size": t.size, "tasks": len(tasks), "flags": len(flags)}),
            list(t.tiles), turns=[m.turn for m in tasks if m.turn is not None]))
    out = Explanation.of(sum(i.value for i in items), Reason("great-mill", {}),
                         [h for i in items for h in i.tiles])
    out.items = items
    return out


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

