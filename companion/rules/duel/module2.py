"""Module 2 of the Duel: points of interest (rules.md section 7).

Representation: ``module2_scores(record, boards)`` returns one ``PointsOfInterest``
per player: the choice points (the turns of the player's 4th, 7th and 10th
completed task), the points of interest the record shows (inferred: a School /
Granary / Old Oak tile, a Photographer tile, any ``camera``, any ``heart``; the record
does not name the choice), the explanations ``module2.points_of_interest`` (the
special tile), ``module2.photographer``, ``module2.hearts``, ``module2.total``, and
warnings.

School / Granary / Old Oak and the Photographer are special tiles placed as an extra
tile of their turn. Each player takes one of the first three; once only one player
has taken a type, a later choice of it by the other player is warned about
(``exclusive_warnings``). The photographer figure starts on its tile; a camera goes on
a tile placed next to the photographer's tile, which then moves there: a camera
elsewhere (or before any Photographer tile) is warned about, naming the line, and
more than the 18 cameras of the box in both landscapes together too
(``camera_warnings``). An end-of-game entry (``completed:`` header) has no placement
order: its cameras are only counted.

Hearts allowed: 3 for the first player to choose them, 2 for a later chooser, 3
each when chosen in the same turn. The choice turn of hearts is inferred as the
last choice point before the first heart (hearts go on the tiles of the turns
after the choice). A record holding more hearts than allowed is warned about
and its hearts are all scored (the record is what lies on the table).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from companion.rules.board import COMPLETED, Board, Marker
from companion.rules.explain import Explanation, total_of
from companion.rules.game import Warning
from companion.rules.hexgrid import Hex, distance, within
from companion.rules.landscape import Landscape, matching_edges
from companion.rules.notation import DUEL_SPECIALS, Placement, Record
from companion.rules.reasons import Reason
from companion.rules.territories import BoardTerritories

CHOICE_AT = (4, 7, 10)
PHOTOGRAPHER = "photographer"
CAMERAS = 18
SPECIAL_TERRAIN = {"school": "village", "granary": "grain", "old-oak": "forest"}
SPECIAL_LETTER = {"school": "V", "granary": "G", "old-oak": "F"}
SPECIAL_REACH = 2
HEARTS_FIRST, HEARTS_LATER = 3, 2


@dataclass(frozen=True)
class ChoicePoint:
    nth: int
    turn: int | None
    marker: Marker | None

    def params(self) -> dict[str, object]:
        """The choice point as a reason parameter (rendered by ``reasons``)."""
        m = self.marker
        return {"nth": self.nth, "turn": self.turn,
                "task": m.task.text() if m is not None else None,
                "at": m.at if m is not None else None}


@dataclass
class PointsOfInterest:
    """One player's Module 2: choice points, inferred choices, fields, warnings."""

    choices: list[ChoicePoint]
    chosen: dict[str, int | None] = field(default_factory=dict)
    fields: dict[str, Explanation] = field(default_factory=dict)
    warnings: list[Warning] = field(default_factory=list)
    hearts_turn: int | None = None
    hearts: list[Placement] = field(default_factory=list)
    special_tiles: list[tuple[Placement, int]] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "chosen": [{"name": k, "turn": t} for k, t in self.chosen.items()],
            "choice_turns": [c.turn for c in self.choices],
        }
        for path, e in self.fields.items():
            out[path.removeprefix("module2.")] = e.value
        return out


def choice_points(board: Board, header_completed: int = 0) -> list[ChoicePoint]:
    """The 4th, 7th and 10th completed task, in the order the markers completed
    (``header_completed`` markers from a ``completed:`` header come last, turn unknown)."""
    logged = sorted((m for m in board.markers if m.state == COMPLETED),
                    key=lambda m: (m.turn or 0, m.index))
    done: list[Marker | None] = [*logged, *[None] * header_completed]
    return [ChoicePoint(n, m.turn if m else None, m) for n in CHOICE_AT if n <= len(done)
            for m in [done[n - 1]]]


def turn_of(board: Board) -> dict[Hex, int]:
    return {p.at: t for p, t in zip(board.history, board.turns, strict=True)}


