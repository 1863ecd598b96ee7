"""Reading and writing game records in the Dorf notation (notation.md sections 2, 3 and 5).

Representation: a ``Record`` holds the headers (``game``, ``date``, ``players``,
``unlocked``, ``completed``, ``modules``, ``cards``, ``rulings``) and one or more
``Section`` objects. A board-game record has one section with ``player`` None;
a duel record has one section per ``player:`` line. Each section is a list of
``Placement`` values in placement order; ``Placement.line`` is the 1-based line
of the record it came from (``None`` for placements built in code).

``parse_record(write_record(r)) == r`` for every record (line numbers aside).

>>> rec = parse_record("game: board-game\\n0 0 GGGGGG task=grain/4\\n1 -1 MFFMGG flag=forest\\n")
>>> rec.placements[0].task
TaskSpec(type='grain', value=4, terrains=('grain',))
>>> print(format_placement(rec.placements[1]))
1 -1 MFFMGG flag=forest
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from companion.rules.errors import NotationError
from companion.rules.hexgrid import Hex
from companion.rules.numbers import COORDINATE_LIMIT, COUNT_LIMIT, whole_number
from companion.rules.reasons import Reason
from companion.rules.tiles import LETTER_OF, TERRAINS, check_code, parse_split

GAMES = ("board-game", "duel")
TERRITORY_TYPES = ("forest", "grain", "village")
NETWORK_TYPES = ("track", "stream")
TASK_TYPES = TERRITORY_TYPES + NETWORK_TYPES
DUEL_TASK_TYPES = TASK_TYPES + ("wraparound", "double")
FLAG_TYPES = TERRITORY_TYPES

SPECIAL_TILES = (
    "circus",
    "signalman",
    "shepherdess",
    "hill",
    "construction-site",
    "balloon-launch-site",
    "forest-cabin",
    "harvest-festival",
    "watchtower",
    "locomotive",
    "ship",
    "train-station",
    "harbor",
    "school",
    "granary",
    "old-oak",
    "photographer",
)
DUEL_SPECIALS = ("school", "granary", "old-oak", "photographer")
"""The Duel's Module 2 special tiles: each is an extra tile of the turn of the line above."""
SECOND_TIME_SPECIALS = {
    "forest-cabin": "forest",
    "harvest-festival": "grain",
    "watchtower": "village",
    "locomotive": "track",
    "ship": "stream",
}

SCORE_ROWS: tuple[str, ...] = (
    "red-hearts",
    "circus",
    "signalman",
    "shepherdess",
    "hill",
    "construction-site",
    "balloon-launch-site",
    "golden-heart",
    "forest-cabin",
    "harvest-festival",
    "watchtower",
    "locomotive",
    "ship",
    "train-station",
    "harbor",
    "great-mill",
)
"""Ids of the ``unlocked:`` header that have a score row (rules.md section 5, rows E),
in the pad's order; ``scoring.components`` scores each."""
SCORE_ROW_ALIASES = {"red-heart": "red-hearts"}

HEADERS = ("game", "date", "players", "unlocked", "completed", "modules", "cards", "rulings")
ATTRIBUTE_ORDER = (
    "task",
    "flag",
    "special",
    "heart",
    "golden-heart",
    "sheep",
    "crossing",
    "camera",
    "balloon",
    "mill",
    "markers",
    "split",
)
BARE_ATTRIBUTES = ("heart", "golden-heart", "camera", "balloon", "mill")
MODULE1_CARDS = tuple(
    f"{kind}-{terrain}" for kind in ("large", "master", "many") for terrain in TERRITORY_TYPES
)

if TYPE_CHECKING:
    from companion.rules.rulings import RuleSet

_INT = re.compile(r"^-?\d+$")


@dataclass(frozen=True)
class TaskSpec:
    """The task of a task tile: its type, its marker value (None once gone) and the
    terrain names the marker counts (``()`` for wraparound, two names for a double)."""

    type: str
    value: int | None
    terrains: tuple[str, ...]

    def text(self) -> str:
        head = f"double:{'+'.join(self.terrains)}" if self.type == "double" else self.type
        return head if self.value is None else f"{head}/{self.value}"

    def __str__(self) -> str:
        return self.text()


