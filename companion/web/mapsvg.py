"""A small SVG drawing of a map, as data for ``templates/_map.html``.

Representation: ``draw(tiles)`` takes ``{Hex: Placement}`` and returns a ``MapDrawing``:
the SVG ``viewBox`` and one ``TileShape`` per tile with its ``q,r`` key, the six edge
triangles (centre + the two corners of edge ``e``, coloured by the terrain letter
through the CSS class ``t-F`` ... ``t-M``), the hexagon outline and the marks to print
(task marker value, flag, special tile); optionally the free hexes next to the map
(``FreeShape``, drawn dashed, e.g. as links). Geometry is the rules' ``Layout``
(flat-topped, edge 0 at the top), so the drawing matches the notation.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.rules import Hex, Layout, Placement

SIZE = 20.0
LAYOUT = Layout(SIZE, (0.0, 0.0))


def points(pts: list[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)


@dataclass(frozen=True)
class TileShape:
    key: str
    x: float
    y: float
    edges: tuple[tuple[str, str], ...]  # (terrain letter, polygon points)
    outline: str
    label: str
    flag: str | None
    special: bool


@dataclass(frozen=True)
class FreeShape:
    key: str
    q: int
    r: int
    outline: str


@dataclass(frozen=True)
class MapDrawing:
    view_box: str
    tiles: tuple[TileShape, ...]
    free: tuple[FreeShape, ...] = ()


def tile_label(p: Placement) -> str:
    if p.task is not None:
        return str(p.task.value) if p.task.value is not None else "·"
    if p.special:
        return "★"
    return ""


def draw(tiles: Mapping[Hex, Placement], free: Iterable[Hex] = ()) -> MapDrawing:
    """The drawing of ``tiles``, plus dashed outlines of the ``free`` hexes given."""
    shapes = []
    for h, p in sorted(tiles.items(), key=lambda kv: (kv[0].r, kv[0].q)):
        cx, cy = LAYOUT.to_pixel(h)
        edges = tuple(
            (p.code[e], points([(cx, cy), *LAYOUT.edge_corners(h, e)])) for e in range(6))
        shapes.append(TileShape(f"{h.q},{h.r}", round(cx, 1), round(cy, 1), edges,
                                points(LAYOUT.corners(h)), tile_label(p), p.flag,
                                bool(p.special)))
    holes = tuple(FreeShape(f"{h.q},{h.r}", h.q, h.r, points(LAYOUT.corners(h)))
                  for h in sorted(free, key=lambda h: (h.r, h.q)))
    centres = [(s.x, s.y) for s in shapes] + [LAYOUT.to_pixel((f.q, f.r)) for f in holes]
    if not centres:
        return MapDrawing(f"{-SIZE} {-SIZE} {2 * SIZE} {2 * SIZE}", ())
    xs = [x for x, _ in centres]
    ys = [y for _, y in centres]
    pad = SIZE * 1.2
    x0, y0 = min(xs) - pad, min(ys) - pad
    return MapDrawing(
        f"{x0:.1f} {y0:.1f} {max(xs) - x0 + pad:.1f} {max(ys) - y0 + pad:.1f}", tuple(shapes),
        holes)
