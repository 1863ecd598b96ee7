"""The advancement track of the campaign pad as drawing data for an inline SVG.

Representation: the pad is laid out top to bottom for a phone (``VIEW_W`` wide): Start,
Box 1, Box 2, then Warehouse and Circus, the three columns Grain Tunnel / Signalman /
Deer, Village Tunnel / Shepherdess / Castle, Forest Tunnel / Hill / Farm, and Clouds at the
bottom. Every hex has a centre ``(x, y)``; the rows are spaced so that every path fits its
circles (``SPACING`` apart at least). ``draw_track(state, legal)`` returns a ``TrackDrawing``:
``HexShape``s (polygon points, name lines, reached or not), ``PathLine``s and
``CircleShape``s (centre, crossed, heart, and the legal ``Crossing`` it offers, if any).
The template ``campaigns/_track.html`` turns it into SVG elements; nothing here knows HTML.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from companion.rules import HEXES, PATHS, CampaignState, Crossing, TrackPath
from companion.web.names import hex_name

VIEW_W = 360
HEX_R = 30.0
CIRCLE_R = 6.5
SPACING = 17.0
MARGIN = 38.0
_CLEAR = HEX_R + CIRCLE_R + 2.0  # first circle centre from a hex centre

COLUMNS: dict[str, float] = {
    "start": 180, "box1": 180, "box2": 180, "warehouse": 115, "circus": 245,
    "grain-tunnel": 50, "signalman": 180, "deer": 310,
    "village-tunnel": 50, "shepherdess": 180, "castle": 310,
    "forest-tunnel": 50, "hill": 180, "farm": 310, "clouds": 180,
}
ROWS: tuple[tuple[str, ...], ...] = (
    ("start",), ("box1",), ("box2",), ("warehouse", "circus"),
    ("grain-tunnel", "signalman", "deer"), ("village-tunnel", "shepherdess", "castle"),
    ("forest-tunnel", "hill", "farm"), ("clouds",),
)


@dataclass(frozen=True)
class HexShape:
    id: str
    name: str
    kind: str
    x: float
    y: float
    points: str
    lines: tuple[str, ...]
    reached: bool


@dataclass(frozen=True)
class PathLine:
    id: str
    x1: float
    y1: float
    x2: float
    y2: float
    full: bool


@dataclass(frozen=True)
class CircleShape:
    path: str
    index: int
    x: float
    y: float
    crossed: bool
    heart: bool
    legal: Crossing | None

    @property
    def anchor(self) -> str:
        """The id of the button that crosses this circle (``cross-PATH-FROM``)."""
        return "" if self.legal is None else cross_id(self.legal)


@dataclass(frozen=True)
class TrackDrawing:
    width: int
    height: int
    hexes: tuple[HexShape, ...]
    lines: tuple[PathLine, ...]
    circles: tuple[CircleShape, ...]


def cross_id(c: Crossing) -> str:
    return f"cross-{c.path}-{c.from_hex}"


def _needed(path: TrackPath) -> float:
    """The centre-to-centre length a path needs for its circles."""
    return 2 * _CLEAR + SPACING * (path.circles - 1)


@lru_cache(maxsize=1)
def centres() -> dict[str, tuple[float, float]]:
    """Hex centres: each row just low enough for every path arriving from the row above."""
    row_of = {h: i for i, row in enumerate(ROWS) for h in row}
    y = [MARGIN]
    for i in range(1, len(ROWS)):
        drop = 0.0
        for p in PATHS:
            if row_of[p.high] == i and row_of[p.low] == i - 1:
                dx = COLUMNS[p.high] - COLUMNS[p.low]
                drop = max(drop, math.sqrt(max(_needed(p) ** 2 - dx * dx, 0.0)))
        y.append(y[-1] + drop)
    return {h: (COLUMNS[h], round(y[row_of[h]], 1)) for h in COLUMNS}


def _hex_points(x: float, y: float) -> str:
    """A flat-topped hexagon around (x, y), like the pad's hexes."""
    pts = []
    for k in range(6):
        a = math.radians(60 * k)
        pts.append(f"{x + HEX_R * math.cos(a):.1f},{y + HEX_R * math.sin(a):.1f}")
    return " ".join(pts)


def _lines(name: str) -> tuple[str, ...]:
    """A hex label on at most two lines (long names split at the space)."""
    head, _, tail = name.partition(" ")
    return (head, tail) if tail and len(name) > 8 else (name,)


def draw_track(state: CampaignState, legal: list[Crossing]) -> TrackDrawing:
    pos = centres()
    offered = {(c.path, c.circle): c for c in legal}
    hexes = tuple(
        HexShape(h.id, h.name, h.kind, *pos[h.id], _hex_points(*pos[h.id]), _lines(hex_name(h.id)),
                 state.is_reached(h.id))
        for h in HEXES
    )
    lines: list[PathLine] = []
    circles: list[CircleShape] = []
    for p in PATHS:
        (x1, y1), (x2, y2) = pos[p.low], pos[p.high]
        crossed = set(state.crossed_circles(p.id))
        lines.append(PathLine(p.id, x1, y1, x2, y2, len(crossed) == p.circles))
        length = math.hypot(x2 - x1, y2 - y1)
        step = (length - 2 * _CLEAR) / max(p.circles - 1, 1)
        for i in range(p.circles):
            t = (_CLEAR + i * step) / length
            circles.append(CircleShape(
                p.id, i, round(x1 + t * (x2 - x1), 1), round(y1 + t * (y2 - y1), 1),
                i in crossed, i == p.heart, offered.get((p.id, i)),
            ))
    height = int(max(y for _, y in pos.values()) + MARGIN)
    return TrackDrawing(VIEW_W, height, hexes, tuple(lines), tuple(circles))


__all__ = ["CircleShape", "HexShape", "PathLine", "TrackDrawing", "centres", "cross_id",
           "draw_track"]
