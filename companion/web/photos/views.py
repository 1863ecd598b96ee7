"""What the review page shows, computed from the draft and the page's query.

Representation: ``review_context(game, level, draft, query)`` returns the template
variables of ``templates/photos/_review.html``: ``overlays`` (one
``photos.overlay.PhotoOverlay`` per photo of the draft), ``map`` (the map engineer's
``hexmap.MapView`` of the board the engine replayed, the first illegal tile
highlighted, free hexes linking to ``?add=Q,R``), ``verdict``, and ``editor``: an
``Editor`` for the tile in ``?tile=Q,R`` or the free hex in ``?add=Q,R`` (None when
neither), with its rotations, catalogue suggestions and edge rows. Edge names
(``EdgeRow.name``) and the terrain, task and flag options are ``(value, label)`` with
the label in the page's language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from flask import url_for
from flask_babel import lazy_gettext as _l
from flask_babel import pgettext

from companion.rules import FLAG_TYPES, TASK_TYPES, TERRAINS, Hex, rotate
from companion.storage import photos as store
from companion.web import access, records
from companion.web.db import get_db
from companion.web.hexmap import map_view, origin_shapes, tile_icon
from companion.web.photos.overlay import PhotoOverlay, overlay
from companion.web.photos.review import Review, ReviewTile, suggestions, verdict
from companion.web.play.views import parse_hex

TASK_VALUES = (4, 5, 6, 7)
SUGGESTIONS = 8
TERRAIN_LABELS = {
    "forest": _l("Forest"), "grain": _l("Grain"), "village": _l("Village"),
    "track": _l("Track"), "stream": _l("Stream"), "meadow": _l("Meadow"),
}


def edge_names() -> tuple[str, ...]:
    """``hexgrid.EDGE_NAMES`` (N, NE, SE, S, SW, NW) as compass points of the page's
    language, edge 0 first."""
    return (pgettext("compass point", "N"), pgettext("compass point", "NE"),
            pgettext("compass point", "SE"), pgettext("compass point", "S"),
            pgettext("compass point", "SW"), pgettext("compass point", "NW"))


def labelled(values: tuple[str, ...] | list[str]) -> list[tuple[str, str]]:
    """Notation values (terrain names) with their translated labels, for <select>s."""
    return [(v, str(TERRAIN_LABELS.get(v, v))) for v in values]


@dataclass(frozen=True)
class TileChoice:
    code: str
    note: str = ""
    current: bool = False


@dataclass(frozen=True)
class EdgeRow:
    edge: int
    name: str
    letter: str
    doubtful: bool = False
    mismatch: bool = False
    facing: str | None = None


@dataclass
class Editor:
    at: Hex
    tile: ReviewTile | None
    code: str
    rotations: list[TileChoice] = field(default_factory=list)
    catalogue: list[TileChoice] = field(default_factory=list)
    edges: list[EdgeRow] = field(default_factory=list)
    task_type: str = ""
    task_value: str = ""
    flag: str = ""
    flag_doubtful: bool = False

    @property
    def adding(self) -> bool:
        return self.tile is None


def add_link(game_id: int) -> Callable[..., str]:
    """The ``link`` of ``_hexmap.html``: its free-hex links open the review's
    "add a missed tile" editor."""

    def link(at: str | None = None, **_ignored: Any) -> str:
        query = {"add": at} if at else {}
        return url_for("photos.review", game_id=game_id,
                       **query) + "#editor"  # type: ignore[arg-type]

    return link


def _choices(codes: list[tuple[str, str]], current: str | None) -> list[TileChoice]:
    return [TileChoice(c, note, c == current) for c, note in codes]


def editor_for(review: Review, at: Hex) -> Editor:
    tile = review.tiles.get(at)
    facing = review.facing(at)
    bad = set(review.mismatches().get(at, []))
    if tile is None:
        code = "".join(f or "M" for f in facing)
        found = suggestions(facing, [1.0] * 6, SUGGESTIONS)
        names = edge_names()
        edges = [EdgeRow(e, names[e], code[e], facing=facing[e]) for e in range(6)]
        return Editor(at, None, code,
                      catalogue=_choices([(s.code, s.section) for s in found], None),
                      edges=edges)
    weights = [1.0] * 6 if tile.edited else [max(c, 0.05) for c in tile.confidence]
    found = suggestions(list(tile.code), weights, SUGGESTIONS + 1)
    doubtful = set(tile.doubtful())
    rotations: list[tuple[str, str]] = []
    for k in range(6):
        c = rotate(tile.code, k)
        if c not in [r for r, _n in rotations]:
            rotations.append((c, str(k)))
    kind, value = tile.task
    names = edge_names()
    return Editor(
        at, tile, tile.code,
        rotations=_choices(rotations, tile.code),
        catalogue=_choices([(s.code, s.section) for s in found if s.code != tile.code]
                           [:SUGGESTIONS], tile.code),
        edges=[EdgeRow(e, names[e], tile.code[e], e in doubtful, e in bad, facing[e])
               for e in range(6)],
        task_type=kind, task_value=value, flag=str(tile.attributes.get("flag", "")),
        flag_doubtful=tile.flag_doubtful())


def end_url(game_id: int) -> str:
    """Where the completed markers are tapped in: the recorder's end-of-game entry."""
    return url_for("play.end", game_id=game_id)


def review_context(game: dict[str, Any], level: str, draft: store.StoredReview,
                   query: Mapping[str, str], *, error: str | None = None,
                   notice: str | None = None) -> dict[str, Any]:
    review = Review.from_json(draft.state)
    summary = records.summary(game["record"])
    kind = summary["kind"] if summary["kind"] in ("board-game", "duel") else "board-game"
    found = verdict(review, kind)
    editable = access.can_edit(level) and draft.status == "review"
    selected = parse_hex(query.get("tile"))
    if selected not in review.tiles:
        selected = None
    adding = parse_hex(query.get("add"))
    if adding not in review.frontier():
        adding = None
    rows = {int(p["id"]): p for p in store.photos_of(get_db(), int(game["id"]))}
    overlays: list[PhotoOverlay] = [
        overlay(review, pid, int(rows[pid]["width"]), int(rows[pid]["height"]),
                selected=selected or adding, illegal=found.at)
        for pid in review.photos if pid in rows]
    engine_map = map_view(found.board, highlight=[found.at] if found.at else [],
                          selected=adding, slots=editable)
    at = selected or adding
    mismatches = review.mismatches()
    return dict(
        game=game, level=level, draft=draft, review=review, editable=editable,
        confirmed=draft.status == "confirmed", verdict=found, overlays=overlays,
        map=engine_map, link=add_link(int(game["id"])), shapes=origin_shapes(),
        tile_icon=tile_icon,
        editor=editor_for(review, at) if at is not None and editable else None,
        doubtful_count=sum(len(t.doubtful()) for t in review.tiles.values()),
        mismatch_count=sum(len(v) for v in mismatches.values()) // 2,
        alt_count=sum(1 for t in review.tiles.values() if t.alt),
        recorded_tiles=summary["tiles"],
        terrains=[(letter, str(TERRAIN_LABELS[name])) for letter, name in TERRAINS.items()],
        task_types=labelled(TASK_TYPES), task_values=TASK_VALUES,
        flag_types=labelled(FLAG_TYPES),
        end_url=end_url(int(game["id"])), error=error, notice=notice)