def special_score(land: Landscape, p: Placement) -> Explanation:
    """1 per tile showing the special's terrain on any edge within distance 2."""
    assert p.special is not None
    kind, letter = SPECIAL_TERRAIN[p.special], SPECIAL_LETTER[p.special]
    near = [h for h in within(p.at, SPECIAL_REACH)
            if h in land.tiles and letter in land.tiles[h].code]
    why = Reason("special-near", {"special": p.special, "at": p.at, "count": len(near),
                                  "kind": kind, "reach": SPECIAL_REACH})
    return Explanation.of(len(near), why, [p.at, *near])


def _infer(board: Board, choices: list[ChoicePoint], who: str,
           ordered: bool = True) -> PointsOfInterest:
    """Which points of interest the record shows, and at which choice point
    (``ordered``: the record is a log, so cameras can be checked against the
    photographer's moves)."""
    poi = PointsOfInterest(choices)
    turns = turn_of(board)
    free = [c for c in choices if c.turn is not None]
    listed = [c.params() for c in choices]
    photographer: Hex | None = None
    for p in board.history:
        if p.camera and ordered:
            _check_camera(poi, p, photographer, turns[p.at], who)
            photographer = p.at if photographer is not None else None
        if p.special not in DUEL_SPECIALS:
            continue
        turn = turns[p.at]
        match = next((c for c in free if c.turn == turn), None)
        if match is None:
            poi.warnings.append(Warning(p.line, turn, Reason("special-off-choice", {
                "who": who, "special": p.special, "turn": turn, "choices": listed})))
        else:
            free.remove(match)
        if p.special == PHOTOGRAPHER:
            if PHOTOGRAPHER in poi.chosen:
                poi.warnings.append(Warning(p.line, turn, Reason("point-chosen-twice", {
                    "who": who, "name": PHOTOGRAPHER})))
            poi.chosen.setdefault(PHOTOGRAPHER, turn)
            photographer = p.at
            continue
        if set(poi.chosen) & set(SPECIAL_TERRAIN):
            poi.warnings.append(Warning(p.line, turn, Reason("second-special", {
                "who": who, "special": p.special})))
        poi.chosen.setdefault(p.special, turn)
        poi.special_tiles.append((p, turn))
    poi.hearts = [p for p in board.history if p.heart]
    if poi.hearts:
        first = min(turns[p.at] for p in poi.hearts)
        before = [c for c in free if c.turn is not None and c.turn < first]
        if before:
            free.remove(before[-1])
            poi.hearts_turn = before[-1].turn
        else:
            poi.warnings.append(Warning(poi.hearts[0].line, first, Reason(
                "heart-without-choice", {"who": who, "turn": first})))
        poi.chosen["hearts"] = poi.hearts_turn
    if any(p.camera for p in board.history) and PHOTOGRAPHER not in poi.chosen:
        poi.chosen[PHOTOGRAPHER] = free[0].turn if free else None
    if len(poi.chosen) > len(choices):
        poi.warnings.append(Warning(None, None, Reason("too-many-points", {
            "who": who, "count": len(poi.chosen), "names": list(poi.chosen),
            "reached": len(choices), "choices": listed})))
    return poi


def _check_camera(poi: PointsOfInterest, p: Placement, photographer: Hex | None, turn: int,
                  who: str) -> None:
    """Warn when the camera's tile was not next to the photographer's when placed."""
    if photographer is None:
        poi.warnings.append(Warning(p.line, turn, Reason("camera-without-photographer", {
            "who": who, "at": p.at})))
    elif distance(photographer, p.at) != 1:
        poi.warnings.append(Warning(p.line, turn, Reason("camera-not-next-to-photographer", {
            "who": who, "at": p.at, "turn": turn, "photographer": photographer})))


def exclusive_warnings(out: Mapping[str, PointsOfInterest]) -> None:
    """School / Granary / Old Oak: once only one player has taken a type, the others'
    copies go back to the box; a later choice of that type by another player is
    warned about (the same turn: both may take it)."""
    for who, poi in out.items():
        for p, turn in poi.special_tiles:
            for other, theirs in out.items():
                taken = theirs.chosen.get(str(p.special))
                if other != who and taken is not None and taken < turn:
                    poi.warnings.append(Warning(p.line, turn, Reason("special-taken-by-other", {
                        "who": who, "special": p.special, "other": other,
                        "other_turn": taken})))
                    break


