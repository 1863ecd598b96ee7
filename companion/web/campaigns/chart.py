"""The campaign's score chart as drawing data for a server-rendered inline SVG.

Representation: ``score_chart(games)`` takes the ``games`` list of ``campaign_stats``
(dicts with ``number``, ``score``, ``title``) and returns a ``Chart``: one ``Bar`` per game
(x, y, width, height in the SVG's user units, best or not), the horizontal ``GridLine``s
with their score labels and the average line's y (None without games). The y axis starts
at 0 and ends at the best score rounded up to the next 50 (at least 100), so the bars of
two campaigns compare at a glance. No chart library: the template draws rectangles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

WIDTH = 340
HEIGHT = 180
LEFT = 34.0
RIGHT = 6.0
TOP = 14.0
BOTTOM = 22.0


@dataclass(frozen=True)
class Bar:
    number: int
    score: int
    title: str
    x: float
    y: float
    width: float
    height: float
    best: bool

    @property
    def cx(self) -> float:
        return round(self.x + self.width / 2, 1)


@dataclass(frozen=True)
class GridLine:
    y: float
    value: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: float
    right: float
    base: float
    bars: tuple[Bar, ...]
    grid: tuple[GridLine, ...]
    average: float | None
    average_y: float | None


def _top(best: int) -> int:
    return max(100, 50 * math.ceil(best / 50)) if best > 0 else 100


def score_chart(games: list[dict[str, Any]]) -> Chart:
    base = HEIGHT - BOTTOM
    scores = [int(g["score"]) for g in games]
    top = _top(max(scores, default=0))
    span = base - TOP

    def y_of(value: float) -> float:
        return round(base - span * value / top, 1)

    inner = WIDTH - LEFT - RIGHT
    slot = inner / max(len(games), 1)
    width = round(min(slot * 0.7, 40.0), 1)
    best = max(scores, default=None)
    bars = tuple(
        Bar(int(g["number"]), s, str(g["title"]),
            round(LEFT + slot * i + (slot - width) / 2, 1), y_of(s), width,
            round(base - y_of(s), 1), s == best)
        for i, (g, s) in enumerate(zip(games, scores, strict=True))
    )
    grid = tuple(GridLine(y_of(v), v) for v in range(0, top + 1, 50 if top <= 250 else 100))
    average = round(sum(scores) / len(scores), 1) if scores else None
    return Chart(WIDTH, HEIGHT, LEFT, WIDTH - RIGHT, base, bars, grid, average,
                 None if average is None else y_of(average))


__all__ = ["Bar", "Chart", "GridLine", "score_chart"]
