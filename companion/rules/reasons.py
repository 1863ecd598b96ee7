"""Reasons as codes: every refusal, warning and explanation the engine gives.

Representation: a ``Reason`` is a stable ``code`` (kebab-case, e.g. ``edge-mismatch``)
with its parameters (``params``: a mapping of names to plain values, ``Hex`` values,
lists and nested ``Reason`` values). Callers decide on the code, never on the words;
``render(reason)`` is the one English renderer (another language renders from the same
codes: ``to_json`` gives ``{"code", "params"}`` with hexes as ``[q, r]``). ``TEMPLATES``
maps every code to its English template (a format string or a function of the
parameters), grouped by concern; ``CODES`` is their set. ``RULE_TEXTS`` / ``rule_text``
name the placement rule behind a refusal. Tests hold every code the engine writes to
``CODES``, every template to a use, and render the codes of every known-answer record.

>>> from companion.rules.hexgrid import Hex
>>> r = Reason.of("edge-mismatch", terrain="track", edge=3, other="meadow",
...               neighbour=Hex(1, 0))
>>> render(r)
'track edge 3 meets meadow at (1, 0)'
>>> r.to_json()["params"]["neighbour"]
[1, 0]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.rules.hexgrid import EDGE_NAMES

Params = Mapping[str, Any]


@dataclass(frozen=True)
class Reason:
    """A code and its parameters; ``str()`` is the English sentence."""

    code: str
    params: Params = field(default_factory=dict)

    @staticmethod
    def of(code: str, **params: Any) -> Reason:
        if code not in CODES:
            raise KeyError(f"unknown reason code {code!r}")
        return Reason(code, params)

    def __getitem__(self, name: str) -> Any:
        return self.params[name]

    def __str__(self) -> str:
        return render(self)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": {k: _json(v) for k, v in self.params.items()}}


def _json(value: Any) -> Any:
    if isinstance(value, Reason):
        return value.to_json()
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return [value[0], value[1]]
    if isinstance(value, list | tuple):
        return [_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _json(v) for k, v in value.items()}
    return value


def _hexes(values: Any) -> str:
    return ", ".join(f"({h[0]}, {h[1]})" for h in values)


def _plural(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


def _joined(p: Params) -> str:
    return "; ".join(render(r) for r in p["parts"])


def _occupied(p: Params) -> str:
    where = f" (line {p['line']})" if p.get("line") else ""
    return f"{_hex(p['at'])} already holds a tile{where}"


def _hex(h: Any) -> str:
    return f"({h[0]}, {h[1]})"


def _kind(p: Params) -> str:
    return "network" if p["terrain"] in ("track", "stream") else "territory"


def _completed(p: Params) -> str:
    via = f" through its {p['via']} territory" if p.get("via") else ""
    return (f"{p['task']} at {_hex(p['at'])} (line {p['line']}) completed at turn "
            f"{p['turn']}{via}: {render(p['why'])}")


RULE_TEXTS: dict[str, str] = {
    "hex-occupied": "No two tiles may lie on one hex.",
    "hex-twice": "No two tiles may lie on one hex.",
    "touches-nothing": "Every tile after the first must touch a placed tile.",
    "not-connected": "Every tile after the first must touch a placed tile.",
    "track": "A track edge may only meet a track edge or an empty space.",
    "stream": "A stream edge may only meet a stream edge or an empty space.",
    "task-fails-at-once": "A task tile's own marker must stay achievable: its territory may "
                          "not become larger than the marker's number, nor closed with fewer "
                          "tiles.",
    "wraparound-too-many-neighbours": "A wraparound task tile may not be placed with more "
                                      "neighbours than its marker's number.",
    "heart-not-on-landscape": "In the Duel a heart lies only on a landscape tile, never on a "
                              "task or special tile.",
    "mill-not-on-landscape": "The Great Mill figure stands only on a grain landscape tile, "
                             "never on a task or special tile.",
}
"""The placement rule (rules.md section 2) behind each refusal code; ``edge-mismatch``
names the rule of its network terrain (``track`` or ``stream``)."""


def rule_text(why: Reason) -> str:
    """The rule a refusal breaks, in words ("" for a code that is no placement rule)."""
    if why.code == "edge-mismatch":
        net = "track" if "track" in (why["terrain"], why["other"]) else "stream"
        return RULE_TEXTS[net]
    return RULE_TEXTS.get(why.code, "")


def _explained(why: Reason) -> str:
    if why.code == "edge-mismatch":
        edge = why["edge"]
        why = Reason(why.code, {**why.params, "edge": f"{edge} ({EDGE_NAMES[edge]})"})
    text = render(why)
    return f"{text[0].upper()}{text[1:]}. {rule_text(why)}".strip()


def _territory(p: Params) -> str:
    """``forest territory of 4 tile(s), open at 2 edge(s), e.g. edge 3 of (0, 1)``."""
    state = "closed" if not p["open_edges"] else (
        f"open at {p['open_edges']} edge(s), e.g. edge {p['open_at'][1]} of "
        f"{_hex(p['open_at'][0])}")
    return f"{p['terrain']} {_kind(p)} of {p['size']} tile(s), {state}"


PAD_SUMS = {"S1": "S1: sum of B1-B5", "S2": "S2: flags plus longest track and stream",
            "S3": "S3: unlocked components", "H": "H: S1 + S2 + S3"}
DUEL_SUMS = {"tasks": "tasks: sum of the seven task rows",
             "bonus": "flags plus longest track and stream",
             "subtotal": "subtotal: tasks plus flags and longest",
             "total": "total: subtotal + Module 1 + Module 2",
             "module1": "Module 1: sum of the task cards in play",
             "module1-none": "Module 1: no task card named in cards:",
             "module1-off": "Module 1 is not in play (modules:)",
             "module2-off": "Module 2 is not in play (modules:)"}


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` ..."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _place(place: Params) -> str:
    shared = place["shared"]
    if not shared:
        return "no place: 0"
    first, last = ordinal(shared[0]), ordinal(shared[-1])
    if len(shared) == 1:
        return f"{first} place: {place['points']}"
    names = f"{first} and {last}" if len(shared) == 2 else f"{first} to {last}"
    return (f"tied for {names} place: {place['pooled']} shared by {len(shared)} = "
            f"{place['points']}")


def _others(p: Params, word: str) -> str:
    rest = [f"{who} {word.format(k) if k is not None else 'never'}" for who, k in p["others"]]
    return f" ({'; '.join(rest)})" if rest else ""


def _count(p: Params) -> str:
    n = p["count"]
    return f"{n} closed {p['kind']} {'territory' if n == 1 else 'territories'}"


def _choices(choices: Any) -> str:
    """Choice points: ``4th completed task at turn 6 (forest/6 at (1, 0))``."""
    out = []
    for c in choices:
        when = f"turn {c['turn']}" if c.get("turn") is not None else "a turn not in the log"
        what = f" ({c['task']} at {_hex(c['at'])})" if c.get("task") else ""
        out.append(f"{ordinal(c['nth'])} completed task at {when}{what}")
    return ", ".join(out) or "none reached"


def _label(special: str) -> str:
    return special.replace("-", " ").title()


def _did_you_mean(p: Params) -> str:
    """`` (did you mean start-box1?)`` after an unknown id, when one is close."""
    return f" (did you mean {p['suggest']}?)" if p.get("suggest") else ""


def _who(p: Params) -> str:
    """``"ana: "`` for a named landscape (a Duel section), else nothing."""
    return f"{p['who']}: " if p.get("who") else ""


def _where(p: Params) -> str:
    return ", ".join(f"{n} at {_hex(h)}" for n, h in p["where"]) or "none"


def _totals(p: Params) -> str:
    return ", ".join(f"{who} {total}" for who, total in p["totals"])


def _reveal(p: Params) -> str:
    return f"{p['who']}: " if p.get("who") else ""


TEMPLATES: dict[str, str | Callable[[Params], str]] = {
    # ---- placement refusals (rules.md section 2)
    "hex-occupied": _occupied,
    "touches-nothing": lambda p: f"{_hex(p['at'])} touches no placed tile",
    "edge-mismatch": lambda p: (f"{p['terrain']} edge {p['edge']} meets {p['other']} at "
                                f"{_hex(p['neighbour'])}"),
    "task-fails-at-once": lambda p: (f"task tile {p['task']} would fail at once: "
                                     f"{render(p['why'])}"),
    "wraparound-too-many-neighbours": lambda p: (
        f"task tile {p['task']} would have {p['neighbours']} neighbours, more than its "
        f"marker's {p['value']}"),
    "heart-not-on-landscape": lambda p: (
        f"a heart lies only on a landscape tile, not on a {p['tile']} tile"),
    "mill-not-on-landscape": lambda p: (
        f"the Great Mill stands only on a grain landscape tile, not on a {p['tile']} tile"),
    "not-connected": lambda p: f"{_hex(p['at'])} is not connected to the rest of the map",
    "hex-twice": lambda p: f"{_hex(p['at'])} holds two tiles",
    # ---- marker states (rules.md section 3)
    "size-exact": lambda p: f"its {p['terrain']} {_kind(p)} has exactly {p['value']} tiles",
    "size-over": lambda p: (f"its {p['terrain']} {_kind(p)} has {p['size']} tiles, more "
                            f"than {p['value']}"),
    "closed-short": lambda p: (f"its {p['terrain']} {_kind(p)} is closed with {p['size']} "
                               f"tiles, fewer than {p['value']}"),
    "size-growing": lambda p: (f"its {p['terrain']} {_kind(p)} has {p['size']} of "
                               f"{p['value']} tiles"),
    "wraparound-exact": lambda p: f"exactly {p['value']} tiles around the task tile",
    "wraparound-growing": lambda p: (f"{p['neighbours']} of {p['value']} tiles around the "
                                     f"task tile"),
    "all-of": _joined,
    # ---- explanations of task rows
    "marker-completed": _completed,
    "marker-from-header": lambda p: f"{p['task']} completed (from the 'completed:' header)",
    "marker-failed": lambda p: (f"{p['task']} at {_hex(p['at'])} (line {p['line']}) failed "
                                f"at turn {p['turn']}: {render(p['why'])}"),
    "marker-active": lambda p: (f"{p['task']} at {_hex(p['at'])} (line {p['line']}) still "
                                f"active: {render(p['why'])}"),
    "tasks-row": lambda p: f"{p['type']} tasks: sum of completed markers",
    # ---- flags, sums and rows of the sheets
    "flag-closed": lambda p: (f"flag at {_hex(p['at'])}: closed {p['kind']} territory of "
                              f"{p['size']} tile(s)"),
    "flag-open": lambda p: f"flag at {_hex(p['at'])}: {_territory(p)}: 0",
    "flags-row": lambda p: (f"{p['kind']} flags: each flag in a closed {p['kind']} territory "
                            f"scores its size"),
    "pad-sum": lambda p: PAD_SUMS[p["pad"]],
    "duel-sum": lambda p: DUEL_SUMS[p["row"]],
    "unlocked-scored-once": lambda p: f"{p['id']}: scored once, under {p['row']}",
    "unlocked-no-row": lambda p: f"{p['id']}: unlocked, no row of its own",
    "winner": lambda p: f"{p['who']} wins with {p['total']} ({_totals(p)})",
    "shared-win": lambda p: (f"shared win: {', '.join(p['who'])} tie on {p['total']} "
                             f"({_totals(p)})"),
    # ---- Duel Module 1
    "large-never": lambda p: (f"Large {p['kind']}: never owned a closed {p['kind']} territory "
                              f"of {p['size']}+ tiles: 0{_others(p, 'at turn {}')}"),
    "large-reached": lambda p: (
        f"Large {p['kind']}: first closed {p['kind']} territory of {p['size']}+ tiles at "
        f"turn {p['turn']} ({p['tiles']} tiles); {_place(p['place'])}{_others(p, 'at turn {}')}"),
    "master-none": lambda p: (
        f"{p['kind'].title()} Master: no closed {p['kind']} territory of {p['size']}+ tiles: "
        f"0 (house rule R-9){_others(p, '{}')}"),
    "master-count": lambda p: (
        f"{p['kind'].title()} Master: {_count(p)} of {p['size']}+ tiles; "
        f"{_place(p['place'])}{_others(p, '{}')}"),
    "many-count": lambda p: (
        f"Many {p['kind']}: {_count(p)} of {p['size']}+ tiles -> {p['points']} (2->1, 3->2, "
        f"4->4, 5->6, 6->9, 7->12, 8+->15)"),
    "closed-territory": lambda p: f"closed {p['kind']} territory of {p['size']} tiles",
    # ---- Duel Module 2
    "special-near": lambda p: (
        f"{p['special'].replace('-', ' ').title()} at {_hex(p['at'])}: {p['count']} tile(s) "
        f"showing {p['kind']} within distance {p['reach']}"),
    "special-row": lambda p: (f"School / Granary / Old Oak: 1 per tile showing its terrain "
                              f"within distance {p['reach']}"),
    "special-none": lambda p: "no School / Granary / Old Oak tile",
    "photographer-row": lambda p: (
        f"Photographer: {p['cameras']} camera(s), 1 each"
        + (f" (chosen at turn {p['turn']})" if p["cameras"] and p.get("turn") is not None
           else "")),
    "heart-edges": lambda p: (f"heart on {_hex(p['at'])} (turn {p['turn']}): {p['count']} "
                              f"matching edge(s) {p['edges']}"),
    "hearts-none": lambda p: "no hearts chosen (no heart in the landscape)",
    "hearts-row": lambda p: (
        "Hearts, " + (f"chosen at turn {p['turn']} (inferred: the last choice point before "
                      f"the first heart)" if p.get("turn") is not None
                      else "choice point unknown")
        + f", {p['allowed']} allowed: 1 per edge meeting the same terrain (meadow too)"),
    "module2-row": lambda p: (
        f"Module 2: choice points {_choices(p['choices'])}; inferred from the record: "
        + ("; ".join(f"{name} chosen at turn {t}" if t is not None else f"{name}: turn unknown"
                     for name, t in p["chosen"]) or "no point of interest")),
    # ---- unlocked components (rows E)
    "none-on-map": lambda p: f"no {p['what']} on the map",
    "heart-matching": lambda p: (
        f"{p['label']} on {_hex(p['at'])}: {p['count']} matching edge(s) "
        f"{p['edges'] or ''} x {p['per_edge']}".replace("  ", " ")),
    "hearts-total": lambda p: (f"{p['label']}: {p['per_edge']} per edge meeting the same "
                               f"terrain (meadow too, empty hexes not)"),
    "no-special-tile": lambda p: f"no {_label(p['special'])} tile on the map",
    "special-tiles": lambda p: f"{_label(p['special'])}: {p['count']} tiles",
    "special-shows-no": lambda p: (f"{_label(p['special'])} at {_hex(p['at'])}"
                                   + (": the tile shows no grain" if p["special"] == "great-mill"
                                      else f" shows no {p['kind']}")),
    "circus": lambda p: (
        f"Circus at {_hex(p['at'])}: all 6 neighbouring hexes hold tiles" if p["around"] == 6
        else f"Circus at {_hex(p['at'])}: {p['around']} of 6 neighbours; empty: "
             f"{_hexes(p['empty'])}"),
    "signalman": lambda p: (
        f"Signalman at {_hex(p['at'])}: {p['count']} grade crossing(s) on "
        + (f"its track network of {p['size']} tiles" if p["whole"]
           else "its tile and direct track neighbours (R-3 off)")
        + f" ({_where(p)}) x 2"),
    "shepherdess": lambda p: (f"Shepherdess at {_hex(p['at'])}: {p['count']} sheep on "
                              f"{p['tiles']} tile(s) joined through meadow ({_where(p)})"),
    "hill": lambda p: (f"Hill at {_hex(p['at'])}: {p['count']} task tile(s) within distance "
                       f"{p['reach']} x 2"),
    "construction-territory": lambda p: (
        f"{p['kind']} territory of {p['size']} tile(s)"
        + (" (7+): 7" if p["points"] else " (under 7): 0")),
    "construction-site": lambda p: (f"Construction Site at {_hex(p['at'])}: 7 per forest/"
                                    f"grain/village territory of 7+ tiles"),
    "balloon-none": lambda p: f"Balloon Launch Site at {_hex(p['at'])}: no balloon on the map",
    "balloon": lambda p: (f"Balloon Launch Site at {_hex(p['at'])}: balloon at "
                          f"{_hex(p['balloon'])}, {p['distance']} hex(es) away x 2"),
    "second-time": lambda p: (
        f"{_label(p['special'])} at {_hex(p['at'])}: completed {p['kind']} markers "
        f"{p['values'] or 'none'} score again"
        + (f" (warning: no completed {p['kind']} marker of {p['unmatched']} to lay)"
           if p["unmatched"] else "")),
    "closed-network": lambda p: (f"{_label(p['special'])} at {_hex(p['at'])}: closed "
                                 f"{p['terrain']} network of {p['size']} tiles"),
    "open-network": lambda p: f"{_label(p['special'])} at {_hex(p['at'])}: its {_territory(p)}: 0",
    "mill-misplaced": lambda p: (f"Great Mill at {_hex(p['at'])}: the figure stands on a "
                                 f"{p['tile']} tile; it may only go on a grain landscape "
                                 f"tile: 0"),
    "mill-open": lambda p: f"Great Mill at {_hex(p['at'])}: its {_territory(p)}: 0",
    "mill-closed": lambda p: (
        f"Great Mill at {_hex(p['at'])}: closed grain territory of {p['size']} tiles with "
        f"{p['tasks']} completed grain task(s) and {p['flags']} yellow flag(s), 2 each"),
    "great-mill": lambda p: "Great Mill",
    # ---- explanations of the longest rows and of territories
    "longest-none": lambda p: f"no {p['kind']} on the map",
    "longest-chain": lambda p: (f"longest {p['kind']}: the longest chain of {p['size']} "
                                f"tile(s) without branching back (house rule R-2)"),
    "longest-network": lambda p: (f"longest {p['kind']}: the largest {p['kind']} network, "
                                  f"{_territory(p)} (all connected tiles, branches included)"),
    # ---- warnings: reveal order (rules.md section 4)
    "game-over": lambda p: (f"{_reveal(p)}the game was over: no landscape tile was left and "
                            f"the last one changed no task"),
    "task-tile-expected": lambda p: (f"{_reveal(p)}a task tile should have been revealed "
                                     f"({render(p['why'])})"),
    "landscape-tile-expected": lambda p: (f"{_reveal(p)}a landscape tile should have been "
                                          f"revealed ({render(p['why'])})"),
    "first-turns": lambda p: f"one of the first {p['turns']} turns",
    "few-active": lambda p: f"only {p['active']} marker(s) active",
    "players-few-active": lambda p: ", ".join(
        f"{who} has {n} active marker{_plural(n, '', 's')}" for who, n in p["players"]),
    "enough-active": lambda p: f"{p['active']} markers active",
    "players-enough-active": lambda p: (
        f"every player has {p['minimum']}+ active markers: "
        + ", ".join(f"{who} {n}" for who, n in p["players"])),
    "task-tiles-out": lambda p: f"all {p['limit']} task tiles were out",
    "last-landscape-changed": lambda p: (
        "the last landscape tile changed a task" + (f" and {render(p['then'])}"
                                                    if p.get("then") else "")),
    "too-many-landscape": lambda p: (
        f"{_reveal(p)}{p['placed']} landscape tiles placed; "
        + (f"a player has {p['limit']} for a game" if p.get("who")
           else f"the box holds {p['limit']} for a game")),
    # ---- warnings: pools, tiles, unlocks
    "pool-exceeded": lambda p: (f"{_reveal(p)}{p['used']} {p['type']} markers of {p['value']} "
                                f"used; the box holds {p['have']}"),
    "duel-tile-over-box": lambda p: (
        f"tile {p['code']} at {_hex(p['at'])}: the box holds only {p['have']} {p['kind']} "
        f"tile{_plural(p['have'], '', 's')} per player" if p["kind"] in ("landscape", "task")
        else f"{_label(p['kind'])} tile at {_hex(p['at'])}: the box holds one per player, "
        f"and this landscape has it already"),
    "special-not-unlocked": lambda p: (f"{p['special']} tile at {_hex(p['at'])} is on the map "
                                       f"but not unlocked: not scored"),
    "tiles-differ": lambda p: (f"{p['who']} placed {p['kind']} {p['code']}, {p['other']} "
                               f"{p['other_kind']} {p['other_code']} (line {p['other_line']}): "
                               f"every player places the same tile each turn"),
    "turn-counts-differ": lambda p: (f"{p['short']} played {p['short_turns']} turns, "
                                     f"{p['long']} {p['long_turns']}"),
    "heart-on-task-or-special": lambda p: (
        f"a heart on the {p['tile']} tile at {_hex(p['at'])}: scored, but a heart lies only "
        f"on a landscape tile (R-10)"),
    # ---- warnings: Duel Module 1 and 2
    "cards-mix": lambda p: (
        "cards: " + ", ".join(p["cards"]) + " is not one card per landscape type "
        "(forest, grain, village): scored as written"),
    "special-off-choice": lambda p: (
        f"{p['who']}: {p['special']} tile placed at turn {p['turn']}, which is no choice "
        f"point of theirs (choice points: {_choices(p['choices'])})"),
    "second-special": lambda p: (
        f"{p['who']}: a second School / Granary / Old Oak tile ({p['special']}); each player "
        f"takes only one of the three"),
    "special-taken-by-other": lambda p: (
        f"{p['who']}: {p['special']} was taken only by {p['other']} (turn {p['other_turn']}), "
        f"so {p['who']}'s copy went back to the box: choose one of the two other types"),
    "point-chosen-twice": lambda p: (
        f"{p['who']}: {p['name']} chosen a second time; each point of interest is chosen "
        f"once per player"),
    "heart-without-choice": lambda p: (f"{p['who']}: a heart at turn {p['turn']} but no free "
                                       f"choice point before it"),
    "too-many-points": lambda p: (
        f"{p['who']}: {p['count']} points of interest ({', '.join(p['names'])}) but only "
        f"{p['reached']} choice point(s) reached ({_choices(p['choices'])})"),
    "too-many-hearts": lambda p: (
        f"{p['who']}: {p['count']} hearts in the landscape; only {p['allowed']} allowed "
        f"({p['first']} for the first chooser, {p['later']} for a later one)"),
    "module2-not-in-play": lambda p: (
        f"{p['who']}: points of interest in the record ({', '.join(p['names'])}) but "
        f"Module 2 is not in play (modules:): not scored"),
    "camera-not-next-to-photographer": lambda p: (
        f"{p['who']}: a camera on {_hex(p['at'])} (turn {p['turn']}), which was not next to "
        f"the photographer's tile {_hex(p['photographer'])} when it was placed"),
    "camera-without-photographer": lambda p: (
        f"{p['who']}: a camera on {_hex(p['at'])} but no photographer tile placed before it"),
    "cameras-exceeded": lambda p: (f"{p['count']} camera markers in the landscapes; the box "
                                   f"holds {p['have']} for both players"),
    # ---- a refusal explained for the players: the reason, the edge named, and the rule
    "rule-broken": lambda p: _explained(p["why"]),
    # ---- notation: records, tile codes, attributes, headers (notation.md)
    "bad-tile-code": lambda p: (
        f"tile code {p['code']!r} is not six of the letters F G V T S M ("
        + (f"unknown letter {p['letter']!r}" if p.get("letter")
           else f"{p['length']} letters, need 6") + ")"),
    "split-form": "split {split!r}: expected LETTER:EDGES/EDGES, e.g. F:01/3",
    "split-terrain-twice": "split {split!r}: terrain {letter} named twice",
    "split-bad-group": "split {split!r}: {group!r} is not a group of edges 0-5",
    "split-edge-twice": "split {split!r}: an edge is in two groups",
    "split-wrong-edges": lambda p: (f"split {p['split']!r}: the {p['terrain']} edges of "
                                    f"{p['code']} are {p['edges'] or 'none'}"),
    "task-value-not-number": "task={task}: marker value {value!r} is not a number",
    "double-only-in-duel": "task={task}: double tasks exist only in the duel",
    "double-needs-two-types": ("task={task}: a double task names two different types, e.g. "
                               "double:forest+village/6"),
    "unknown-task-type": lambda p: (f"task={p['task']}: unknown task type {p['type']!r} (one "
                                    f"of {', '.join(p['known'])})"),
    "no-such-marker": "{where}{task}: no {type} marker shows {value} (the {game} has {boxes})",
    "placement-form": "expected 'Q R CODE [ATTRIBUTES]', got {text!r}",
    "position-not-numbers": "position {q} {r} is not two whole numbers from -{limit} to {limit}",
    "attribute-twice": "attribute {key!r} given twice",
    "attribute-takes-no-value": "attribute {key!r} takes no value",
    "unknown-attribute": lambda p: (f"unknown attribute {p['token']!r} (known: "
                                    f"{', '.join(p['known'])})"),
    "attribute-needs-value": "attribute {key!r} needs a value ({key}=...)",
    "task-terrain-missing": "task={task}: tile {code} shows no {terrain} edge for the marker",
    "flag-type": "flag={flag}: a flag is forest, grain or village",
    "flag-terrain-missing": "flag={flag}: tile {code} shows no {flag} edge",
    "unknown-special": lambda p: (f"special={p['special']}: unknown special tile (known: "
                                  f"{', '.join(p['known'])})"),
    "count-not-number": "{key}={value}: expected a whole number from 0 to {limit}",
    "markers-not-numbers": "markers={value}: expected numbers like markers=5,6",
    "mill-needs-grain": "mill: the Great Mill stands on grain, and tile {code} shows none",
    "markers-need-special": ("markers= belongs on a Forest Cabin, Harvest Festival, "
                             "Watchtower, Locomotive or Ship tile (special=...)"),
    "unknown-game": "game: {game!r} is not board-game or duel",
    "completed-needs-value": "completed: {item!r} needs a value, e.g. forest/5",
    "unknown-modules": "modules: {modules!r}: the duel has modules 1 and 2",
    "unknown-card": ("cards: unknown card {card!r} (large-, master-, many- with forest, "
                     "grain, village)"),
    "player-outside-duel": "'player:' sections belong to duel records (add 'game: duel' first)",
    "player-needs-name": "player: needs a name",
    "player-twice": "player {player!r} has a section already",
    "unknown-header": lambda p: (f"unknown header {p['key']!r} (known: "
                                 f"{', '.join(p['known'])}, player)"),
    "header-after-placement": "header {key!r} must come before the first placement",
    "header-twice": "header {key!r} given twice",
    "duel-needs-player": "a duel record starts each landscape with 'player: NAME'",
    "modules-outside-duel": "modules and cards belong to duel records",
    "cards-need-module1": "cards: Module 1 task cards need 'modules: 1'",
    "duel-needs-section": "a duel record needs at least one 'player:' section",
    "duel-special-in-board-game": "special={special} is a duel point of interest",
    "unknown-unlock": lambda p: (f"unlocked: unknown id {p['id']!r} (score rows: "
                                 f"{', '.join(p['rows'])}; also boxes, achievement ids, "
                                 f"red-heart)"),
    "unknown-ruling": "rulings: unknown ruling {item!r} (R-1 to R-10)",
    "ruling-state": "rulings: {item!r}: use {id}=on or {id}=off",
    "ruling-fixed": "rulings: {id} cannot be switched off",
    # ---- recording
    "no-such-player": "no player {player!r} in this game",
    "nothing-to-undo": "nothing to undo",
    "marker-not-left": "no {type} marker of {value} is left in the box",
    "completed-not-listed": "that completed marker is not in the list",
    # ---- the campaign (notation.md section 4, rules.md section 6)
    "spend-form": lambda p: (f"spend: expected 'PATH N' (e.g. start-box1 2), got "
                             f"{p['text'] or 'nothing'!r}"),
    "spend-at-least-one": "spend: {text!r}: cross at least 1 circle",
    "spend-too-many": "spend: {text!r}: at most {limit} circles at once",
    "not-a-score": "game: {value!r} is not a score (a whole number of points from 0 to {limit})",
    "not-an-achievement-id": "achieved: {value!r} is not an achievement id (e.g. great-mill)",
    "campaign-line-form": lambda p: (f"expected 'key: value' (one of {', '.join(p['known'])}), "
                                     f"got {p['line']!r}"),
    "campaign-unknown-key": lambda p: (f"unknown key {p['key']!r} (known: "
                                       f"{', '.join(p['known'])})"),
    "campaign-key-after-game": "{key}: must come before the first game",
    "campaign-key-twice": "{key}: given twice",
    "unknown-hex": lambda p: f"unknown hex {p['hex']!r}{_did_you_mean(p)}",
    "not-an-end": "{hex} is not an end of path {path} ({low} and {high})",
    "end-not-reached": "cannot cross {path} from {hex}: it is not reached",
    "path-not-reachable": "path {path} cannot be crossed yet: neither {low} nor {high} is reached",
    "no-game-yet": "no game recorded yet: crosses come from a game's score",
    "cross-at-least-one": "cross at least 1 circle (got {count})",
    "unknown-path": lambda p: f"unknown path {p['path']!r}{_did_you_mean(p)}",
    "path-full": "path {path} is full ({circles} of {circles} circles crossed)",
    "path-too-short": lambda p: (f"path {p['path']} has {p['left']} circle"
                                 f"{_plural(p['left'], '', 's')} left, cannot cross {p['count']}"),
    "not-enough-crosses": lambda p: (
        f"spending {p['count']} cross{_plural(p['count'], '', 'es')} but only "
        f"{p['available']} available (game {p['game']} earned {p['earned']}, {p['spent']} "
        f"spent)"),
    "achieved-before-game": "achieved: comes after the game in which it was met",
    "unknown-achievement": lambda p: f"unknown achievement {p['id']!r}{_did_you_mean(p)}",
    "achievement-on-track": ("{id} is a hex of the advancement track: it is unlocked by "
                             "reaching it, not ticked"),
    "already-achieved": "{id} is already achieved",
    "negative-score": "a game's score cannot be negative ({score})",
    "achievement-box-closed": lambda p: (
        (f"line {p['line']}: " if p.get("line") is not None else "")
        + f"{p['id']} comes from {p['box']}, which is not opened yet"),
    # ---- the Great Mill achievement, checked on a game record (campaign.mill)
    "great-mill-met": lambda p: (
        f"{_who(p)}all 6 edges of the grain task tile at {_hex(p['at'])}"
        + (" with the mill" if p["mill"] else "") + " meet grain edges of 6 neighbours"),
    "great-mill-not-met": lambda p: "Great Mill not met: " + " | ".join(
        render(r) for r in p["reasons"]),
    "mill-no-grain-task": lambda p: f"{_who(p)}no grain task tile",
    "mill-tile-faults": lambda p: (f"{_who(p)}grain task tile at {_hex(p['at'])}: "
                                   + "; ".join(render(f) for f in p["faults"])),
    "mill-edge-not-grain": "its edge {edge} is not grain",
    "mill-edge-empty": lambda p: f"edge {p['edge']} faces the empty hex {_hex(p['other'])}",
    "mill-edge-meets-other": lambda p: (f"edge {p['edge']} meets a non-grain edge of "
                                        f"{_hex(p['other'])}"),
    # ---- a sentence the engine has not coded yet (notation and campaign errors)
    "message": lambda p: str(p["text"]),
}
CODES = frozenset(TEMPLATES)


def render(reason: Reason) -> str:
    """The English sentence of ``reason`` (the one place engine words are made); a quoted
    input longer than ``QUOTE_LIMIT`` characters is shortened in the middle (an attack's
    5000 digits stay a one-line message).

    >>> render(message("got '" + "9" * 500 + "'")) == "got '" + "9" * 39 + "…" + "9" * 11 + "'"
    True
    """
    template = TEMPLATES[reason.code]
    if isinstance(template, str):
        return clip(template.format(**reason.params))
    return clip(template(reason.params))


QUOTE_LIMIT = 60
_LONG_RUN = re.compile(rf"\S{{{QUOTE_LIMIT + 1},}}")


def clip(text: str) -> str:
    """``text`` with every run of more than ``QUOTE_LIMIT`` non-space characters cut to its
    first 40 and last 12 characters around an ellipsis."""
    return _LONG_RUN.sub(lambda m: m.group(0)[:40] + "…" + m.group(0)[-12:], text)


def message(text: str) -> Reason:
    """A plain sentence as a ``Reason`` (code ``message``): errors raised with words only."""
    return Reason("message", {"text": text})
