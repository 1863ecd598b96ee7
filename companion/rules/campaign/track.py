"""The campaign's advancement track as data (rules.md section 6, notation.md section 4).

Representation: the track is an undirected graph. ``HEXES`` are its nodes (the start,
Box 1, Box 2 and the twelve achievement hexes); ``PATHS`` are its edges, each a row of
white circles between two hexes. A path is named by its two hex ids, the *lower* hex
(nearer the start on the pad) first: ``box2-circus``. Circles are numbered 0..n-1 from
the lower hex. The three 8-circle paths carry a heart circle, the 4th from the lower hex
(index 3).

>>> PATH_BY_ID["box2-circus"].circles
4
>>> PATH_BY_ID["signalman-shepherdess"].heart
3
>>> sorted(p.id for p in paths_at("signalman"))
['circus-signalman', 'signalman-shepherdess', 'warehouse-signalman']
>>> TOTAL_CIRCLES
123
"""

from __future__ import annotations

from dataclasses import dataclass

START = "start"


@dataclass(frozen=True)
class TrackHex:
    """One hex of the track: ``kind`` is ``start``, ``box`` or ``achievement``."""

    id: str
    name: str
    kind: str


@dataclass(frozen=True)
class TrackPath:
    """A row of ``circles`` circles joining ``low`` and ``high``; ``heart`` is the index
    (from the lower hex) of its heart circle, or None."""

    id: str
    low: str
    high: str
    circles: int
    heart: int | None = None

    @property
    def ends(self) -> tuple[str, str]:
        return (self.low, self.high)

    def other(self, hex_id: str) -> str:
        """The hex at the other end of the path from ``hex_id``."""
        if hex_id == self.low:
            return self.high
        if hex_id == self.high:
            return self.low
        raise ValueError(f"{hex_id} is not an end of path {self.id}")


HEXES: tuple[TrackHex, ...] = (
    TrackHex(START, "Start", "start"),
    TrackHex("box1", "Box 1", "box"),
    TrackHex("box2", "Box 2", "box"),
    TrackHex("warehouse", "Warehouse", "achievement"),
    TrackHex("circus", "Circus", "achievement"),
    TrackHex("grain-tunnel", "Grain Tunnel", "achievement"),
    TrackHex("signalman", "Signalman", "achievement"),
    TrackHex("deer", "Deer", "achievement"),
    TrackHex("village-tunnel", "Village Tunnel", "achievement"),
    TrackHex("shepherdess", "Shepherdess", "achievement"),
    TrackHex("castle", "Castle", "achievement"),
    TrackHex("forest-tunnel", "Forest Tunnel", "achievement"),
    TrackHex("hill", "Hill", "achievement"),
    TrackHex("farm", "Farm", "achievement"),
    TrackHex("clouds", "Clouds", "achievement"),
)


def _path(low: str, high: str, circles: int, heart: int | None = None) -> TrackPath:
    return TrackPath(f"{low}-{high}", low, high, circles, heart)


HEART_INDEX = 3
"""The heart circle of an 8-circle path: the 4th circle from the lower hex."""

PATHS: tuple[TrackPath, ...] = (
    _path(START, "box1", 2),
    _path("box1", "box2", 5),
    _path("box2", "warehouse", 4),
    _path("box2", "circus", 4),
    _path("warehouse", "grain-tunnel", 6),
    _path("warehouse", "signalman", 6),
    _path("circus", "signalman", 6),
    _path("circus", "deer", 6),
    _path("grain-tunnel", "village-tunnel", 8, HEART_INDEX),
    _path("signalman", "shepherdess", 8, HEART_INDEX),
    _path("deer", "castle", 8, HEART_INDEX),
    _path("village-tunnel", "forest-tunnel", 10),
    _path("shepherdess", "hill", 10),
    _path("castle", "farm", 10),
    _path("forest-tunnel", "clouds", 10),
    _path("hill", "clouds", 10),
    _path("farm", "clouds", 10),
)

HEX_BY_ID: dict[str, TrackHex] = {h.id: h for h in HEXES}
PATH_BY_ID: dict[str, TrackPath] = {p.id: p for p in PATHS}
TOTAL_CIRCLES: int = sum(p.circles for p in PATHS)
HEART_PATHS: tuple[TrackPath, ...] = tuple(p for p in PATHS if p.heart is not None)


def paths_at(hex_id: str) -> tuple[TrackPath, ...]:
    """Every path with ``hex_id`` at one end, in track order."""
    return tuple(p for p in PATHS if hex_id in p.ends)


__all__ = [
    "HEART_INDEX",
    "HEART_PATHS",
    "HEXES",
    "HEX_BY_ID",
    "PATHS",
    "PATH_BY_ID",
    "START",
    "TOTAL_CIRCLES",
    "TrackHex",
    "TrackPath",
    "paths_at",
]
