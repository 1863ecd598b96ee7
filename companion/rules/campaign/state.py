"""The campaign of the board game: games, crosses, the advancement track, unlocks (rules.md §6).

Representation: a ``CampaignState`` is the campaign sheet after some events. It holds the
games (``GameResult``: score, title, crosses, and what its crosses bought), the progress of
every path of the track (``PathProgress``: circles crossed from the lower end ``low`` and
from the upper end ``high``; the crossed circles are always ``0..low-1`` and
``n-high..n-1``), the reached hexes in the order reached, the hearts, the ticked
achievements and a chronological log of unlock ids (``box1``, ``circus``, ``red-heart``,
``great-mill``...).

Ruling R-6 decides spending: a hex costs nothing and is reached when the last circle of a
path into it is crossed; a circle may be crossed only next to the start, a reached hex or a
crossed circle, so a path is crossed from a reached end, continuing the circles already
crossed from that end. A path between two reached hexes may be crossed from either end
(``from_hex``); by default from its lower hex. Several branches may be advanced. Only the
last recorded game's crosses can be spent; when the next game is recorded the unspent rest
is lost.

Checked entry points (``record_game``, ``spend``, ``achieve``) raise ``CampaignError`` with
a one-line reason and change nothing when they refuse; each successful call can be taken
back with ``undo()``. ``legal_spends()`` lists the circles that can be crossed now.

>>> state = CampaignState()
>>> _ = state.record_game(140)
>>> state.spend("start-box1", 2)
['box1']
>>> state.spend("box1-box2", 2)
[]
>>> state.crosses_available, state.reached
(0, ['box1'])
>>> state.undo(); state.crosses_available
2
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from companion.rules.campaign.record import (
    AchievedEvent,
    CampaignRecord,
    Event,
    GameEvent,
    SpendEvent,
    SpendItem,
    parse_campaign,
    write_campaign,
)
from companion.rules.campaign.titles import title_for
from companion.rules.campaign.track import HEX_BY_ID, PATH_BY_ID, PATHS, START, TrackPath
from companion.rules.campaign.unlocks import (
    RED_HEART,
    Content,
    Effects,
    live_effects,
    load_content,
)
from companion.rules.errors import CampaignError
from companion.rules.reasons import Reason
from companion.rules.rulings import N_


@dataclass
class PathProgress:
    """Circles crossed on one path from its lower end and from its upper end."""

    low: int = 0
    high: int = 0

    @property
    def crossed(self) -> int:
        return self.low + self.high


class Crossing(NamedTuple):
    """A legal next step: cross circle ``circle`` (index from the lower hex) of ``path``,
    proceeding from ``from_hex``."""

    path: str
    from_hex: str
    circle: int


@dataclass
class GameResult:
    """One recorded game and what its crosses bought."""

    number: int
    score: int
    title: str
    crosses: int
    line: int | None = None
    spent: int = 0
    spends: list[SpendItem] = field(default_factory=list)
    reached: list[str] = field(default_factory=list)
    hearts: int = 0
    achieved: list[str] = field(default_factory=list)
    unlocked: list[str] = field(default_factory=list)

    @property
    def unspent(self) -> int:
        return self.crosses - self.spent


_Call = tuple[str, tuple[Any, ...]]
"""A successful checked call: the method's name and its arguments (the undo journal)."""


def _suggest(word: str, choices: list[str]) -> str:
    """The closest of ``choices`` to a mistyped ``word`` ("" when none is close): the
    reason's ``suggest`` parameter, worded by its renderer ("did you mean ...?")."""
    close = difflib.get_close_matches(word, choices, n=1)
    return close[0] if close else ""


