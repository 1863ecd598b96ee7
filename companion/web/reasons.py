"""The engine's reasons in the player's language: one gettext template per code.

Representation: ``TEMPLATES`` maps every code of ``companion.rules.CODES`` to a function
of the parameters that returns the sentence through gettext (the same parameters as the
English templates of ``companion.rules.reasons``; names are shown through
``companion.web.names``). ``say(reason)`` takes a ``Reason``, its JSON form
(``{"code", "params"}``, as in sheets and warnings) or an explanation holding one, and
falls back to the English ``text`` only for an object without a code. A test fails when
the engine gains a code that has no template here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext, pgettext

from companion.rules import EDGE_NAMES, Reason, clip, ordinal
from companion.web.names import (
    box_name,
    card_name,
    hex_name,
    path_name,
    special_name,
    task_name,
    terrain_name,
    terrains_name,
    unlock_name,
)

Params = Mapping[str, Any]


def _h(h: Any) -> str:
    return f"({h[0]}, {h[1]})"


def _hs(values: Any) -> str:
    return ", ".join(_h(h) for h in values)


def _t(terrain: Any) -> str:
    return terrain_name(terrain)


def _q(value: Any) -> str:
    return repr(str(value)) if not isinstance(value, int) else str(value)


def _area(terrain: Any) -> str:
    """A territory or network of a terrain, as a noun phrase."""
    if terrain in ("track", "stream"):
        return _("%(terrain)s network", terrain=_t(terrain))
    return _("%(terrain)s territory", terrain=_t(terrain))


def _nth(n: int) -> str:
    from flask_babel import get_locale

    if str(get_locale() or "en") == "en":
        return ordinal(n)
    return f"{n}."


def _edge(edge: Any) -> str:
    return str(edge)


def _list(items: Any, name: Callable[[Any], str] = str) -> str:
    return ", ".join(name(i) for i in items)


def _territory(p: Params) -> str:
    if not p["open_edges"]:
        return _("%(area)s of %(size)s tile(s), closed", area=_area(p["terrain"]),
                 size=p["size"])
    return _("%(area)s of %(size)s tile(s), open at %(open)s edge(s), e.g. edge %(edge)s of "
             "%(at)s", area=_area(p["terrain"]), size=p["size"], open=p["open_edges"],
             edge=p["open_at"][1], at=_h(p["open_at"][0]))


def _place(place: Params) -> str:
    shared = place["shared"]
    if not shared:
        return _("no place: 0")
    first, last = _nth(shared[0]), _nth(shared[-1])
    if len(shared) == 1:
        return _("%(nth)s place: %(points)s", nth=first, points=place["points"])
    if len(shared) == 2:
        return _("tied for %(first)s and %(last)s place: %(pooled)s shared by %(n)s = "
                 "%(points)s", first=first, last=last, pooled=place["pooled"], n=len(shared),
                 points=place["points"])
    return _("tied for %(first)s to %(last)s place: %(pooled)s shared by %(n)s = %(points)s",
             first=first, last=last, pooled=place["pooled"], n=len(shared),
             points=place["points"])


def _others_turn(p: Params) -> str:
    rest = [_("%(who)s at turn %(turn)s", who=who, turn=k) if k is not None
            else _("%(who)s never", who=who) for who, k in p["others"]]
    return f" ({'; '.join(rest)})" if rest else ""


def _others_count(p: Params) -> str:
    rest = [f"{who} {k}" if k is not None else _("%(who)s never", who=who)
            for who, k in p["others"]]
    return f" ({'; '.join(rest)})" if rest else ""


def _count(p: Params) -> str:
    return ngettext("%(num)d closed %(terrain)s territory", "%(num)d closed %(terrain)s "
                    "territories", p["count"], terrain=_t(p["kind"]))


def _choices(choices: Any) -> str:
    out = []
    for c in choices:
        when = (_("turn %(n)s", n=c["turn"]) if c.get("turn") is not None
                else _("a turn not in the log"))
        text = _("%(nth)s completed task at %(when)s", nth=_nth(c["nth"]), when=when)
        if c.get("task"):
            text += f" ({task_name(c['task'])} {_('at')} {_h(c['at'])})"
        out.append(text)
    return ", ".join(out) or _("none reached")


def _where(p: Params) -> str:
    return ", ".join(_("%(n)s at %(at)s", n=n, at=_h(h)) for n, h in p["where"]) or _("none")


def _totals(p: Params) -> str:
    return ", ".join(f"{who} {total}" for who, total in p["totals"])


def _reveal(p: Params) -> str:
    return f"{p['who']}: " if p.get("who") else ""


def _line(p: Params) -> str:
    return _(" (line %(n)s)", n=p["line"]) if p.get("line") else ""


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


PAD_SUMS: dict[str, Callable[[], str]] = {
    "S1": lambda: _("S1: sum of B1-B5"),
    "S2": lambda: _("S2: flags plus longest track and stream"),
    "S3": lambda: _("S3: unlocked components"),
    "H": lambda: _("H: S1 + S2 + S3"),
}
DUEL_SUMS: dict[str, Callable[[], str]] = {
    "tasks": lambda: _("tasks: sum of the seven task rows"),
    "bonus": lambda: _("flags plus longest track and stream"),
    "subtotal": lambda: _("subtotal: tasks plus flags and longest"),
    "total": lambda: _("total: subtotal + Module 1 + Module 2"),
    "module1": lambda: _("Module 1: sum of the task cards in play"),
    "module1-none": lambda: _("Module 1: no task card named in cards:"),
    "module1-off": lambda: _("Module 1 is not in play (modules:)"),
    "module2-off": lambda: _("Module 2 is not in play (modules:)"),
}


def _rule_text(why: Params) -> str:
    code = why["code"]
    p = why["params"]
    if code == "edge-mismatch":
        code = "track" if "track" in (p["terrain"], p["other"]) else "stream"
    rules: dict[str, Callable[[], str]] = {
        "hex-occupied": lambda: _("No two tiles may lie on one hex."),
        "hex-twice": lambda: _("No two tiles may lie on one hex."),
        "touches-nothing": lambda: _("Every tile after the first must touch a placed tile."),
        "not-connected": lambda: _("Every tile after the first must touch a placed tile."),
        "track": lambda: _("A track edge may only meet a track edge or an empty space."),
        "stream": lambda: _("A stream edge may only meet a stream edge or an empty space."),
        "task-fails-at-once": lambda: _(
            "A task tile's own marker must stay achievable: its territory may not become "
            "larger than the marker's number, nor closed with fewer tiles."),
        "wraparound-too-many-neighbours": lambda: _(
            "A wraparound task tile may not be placed with more neighbours than its "
            "marker's number."),
        "heart-not-on-landscape": lambda: _(
            "In the Duel a heart lies only on a landscape tile, never on a task or special "
            "tile."),
        "mill-not-on-landscape": lambda: _(
            "The Great Mill figure stands only on a grain landscape tile, never on a task or "
            "special tile."),
    }
    found = rules.get(code)
    return found() if found else ""


def _explained(p: Params) -> str:
    why = as_json(p["why"])
    if why["code"] == "edge-mismatch":
        edge = why["params"]["edge"]
        names = {"N": pgettext("compass", "N"), "NE": pgettext("compass", "NE"),
                 "SE": pgettext("compass", "SE"), "S": pgettext("compass", "S"),
                 "SW": pgettext("compass", "SW"), "NW": pgettext("compass", "NW")}
        name = names.get(EDGE_NAMES[edge], EDGE_NAMES[edge])
        why = {"code": why["code"], "params": {**why["params"], "edge": f"{edge} ({name})"}}
    return f"{_cap(say(why))}. {_rule_text(why)}".strip()


TEMPLATES: dict[str, Callable[[Params], str]] = {
    # ---- placement refusals
    "hex-occupied": lambda p: _("%(at)s already holds a tile", at=_h(p["at"])) + _line(p),
    "touches-nothing": lambda p: _("%(at)s touches no placed tile", at=_h(p["at"])),
    "edge-mismatch": lambda p: _("%(terrain)s edge %(edge)s meets %(other)s at %(at)s",
                                 terrain=_t(p["terrain"]), edge=_edge(p["edge"]),
                                 other=_t(p["other"]), at=_h(p["neighbour"])),
    "task-fails-at-once": lambda p: _("task tile %(task)s would fail at once: %(why)s",
                                      task=task_name(p["task"]), why=say(p["why"])),
    "wraparound-too-many-neighbours": lambda p: _(
        "task tile %(task)s would have %(n)s neighbours, more than its marker's %(value)s",
        task=task_name(p["task"]), n=p["neighbours"], value=p["value"]),
    "heart-not-on-landscape": lambda p: _(
        "a heart lies only on a landscape tile, not on a %(tile)s tile", tile=_tile(p["tile"])),
    "mill-not-on-landscape": lambda p: _(
        "the Great Mill stands only on a grain landscape tile, not on a %(tile)s tile",
        tile=_tile(p["tile"])),
    "not-connected": lambda p: _("%(at)s is not connected to the rest of the map",
                                 at=_h(p["at"])),
    "hex-twice": lambda p: _("%(at)s holds two tiles", at=_h(p["at"])),
    # ---- marker states
    "size-exact": lambda p: _("its %(area)s has exactly %(value)s tiles",
                              area=_area(p["terrain"]), value=p["value"]),
    "size-over": lambda p: _("its %(area)s has %(size)s tiles, more than %(value)s",
                             area=_area(p["terrain"]), size=p["size"], value=p["value"]),
    "closed-short": lambda p: _("its %(area)s is closed with %(size)s tiles, fewer than "
                                "%(value)s", area=_area(p["terrain"]), size=p["size"],
                                value=p["value"]),
    "size-growing": lambda p: _("its %(area)s has %(size)s of %(value)s tiles",
                                area=_area(p["terrain"]), size=p["size"], value=p["value"]),
    "wraparound-exact": lambda p: _("exactly %(value)s tiles around the task tile",
                                    value=p["value"]),
    "wraparound-growing": lambda p: _("%(n)s of %(value)s tiles around the task tile",
                                      n=p["neighbours"], value=p["value"]),
    "all-of": lambda p: "; ".join(say(r) for r in p["parts"]),
    # ---- explanations of task rows
    "marker-completed": lambda p: (
        _("%(task)s at %(at)s (line %(line)s) completed at turn %(turn)s through its "
          "%(via)s territory: %(why)s", task=task_name(p["task"]), at=_h(p["at"]),
          line=p["line"], turn=p["turn"], via=_t(p["via"]), why=say(p["why"]))
        if p.get("via") else
        _("%(task)s at %(at)s (line %(line)s) completed at turn %(turn)s: %(why)s",
          task=task_name(p["task"]), at=_h(p["at"]), line=p["line"], turn=p["turn"],
          why=say(p["why"]))),
    "marker-from-header": lambda p: _("%(task)s completed (from the 'completed:' header)",
                                      task=task_name(p["task"])),
    "marker-failed": lambda p: _("%(task)s at %(at)s (line %(line)s) failed at turn %(turn)s: "
                                 "%(why)s", task=task_name(p["task"]), at=_h(p["at"]),
                                 line=p["line"], turn=p["turn"], why=say(p["why"])),
    "marker-active": lambda p: _("%(task)s at %(at)s (line %(line)s) still active: %(why)s",
                                 task=task_name(p["task"]), at=_h(p["at"]), line=p["line"],
                                 why=say(p["why"])),
    "tasks-row": lambda p: _("%(type)s tasks: sum of completed markers",
                             type=terrains_name(p["type"])),
    # ---- flags, sums and rows
    "flag-closed": lambda p: _("flag at %(at)s: closed %(terrain)s territory of %(size)s "
                               "tile(s)", at=_h(p["at"]), terrain=_t(p["kind"]), size=p["size"]),
    "flag-open": lambda p: _("flag at %(at)s: %(territory)s: 0", at=_h(p["at"]),
                             territory=_territory(p)),
    "flags-row": lambda p: _("%(terrain)s flags: each flag in a closed %(terrain)s territory "
                             "scores its size", terrain=_t(p["kind"])),
    "pad-sum": lambda p: PAD_SUMS[p["pad"]](),
    "duel-sum": lambda p: DUEL_SUMS[p["row"]](),
    "unlocked-scored-once": lambda p: _("%(id)s: scored once, under %(row)s",
                                        id=unlock_name(p["id"]), row=special_name(p["row"])),
    "unlocked-no-row": lambda p: _("%(id)s: unlocked, no row of its own",
                                   id=unlock_name(p["id"])),
    "winner": lambda p: _("%(who)s wins with %(total)s (%(totals)s)", who=p["who"],
                          total=p["total"], totals=_totals(p)),
    "shared-win": lambda p: _("shared win: %(who)s tie on %(total)s (%(totals)s)",
                              who=", ".join(p["who"]), total=p["total"], totals=_totals(p)),
    # ---- Duel Module 1
    "large-never": lambda p: _(
        "%(card)s: never owned a closed %(terrain)s territory of %(size)s+ tiles: 0",
        card=card_name(f"large-{p['kind']}"), terrain=_t(p["kind"]), size=p["size"])
        + _others_turn(p),
    "large-reached": lambda p: _(
        "%(card)s: first closed %(terrain)s territory of %(size)s+ tiles at turn %(turn)s "
        "(%(tiles)s tiles); %(place)s", card=card_name(f"large-{p['kind']}"),
        terrain=_t(p["kind"]), size=p["size"], turn=p["turn"], tiles=p["tiles"],
        place=_place(p["place"])) + _others_turn(p),
    "master-none": lambda p: _(
        "%(card)s: no closed %(terrain)s territory of %(size)s+ tiles: 0 (house rule R-9)",
        card=_cap(card_name(f"master-{p['kind']}")), terrain=_t(p["kind"]), size=p["size"])
        + _others_count(p),
    "master-count": lambda p: _(
        "%(card)s: %(count)s of %(size)s+ tiles; %(place)s",
        card=_cap(card_name(f"master-{p['kind']}")), count=_count(p), size=p["size"],
        place=_place(p["place"])) + _others_count(p),
    "many-count": lambda p: _(
        "%(card)s: %(count)s of %(size)s+ tiles -> %(points)s (2->1, 3->2, 4->4, 5->6, 6->9, "
        "7->12, 8+->15)", card=card_name(f"many-{p['kind']}"), count=_count(p),
        size=p["size"], points=p["points"]),
    "closed-territory": lambda p: _("closed %(terrain)s territory of %(size)s tiles",
                                    terrain=_t(p["kind"]), size=p["size"]),
    # ---- Duel Module 2
    "special-near": lambda p: _(
        "%(special)s at %(at)s: %(count)s tile(s) showing %(terrain)s within distance "
        "%(reach)s", special=special_name(p["special"]), at=_h(p["at"]), count=p["count"],
        terrain=_t(p["kind"]), reach=p["reach"]),
    "special-row": lambda p: _("School / Granary / Old Oak: 1 per tile showing its terrain "
                               "within distance %(reach)s", reach=p["reach"]),
    "special-none": lambda p: _("no School / Granary / Old Oak tile"),
    "photographer-row": lambda p: (
        _("Photographer: %(n)s camera(s), 1 each (chosen at turn %(turn)s)",
          n=p["cameras"], turn=p["turn"])
        if p["cameras"] and p.get("turn") is not None
        else _("Photographer: %(n)s camera(s), 1 each", n=p["cameras"])),
    "heart-edges": lambda p: _("heart on %(at)s (turn %(turn)s): %(count)s matching edge(s) "
                               "%(edges)s", at=_h(p["at"]), turn=p["turn"], count=p["count"],
                               edges=p["edges"]),
    "hearts-none": lambda p: _("no hearts chosen (no heart in the landscape)"),
    "hearts-row": lambda p: (
        _("Hearts, chosen at turn %(turn)s (inferred: the last choice point before the first "
          "heart), %(allowed)s allowed: 1 per edge meeting the same terrain (meadow too)",
          turn=p["turn"], allowed=p["allowed"]) if p.get("turn") is not None else
        _("Hearts, choice point unknown, %(allowed)s allowed: 1 per edge meeting the same "
          "terrain (meadow too)", allowed=p["allowed"])),
    "module2-row": lambda p: _(
        "Module 2: choice points %(choices)s; inferred from the record: %(chosen)s",
        choices=_choices(p["choices"]),
        chosen="; ".join(_("%(name)s chosen at turn %(turn)s", name=special_name(n), turn=t)
                         if t is not None else _("%(name)s: turn unknown",
                                                 name=special_name(n))
                         for n, t in p["chosen"]) or _("no point of interest")),
    # ---- unlocked components (rows E)
    "none-on-map": lambda p: _("no %(what)s on the map", what=_what(p["what"])),
    "heart-matching": lambda p: _(
        "%(label)s on %(at)s: %(count)s matching edge(s) %(edges)s x %(per)s",
        label=_label(p["label"]), at=_h(p["at"]), count=p["count"], edges=p["edges"] or "",
        per=p["per_edge"]).replace("  ", " "),
    "hearts-total": lambda p: _("%(label)s: %(per)s per edge meeting the same terrain "
                                "(meadow too, empty hexes not)", label=_label(p["label"]),
                                per=p["per_edge"]),
    "no-special-tile": lambda p: _("no %(special)s tile on the map",
                                   special=special_name(p["special"])),
    "special-tiles": lambda p: _("%(special)s: %(count)s tiles",
                                 special=special_name(p["special"]), count=p["count"]),
    "special-shows-no": lambda p: (
        _("%(special)s at %(at)s: the tile shows no grain", special=special_name(p["special"]),
          at=_h(p["at"])) if p["special"] == "great-mill" else
        _("%(special)s at %(at)s shows no %(terrain)s", special=special_name(p["special"]),
          at=_h(p["at"]), terrain=_t(p["kind"]))),
    "circus": lambda p: (
        _("Circus at %(at)s: all 6 neighbouring hexes hold tiles", at=_h(p["at"]))
        if p["around"] == 6 else
        _("Circus at %(at)s: %(n)s of 6 neighbours; empty: %(empty)s", at=_h(p["at"]),
          n=p["around"], empty=_hs(p["empty"]))),
    "signalman": lambda p: (
        _("Signalman at %(at)s: %(count)s grade crossing(s) on its track network of %(size)s "
          "tiles (%(where)s) x 2", at=_h(p["at"]), count=p["count"], size=p.get("size"),
          where=_where(p)) if p["whole"] else
        _("Signalman at %(at)s: %(count)s grade crossing(s) on its tile and direct track "
          "neighbours (R-3 off) (%(where)s) x 2", at=_h(p["at"]), count=p["count"],
          where=_where(p))),
    "shepherdess": lambda p: _("Shepherdess at %(at)s: %(count)s sheep on %(tiles)s tile(s) "
                               "joined through meadow (%(where)s)", at=_h(p["at"]),
                               count=p["count"], tiles=p["tiles"], where=_where(p)),
    "hill": lambda p: _("Hill at %(at)s: %(count)s task tile(s) within distance %(reach)s x 2",
                        at=_h(p["at"]), count=p["count"], reach=p["reach"]),
    "construction-territory": lambda p: (
        _("%(terrain)s territory of %(size)s tile(s) (7+): 7", terrain=_cap(_t(p["kind"])),
          size=p["size"]) if p["points"] else
        _("%(terrain)s territory of %(size)s tile(s) (under 7): 0",
          terrain=_cap(_t(p["kind"])), size=p["size"])),
    "construction-site": lambda p: _("Construction Site at %(at)s: 7 per forest/grain/village "
                                     "territory of 7+ tiles", at=_h(p["at"])),
    "balloon-none": lambda p: _("Balloon Launch Site at %(at)s: no balloon on the map",
                                at=_h(p["at"])),
    "balloon": lambda p: _("Balloon Launch Site at %(at)s: balloon at %(balloon)s, "
                           "%(distance)s hex(es) away x 2", at=_h(p["at"]),
                           balloon=_h(p["balloon"]), distance=p["distance"]),
    "second-time": lambda p: _(
        "%(special)s at %(at)s: completed %(terrain)s markers %(values)s score again",
        special=special_name(p["special"]), at=_h(p["at"]), terrain=_t(p["kind"]),
        values=p["values"] or _("none")) + (
        " " + _("(warning: no completed %(terrain)s marker of %(value)s to lay)",
                terrain=_t(p["kind"]), value=p["unmatched"]) if p["unmatched"] else ""),
    "closed-network": lambda p: _("%(special)s at %(at)s: closed %(terrain)s network of "
                                  "%(size)s tiles", special=special_name(p["special"]),
                                  at=_h(p["at"]), terrain=_t(p["terrain"]), size=p["size"]),
    "open-network": lambda p: _("%(special)s at %(at)s: its %(territory)s: 0",
                                special=special_name(p["special"]), at=_h(p["at"]),
                                territory=_territory(p)),
    "mill-misplaced": lambda p: _("Great Mill at %(at)s: the figure stands on a %(tile)s tile; "
                                  "it may only go on a grain landscape tile: 0", at=_h(p["at"]),
                                  tile=_tile(p["tile"])),
    "mill-open": lambda p: _("Great Mill at %(at)s: its %(territory)s: 0", at=_h(p["at"]),
                             territory=_territory(p)),
    "mill-closed": lambda p: _(
        "Great Mill at %(at)s: closed grain territory of %(size)s tiles with %(tasks)s "
        "completed grain task(s) and %(flags)s yellow flag(s), 2 each", at=_h(p["at"]),
        size=p["size"], tasks=p["tasks"], flags=p["flags"]),
    "great-mill": lambda p: _("Great Mill"),
    # ---- longest rows
    "longest-none": lambda p: _("no %(terrain)s on the map", terrain=_t(p["kind"])),
    "longest-chain": lambda p: _("longest %(terrain)s: the longest chain of %(size)s tile(s) "
                                 "without branching back (house rule R-2)",
                                 terrain=_t(p["kind"]), size=p["size"]),
    "longest-network": lambda p: _("longest %(terrain)s: the largest %(terrain)s network, "
                                   "%(territory)s (all connected tiles, branches included)",
                                   terrain=_t(p["kind"]), territory=_territory(p)),
    # ---- warnings: reveal order
    "game-over": lambda p: _reveal(p) + _("the game was over: no landscape tile was left and "
                                          "the last one changed no task"),
    "task-tile-expected": lambda p: _reveal(p) + _(
        "a task tile should have been revealed (%(why)s)", why=say(p["why"])),
    "landscape-tile-expected": lambda p: _reveal(p) + _(
        "a landscape tile should have been revealed (%(why)s)", why=say(p["why"])),
    "first-turns": lambda p: _("one of the first %(n)s turns", n=p["turns"]),
    "few-active": lambda p: ngettext("only %(num)d marker active", "only %(num)d markers active",
                                     p["active"]),
    "players-few-active": lambda p: ", ".join(
        ngettext("%(who)s has %(num)d active marker", "%(who)s has %(num)d active markers", n,
                 who=who) for who, n in p["players"]),
    "enough-active": lambda p: _("%(n)s markers active", n=p["active"]),
    "players-enough-active": lambda p: _(
        "every player has %(minimum)s+ active markers: %(players)s", minimum=p["minimum"],
        players=", ".join(f"{who} {n}" for who, n in p["players"])),
    "task-tiles-out": lambda p: _("all %(n)s task tiles were out", n=p["limit"]),
    "last-landscape-changed": lambda p: (
        _("the last landscape tile changed a task and %(then)s", then=say(p["then"]))
        if p.get("then") else _("the last landscape tile changed a task")),
    "too-many-landscape": lambda p: _reveal(p) + (
        _("%(placed)s landscape tiles placed; a player has %(limit)s for a game",
          placed=p["placed"], limit=p["limit"]) if p.get("who") else
        _("%(placed)s landscape tiles placed; the box holds %(limit)s for a game",
          placed=p["placed"], limit=p["limit"])),
    # ---- warnings: pools, tiles, unlocks
    "pool-exceeded": lambda p: _reveal(p) + _(
        "%(used)s %(terrain)s markers of %(value)s used; the box holds %(have)s",
        used=p["used"], terrain=terrains_name(p["type"]), value=p["value"], have=p["have"]),
    "duel-tile-over-box": lambda p: _duel_over_box(p),
    "special-not-unlocked": lambda p: _(
        "%(special)s tile at %(at)s is on the map but not unlocked: not scored",
        special=special_name(p["special"]), at=_h(p["at"])),
    "tiles-differ": lambda p: _(
        "%(who)s placed %(kind)s %(code)s, %(other)s %(other_kind)s %(other_code)s (line "
        "%(line)s): every player places the same tile each turn", who=p["who"],
        kind=_tile(p["kind"]), code=p["code"], other=p["other"],
        other_kind=_tile(p["other_kind"]), other_code=p["other_code"], line=p["other_line"]),
    "turn-counts-differ": lambda p: _("%(short)s played %(short_turns)s turns, %(long)s "
                                      "%(long_turns)s", short=p["short"],
                                      short_turns=p["short_turns"], long=p["long"],
                                      long_turns=p["long_turns"]),
    "heart-on-task-or-special": lambda p: _(
        "a heart on the %(tile)s tile at %(at)s: scored, but a heart lies only on a landscape "
        "tile (R-10)", tile=_tile(p["tile"]), at=_h(p["at"])),
    # ---- warnings: Duel
    "cards-mix": lambda p: _("cards: %(cards)s is not one card per landscape type (forest, "
                             "grain, village): scored as written",
                             cards=_list(p["cards"], card_name)),
    "special-off-choice": lambda p: _(
        "%(who)s: %(special)s tile placed at turn %(turn)s, which is no choice point of theirs "
        "(choice points: %(choices)s)", who=p["who"], special=special_name(p["special"]),
        turn=p["turn"], choices=_choices(p["choices"])),
    "second-special": lambda p: _(
        "%(who)s: a second School / Granary / Old Oak tile (%(special)s); each player takes "
        "only one of the three", who=p["who"], special=special_name(p["special"])),
    "special-taken-by-other": lambda p: _(
        "%(who)s: %(special)s was taken only by %(other)s (turn %(turn)s), so %(who)s's copy "
        "went back to the box: choose one of the two other types", who=p["who"],
        special=special_name(p["special"]), other=p["other"], turn=p["other_turn"]),
    "point-chosen-twice": lambda p: _(
        "%(who)s: %(name)s chosen a second time; each point of interest is chosen once per "
        "player", who=p["who"], name=special_name(p["name"])),
    "heart-without-choice": lambda p: _(
        "%(who)s: a heart at turn %(turn)s but no free choice point before it", who=p["who"],
        turn=p["turn"]),
    "too-many-points": lambda p: _(
        "%(who)s: %(count)s points of interest (%(names)s) but only %(reached)s choice "
        "point(s) reached (%(choices)s)", who=p["who"], count=p["count"],
        names=_list(p["names"], special_name), reached=p["reached"],
        choices=_choices(p["choices"])),
    "too-many-hearts": lambda p: _(
        "%(who)s: %(count)s hearts in the landscape; only %(allowed)s allowed (%(first)s for "
        "the first chooser, %(later)s for a later one)", who=p["who"], count=p["count"],
        allowed=p["allowed"], first=p["first"], later=p["later"]),
    "module2-not-in-play": lambda p: _(
        "%(who)s: points of interest in the record (%(names)s) but Module 2 is not in play "
        "(modules:): not scored", who=p["who"], names=_list(p["names"], special_name)),
    "camera-not-next-to-photographer": lambda p: _(
        "%(who)s: a camera on %(at)s (turn %(turn)s), which was not next to the "
        "photographer's tile %(photographer)s when it was placed", who=p["who"],
        at=_h(p["at"]), turn=p["turn"], photographer=_h(p["photographer"])),
    "camera-without-photographer": lambda p: _(
        "%(who)s: a camera on %(at)s but no photographer tile placed before it", who=p["who"],
        at=_h(p["at"])),
    "cameras-exceeded": lambda p: _("%(count)s camera markers in the landscapes; the box holds "
                                    "%(have)s for both players", count=p["count"],
                                    have=p["have"]),
    "rule-broken": _explained,
    # ---- notation
    "bad-tile-code": lambda p: (
        _("tile code %(code)s is not six of the letters F G V T S M (unknown letter "
          "%(letter)s)", code=_q(p["code"]), letter=_q(p["letter"])) if p.get("letter") else
        _("tile code %(code)s is not six of the letters F G V T S M (%(n)s letters, need 6)",
          code=_q(p["code"]), n=p["length"])),
    "split-form": lambda p: _("split %(split)s: expected LETTER:EDGES/EDGES, e.g. F:01/3",
                              split=_q(p["split"])),
    "split-terrain-twice": lambda p: _("split %(split)s: terrain %(letter)s named twice",
                                       split=_q(p["split"]), letter=p["letter"]),
    "split-bad-group": lambda p: _("split %(split)s: %(group)s is not a group of edges 0-5",
                                   split=_q(p["split"]), group=_q(p["group"])),
    "split-edge-twice": lambda p: _("split %(split)s: an edge is in two groups",
                                    split=_q(p["split"])),
    "split-wrong-edges": lambda p: _("split %(split)s: the %(terrain)s edges of %(code)s are "
                                     "%(edges)s", split=_q(p["split"]), terrain=_t(p["terrain"]),
                                     code=p["code"], edges=p["edges"] or _("none")),
    "task-value-not-number": lambda p: _("task=%(task)s: marker value %(value)s is not a "
                                         "number", task=p["task"], value=_q(p["value"])),
    "double-only-in-duel": lambda p: _("task=%(task)s: double tasks exist only in the duel",
                                       task=p["task"]),
    "double-needs-two-types": lambda p: _("task=%(task)s: a double task names two different "
                                          "types, e.g. double:forest+village/6", task=p["task"]),
    "unknown-task-type": lambda p: _("task=%(task)s: unknown task type %(type)s (one of "
                                     "%(known)s)", task=p["task"], type=_q(p["type"]),
                                     known=", ".join(p["known"])),
    "no-such-marker": lambda p: _("%(where)s%(task)s: no %(terrain)s marker shows %(value)s "
                                  "(the %(game)s has %(boxes)s)", where=p["where"],
                                  task=p["task"], terrain=terrains_name(p["type"]),
                                  value=p["value"], game=_game(p["game"]), boxes=p["boxes"]),
    "placement-form": lambda p: _("expected 'Q R CODE [ATTRIBUTES]', got %(text)s",
                                  text=_q(p["text"])),
    "position-not-numbers": lambda p: _("position %(q)s %(r)s is not two whole numbers from "
                                        "-%(limit)s to %(limit)s", q=p["q"], r=p["r"],
                                        limit=p["limit"]),
    "attribute-twice": lambda p: _("attribute %(key)s given twice", key=_q(p["key"])),
    "attribute-takes-no-value": lambda p: _("attribute %(key)s takes no value",
                                            key=_q(p["key"])),
    "unknown-attribute": lambda p: _("unknown attribute %(token)s (known: %(known)s)",
                                     token=_q(p["token"]), known=", ".join(p["known"])),
    "attribute-needs-value": lambda p: _("attribute %(key)s needs a value (%(name)s=...)",
                                         key=_q(p["key"]), name=p["key"]),
    "task-terrain-missing": lambda p: _("task=%(task)s: tile %(code)s shows no %(terrain)s "
                                        "edge for the marker", task=p["task"], code=p["code"],
                                        terrain=_t(p["terrain"])),
    "flag-type": lambda p: _("flag=%(flag)s: a flag is forest, grain or village",
                             flag=p["flag"]),
    "flag-terrain-missing": lambda p: _("flag=%(flag)s: tile %(code)s shows no %(terrain)s "
                                        "edge", flag=p["flag"], code=p["code"],
                                        terrain=_t(p["flag"])),
    "unknown-special": lambda p: _("special=%(special)s: unknown special tile (known: "
                                   "%(known)s)", special=p["special"],
                                   known=", ".join(p["known"])),
    "count-not-number": lambda p: _("%(key)s=%(value)s: expected a whole number from 0 to "
                                    "%(limit)s", key=p["key"], value=p["value"],
                                    limit=p["limit"]),
    "markers-not-numbers": lambda p: _("markers=%(value)s: expected numbers like markers=5,6",
                                       value=p["value"]),
    "mill-needs-grain": lambda p: _("mill: the Great Mill stands on grain, and tile %(code)s "
                                    "shows none", code=p["code"]),
    "markers-need-special": lambda p: _("markers= belongs on a Forest Cabin, Harvest Festival, "
                                        "Watchtower, Locomotive or Ship tile (special=...)"),
    "unknown-game": lambda p: _("game: %(game)s is not board-game or duel",
                                game=_q(p["game"])),
    "completed-needs-value": lambda p: _("completed: %(item)s needs a value, e.g. forest/5",
                                         item=_q(p["item"])),
    "unknown-modules": lambda p: _("modules: %(modules)s: the duel has modules 1 and 2",
                                   modules=_q(p["modules"])),
    "unknown-card": lambda p: _("cards: unknown card %(card)s (large-, master-, many- with "
                                "forest, grain, village)", card=_q(p["card"])),
    "player-outside-duel": lambda p: _("'player:' sections belong to duel records (add "
                                       "'game: duel' first)"),
    "player-needs-name": lambda p: _("player: needs a name"),
    "player-twice": lambda p: _("player %(player)s has a section already",
                                player=_q(p["player"])),
    "unknown-header": lambda p: _("unknown header %(key)s (known: %(known)s, player)",
                                  key=_q(p["key"]), known=", ".join(p["known"])),
    "header-after-placement": lambda p: _("header %(key)s must come before the first "
                                          "placement", key=_q(p["key"])),
    "header-twice": lambda p: _("header %(key)s given twice", key=_q(p["key"])),
    "duel-needs-player": lambda p: _("a duel record starts each landscape with 'player: "
                                     "NAME'"),
    "modules-outside-duel": lambda p: _("modules and cards belong to duel records"),
    "cards-need-module1": lambda p: _("cards: Module 1 task cards need 'modules: 1'"),
    "duel-needs-section": lambda p: _("a duel record needs at least one 'player:' section"),
    "duel-special-in-board-game": lambda p: _("special=%(special)s is a duel point of interest",
                                              special=p["special"]),
    "unknown-unlock": lambda p: _("unlocked: unknown id %(id)s (score rows: %(rows)s; also "
                                  "boxes, achievement ids, red-heart)", id=_q(p["id"]),
                                  rows=", ".join(p["rows"])),
    "unknown-ruling": lambda p: _("rulings: unknown ruling %(item)s (R-1 to R-10)",
                                  item=_q(p["item"])),
    "ruling-state": lambda p: _("rulings: %(item)s: use %(id)s=on or %(id)s=off",
                                item=_q(p["item"]), id=p["id"]),
    "ruling-fixed": lambda p: _("rulings: %(id)s cannot be switched off", id=p["id"]),
    # ---- recording
    "no-such-player": lambda p: _("no player %(player)s in this game", player=_q(p["player"])),
    "nothing-to-undo": lambda p: _("nothing to undo"),
    "marker-not-left": lambda p: _("no %(terrain)s marker of %(value)s is left in the box",
                                   terrain=terrains_name(p["type"]), value=p["value"]),
    "completed-not-listed": lambda p: _("that completed marker is not in the list"),
    # ---- the campaign
    "spend-form": lambda p: _("spend: expected 'PATH N' (e.g. start-box1 2), got %(text)s",
                              text=_q(p["text"] or _("nothing"))),
    "spend-at-least-one": lambda p: _("spend: %(text)s: cross at least 1 circle",
                                      text=_q(p["text"])),
    "spend-too-many": lambda p: _("spend: %(text)s: at most %(limit)s circles at once",
                                  text=_q(p["text"]), limit=p["limit"]),
    "not-a-score": lambda p: _("game: %(value)s is not a score (a whole number of points from "
                               "0 to %(limit)s)", value=_q(p["value"]), limit=p["limit"]),
    "not-an-achievement-id": lambda p: _("achieved: %(value)s is not an achievement id (e.g. "
                                         "great-mill)", value=_q(p["value"])),
    "campaign-line-form": lambda p: _("expected 'key: value' (one of %(known)s), got %(line)s",
                                      known=", ".join(p["known"]), line=_q(p["line"])),
    "campaign-unknown-key": lambda p: _("unknown key %(key)s (known: %(known)s)",
                                        key=_q(p["key"]), known=", ".join(p["known"])),
    "campaign-key-after-game": lambda p: _("%(key)s: must come before the first game",
                                           key=p["key"]),
    "campaign-key-twice": lambda p: _("%(key)s: given twice", key=p["key"]),
    "unknown-hex": lambda p: _("unknown hex %(hex)s", hex=_q(p["hex"])) + _did_you_mean(p),
    "not-an-end": lambda p: _("%(hex)s is not an end of path %(path)s (%(low)s and %(high)s)",
                              hex=hex_name(p["hex"]), path=path_name(p["path"]),
                              low=hex_name(p["low"]), high=hex_name(p["high"])),
    "end-not-reached": lambda p: _("cannot cross %(path)s from %(hex)s: it is not reached",
                                   path=path_name(p["path"]), hex=hex_name(p["hex"])),
    "path-not-reachable": lambda p: _("path %(path)s cannot be crossed yet: neither %(low)s nor "
                                      "%(high)s is reached", path=path_name(p["path"]),
                                      low=hex_name(p["low"]), high=hex_name(p["high"])),
    "no-game-yet": lambda p: _("no game recorded yet: crosses come from a game's score"),
    "cross-at-least-one": lambda p: _("cross at least 1 circle (got %(count)s)",
                                      count=p["count"]),
    "unknown-path": lambda p: _("unknown path %(path)s", path=_q(p["path"])) + _did_you_mean(p),
    "path-full": lambda p: _("path %(path)s is full (%(circles)s of %(circles)s circles "
                             "crossed)", path=path_name(p["path"]), circles=p["circles"]),
    "path-too-short": lambda p: ngettext(
        "path %(path)s has %(num)d circle left, cannot cross %(count)s",
        "path %(path)s has %(num)d circles left, cannot cross %(count)s", p["left"],
        path=path_name(p["path"]), count=p["count"]),
    "not-enough-crosses": lambda p: ngettext(
        "spending %(num)d cross but only %(available)s available (game %(game)s earned "
        "%(earned)s, %(spent)s spent)",
        "spending %(num)d crosses but only %(available)s available (game %(game)s earned "
        "%(earned)s, %(spent)s spent)", p["count"], available=p["available"], game=p["game"],
        earned=p["earned"], spent=p["spent"]),
    "achieved-before-game": lambda p: _("achieved: comes after the game in which it was met"),
    "unknown-achievement": lambda p: (_("unknown achievement %(id)s", id=_q(p["id"]))
                                      + _did_you_mean(p)),
    "achievement-on-track": lambda p: _("%(id)s is a hex of the advancement track: it is "
                                        "unlocked by reaching it, not ticked",
                                        id=hex_name(p["id"])),
    "already-achieved": lambda p: _("%(id)s is already achieved", id=hex_name(p["id"])),
    "negative-score": lambda p: _("a game's score cannot be negative (%(score)s)",
                                  score=p["score"]),
    "achievement-box-closed": lambda p: (
        (_("line %(n)s: ", n=p["line"]) if p.get("line") is not None else "")
        + _("%(id)s comes from %(box)s, which is not opened yet", id=hex_name(p["id"]),
            box=box_name(p["box"]))),
    # ---- the Great Mill achievement, checked on a game record (campaign.mill)
    "great-mill-met": lambda p: _who(p) + (
        _("all 6 edges of the grain task tile at %(at)s with the mill meet grain edges of 6 "
          "neighbours", at=_h(p["at"])) if p["mill"] else
        _("all 6 edges of the grain task tile at %(at)s meet grain edges of 6 neighbours",
          at=_h(p["at"]))),
    "great-mill-not-met": lambda p: _("Great Mill not met: %(reasons)s", reasons=" | ".join(
        say(r) for r in p["reasons"])),
    "mill-no-grain-task": lambda p: _who(p) + _("no grain task tile"),
    "mill-tile-faults": lambda p: _who(p) + _(
        "grain task tile at %(at)s: %(faults)s", at=_h(p["at"]),
        faults="; ".join(say(f) for f in p["faults"])),
    "mill-edge-not-grain": lambda p: _("its edge %(edge)s is not grain", edge=p["edge"]),
    "mill-edge-empty": lambda p: _("edge %(edge)s faces the empty hex %(other)s",
                                   edge=p["edge"], other=_h(p["other"])),
    "mill-edge-meets-other": lambda p: _("edge %(edge)s meets a non-grain edge of %(other)s",
                                         edge=p["edge"], other=_h(p["other"])),
    "message": lambda p: str(p["text"]),
}


def _tile(kind: Any) -> str:
    """The kind of a tile (``task``, ``special``, ``landscape``)."""
    kinds = {"task": _("task"), "special": _("special"), "landscape": _("landscape"),
             "task tile": _("task tile"), "landscape tile": _("landscape tile")}
    return kinds.get(str(kind), str(kind))


def _duel_over_box(p: Params) -> str:
    """A Duel landscape holding more tiles of a kind than its box (``duel-tile-over-box``)."""
    code, at, have = p["code"], _h(p["at"]), p["have"]
    if p["kind"] == "landscape":
        return ngettext("tile %(code)s at %(at)s: the box holds only %(num)d landscape tile "
                        "per player", "tile %(code)s at %(at)s: the box holds only %(num)d "
                        "landscape tiles per player", have, code=code, at=at)
    if p["kind"] == "task":
        return ngettext("tile %(code)s at %(at)s: the box holds only %(num)d task tile per "
                        "player", "tile %(code)s at %(at)s: the box holds only %(num)d task "
                        "tiles per player", have, code=code, at=at)
    return _("%(special)s tile at %(at)s: the box holds one per player, and this landscape "
             "has it already", special=special_name(p["kind"]), at=at)


def _did_you_mean(p: Params) -> str:
    """`` (did you mean start-box1?)`` after an unknown id, when one is close (a
    ``suggest`` of the older form, the whole English phrase, is read for its id)."""
    close = str(p.get("suggest") or "")
    old = re.fullmatch(r" \(did you mean (.+)\?\)", close)
    if old:
        close = old.group(1)
    return " " + _("(did you mean %(id)s?)", id=close) if close else ""


def _who(p: Params) -> str:
    """``"ana: "`` for a named landscape (a Duel section), else nothing."""
    return f"{p['who']}: " if p.get("who") else ""


def _game(game: Any) -> str:
    return {"duel": _("duel"), "board-game": _("board game")}.get(str(game), str(game))


def _label(label: Any) -> str:
    labels = {"Red heart": "red-heart", "Golden heart": "golden-heart",
              "Golden Heart": "golden-heart", "Red Heart": "red-heart"}
    return special_name(labels.get(str(label), str(label)))


def _what(what: Any) -> str:
    whats = {"red heart": _("red heart"), "golden heart": _("golden heart"),
             "Great Mill figure": _("Great Mill figure")}
    return whats.get(str(what), str(what))


def as_json(reason: Any) -> dict[str, Any]:
    """``{"code", "params"}`` of a ``Reason`` or of a mapping holding one."""
    if isinstance(reason, Reason):
        return reason.to_json()
    return {"code": reason["code"], "params": reason.get("params", {})}


def has_code(reason: Any) -> bool:
    return isinstance(reason, Reason) or (isinstance(reason, Mapping) and "code" in reason
                                          and reason["code"] in TEMPLATES)


def say(reason: Any) -> str:
    """The sentence of ``reason`` (a ``Reason``, its JSON or an explanation with a code) in
    the request's language; an object without a code shows its ``text``; a string as is."""
    if reason is None:
        return ""
    if isinstance(reason, str):
        return reason
    if isinstance(reason, BaseException):
        why = getattr(reason, "why", None)
        return say(why) if why is not None else str(reason)
    if not has_code(reason):
        return str(reason.get("text", "")) if isinstance(reason, Mapping) else str(reason)
    found = as_json(reason)
    return clip(TEMPLATES[found["code"]](found["params"]))


