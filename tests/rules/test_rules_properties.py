"""Property tests (hypothesis) of the engine's invariants on random legal games
built from the tile catalogue: symmetry of the sheet, exact undo, and the
incremental territories against a from-scratch flood fill."""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.board import Board
from companion.rules.game import replay
from companion.rules.hexgrid import Hex
from companion.rules.notation import Placement, Record, parse_record, write_record
from companion.rules.randomgame import random_game
from companion.rules.scoring import score
from companion.rules.territories import BoardTerritories, flood_fill
from companion.rules.tiles import parse_split, rotate, split_spec

seeds = st.integers(min_value=0, max_value=10_000)
sizes = st.integers(min_value=5, max_value=45)


def _summary(sheet: dict[str, Any]) -> dict[str, Any]:
    keys = ("tasks", "tasks_total", "flags", "longest", "bonus_total", "unlocked",
            "unlocked_total", "total")
    out = {k: sheet[k] for k in keys}
    out["markers"] = [(m["type"], m["value"], m["state"], m["turn"]) for m in sheet["markers"]]
    return out


def _transform(p: Placement, steps: int, offset: tuple[int, int]) -> Placement:
    at = p.at.rotate(steps)
    split = p.split
    if split:
        groups = parse_split(split, p.code)
        split = split_spec({k: [[(e + steps) % 6 for e in g] for g in gs]
                            for k, gs in groups.items()})
    return replace(p, at=Hex(at.q + offset[0], at.r + offset[1]), code=rotate(p.code, steps),
                   split=split)


@settings(max_examples=25, deadline=None)
@given(seed=seeds, n=sizes, steps=st.integers(0, 5),
       dq=st.integers(-20, 20), dr=st.integers(-20, 20))
def test_moving_or_rotating_the_whole_map_keeps_the_sheet(
    seed: int, n: int, steps: int, dq: int, dr: int
) -> None:
    record, _ = random_game(seed, n)
    moved = Record(game=record.game)
    moved.placements.extend(_transform(p, steps, (dq, dr)) for p in record.placements)
    before = score(replay(parse_record(write_record(record)))).to_json()
    after = score(replay(parse_record(write_record(moved)))).to_json()
    assert _summary(before) == _summary(after)


def _state(board: Board) -> Any:
    return (
        dict(board.tiles), list(board.history), list(board.turns), board.active_count,
        [(m.index, m.state, m.turn, m.reason, m.via) for m in board.markers],
        copy.deepcopy(board.__dict__["_parent"]), list(board.__dict__["_size"]),
        list(board.__dict__["_open"]), copy.deepcopy(board.__dict__["_tiles_of"]),
        dict(board.__dict__["_nodes"]),
    )


@settings(max_examples=25, deadline=None)
@given(seed=seeds, n=sizes, data=st.data())
def test_pop_restores_the_exact_earlier_state(seed: int, n: int, data: st.DataObject) -> None:
    record, board = random_game(seed, n)
    cut = data.draw(st.integers(0, len(record.placements) - 1))
    partial = Board()
    for p in record.placements[:cut]:
        partial.push(p)
    before = _state(partial)
    for p in record.placements[cut:]:
        partial.push(p)
    for _ in record.placements[cut:]:
        partial.pop()
    assert _state(partial) == before


def _canon(territories: Any) -> list[Any]:
    return sorted((t.terrain, sorted(t.nodes), t.open_edges) for t in territories)


@settings(max_examples=15, deadline=None)
@given(seed=seeds, n=sizes)
def test_incremental_territories_equal_flood_fill_after_every_placement(
    seed: int, n: int
) -> None:
    record, _ = random_game(seed, n)
    board = Board()
    for p in record.placements:
        board.push_checked(p)
        fresh = flood_fill(board.tiles)
        for t in fresh:
            for h, k in t.nodes:
                node = min(board.node_ids(h)) + k  # area k of a tile is its k-th node
                assert board.component_size(node) == t.size
                assert (board.component_open(node) == 0) == t.closed
                assert board.component_open(node) == len(t.open_edges)
        assert _canon(BoardTerritories(board).all) == _canon(fresh)


@settings(max_examples=15, deadline=None)
@given(seed=seeds, n=sizes)
def test_copy_is_independent_and_equal(seed: int, n: int) -> None:
    _, board = random_game(seed, n)
    twin = board.copy()
    assert _state(twin) == _state(board)
    twin.pop()
    assert len(twin) == len(board) - 1


@settings(max_examples=15, deadline=None)
@given(seed=seeds, n=sizes)
def test_records_round_trip(seed: int, n: int) -> None:
    record, _ = random_game(seed, n)
    text = write_record(record)
    assert write_record(parse_record(text)) == text
    assert parse_record(text) == record


@settings(max_examples=15, deadline=None)
@given(seed=seeds, n=sizes)
def test_active_count_is_the_number_of_active_markers(seed: int, n: int) -> None:
    record, _ = random_game(seed, n)
    board = Board()
    for p in record.placements:
        board.push(p)
        assert board.active_count == len(board.active_markers())
    while board.history:
        board.pop()
        assert board.active_count == len(board.active_markers())
