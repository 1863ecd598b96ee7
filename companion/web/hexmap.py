"""The one SVG hex-map drawer: a landscape as plain data for the map templates.

Representation: a ``MapView`` is everything a template draws, already in pixels
(flat-topped hexes through ``companion.rules.Layout`` of hex size ``size``, pixel y
down). Two templates draw it: ``templates/_hexmap.html`` (the recorder's and the photo
review's map: ``SIZE``, shapes reused with ``<use>``) and ``templates/_hexmap_small.html``
(the score sheet's and the dispute page's small map: ``SMALL``, ``map.shapes`` inline).

* ``tiles``: one ``TileView`` per placed tile, drawn as six wedges (centre + the
  two corners of edge ``e``) classed by the terrain letter of that edge, with a
  badge for a task marker, and small symbols for flag, hearts and special tile;
  each becomes ``<g class="tile" data-q data-r data-hex="q,r">`` translated to
  the hex centre, so explanations highlight tiles by data attributes
  (``static/play.js``) or by the server (``highlight``). The wedge and hexagon
  shapes at the origin (``origin_shapes``) are defined once per page
  (``templates/_hexmap_defs.html``) and drawn with ``<use>``, which keeps a
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
SMALL = 20.0
MARGIN = 0.3  # around the outermost hexes, in hex sizes


@lru_cache(maxsize=4)
def layout(size: float = SIZE) -> Layout:
    return Layout(size, (0.0, 0.0))


def _pts(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


@dataclass(frozen=True)
class Wedge:
    edge: int
    letter: str


@lru_cache(maxsize=4)
def origin_shapes(size: float = SIZE) -> tuple[tuple[str, ...], str]:
    """The six wedge polygons (centre-corner-corner, edge 0..5) and the hexagon of the
    hex at the origin (points)."""
    at, lay = Hex(0, 0), layout(size)
    centre = lay.to_pixel(at)
    return (tuple(_pts((centre, *lay.edge_corners(at, e))) for e in range(6)),
            _pts(lay.corners(at)))


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
    size: float = SIZE

    @property
    def shapes(self) -> tuple[tuple[str, ...], str]:
        """``origin_shapes`` at this map's size (for templates drawing them inline)."""
        return origin_shapes(self.size)


def tile_view(p: Placement, marker: Marker | None = None,
              classes: Iterable[str] = (), size: float = SIZE) -> TileView:
    q, r = p.at
    cx, cy = layout(size).to_pixel(p.at)
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
    size: float = SIZE,
) -> MapView:
    """Everything a map template draws for ``board``: its tiles in placement order, the
    free hexes next to it (``slots``; ``legal`` and ``selected`` marked), the ``preview``
    of a chosen tile, the ``highlight``ed tiles (class ``hl``), at hex size ``size``."""
    lay = layout(size)
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
        tiles.append(tile_view(p, markers.get(p.at), classes, size))
    legal_set = set(legal)
    slot_views = []
    if slots:
        for h in board.frontier():
            cx, cy = lay.to_pixel(h)
            slot_views.append(SlotView(h.q, h.r, cx, cy, f"{cx:.1f} {cy:.1f}",
                                       h in legal_set, h == selected))
    ghost = None
    if preview is not None and preview.at not in board.tiles:
        ghost = tile_view(preview, None, ["preview", "legal" if preview_legal else "illegal"],
                          size)
    centres = [(t.cx, t.cy) for t in [*tiles, *([ghost] if ghost else [])]]
    centres += [(s.cx, s.cy) for s in slot_views]
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    if not xs:
        xs, ys = [0.0], [0.0]
    half_w, half_h, margin = size, size * math.sqrt(3) / 2, size * MARGIN
    x0, x1 = min(xs) - half_w - margin, max(xs) + half_w + margin
    y0, y1 = min(ys) - half_h - margin, max(ys) + half_h + margin
    width, height = x1 - x0, y1 - y0
    return MapView(tiles, slot_views, ghost, f"{x0:.1f} {y0:.1f} {width:.1f} {height:.1f}",
                   width, height, size)


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
