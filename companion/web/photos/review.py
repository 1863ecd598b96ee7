"""The review draft of a photographed table: what was read, what the players fixed.

Representation: a ``Review`` holds ``tiles`` ({Hex: ReviewTile}, in scanning order,
tiles added by hand last), the ``photos`` it was read from (ids, first photo first)
and ``notes`` (sentences about merges and photos the scanner fitted poorly). A
``ReviewTile`` is the tile's ``code`` as it lies, six ``confidence`` values (0..1; 1
once a person set the tile: ``edited``), the notation ``attributes``
(``{"task": "grain/4", "flag": "forest", "heart": True}``), ``seen`` ({photo id:
(x, y)}: its centre in the stored pixels of each photo showing it) and ``alt``: a
differing reading from another photo. Hexes are in the frame of the first photo
(``merge_scan`` aligns later photos onto it with ``merge_maps``).

``Review.to_json()`` / ``Review.from_json()`` round-trip through the database. Every
change returns a new ``Review``; nothing here touches storage or Flask.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from flask_babel import gettext as _

from companion.rules import (
    DIRECTIONS,
    Board,
    Hex,
    IllegalPlacementError,
    NotationError,
    Placement,
    Reason,
    RulesError,
    Section,
    check_code,
    connected_order,
    edges_can_meet,
    merge_maps,
    opposite,
    parse_placement,
    parse_record,
    replay,
    rotate,
)
from companion.rules import write_record as write_notation
from companion.web.play.tiles import choices
from companion.web.reasons import say, say_error

DOUBT = 0.6
"""For a draft saved before the scanner named its doubtful edges: an edge read with less
confidence than this is highlighted as doubtful."""


class ReviewError(ValueError):
    """A change the review refuses; ``str(err)`` is one sentence for the player."""


@dataclass(frozen=True)
class ReviewTile:
    at: Hex
    code: str
    confidence: tuple[float, ...] = (1.0,) * 6
    attributes: dict[str, Any] = field(default_factory=dict)
    seen: dict[int, tuple[float, float]] = field(default_factory=dict)
    edited: bool = False
    alt: str | None = None
    marked: tuple[int, ...] | None = None
    """The edges the scanner marked doubtful (``scan --json``'s ``doubtful``, calibrated to
    hold the wrong edges); None in drafts saved before it said so."""
    flag_doubt: bool = False
    """The scanner was unsure of the flag (``scan --json``'s ``flag_doubtful``): a faint
    flag, or one seen on a tile whose code lacks its terrain (then none is set)."""

    def flag_doubtful(self) -> bool:
        """The review highlights the tile's flag (not once a person set the tile)."""
        return self.flag_doubt and not self.edited

    def doubtful(self) -> list[int]:
        """The edges the review highlights: the scanner's doubtful ones (none once a person
        set the tile)."""
        if self.edited:
            return []
        if self.marked is not None:
            return sorted(self.marked)
        return [e for e in range(6) if self.confidence[e] < DOUBT]

    def line(self) -> str:
        """The tile's placement line (``Q R CODE ATTRIBUTES``)."""
        parts = [str(self.at.q), str(self.at.r), self.code]
        for key, value in self.attributes.items():
            if value is True:
                parts.append(key)
            elif value not in (None, False, ""):
                parts.append(f"{key}={value}")
        return " ".join(parts)

    @property
    def task(self) -> tuple[str, str]:
        """(type, marker value or "") of the ``task`` attribute."""
        kind, _sep, value = str(self.attributes.get("task", "")).partition("/")
        return kind, value


@dataclass(frozen=True)
class Review:
    tiles: dict[Hex, ReviewTile]
    photos: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()
    player: str | None = None
    """In a Duel, the player whose landscape the photos show (None: the board game)."""

    # ------------------------------------------------------------ storage form
    def to_json(self) -> dict[str, Any]:
        return {
            "photos": list(self.photos),
            "notes": list(self.notes),
            "player": self.player,
            "tiles": [
                {"at": [t.at.q, t.at.r], "code": t.code, "confidence": list(t.confidence),
                 "attributes": t.attributes, "edited": t.edited, "alt": t.alt,
                 "doubtful": None if t.marked is None else list(t.marked),
                 "flag_doubtful": t.flag_doubt,
                 "seen": {str(k): [v[0], v[1]] for k, v in t.seen.items()}}
                for t in self.tiles.values()
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Review:
        tiles: dict[Hex, ReviewTile] = {}
        for t in data.get("tiles", []):
            at = Hex(int(t["at"][0]), int(t["at"][1]))
            tiles[at] = ReviewTile(
                at, str(t["code"]), tuple(float(c) for c in t["confidence"]),
                dict(t.get("attributes") or {}),
                {int(k): (float(v[0]), float(v[1])) for k, v in (t.get("seen") or {}).items()},
                bool(t.get("edited")), t.get("alt"), _marked(t),
                bool(t.get("flag_doubtful")))
        player = data.get("player")
        return cls(tiles, tuple(int(p) for p in data.get("photos", [])),
                   tuple(str(n) for n in data.get("notes", [])),
                   str(player) if player is not None else None)

    # ---------------------------------------------------------------- queries
    def codes(self) -> dict[Hex, str]:
        return {h: t.code for h, t in self.tiles.items()}

    def frontier(self) -> list[Hex]:
        """Free hexes next to the read tiles (where a missed tile may be added)."""
        out: dict[Hex, None] = {}
        for h in self.tiles:
            for n in h.neighbors():
                if n not in self.tiles:
                    out.setdefault(n)
        return list(out)

    def mismatches(self) -> dict[Hex, list[int]]:
        """Edges where a track or stream meets another terrain on a neighbouring tile."""
        out: dict[Hex, list[int]] = {}
        for h, t in self.tiles.items():
            for e, (dq, dr) in enumerate(DIRECTIONS):
                other = self.tiles.get(Hex(h.q + dq, h.r + dr))
                if other is None:
                    continue
                if not edges_can_meet(t.code[e], other.code[opposite(e)]):
                    out.setdefault(h, []).append(e)
        return out

    def facing(self, at: Hex) -> list[str | None]:
        """For each edge of ``at``, the letter the neighbour across it shows (or None)."""
        out: list[str | None] = []
        for e, (dq, dr) in enumerate(DIRECTIONS):
            other = self.tiles.get(Hex(at.q + dq, at.r + dr))
            out.append(None if other is None else other.code[opposite(e)])
        return out


# ------------------------------------------------------------------ from a scan
def _scan_tiles(scan: Mapping[str, Any], photo_id: int) -> list[ReviewTile]:
    if scan.get("kind") == "loose":
        raise ReviewError(_("This photo shows loose tiles, not a landscape. Photograph the "
                            "assembled map from above."))
    tiles = []
    for t in scan.get("tiles", []):
        at = Hex(int(t["at"][0]), int(t["at"][1]))
        conf = tuple(float(c) for c in (t.get("confidence") or [1.0] * 6))
        centre = t.get("center_px")
        seen = {photo_id: (float(centre[0]), float(centre[1]))} if centre else {}
        tiles.append(ReviewTile(at, str(t["code"]), conf, dict(t.get("attributes") or {}),
                                seen, marked=_marked(t),
                                flag_doubt=bool(t.get("flag_doubtful"))))
    if not tiles:
        raise ReviewError(_("No tiles were found in this photo."))
    return tiles


def _marked(tile: Mapping[str, Any]) -> tuple[int, ...] | None:
    found = tile.get("doubtful")
    return None if found is None else tuple(int(e) % 6 for e in found)


def _fit_notes(scan: Mapping[str, Any], n: int) -> tuple[str, ...]:
    """A note when the scanner placed photo ``n``'s tiles on a grid their outlines fit
    poorly (``Scan.poor_fit``): the tile size may be misread, the whole map with it; and
    one when it found a single tile (a map whose tiles it did not tell from the table
    reads so: never a silent one-tile map)."""
    notes = []
    if scan.get("poor_fit"):
        notes.append(str(_("Photo %(n)s: the tiles' outlines fit the scanner's grid poorly, "
                           "so it may have misread the tile size and found tiles where "
                           "there are none. Compare the map with the photo; if much is "
                           "wrong, take the photo again from above, on a plain surface.",
                           n=n)))
    if len(scan.get("tiles") or ()) == 1:
        notes.append(str(_("Photo %(n)s: only one tile was found. If the photo shows more, "
                           "the scanner did not tell them from the table: take it again "
                           "closer, from above or in more light, or add the missing tiles "
                           "by hand.", n=n)))
    return tuple(notes)


def from_scan(scan: Mapping[str, Any], photo_id: int, player: str | None = None) -> Review:
    """A new review of one photo's reading (in a Duel, of ``player``'s landscape)."""
    return Review({t.at: t for t in _scan_tiles(scan, photo_id)}, (photo_id,),
                  _fit_notes(scan, 1), player)


def merge_scan(review: Review, scan: Mapping[str, Any], photo_id: int) -> Review:
    """Add another photo of the same table: its tiles are aligned onto the review's
    (``merge_maps``); new tiles are added, shared ones remember where this photo shows
    them, a differing reading is kept as ``alt`` (the review's reading wins).
    ``ReviewError`` when the photos do not overlap."""
    new = _scan_tiles(scan, photo_id)
    try:
        _merged, transform, _conflicts = merge_maps(review.codes(), {t.at: t.code for t in new})
    except ValueError:
        raise ReviewError(_("This photo does not overlap the table read so far: at least two "
                            "tiles must appear in both photos. Take one that shows part of "
                            "the first photo too.")) from None
    tiles = dict(review.tiles)
    added = conflicts = 0
    for t in new:
        at = transform.apply_hex(t.at)
        code = transform.apply_code(t.code)
        conf = tuple(rotate_values(t.confidence, transform.steps))
        marked = None if t.marked is None else tuple(
            (e + transform.steps) % 6 for e in t.marked)
        old = tiles.get(at)
        if old is None:
            tiles[at] = replace(t, at=at, code=code, confidence=conf, marked=marked)
            added += 1
            continue
        alt = old.alt
        if old.code != code:
            alt = code
            conflicts += 1
        tiles[at] = replace(old, seen={**old.seen, **t.seen}, alt=alt)
    note = _("Photo %(n)s added %(added)s tiles; %(c)s tiles read differently (kept the first "
             "reading, marked).", n=len(review.photos) + 1, added=added, c=conflicts)
    return Review(tiles, (*review.photos, photo_id),
                  (*review.notes, note, *_fit_notes(scan, len(review.photos) + 1)),
                  review.player)


def rotate_values(values: Iterable[float], steps: int) -> list[float]:
    """Per-edge values turned with the tile (like ``rotate`` on a code)."""
    vals = list(values)
    return [vals[(i - steps) % 6] for i in range(6)]


# --------------------------------------------------------------------- changes
def set_tile(review: Review, at: Hex, code: str, attributes: Mapping[str, Any]) -> Review:
    """Fix a tile (new code and attributes) or add a missed one at a free neighbour."""
    try:
        code = check_code(code.strip().upper())
    except NotationError as err:
        raise ReviewError(say(err)) from None
    old = review.tiles.get(at)
    if old is None and at not in review.frontier():
        raise ReviewError(_("A missed tile can only be added next to the tiles read."))
    tile = ReviewTile(at, code, (1.0,) * 6, dict(attributes), old.seen if old else {}, True)
    tiles = dict(review.tiles)
    tiles[at] = tile
    return replace(review, tiles=tiles)


def delete_tile(review: Review, at: Hex) -> Review:
    if at not in review.tiles:
        raise ReviewError(_("There is no tile at %(q)s %(r)s.", q=at.q, r=at.r))
    if len(review.tiles) == 1:
        raise ReviewError(_("This is the last tile; discard the photo instead."))
    tiles = {h: t for h, t in review.tiles.items() if h != at}
    return replace(review, tiles=tiles)


def form_attributes(old: Mapping[str, Any], task_type: str, task_value: str,
                    flag: str) -> dict[str, Any]:
    """The tile's attributes with the task and flag set from a form (others kept)."""
    out = {k: v for k, v in old.items() if k not in ("task", "flag")}
    task_type, task_value, flag = task_type.strip(), task_value.strip(), flag.strip()
    if task_type:
        out["task"] = f"{task_type}/{task_value}" if task_value else task_type
    if flag:
        out["flag"] = flag
    return out


# ----------------------------------------------------------- the engine's view
@dataclass
class Verdict:
    """The review replayed by the engine: ``board`` holds every tile (unchecked, for
    the map); ``problem`` is the first refusal (``at`` its tile), None when legal."""

    board: Board
    problem: str | None = None
    at: Hex | None = None
    warnings: list[str] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)

    @property
    def legal(self) -> bool:
        return self.problem is None


def _describe(p: Placement | ReviewTile, reason: str) -> str:
    return str(_("Tile %(q)s %(r)s (%(code)s): %(reason)s", q=p.at.q, r=p.at.r, code=p.code,
                 reason=reason))


def verdict(review: Review, game: str = "board-game") -> Verdict:
    """Replay the tiles in connected order with every placement rule checked."""
    placements: list[Placement] = []
    problem: tuple[str, Hex] | None = None
    for t in review.tiles.values():
        try:
            placements.append(parse_placement(t.line(), game))
        except NotationError as err:
            problem = problem or (_describe(t, say(err)), t.at)
            placements.append(parse_placement(f"{t.at.q} {t.at.r} {t.code}", game))
    try:
        ordered = connected_order(placements)
    except IllegalPlacementError as err:
        lost = next((p for p in placements if str(p.at) in err.reason), placements[0])
        problem = problem or (_describe(lost, _("it touches no other tile of the map")),
                              lost.at)
        ordered = placements
    board = Board()
    checked = Board()
    for p in ordered:
        board.push(p)
        if problem is None:
            try:
                checked.push_checked(p)
            except IllegalPlacementError as err:
                problem = (_describe(p, say(Reason("rule-broken", {"why": err.why}))), p.at)
    warnings = []
    if problem is None:
        for m in checked.markers:
            if m.state != "active":
                warnings.append(_("The marker on %(q)s %(r)s would be %(state)s by this map: "
                                  "a marker still lying on its tile cannot be. Check the "
                                  "tiles around it.", q=m.at.q, r=m.at.r, state=_(m.state)))
    return Verdict(board, problem[0] if problem else None, problem[1] if problem else None,
                   warnings, ordered)


def final_record(review: Review, game_text: str) -> str:
    """The game's record with the reviewed map as its final map (connected order),
    header kept (players, unlocked, completed markers); ``ReviewError`` if illegal."""
    record = parse_record(game_text)
    found = verdict(review, record.game)
    if not found.legal:
        raise ReviewError(found.problem or "")
    placements = [replace(p, line=None) for p in found.placements]
    if record.is_duel:  # the photo is one player's landscape: the others stay as they are
        sections = {s.player: s for s in record.sections}
        if review.player not in sections:
            raise ReviewError(_("Choose whose landscape the photo shows."))
        sections[review.player] = Section(review.player, placements)
        record.sections = list(sections.values())
    else:
        record.sections = [Section(None, placements)]
    text = write_notation(record)
    try:
        replay(parse_record(text))
    except RulesError as err:
        raise ReviewError(say_error(err)) from None
    return text


# ------------------------------------------------------------- tile suggestions
@dataclass(frozen=True)
class Suggestion:
    code: str
    section: str
    agree: float


def suggestions(letters: list[str | None], weights: list[float],
                limit: int = 8) -> list[Suggestion]:
    """Catalogue tiles in the rotation that best agrees with ``letters`` (edge by edge,
    weighted; ``None`` edges are free), best first, one per rotated code."""
    scored: dict[str, Suggestion] = {}
    for choice in choices():
        for k in range(6):
            code = rotate(choice.code, k)
            agree = sum(w for e, (w, want) in enumerate(zip(weights, letters, strict=True))
                        if want is not None and code[e] == want)
            if code not in scored or scored[code].agree < agree:
                scored[code] = Suggestion(code, choice.section, agree)
    ranked = sorted(scored.values(), key=lambda s: -s.agree)
    return ranked[:limit]
