"""One score-sheet number's explanation, to highlight its tiles on the recorder's map.

Representation: ``explanation_for(position, path, player)`` scores the replayed
game (``companion.web.records.sheet_of``), finds the explanation at ``path``
(``tasks.forest``, ``flags.village``, ``total`` ...; a duel takes the ``player``'s
sheet) and returns a ``Found``: its value, text, sub-item lines and the tiles
behind it (items included), which the map draws with the class ``hl``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules import Hex, Position, RulesError
from companion.web.reasons import say, say_error
from companion.web.records import sheet_of


@dataclass
class Found:
    path: str
    value: int | None = None
    text: str = ""
    lines: list[str] = field(default_factory=list)
    tiles: list[Hex] = field(default_factory=list)
    paths: list[str] = field(default_factory=list)


def _walk(e: dict[str, Any], found: Found, depth: int) -> None:
    for q, r in e.get("tiles", []):
        h = Hex(int(q), int(r))
        if h not in found.tiles:
            found.tiles.append(h)
    for item in e.get("items", []):
        found.lines.append("  " * depth + say(item))
        _walk(item, found, depth + 1)


def explanation_for(position: Position, path: str, player: str | None = None) -> Found:
    found = Found(path)
    try:
        sheet = sheet_of(position.game)
    except RulesError as err:
        found.text = say_error(err)
        return found
    if "players" in sheet:
        names = list(sheet["players"])
        sheet = sheet["players"].get(player if player in names else names[0], {})
    explanations: dict[str, Any] = sheet.get("explanations", {})
    found.paths = list(explanations)
    e = explanations.get(path)
    if e is None:
        return found
    found.value, found.text = e.get("value"), say(e)
    _walk(e, found, 0)
    return found