def camera_warnings(boards: Mapping[str, Board]) -> list[Warning]:
    """The camera markers both players hold, against the box (shared by both)."""
    count = sum(1 for b in boards.values() for p in b.tiles.values() if p.camera)
    if count > CAMERAS:
        return [Warning(None, None, Reason("cameras-exceeded", {"count": count,
                                                                 "have": CAMERAS}))]
    return []


def _hearts_field(land: Landscape, turns: Mapping[Hex, int], poi: PointsOfInterest,
                  allowed: int | None, who: str) -> Explanation:
    items = []
    for p in poi.hearts:
        n, edges = matching_edges(land, p)
        items.append(Explanation.of(n, Reason("heart-edges", {
            "at": p.at, "turn": turns[p.at], "count": n, "edges": edges}), [p.at],
            [turns[p.at]]))
    if not items:
        return Explanation.of(0, Reason("hearts-none", {}))
    if allowed is not None and len(items) > allowed:
        extra = poi.hearts[allowed]
        poi.warnings.append(Warning(extra.line, turns[extra.at], Reason("too-many-hearts", {
            "who": who, "count": len(items), "allowed": allowed, "first": HEARTS_FIRST,
            "later": HEARTS_LATER})))
    return total_of(items, Reason("hearts-row", {"turn": poi.hearts_turn, "allowed": allowed}))


def hearts_allowed(keys: Mapping[str, int | None]) -> dict[str, int]:
    """3 for the earliest chooser(s) (same turn: 3 each), 2 for later ones."""
    known = [k for k in keys.values() if k is not None]
    first = min(known) if known else None
    return {p: HEARTS_FIRST if k is None or k == first else HEARTS_LATER
            for p, k in keys.items()}


def module2_scores(record: Record, boards: Mapping[str, Board]) -> dict[str, PointsOfInterest]:
    """Module 2 for every player (zeros with a note when the module is not in play)."""
    out: dict[str, PointsOfInterest] = {}
    first_section = record.sections[0].player if record.sections else None
    for who, board in boards.items():
        extra = len(record.completed) if who == first_section else 0
        out[who] = _infer(board, choice_points(board, extra), who, not record.completed)
    if 2 not in record.modules:
        for who, poi in out.items():
            if poi.chosen:
                poi.warnings = [Warning(None, None, Reason("module2-not-in-play", {
                    "who": who, "names": list(poi.chosen)}))]
            poi.fields = {"module2.total": Explanation.of(0, Reason("duel-sum", {
                "row": "module2-off"}))}
        return out
    heart_keys = {w: (p.hearts_turn if p.hearts_turn is not None
                      else min(turn_of(boards[w])[h.at] for h in p.hearts) - 1)
                  for w, p in out.items() if p.hearts}
    allowed = hearts_allowed(heart_keys)
    exclusive_warnings(out)
    for who, poi in out.items():
        board = boards[who]
        land = Landscape(board.tiles, BoardTerritories(board), [])
        poi.fields = _fields(land, turn_of(board), poi, allowed.get(who), who)
    return out


def _fields(land: Landscape, turns: Mapping[Hex, int], poi: PointsOfInterest,
            allowed: int | None, who: str) -> dict[str, Explanation]:
    specials = [p for p in land.tiles.values() if p.special in SPECIAL_TERRAIN]
    items = [special_score(land, p) for p in specials]
    fields = {
        "module2.points_of_interest": total_of(
            items, Reason("special-row" if items else "special-none", {"reach": SPECIAL_REACH})),
    }
    cameras = [h for h, p in land.tiles.items() if p.camera]
    fields["module2.photographer"] = Explanation.of(len(cameras), Reason("photographer-row", {
        "cameras": len(cameras), "turn": poi.chosen.get(PHOTOGRAPHER)}), cameras)
    fields["module2.hearts"] = _hearts_field(land, turns, poi, allowed, who)
    fields["module2.total"] = total_of(list(fields.values()), Reason("module2-row", {
        "choices": [c.params() for c in poi.choices],
        "chosen": list(poi.chosen.items())}), shallow=True)
    return fields
