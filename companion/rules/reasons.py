"""Reasons as codes: every refusal, warning and explanation the engine gives.

Representation: a ``Reason`` is a stable ``code`` (kebab-case, e.g. ``edge-mismatch``)
with its parameters (``params``: a mapping of names to plain values, ``Hex`` values,
lists and nested ``Reason`` values). Callers decide on the code, never on the words;
``render(reason)`` is the one English renderer (another language renders from the same
codes: ``to_json`` gives ``{"code", "params"}`` with hexes as ``[q, r]``). ``CODES`` lists
every code with its English template; a test renders every one.

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
        f"point of theirs (choice points: {p['choices']})"),
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
        f"{p['reached']} choice point(s) reached ({p['choices']})"),
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
