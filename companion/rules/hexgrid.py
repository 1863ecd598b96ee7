"""Hex geometry in the notation's conventions (notation.md section 1).

Representation: a hex is an axial coordinate ``Hex(q, r)`` (a ``NamedTuple``,
so it hashes and compares like the tuple ``(q, r)``); ``s = -q - r`` is derived.
Hexes are flat-topped; edges and directions are numbered 0..5 clockwise from
the top: 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW. Edge ``i`` of a hex faces the
neighbour ``hex + DIRECTIONS[i]``, which touches it with its edge ``opposite(i)`` (``(i + 3) % 6``).

>>> Hex(0, 0).neighbor(1)
Hex(q=1, r=-1)
>>> distance(Hex(0, 0), Hex(2, -1))
2
>>> opposite(4)
1
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import NamedTuple

EDGE_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")


class Hex(NamedTuple):
    """An axial hex coordinate."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def neighbor(self, direction: int) -> Hex:
        dq, dr = DIRECTIONS[direction]
        return Hex(self.q + dq, self.r + dr)

    def neighbors(self) -> tuple[Hex, ...]:
        """The six neighbours, in edge order 0..5."""
        q, r = self.q, self.r
        return tuple(Hex(q + dq, r + dr) for dq, dr in DIRECTIONS)

    def __add__(self, other: object) -> Hex:
        if not isinstance(other, tuple):
            return NotImplemented
        return Hex(self.q + other[0], self.r + other[1])

    def __sub__(self, other: tuple[int, int]) -> Hex:
        return Hex(self.q - other[0], self.r - other[1])

    def rotate(self, steps: int) -> Hex:
        """Rotate about the origin by ``steps`` x 60 degrees clockwise."""
        q, r, s = self.q, self.r, self.s
        for _ in range(steps % 6):
            q, r, s = -r, -s, -q
        return Hex(q, r)

    def __str__(self) -> str:
        return f"({self.q}, {self.r})"


DIRECTIONS: tuple[Hex, ...] = (
    Hex(0, -1),
    Hex(1, -1),
    Hex(1, 0),
    Hex(0, 1),
    Hex(-1, 1),
    Hex(-1, 0),
)

def opposite(edge: int) -> int:
    """The edge of the neighbour that touches ``edge``."""
    return (edge + 3) % 6


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Hex distance ``(|dq| + |dr| + |dq + dr|) / 2``."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def within(center: Hex, radius: int) -> Iterator[Hex]:
    """Every hex at distance ``1..radius`` from ``center`` (the centre excluded)."""
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            if dq or dr:
                yield Hex(center.q + dq, center.r + dr)


class Layout(NamedTuple):
    """Hex <-> pixel conversion for flat-topped hexes (Red Blob Games).

    ``size`` is the distance from centre to corner; ``origin`` is the pixel
    centre of ``Hex(0, 0)``. Pixel y grows downwards, so edge 0 is at the top.

    >>> lay = Layout(10.0, (0.0, 0.0))
    >>> lay.to_pixel(Hex(0, 1))
    (0.0, 17.32050807568877)
    >>> lay.to_hex(lay.to_pixel(Hex(3, -2)))
    Hex(q=3, r=-2)
    """

    size: float
    origin: tuple[float, float] = (0.0, 0.0)

    def to_pixel(self, h: tuple[int, int]) -> tuple[float, float]:
        q, r = h
        x = self.size * 1.5 * q
        y = self.size * math.sqrt(3) * (r + q / 2)
        return (x + self.origin[0], y + self.origin[1])

    def to_fractional(self, point: tuple[float, float]) -> tuple[float, float]:
        x = (point[0] - self.origin[0]) / self.size
        y = (point[1] - self.origin[1]) / self.size
        q = 2.0 / 3.0 * x
        r = -1.0 / 3.0 * x + math.sqrt(3) / 3.0 * y
        return (q, r)

    def to_hex(self, point: tuple[float, float]) -> Hex:
        return hex_round(*self.to_fractional(point))

    def corners(self, h: tuple[int, int]) -> list[tuple[float, float]]:
        """The six corners in pixels; corner ``k`` lies at ``60 * k`` degrees
        (0 = east, clockwise on screen), so edge ``e`` spans corners ``e + 4`` and ``e + 5``."""
        cx, cy = self.to_pixel(h)
        return [
            (cx + self.size * math.cos(math.radians(60 * k)),
             cy + self.size * math.sin(math.radians(60 * k)))
            for k in range(6)
        ]

    def edge_corners(
        self, h: tuple[int, int], edge: int
    ) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two corners that bound ``edge`` of hex ``h``, clockwise."""
        c = self.corners(h)
        # Corner k sits at 60k degrees (pixel y down); edge 0 (top) spans corners 4 and 5.
        start = (edge + 4) % 6
        return (c[start], c[(start + 1) % 6])


def hex_round(q: float, r: float) -> Hex:
    """The hex containing a fractional axial coordinate."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))