class CampaignState:
    """The campaign sheet; mutate it only through the checked entry points."""

    def __init__(
        self, name: str | None = None, players: list[str] | None = None,
        content: Content | None = None,
    ) -> None:
        self.name = name
        self.players: list[str] = list(players or [])
        self.content = content if content is not None else load_content()
        self.games: list[GameResult] = []
        self.progress: dict[str, PathProgress] = {p.id: PathProgress() for p in PATHS}
        self.reached: list[str] = []
        self.hearts = 0
        self.achieved: list[str] = []
        self.unlock_log: list[str] = []
        self.warnings: list[Reason] = []
        self.events: list[Event] = []
        self._calls: list[_Call] = []

    # ----- undo: a journal of the successful calls ------------------------------
    # Each checked entry point appends one ``_Call``; undo replays the journal but its
    # last entry on a fresh sheet. Recording stays O(1) per event (a campaign of 20,000
    # games replays in linear time); only undo and copy pay O(events), when asked.

    def _rebuilt(self, calls: list[_Call]) -> CampaignState:
        other = CampaignState(self.name, self.players, self.content)
        for method, args in calls:
            getattr(other, method)(*args)
        return other

    def undo(self) -> None:
        """Take back the last successful ``record_game``, ``spend`` or ``achieve``."""
        if not self._calls:
            raise CampaignError(Reason("nothing-to-undo", {}))
        self.__dict__.update(self._rebuilt(self._calls[:-1]).__dict__)

    @property
    def can_undo(self) -> bool:
        return bool(self._calls)

    def copy(self) -> CampaignState:
        other = self._rebuilt(self._calls)
        other.events = list(self.events)
        return other

    # ----- derived numbers ----------------------------------------------------------

    @property
    def crosses_earned(self) -> int:
        return sum(g.crosses for g in self.games)

    @property
    def crosses_spent(self) -> int:
        return sum(g.spent for g in self.games)

    @property
    def crosses_lost(self) -> int:
        return sum(g.unspent for g in self.games[:-1])

    @property
    def crosses_available(self) -> int:
        return self.games[-1].unspent if self.games else 0

    def is_reached(self, hex_id: str) -> bool:
        return hex_id == START or hex_id in self.reached

    def crossed_circles(self, path_id: str) -> list[int]:
        """Indices (from the lower hex) of the crossed circles of a path."""
        path = PATH_BY_ID[path_id]
        prog = self.progress[path_id]
        return list(range(prog.low)) + list(range(path.circles - prog.high, path.circles))

    def heart_crossed(self, path_id: str) -> bool | None:
        """Whether the heart circle of a path is crossed (None: the path has none)."""
        heart = PATH_BY_ID[path_id].heart
        return None if heart is None else heart in self.crossed_circles(path_id)

    def unlocked(self) -> list[str]:
        """What the track gave (the JSON key ``unlocked`` of notation.md §4): boxes opened,
        then the achievement cards of the reached hexes (in the order reached), then
        ``red-heart`` once per heart. Ticked achievements (``achieved:``) are listed apart
        in ``achieved`` (the notation's own example lists ``great-mill`` there, not here);
        both count for ``live()`` and ``unlocked_header``."""
        boxes = [u for u in self.unlock_log if u in self.content.boxes]
        hearts = [u for u in self.unlock_log if u == RED_HEART]
        cards = [
            u for u in self.unlock_log
            if u not in self.content.boxes and u != RED_HEART and u not in self.achieved
        ]
        return boxes + cards + hearts

    def live(self) -> Effects:
        """What the next game plays with: score rows, special tiles, tiles, markers, pieces."""
        return live_effects(self.unlock_log, self.content)

    # ----- checked entry points -----------------------------------------------------

    def record_game(self, score: int, line: int | None = None) -> GameResult:
        """Record a finished game's total; the previous game's unspent crosses are lost."""
        title = title_for(score)
        self._calls.append(("record_game", (score, line)))
        game = GameResult(len(self.games) + 1, score, title.name, title.crosses, line)
        self.games.append(game)
        self.events.append(GameEvent(score, line))
        return game

    def _end_for(self, path: TrackPath, from_hex: str | None) -> str:
        if from_hex is not None:
            if from_hex not in HEX_BY_ID:
                raise CampaignError(Reason("unknown-hex", {
                    "hex": from_hex, "suggest": _suggest(from_hex, list(HEX_BY_ID))}))
            if from_hex not in path.ends:
                raise CampaignError(Reason("not-an-end", {"hex": from_hex, "path": path.id,
                                                          "low": path.low, "high": path.high}))
            if not self.is_reached(from_hex):
                raise CampaignError(Reason("end-not-reached", {"path": path.id, "hex": from_hex}))
            return from_hex
        for end in path.ends:
            if self.is_reached(end):
                return end
        raise CampaignError(Reason("path-not-reachable", {"path": path.id, "low": path.low,
                                                          "high": path.high}))

    def _check_spend(self, path_id: str, count: int, from_hex: str | None) -> tuple[TrackPath, str]:
        if not self.games:
            raise CampaignError(Reason("no-game-yet", {}))
        if count < 1:
            raise CampaignError(Reason("cross-at-least-one", {"count": count}))
        path = PATH_BY_ID.get(path_id)
        if path is None:
            raise CampaignError(Reason("unknown-path", {
                "path": path_id, "suggest": _suggest(path_id, list(PATH_BY_ID))}))
        prog = self.progress[path_id]
        left = path.circles - prog.crossed
        if left == 0:
            raise CampaignError(Reason("path-full", {"path": path_id, "circles": path.circles}))
        end = self._end_for(path, from_hex)
        if count > left:
            raise CampaignError(Reason("path-too-short", {"path": path_id, "left": left,
                                                          "count": count}))
        if count > self.crosses_available:
            last = self.games[-1]
            raise CampaignError(Reason("not-enough-crosses", {
                "count": count, "available": self.crosses_available, "game": last.number,
                "earned": last.crosses, "spent": last.spent}))
        return path, end

    def spend(self, path_id: str, count: int = 1, from_hex: str | None = None,
              line: int | None = None) -> list[str]:
        """Cross ``count`` circles of a path from ``from_hex`` (default: its lower hex if
        reached, else its upper hex); return the unlock ids this gained, in order."""
        path, end = self._check_spend(path_id, count, from_hex)
        default = self._default_end(path)
        self._calls.append(("spend", (path_id, count, from_hex, line)))
        prog = self.progress[path_id]
        game = self.games[-1]
        gained: list[str] = []
        for _ in range(count):
            if end == path.low:
                circle = prog.low
                prog.low += 1
            else:
                circle = path.circles - 1 - prog.high
                prog.high += 1
            if circle == path.heart:
                self.hearts += 1
                game.hearts += 1
                gained.append(RED_HEART)
        if prog.crossed == path.circles:
            for hex_id in path.ends:
                if not self.is_reached(hex_id):
                    self.reached.append(hex_id)
                    game.reached.append(hex_id)
                    gained.append(hex_id)
        game.spent += count
        explicit = end if end != default else None
        item = SpendItem(path_id, count, explicit)
        game.spends.append(SpendItem(path_id, count, end))
        game.unlocked.extend(gained)
        self.unlock_log.extend(gained)
        last = self.events[-1] if self.events else None
        if isinstance(last, SpendEvent) and last.line is None and line is None:
            self.events[-1] = SpendEvent(last.items + (item,))
        else:
            self.events.append(SpendEvent((item,), line))
        return gained

    def _default_end(self, path: TrackPath) -> str | None:
        for end in path.ends:
            if self.is_reached(end):
                return end
        return None

    def achieve(self, achievement_id: str, line: int | None = None) -> None:
        """Tick an achievement met during play (``achieved: ID``)."""
        if not self.games:
            raise CampaignError(Reason("achieved-before-game", {}))
        ach = self.content.achievements.get(achievement_id)
        if ach is None:
            choices = [a for a, v in self.content.achievements.items() if v.source != "track"]
            raise CampaignError(Reason("unknown-achievement", {
                "id": achievement_id, "suggest": _suggest(achievement_id, choices)}))
        if ach.source == "track":
            raise CampaignError(Reason("achievement-on-track", {"id": achievement_id}))
        if achievement_id in self.achieved:
            raise CampaignError(Reason("already-achieved", {"id": achievement_id}))
        self._calls.append(("achieve", (achievement_id, line)))
        box_id = f"box{ach.box}" if ach.box is not None else None
        if box_id in self.content.boxes and box_id not in self.reached:
            self.warnings.append(Reason("achievement-box-closed", {
                "line": line, "id": achievement_id, "box": box_id}))
        self.achieved.append(achievement_id)
        self.games[-1].achieved.append(achievement_id)
        self.games[-1].unlocked.append(achievement_id)
        self.unlock_log.append(achievement_id)
        last = self.events[-1] if self.events else None
        if isinstance(last, AchievedEvent) and last.line is None and line is None:
            self.events[-1] = AchievedEvent(last.ids + (achievement_id,))
        else:
            self.events.append(AchievedEvent((achievement_id,), line))

    # ----- what can be done next ----------------------------------------------------

    def crossable(self) -> list[Crossing]:
        """Every circle that could be crossed now if a cross were available, in track
        order; a path between two reached hexes is offered from both ends (once when a
        single circle is left)."""
        out: list[Crossing] = []
        for path in PATHS:
            prog = self.progress[path.id]
            left = path.circles - prog.crossed
            if left == 0:
                continue
            for end in path.ends:
                if not self.is_reached(end):
                    continue
                circle = prog.low if end == path.low else path.circles - 1 - prog.high
                if left == 1 and any(c.path == path.id for c in out):
                    continue
                out.append(Crossing(path.id, end, circle))
        return out

    def legal_spends(self) -> list[Crossing]:
        """The circles that may be crossed now (empty when no cross is available)."""
        return self.crossable() if self.crosses_available > 0 else []

    # ----- output -------------------------------------------------------------------

    def record(self) -> CampaignRecord:
        return CampaignRecord(self.name, list(self.players), list(self.events))

    def record_text(self) -> str:
        """The campaign record (notation.md §4) that replays to this state."""
        return write_campaign(self.record())

    def to_json(self) -> dict[str, Any]:
        """The campaign sheet as JSON (notation.md §4 keys first, then extras)."""
        live = self.live()
        return {
            "games": [{"score": g.score, "title": g.title, "crosses": g.crosses}
                      for g in self.games],
            "crosses_earned": self.crosses_earned,
            "crosses_spent": self.crosses_spent,
            "crosses_lost": self.crosses_lost,
            "crosses_available": self.crosses_available,
            "reached": list(self.reached),
            "hearts": self.hearts,
            "unlocked": self.unlocked(),
            "campaign": self.name,
            "players": list(self.players),
            "unlocked_header": unlocked_header(self),
            "live": live.to_dict(),
            "achieved": list(self.achieved),
            "history": [_game_json(g, i == len(self.games) - 1)
                        for i, g in enumerate(self.games)],
            "paths": {p.id: self._path_json(p) for p in PATHS},
            "legal": [c._asdict() for c in self.legal_spends()],
            "warnings": [str(w) for w in self.warnings],
            "warning_codes": [w.to_json() for w in self.warnings],
        }

    def _path_json(self, path: TrackPath) -> dict[str, Any]:
        prog = self.progress[path.id]
        return {
            "from": path.low,
            "to": path.high,
            "circles": path.circles,
            "crossed": prog.crossed,
            "from_low": prog.low,
            "from_high": prog.high,
            "heart": path.heart,
            "heart_crossed": self.heart_crossed(path.id),
        }