@dataclass(frozen=True)
class Placement:
    """One placement line: the tile at ``at`` with its code as it lies, and attributes."""

    at: Hex
    code: str
    task: TaskSpec | None = None
    flag: str | None = None
    special: str | None = None
    heart: bool = False
    golden_heart: bool = False
    sheep: int = 0
    crossing: int = 0
    camera: bool = False
    balloon: bool = False
    mill: bool = False
    markers: tuple[int, ...] = ()
    split: str | None = None
    line: int | None = field(default=None, compare=False)

    def __repr__(self) -> str:
        return f"Placement.parse({format_placement(self)!r})"

    @staticmethod
    def parse(text: str, game: str = "duel") -> Placement:
        """Parse one placement line (no line number)."""
        return parse_placement(text, game)

    def moved(self, at: Hex, code: str | None = None) -> Placement:
        """The same placement at another hex (and, optionally, another code)."""
        return replace(self, at=at, code=self.code if code is None else code)

    @property
    def is_task(self) -> bool:
        return self.task is not None


@dataclass
class Section:
    """The placements of one landscape (the only one in the board game)."""

    player: str | None
    placements: list[Placement] = field(default_factory=list)
    line: int | None = field(default=None, compare=False)


@dataclass
class Record:
    """A whole game record."""

    game: str = "board-game"
    date: str | None = None
    players: list[str] = field(default_factory=list)
    unlocked: list[str] = field(default_factory=list)
    completed: list[TaskSpec] = field(default_factory=list)
    modules: list[int] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    rulings: list[str] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)
    header_lines: dict[str, int] = field(default_factory=dict, compare=False)

    @property
    def placements(self) -> list[Placement]:
        """The placements of the first (in the board game, only) section."""
        if not self.sections:
            self.sections.append(Section(None))
        return self.sections[0].placements

    @property
    def is_duel(self) -> bool:
        return self.game == "duel"

    @property
    def ruleset(self) -> RuleSet:
        from companion.rules.rulings import RuleSet

        return RuleSet.parse(self.rulings)


def _split_list(value: str) -> list[str]:
    return [v for v in re.split(r"[,\s]+", value.strip()) if v]


def parse_task(value: str, game: str) -> TaskSpec:
    """Parse the value of ``task=``: ``TYPE``, ``TYPE/N`` or ``double:A+B/N``."""
    head, slash, num = value.partition("/")
    number: int | None = None
    if slash:
        number = whole_number(num, 0, COUNT_LIMIT)
        if number is None:
            raise NotationError(Reason("task-value-not-number", {"task": value, "value": num}))
    if head.startswith("double:"):
        if game != "duel":
            raise NotationError(Reason("double-only-in-duel", {"task": value}))
        names = tuple(head[len("double:"):].split("+"))
        if len(names) != 2 or names[0] == names[1] or any(n not in TASK_TYPES for n in names):
            raise NotationError(Reason("double-needs-two-types", {"task": value}))
        return TaskSpec("double", number, names)
    allowed = DUEL_TASK_TYPES if game == "duel" else TASK_TYPES
    if head not in allowed or head == "double":
        raise NotationError(Reason("unknown-task-type", {"task": value, "type": head,
                                                         "known": list(allowed)}))
    if head == "wraparound":
        return TaskSpec("wraparound", number, ())
    return TaskSpec(head, number, (head,))


def _check_marker_value(spec: TaskSpec, game: str, where: str) -> None:
    if spec.value is None:
        return
    if game == "duel":
        ok = spec.value == 6 if spec.type == "double" else 3 <= spec.value <= 6
        boxes = "6" if spec.type == "double" else "3, 4, 5 or 6"
    else:
        ok = spec.value in (4, 5, 6) or (spec.value == 7 and spec.type in TERRITORY_TYPES)
        boxes = "4, 5, 6 or 7" if spec.type in TERRITORY_TYPES else "4, 5 or 6"
    if not ok:
        raise NotationError(Reason("no-such-marker", {
            "where": where, "task": spec.text(), "type": spec.type, "value": spec.value,
            "game": game, "boxes": boxes}))


