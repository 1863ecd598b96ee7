"""Places 8/4/2/0 and shared places for the Duel's Module 1 cards (rules.md section 7).

Representation: a contest is a mapping ``player -> key`` where a smaller key
ranks better (a turn for the race cards, a negated count for the Master cards)
and ``None`` means the player takes no place (scores 0). ``share_places``
returns one ``Place`` per player: the places (1-based) the player shares and the
points. Tied players add the values of the places they share and split them
(R-8: rounded down; off: rounded up).

>>> places = share_places({"red": 12, "blue": 12}, 2)
>>> places["red"].points, places["blue"].points, places["red"].shared
(6, 6, (1, 2))
>>> share_places({"a": 1, "b": 1, "c": 1}, 3)["a"].points
4
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

TWO_PLAYER_PLACES = (8, 4)
MORE_PLAYER_PLACES = (8, 4, 2, 0)


@dataclass(frozen=True)
class Place:
    """One player's result in a contest: the places shared (empty: no place)."""

    shared: tuple[int, ...]
    points: int
    pooled: int = 0

    @property
    def tied(self) -> bool:
        return len(self.shared) > 1


def place_values(players: int) -> tuple[int, ...]:
    """The points of 1st, 2nd, ... place: 8 and 4 for two players, 8/4/2/0 for more."""
    return TWO_PLAYER_PLACES if players <= 2 else MORE_PLAYER_PLACES[:players]


def share_places(keys: Mapping[str, int | None], players: int,
                 round_down: bool = True) -> dict[str, Place]:
    """Rank ``keys`` (smaller is better, None takes no place) and share tied places."""
    values = place_values(players)
    ranked = sorted((k, p) for p, k in keys.items() if k is not None)
    out = {p: Place((), 0) for p, k in keys.items() if k is None}
    pos = 0
    while pos < len(ranked):
        key = ranked[pos][0]
        group = [p for k, p in ranked if k == key]
        shared = tuple(range(pos + 1, pos + len(group) + 1))
        total = sum(values[i - 1] if i <= len(values) else 0 for i in shared)
        points = total // len(group) if round_down else -(-total // len(group))
        for p in group:
            out[p] = Place(shared, points, total)
        pos += len(group)
    return out
