"""Placement orders for a final map entered in any order (end-of-game entry, photos).

A final map is a set of placements with no history. ``connected_order`` returns
them in an order in which every tile after the first touches an earlier one
(breadth first from the first tile, ties broken by the given order), so the
board can replay them with every placement rule checked. For a map that really
lay on a table this order is legal: edges match whatever the order, and a
marker still lying on a task tile has an open territory smaller than its
number, so no order makes it fail.

>>> from companion.rules.notation import parse_placement
>>> ps = [parse_placement(t, "board-game") for t in ("0 2 MMMMMM", "0 0 MMMMMM", "0 1 MMMMMM")]
>>> [str(p.at) for p in connected_order(ps)]
['(0, 2)', '(0, 1)', '(0, 0)']
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from companion.rules.errors import IllegalPlacementError
from companion.rules.hexgrid import Hex
from companion.rules.notation import Placement
from companion.rules.reasons import Reason


def connected_order(placements: Sequence[Placement]) -> list[Placement]:
    """The placements in a connected order; ``IllegalPlacementError`` names a tile
    that touches no other (or a hex given twice)."""
    if not placements:
        return []
    by_hex: dict[Hex, Placement] = {}
    for p in placements:
        if p.at in by_hex:
            raise IllegalPlacementError(Reason("hex-twice", {"at": p.at}), p.line)
        by_hex[p.at] = p
    rank = {p.at: i for i, p in enumerate(placements)}
    out: list[Placement] = []
    seen = {placements[0].at}
    queue = deque([placements[0].at])
    while queue:
        h = queue.popleft()
        out.append(by_hex[h])
        for n in sorted((n for n in h.neighbors() if n in by_hex and n not in seen),
                        key=rank.__getitem__):
            seen.add(n)
            queue.append(n)
    if len(out) < len(placements):
        lost = next(p for p in placements if p.at not in seen)
        raise IllegalPlacementError(Reason("not-connected", {"at": lost.at}), lost.line)
    return out


def is_connected_order(placements: Sequence[Placement]) -> bool:
    """True when every placement after the first touches an earlier one."""
    seen: set[Hex] = set()
    for p in placements:
        if seen and not any(n in seen for n in p.at.neighbors()):
            return False
        seen.add(p.at)
    return True