def _game_json(g: GameResult, is_last: bool) -> dict[str, Any]:
    return {
        "number": g.number,
        "score": g.score,
        "title": g.title,
        "crosses": g.crosses,
        "spent": g.spent,
        "lost": 0 if is_last else g.unspent,
        "spends": [{"path": s.path, "count": s.count, "from": s.from_hex} for s in g.spends],
        "reached": list(g.reached),
        "hearts": g.hearts,
        "achieved": list(g.achieved),
        "unlocked": list(g.unlocked),
    }


def unlocked_header(state: CampaignState) -> str:
    """The value of the ``unlocked:`` header of the next game record: the boxes opened
    (they change the tile and marker pools the game record is checked against), then the
    live score-row ids (rules.md §5) in the order they were unlocked, e.g.
    ``box1, circus, red-hearts``."""
    boxes = [u for u in state.unlocked() if u in state.content.boxes]
    return ", ".join([*dict.fromkeys(boxes), *state.live().score_rows])


def legal_spends(state: CampaignState) -> list[Crossing]:
    """The circles the players may cross now: ``(path, from_hex, circle)`` tuples."""
    return state.legal_spends()


class Reminder(NamedTuple):
    """One thing to put out at the next game's setup: a stable ``code``, the English
    ``label`` (marked for translation) and the ``value``; ``str()`` is ``"label: value"``."""

    code: str
    label: str
    value: str

    def __str__(self) -> str:
        return f"{self.label}: {self.value}"


