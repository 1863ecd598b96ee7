"""Combining two partial maps (two photos of one table) and connected orders."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.errors import IllegalPlacementError
from companion.rules.hexgrid import Hex
from companion.rules.mapmerge import HexTransform, merge_maps
from companion.rules.notation import TaskSpec, parse_placement
from companion.rules.ordering import connected_order
from companion.rules.randomgame import random_game


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 5000), steps=st.integers(0, 5), dq=st.integers(-9, 9),
       dr=st.integers(-9, 9))
def test_two_overlapping_halves_merge_back_into_the_whole_map(
    seed: int, steps: int, dq: int, dr: int
) -> None:
    _, board = random_game(seed, 30)
    full = {h: p.code for h, p in board.tiles.items()}
    hexes = sorted(full, key=lambda h: (h.q, h.r))
    half = len(hexes) // 2
    first = {h: full[h] for h in hexes[: half + 6]}
    moved = HexTransform(steps, dq, dr)
    second = {moved.apply_hex(h): moved.apply_code(full[h]) for h in hexes[half - 6:]}
    merged, _, conflicts = merge_maps(first, second)
    assert merged == full
    assert conflicts == []


def test_maps_without_overlap_are_refused() -> None:
    with pytest.raises(ValueError, match="share only 0"):
        merge_maps({Hex(0, 0): "MMMMMM"}, {Hex(0, 0): "FFFFFF"})


def test_connected_order_refuses_an_island() -> None:
    ps = [parse_placement(t, "board-game", n) for n, t in
          enumerate(("0 0 MMMMMM", "0 1 MMMMMM", "5 5 MMMMMM"), start=3)]
    with pytest.raises(IllegalPlacementError, match=r"line 5: \(5, 5\) is not connected"):
        connected_order(ps)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 5000), data=st.data())
def test_connected_order_of_a_shuffled_final_map_replays_legally(
    seed: int, data: st.DataObject
) -> None:
    from companion.rules.board import Board

    record, board = random_game(seed, 25)
    lying = {m.at for m in board.markers if m.state == "active"}
    final_map = [  # a marker that completed or failed is no longer on the table
        p if p.task is None or p.at in lying
        else replace(p, task=TaskSpec(p.task.type, None, p.task.terrains))
        for p in record.placements
    ]
    shuffled = data.draw(st.permutations(final_map))
    replayed = Board()
    for p in connected_order(shuffled):
        replayed.push_checked(p)
    assert {h: p.code for h, p in replayed.tiles.items()} == {
        h: p.code for h, p in board.tiles.items()
    }
