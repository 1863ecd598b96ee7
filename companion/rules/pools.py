"""The task markers in the box (rules.md section 3) and how many a record uses.

Representation: a pool is ``{type: {value: count}}``: ``board_game_pool(unlocked)``
is the board game's base pool plus what the campaign unlocks add (editable content,
``campaign.unlocks``), ``duel_pool()`` one player's Duel markers. ``markers_used``
counts a record's markers per ``(type, value)``: every marker on a task tile of any
section plus the ``completed:`` header.

>>> board_game_pool([])["forest"]
{4: 1, 5: 2, 6: 2}
>>> duel_pool()["double"]
{6: 3}
"""

from __future__ import annotations

from companion.rules.campaign.unlocks import default_content, live_effects
from companion.rules.notation import Record, TaskSpec


def board_game_pool(unlocked: list[str]) -> dict[str, dict[int, int]]:
    """Markers in the box for a board game: the base pool plus the markers of every
    unlocked box or achievement, as the campaign content (editable data) says."""
    content = default_content()
    known = [u for u in unlocked
             if u in content.boxes or u in content.achievements or u == "red-heart"]
    pool: dict[str, dict[int, int]] = {}
    for kind, values in live_effects(known, content).markers.items():
        counts: dict[int, int] = {}
        for v in values:
            counts[v] = counts.get(v, 0) + 1
        pool[kind] = counts
    return pool


def duel_pool() -> dict[str, dict[int, int]]:
    """One Duel player's markers: 3, 4, 5, 6 of every type, three doubles of 6."""
    pool = {t: {3: 1, 4: 1, 5: 1, 6: 1} for t in
            ("forest", "grain", "village", "track", "stream", "wraparound")}
    pool["double"] = {6: 3}
    return pool


def marker_pool(record: Record) -> dict[str, dict[int, int]]:
    """The pool a record's markers are counted against."""
    return duel_pool() if record.is_duel else board_game_pool(record.unlocked)


def markers_used(record: Record) -> dict[tuple[str, int], int]:
    """How many markers of each (type, value) the record uses (tiles + header)."""
    used: dict[tuple[str, int], int] = {}
    specs: list[TaskSpec] = [p.task for s in record.sections for p in s.placements
                             if p.task is not None and p.task.value is not None]
    specs += record.completed
    for spec in specs:
        assert spec.value is not None
        key = (spec.type, spec.value)
        used[key] = used.get(key, 0) + 1
    return used


def markers_left(record: Record, kind: str, value: int) -> int:
    """How many markers of ``kind``/``value`` the box still holds for this record."""
    have = marker_pool(record).get(kind, {}).get(value, 0)
    return have - markers_used(record).get((kind, value), 0)