def parse_placement(text: str, game: str, line: int | None = None) -> Placement:
    """Parse ``Q R CODE [ATTRIBUTE ...]`` (the line without comment)."""
    parts = text.split()
    if len(parts) < 3:
        raise NotationError(Reason("placement-form", {"text": text.strip()}))
    q, r, code = parts[0], parts[1], parts[2]
    at_q = whole_number(q, -COORDINATE_LIMIT, COORDINATE_LIMIT)
    at_r = whole_number(r, -COORDINATE_LIMIT, COORDINATE_LIMIT)
    if at_q is None or at_r is None:
        raise NotationError(Reason("position-not-numbers", {"q": q, "r": r,
                                                            "limit": COORDINATE_LIMIT}))
    check_code(code)
    seen: set[str] = set()
    values: dict[str, object] = {}
    for token in parts[3:]:
        key, eq, val = token.partition("=")
        if key in seen:
            raise NotationError(Reason("attribute-twice", {"key": key}))
        seen.add(key)
        if key in BARE_ATTRIBUTES:
            if eq:
                raise NotationError(Reason("attribute-takes-no-value", {"key": key}))
            values[key.replace("-", "_")] = True
            continue
        if key not in ATTRIBUTE_ORDER:
            raise NotationError(Reason("unknown-attribute", {"token": token,
                                                             "known": list(ATTRIBUTE_ORDER)}))
        if not eq or not val:
            raise NotationError(Reason("attribute-needs-value", {"key": key}))
        if key == "task":
            spec = parse_task(val, game)
            _check_marker_value(spec, game, "task=")
            for name in spec.terrains:
                if LETTER_OF[name] not in code:
                    raise NotationError(Reason("task-terrain-missing", {
                        "task": val, "code": code, "terrain": name}))
            values["task"] = spec
        elif key == "flag":
            if val not in FLAG_TYPES:
                raise NotationError(Reason("flag-type", {"flag": val}))
            if LETTER_OF[val] not in code:
                raise NotationError(Reason("flag-terrain-missing", {"flag": val, "code": code}))
            values["flag"] = val
        elif key == "special":
            if val not in SPECIAL_TILES:
                raise NotationError(Reason("unknown-special", {"special": val,
                                                                 "known": list(SPECIAL_TILES)}))
            values["special"] = val
        elif key in ("sheep", "crossing"):
            count = whole_number(val, 0, COUNT_LIMIT)
            if count is None or val[0] in "+-":
                raise NotationError(Reason("count-not-number", {"key": key, "value": val,
                                                                "limit": COUNT_LIMIT}))
            values[key] = count
        elif key == "markers":
            nums = val.split(",")
            laid = [whole_number(n, 0, COUNT_LIMIT) if n.isdigit() else None for n in nums]
            if None in laid:
                raise NotationError(Reason("markers-not-numbers", {"value": val}))
            values["markers"] = tuple(laid)
        elif key == "split":
            parse_split(val, code)
            values["split"] = val
    if values.get("mill") and "G" not in code:
        raise NotationError(Reason("mill-needs-grain", {"code": code}))
    if "markers" in values:
        kind = SECOND_TIME_SPECIALS.get(str(values.get("special")))
        if kind is None:
            raise NotationError(Reason("markers-need-special", {}))
        for value in values["markers"]:  # type: ignore[attr-defined]
            _check_marker_value(TaskSpec(kind, value, (kind,)), game, "markers=")
    return Placement(Hex(at_q, at_r), code, **values, line=line)  # type: ignore[arg-type]


def format_placement(p: Placement) -> str:
    """Write a placement line with attributes in the canonical order."""
    attrs: list[str | None] = [
        f"task={p.task.text()}" if p.task is not None else None,
        f"flag={p.flag}" if p.flag else None,
        f"special={p.special}" if p.special else None,
        "heart" if p.heart else None,
        "golden-heart" if p.golden_heart else None,
        f"sheep={p.sheep}" if p.sheep else None,
        f"crossing={p.crossing}" if p.crossing else None,
        "camera" if p.camera else None,
        "balloon" if p.balloon else None,
        "mill" if p.mill else None,
        "markers=" + ",".join(str(m) for m in p.markers) if p.markers else None,
        f"split={p.split}" if p.split else None,
    ]
    return " ".join([str(p.at.q), str(p.at.r), p.code, *(a for a in attrs if a)])