def reminder_items(state: CampaignState) -> list[Reminder]:
    """What to put out at the next game's setup (rules.md §6, last point), in order."""
    live = state.live()
    out: list[Reminder] = []
    if live.score_rows:
        out.append(Reminder("score-rows", N_("Score rows in play"), ", ".join(live.score_rows)))
    if live.special_tiles:
        out.append(Reminder("special-tiles", N_("Special tiles"),
                            ", ".join(live.special_tiles)))
    if live.tiles:
        out.append(Reminder("tiles", N_("Add the tiles of"), ", ".join(live.tiles)))
    pool = [
        f"{kind} {','.join(str(n) for n in nums)}" for kind, nums in live.markers.items()
        if list(nums) != list(state.content.base_markers.get(kind, ()))
    ]
    if pool:
        out.append(Reminder("markers", N_("Task markers (changed pools)"), "; ".join(pool)))
    if state.hearts:
        out.append(Reminder("hearts", N_("Red hearts"), str(state.hearts)))
    others = [p for p in live.pieces if p != "red heart"]
    if others:
        out.append(Reminder("pieces", N_("Pieces"), ", ".join(others)))
    cards = [state.content.name_of(u) for u in state.unlock_log
             if u in state.content.achievements]
    if cards:
        out.append(Reminder("achievement-cards", N_("Achievement cards to lay out"),
                            ", ".join(cards)))
    return out