def say_error(err: Exception) -> str:
    """A refusal with its record line, as the command line shows it, in words."""
    text = say(err)
    line = getattr(err, "line", None)
    return _("line %(n)s: %(reason)s", n=line, reason=text) if line is not None else text


SCAN_TEMPLATES: dict[str, Callable[[Params], str]] = {
    "photo-too-large-bytes": lambda p: _("the photo is too large: %(bytes)s bytes (limit "
                                         "%(limit)s)", bytes=p["bytes"], limit=p["limit"]),
    "photo-too-large-pixels": lambda p: _(
        "the photo is too large: %(width)sx%(height)s is over %(mp)s megapixels",
        width=p["width"], height=p["height"], mp=p["megapixels"]),
    "photo-too-small": lambda p: _("the photo is too small: %(width)sx%(height)s pixels",
                                   width=p["width"], height=p["height"]),
    "cannot-read": lambda p: _("the file cannot be read"),
    "not-an-image-directory": lambda p: _("this is not an image"),
    "not-an-image-input": lambda p: _("this is not an image"),
    "not-an-image-array": lambda p: _("this is not an image"),
    "not-an-image-channels": lambda p: _("the image has an unusual number of colour channels"),
    "not-an-image-format": lambda p: _("the file is not a JPEG, PNG, WebP or HEIC photo"),
    "not-an-image-empty": lambda p: _("the image is empty"),
    "not-an-image-decode": lambda p: _("the image cannot be decoded"),
    "image-bomb": lambda p: _("the image declares an enormous size (a decompression bomb)"),
    "truncated-image": lambda p: _("the file ends before the picture does"),
    "time-limit": lambda p: _("scanning it took over %(seconds)s s", seconds=p["seconds"]),
    "no-tiles-empty": lambda p: _("no tiles found: the table looks empty"),
    "no-tiles-not-tiles": lambda p: _("no tiles recognised: this does not look like a photo "
                                      "of Dorfromantik tiles"),
    "no-tiles-not-hexagons": lambda p: _("no tiles recognised: the shapes on the table are "
                                         "not hexagons"),
    "no-tiles-no-lattice": lambda p: _("no tiles recognised: the tiles do not line up on a "
                                       "hex grid"),
    "no-tiles-colours": lambda p: _("no tiles recognised: the colours are not those of "
                                    "Dorfromantik tiles (a photo of something else?)"),
    "no-tiles-too-dark": lambda p: _("no tiles recognised: the photo is too dark to tell "
                                     "the tiles' colours; photograph the map in more light"),
    "scan-refused": lambda p: _("the scanner could not make sense of it"),
}
"""The scanner's refusals (``companion.vision.errors``: ``ScanError.code`` and
``params``) in the player's language; a test holds them to the scanner's codes."""


def say_scan_error(err: Exception) -> str:
    """A ``ScanError`` in the player's language, from its code (never its English)."""
    template = SCAN_TEMPLATES.get(str(getattr(err, "code", "")), SCAN_TEMPLATES["scan-refused"])
    return template(getattr(err, "params", {}) or {})


__all__ = ["SCAN_TEMPLATES", "TEMPLATES", "as_json", "has_code", "say", "say_error",
           "say_scan_error"]