def _parse_header(record: Record, key: str, value: str) -> None:
    if key == "game":
        if value not in GAMES:
            raise NotationError(Reason("unknown-game", {"game": value}))
        record.game = value
    elif key == "date":
        record.date = value
    elif key == "players":
        record.players = [p.strip() for p in value.split(",") if p.strip()]
    elif key == "unlocked":
        record.unlocked = _split_list(value)
    elif key == "completed":
        specs = []
        for item in _split_list(value):
            spec = parse_task(item, record.game)
            if spec.value is None:
                raise NotationError(Reason("completed-needs-value", {"item": item}))
            _check_marker_value(spec, record.game, "completed: ")
            specs.append(spec)
        record.completed = specs
    elif key == "modules":
        mods = _split_list(value)
        if not all(m in ("1", "2") for m in mods):
            raise NotationError(Reason("unknown-modules", {"modules": value}))
        record.modules = sorted({int(m) for m in mods})
    elif key == "cards":
        cards = _split_list(value)
        for c in cards:
            if c not in MODULE1_CARDS:
                raise NotationError(Reason("unknown-card", {"card": c}))
        record.cards = cards
    elif key == "rulings":
        from companion.rules.rulings import RuleSet

        items = [v.strip() for v in value.split(",") if v.strip()]
        RuleSet.parse(items)
        record.rulings = items


def parse_record(text: str) -> Record:
    """Parse a whole record; raise ``NotationError`` naming the line on any fault.

    Only the notation is checked here (letters, attributes, headers, marker values);
    placement legality is the board's job (``companion.rules.game.replay``).
    """
    record = Record()
    section: Section | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        try:
            head = line.split(None, 1)[0]
            if head.endswith(":") or (":" in head and not _INT.match(head)):
                key, _, value = line.partition(":")
                key = key.strip().lower()
                value = value.strip()
                if key == "player":
                    if record.game != "duel":
                        raise NotationError(Reason("player-outside-duel", {}))
                    if not value:
                        raise NotationError(Reason("player-needs-name", {}))
                    if any(s.player == value for s in record.sections):
                        raise NotationError(Reason("player-twice", {"player": value}))
                    section = Section(value, [], number)
                    record.sections.append(section)
                    continue
                if key not in HEADERS:
                    raise NotationError(Reason("unknown-header", {"key": key,
                                                                  "known": list(HEADERS)}))
                if section is not None:
                    raise NotationError(Reason("header-after-placement", {"key": key}))
                if key in record.header_lines:
                    raise NotationError(Reason("header-twice", {"key": key}))
                record.header_lines[key] = number
                _parse_header(record, key, value)
                continue
            if section is None:
                if record.game == "duel":
                    raise NotationError(Reason("duel-needs-player", {}))
                section = Section(None, [], None)
                record.sections.append(section)
            section.placements.append(parse_placement(line, record.game, number))
        except NotationError as err:
            raise err.at_line(number) from None
    _check_record(record)
    return record


def _check_record(record: Record) -> None:
    if record.game == "board-game" and (record.modules or record.cards):
        line = record.header_lines.get("modules") or record.header_lines.get("cards")
        raise NotationError(Reason("modules-outside-duel", {}), line)
    if record.game == "duel" and record.cards and 1 not in record.modules:
        raise NotationError(Reason("cards-need-module1", {}), record.header_lines.get("cards"))
    if record.game == "duel" and not record.sections:
        raise NotationError(Reason("duel-needs-section", {}))
    for section in record.sections:
        for p in section.placements:
            if record.game == "board-game" and p.special in DUEL_SPECIALS:
                raise NotationError(Reason("duel-special-in-board-game", {
                    "special": p.special}), p.line)


def write_record(record: Record) -> str:
    """Write a record in the notation; the inverse of ``parse_record``."""
    out = [f"game: {record.game}"]
    if record.date:
        out.append(f"date: {record.date}")
    if record.players:
        out.append("players: " + ", ".join(record.players))
    if record.unlocked:
        out.append("unlocked: " + ", ".join(record.unlocked))
    if record.completed:
        out.append("completed: " + " ".join(t.text() for t in record.completed))
    if record.modules:
        out.append("modules: " + ", ".join(str(m) for m in record.modules))
    if record.cards:
        out.append("cards: " + ", ".join(record.cards))
    if record.rulings:
        out.append("rulings: " + ", ".join(record.rulings))
    for section in record.sections:
        if section.player is not None:
            out.append(f"player: {section.player}")
        out.extend(format_placement(p) for p in section.placements)
    return "\n".join(out) + "\n"


def terrain_name(letter: str) -> str:
    return TERRAINS[letter]


__all__ = [
    "Placement",
    "Record",
    "Section",
    "TaskSpec",
    "format_placement",
    "parse_placement",
    "parse_record",
    "parse_task",
    "write_record",
]
