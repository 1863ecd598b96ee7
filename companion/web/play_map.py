"""The SVG hex map of a landscape, as plain data for ``templates/play/_map.html``.

Representation: a ``MapView`` is everything the template draws, already in pixels
(flat-topped hexes through ``companion.rules.hexgrid.Layout``, pixel y down):

* ``tiles``: one ``TileView`` per placed tile, drawn as six wedges (centre + the
  two corners of edge ``e``) classed by the terrain letter of that edge, with a
  badge for a task marker, and small symbols for flag, hearts and special tile;
  each becomes ``<g class="tile" data-q data-r data-hex="q,r">`` translated to
  the hex centre, so explanations highlight tiles by data attributes
  (``static/play.js``) or by the server (``highlight``). The wedge and hexagon
  shapes at the origin (``origin_shapes``) are defined once per page
  (``templates/play/_defs.html``) and drawn with ``<use>``, which keeps a
  45-tile page small.
* ``slots``: the free hexes next to the landscape (dashed outlines, each a link),
  marked ``legal`` when the chosen tile fits there in some rotation.
* ``preview``: the chosen tile drawn on the chosen hex (``legal`` or not).
* ``viewbox``: the bounding box of all of these plus a margin.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from markupsafe import Markup

from companion.rules import Board, Hex, Layout, Marker, Placement

SIZE = 40.0
LAYOUT = Layout(SIZE, (0.0, 0.0))
MARGIN = 12.0


def _pts(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


@lru_cache(maxsize=8192)
def hex_outline(q: int, r: int) -> str:
    return _pts(LAYOUT.corners(Hex(q, r)))


@lru_cache(maxsize=8192)
def wedge_points(q: int, r: int) -> tuple[str, ...]:
    """The six triangles centre-corner-corner, one per edge 0..5."""
    h = Hex(q, r)
    c = LAYOUT.to_pixel(h)
    return tuple(_pts((c, *LAYOUT.edge_corners(h, e))) for e in range(6))


@dataclass(frozen=True)
class Wedge:
    edge: int
    letter: str


def origin_shapes() -> tuple[tuple[str, ...], str]:
    """The six wedge polygons and the hexagon of the hex at the origin (points)."""
    return wedge_points(0, 0), hex_outline(0, 0)


@dataclass
class TileView:
    q: int
    r: int
    cx: float
    cy: float
    code: str
    wedges: tuple[Wedge, ...]
    translate: str
    task: str = ""
    task_value: str = ""
    task_state: str = ""
    flag: str = ""
    heart: bool = False
    golden_heart: bool = False
    special: str = ""
    extras: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    line: int | None = None

    @property
    def label(self) -> str:
        return f"{self.q} {self.r} {self.code}"

    @property
    def uses(self) -> Markup:
        return wedge_uses(self.code)


@dataclass
class SlotView:
    q: int
    r: int
    cx: float
    cy: float
    translate: str
    legal: bool = False
    selected: bool = False


@dataclass
class MapView:
    tiles: list[TileView]
    slots: list[SlotView]
    preview: TileView | None
    viewbox: str
    width: float
    height: float


def tile_view(p: Placement, marker: Marker | None = None,
              classes: Iterable[str] = ()) -> TileView:
    q, r = p.at
    cx, cy = LAYOUT.to_pixel(p.at)
    wedges = small_tile(p.code)
    view = TileView(q, r, cx, cy, p.code, wedges, f"{cx:.1f} {cy:.1f}",
                    classes=list(classes), line=p.line)
    if p.task is not None:
        view.task = p.task.text()
        view.task_value = "" if p.task.value is None else str(p.task.value)
        view.task_state = marker.state if marker is not None else "gone"
    view.flag = p.flag or ""
    view.heart, view.golden_heart = p.heart, p.golden_heart
    view.special = p.special or ""
    view.extras = [k for k, on in (("camera", p.camera), ("balloon", p.balloon),
                                   ("mill", p.mill)) if on]
    if p.sheep:
        view.extras.append(f"sheep {p.sheep}")
    if p.crossing:
        view.extras.append(f"crossing {p.crossing}")
    return view


def map_view(
    board: Board,
    *,
    legal: Iterable[Hex] = (),
    selected: Hex | None = None,
    preview: Placement | None = None,
    preview_legal: bool = True,
    highlight: Iterable[Hex] = (),
    slots: bool = True,
) -> MapView:
    """Everything the map template draws for ``board``."""
    markers = {m.at: m for m in board.markers}
    lit = set(highlight)
    last = board.history[-1].at if board.history else None
    tiles = []
    for p in board.history:
        classes = []
        if p.at in lit:
            classes.append("hl")
        if p.at == last:
            classes.append("last")
        tiles.append(tile_view(p, markers.get(p.at), classes))
    legal_set = set(legal)
    slot_views = []
    if slots:
        for h in board.frontier():
            cx, cy = LAYOUT.to_pixel(h)
            slot_views.append(SlotView(h.q, h.r, cx, cy, f"{cx:.1f} {cy:.1f}",
                                       h in legal_set, h == selected))
    ghost = None
    if preview is not None and preview.at not in board.tiles:
        ghost = tile_view(preview, None, ["preview", "legal" if preview_legal else "illegal"])
    centres = [(t.cx, t.cy) for t in [*tiles, *([ghost] if ghost else [])]]
    centres += [(s.cx, s.cy) for s in slot_views]
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    if not xs:
        xs, ys = [0.0], [0.0]
    half_w, half_h = SIZE, SIZE * math.sqrt(3) / 2
    x0, x1 = min(xs) - half_w - MARGIN, max(xs) + half_w + MARGIN
    y0, y1 = min(ys) - half_h - MARGIN, max(ys) + half_h + MARGIN
    width, height = x1 - x0, y1 - y0
    return MapView(tiles, slot_views, ghost, f"{x0:.1f} {y0:.1f} {width:.1f} {height:.1f}",
                   width, height)


@lru_cache(maxsize=4096)
def small_tile(code: str) -> tuple[Wedge, ...]:
    """The six wedges of a tile at the origin."""
    return tuple(Wedge(e, code[e]) for e in range(6))


@lru_cache(maxsize=4096)
def wedge_uses(code: str) -> Markup:
    """The six ``<use>`` of the wedge shapes, classed by terrain (a code is six of
    the letters FGVTSM, so nothing here needs escaping)."""
    return Markup("".join(f'<use href="#pw{e}" class="w t-{c}"/>' for e, c in enumerate(code)))


@lru_cache(maxsize=4096)
def tile_icon(code: str) -> Markup:
    """A small drawing of a tile (catalogue buttons, rotations, the chosen tile)."""
    return Markup(f'<svg class="tile-icon" viewBox="-41 -36 82 72">{wedge_uses(code)}</svg>')