def setup_reminders(state: CampaignState) -> list[str]:
    """The setup reminders as lines ``"label: value"`` (``reminder_items``)."""
    return [str(r) for r in reminder_items(state)]


def replay(record: CampaignRecord, content: Content | None = None) -> CampaignState:
    """Replay a parsed campaign record; refusals name the record line."""
    state = CampaignState(record.name, record.players, content)
    for event in record.events:
        try:
            if isinstance(event, GameEvent):
                state.record_game(event.score, event.line)
            elif isinstance(event, SpendEvent):
                for item in event.items:
                    state.spend(item.path, item.count, item.from_hex, event.line)
            else:
                for aid in event.ids:
                    state.achieve(aid, event.line)
        except CampaignError as err:
            if event.line is not None:
                err.at_line(event.line)
            raise
    state.events = list(record.events)  # the record's own lines, as written
    return state


def load_campaign(text: str, content: Content | None = None) -> CampaignState:
    """Parse and replay a campaign record text."""
    return replay(parse_campaign(text), content)


__all__ = [
    "CampaignState",
    "Crossing",
    "GameResult",
    "PathProgress",
    "Reminder",
    "legal_spends",
    "load_campaign",
    "reminder_items",
    "replay",
    "setup_reminders",
    "unlocked_header",
]
