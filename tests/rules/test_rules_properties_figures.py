"""Property tests (hypothesis) of the figures and limits of issue 15 on random legal
games: hearts, the photographer's cameras, wraparound limits, the house-rule switches
and reasons as codes."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.board import Board
from companion.rules.errors import IllegalPlacementError
from companion.rules.game import replay
from companion.rules.hexgrid import Hex, distance
from companion.rules.notation import (
    Placement,
    Record,
    Section,
    TaskSpec,
    parse_record,
    write_record,
)
from companion.rules.randomgame import random_game
from companion.rules.reasons import CODES, render
from companion.rules.rulings import RULINGS, RuleSet
from companion.rules.scoring import score_text
from companion.rules.tiles import TERRAINS, catalogue, rotate

seeds = st.integers(min_value=0, max_value=10_000)
sizes = st.integers(min_value=8, max_value=45)


def duel_text(placements: list[Placement], modules: str = "2") -> str:
    record = Record(game="duel", modules=[int(m) for m in modules.split(",")],
                    sections=[Section("red", list(placements))])
    return write_record(record)


def line_of(text: str, index: int) -> int | None:
    """The record line of the ``index``-th placement of ``text``."""
    return parse_record(text).placements[index].line


def camera_walk(placements: list[Placement], start: int) -> list[Placement]:
    """The photographer on the tile at ``start`` (made the Photographer special tile of
    its turn's line) and a camera on every later tile placed next to where it stands."""
    out = list(placements)
    photographer = out[start].at
    out[start] = replace(out[start], special="photographer", task=None, flag=None)
    for i in range(start + 1, len(out)):
        if distance(out[i].at, photographer) == 1 and out[i].special is None:
            out[i] = replace(out[i], camera=True)
            photographer = out[i].at
    return out


@settings(max_examples=20, deadline=None)
@given(seed=seeds, n=sizes, data=st.data())
def test_cameras_that_follow_the_photographer_score_one_each_without_warning(
    seed: int, n: int, data: st.DataObject
) -> None:
    record, _ = random_game(seed, n)
    start = data.draw(st.integers(1, len(record.placements) - 2))
    placements = camera_walk(record.placements, start)
    sheet = score_text(duel_text(placements))["players"]["red"]
    cameras = sum(p.camera for p in placements)
    assert sheet["module2"]["photographer"] == cameras
    assert not [w for w in sheet["warnings"] if w["code"].startswith("camera")]


@settings(max_examples=20, deadline=None)
@given(seed=seeds, n=sizes, data=st.data())
def test_a_camera_away_from_the_photographer_is_warned_once_and_still_scored(
    seed: int, n: int, data: st.DataObject
) -> None:
    record, _ = random_game(seed, n)
    start = data.draw(st.integers(1, len(record.placements) - 2))
    placements = camera_walk(record.placements, start)
    photographer = placements[start].at
    far = [i for i in range(start + 1, len(placements))
           if not placements[i].camera and distance(placements[i].at, photographer) > 1
           and all(not placements[j].camera for j in range(start + 1, i))]
    if not far:
        return
    i = far[0]
    placements[i] = replace(placements[i], camera=True)
    text = duel_text(placements)
    sheet = score_text(text)["players"]["red"]
    warned = [w for w in sheet["warnings"] if w["code"] == "camera-not-next-to-photographer"]
    assert warned and warned[0]["line"] == line_of(text, i)
    assert sheet["module2"]["photographer"] == sum(p.camera for p in placements)


@settings(max_examples=20, deadline=None)
@given(seed=seeds, n=sizes, data=st.data())
def test_a_heart_on_a_task_tile_is_refused_in_the_duel_and_warned_in_the_board_game(
    seed: int, n: int, data: st.DataObject
) -> None:
    record, _ = random_game(seed, n)
    tasks = [i for i, p in enumerate(record.placements) if p.task is not None]
    i = data.draw(st.sampled_from(tasks))
    placements = list(record.placements)
    placements[i] = replace(placements[i], heart=True)
    text = duel_text(placements)
    with pytest.raises(IllegalPlacementError) as err:
        score_text(text)
    assert err.value.why.code == "heart-not-on-landscape"
    assert err.value.line == line_of(text, i)
    board_game = write_record(Record(game="board-game", unlocked=["red-hearts"],
                                     sections=[Section(None, placements)]))
    sheet = score_text(board_game)
    assert [w["line"] for w in sheet["warnings"]
            if w["code"] == "heart-on-task-or-special"] == [line_of(board_game, i)]


@settings(max_examples=20, deadline=None)
@given(seed=seeds, n=sizes, value=st.integers(3, 6))
def test_wraparound_placements_never_have_more_neighbours_than_the_marker(
    seed: int, n: int, value: int
) -> None:
    _, board = random_game(seed, n)
    tile = Placement(Hex(0, 0), "MMMMMM", task=TaskSpec("wraparound", value, ()))
    legal = {at for at, _ in board.legal_placements(tile)}
    for at in board.frontier():
        if board.edge_conflict(at, tile.code) is not None:
            assert at not in legal
            continue
        crowded = board.neighbors_count(at) > value
        assert (at in legal) != crowded
        why = board.illegal_reason(tile.moved(at))
        if crowded:
            assert why is not None and why.code == "wraparound-too-many-neighbours"


def _first_illegal(board: Board, codes: list[str]) -> list[Any]:
    out = []
    for at in [*board.frontier(), *list(board.tiles)[:3], Hex(40, 40)]:
        for code in codes:
            p = Placement(at, code, line=7)
            why = board.illegal_reason(p)
            if why is not None:
                out.append((p, why))
    return out


@settings(max_examples=15, deadline=None)
@given(seed=seeds, n=sizes)
def test_every_refusal_has_a_known_code_and_the_line_form_of_the_cli(seed: int, n: int) -> None:
    _, board = random_game(seed, n)
    refusals = _first_illegal(board, ["TTTTTT", "SSSSSS", "MMMMMM", "FTFSFM"])
    assert refusals
    for p, why in refusals:
        assert why.code in CODES and render(why) == board.why_illegal(p)
        with pytest.raises(IllegalPlacementError) as err:
            board.push_checked(p)
        assert str(err.value) == f"line 7: {render(why)}"
        assert err.value.why == why


switches = st.lists(st.sampled_from(sorted(r for r, ruling in RULINGS.items()
                                           if ruling.switchable)), unique=True)


@settings(max_examples=40, deadline=None)
@given(ids=switches)
def test_rule_set_switches_round_trip_through_the_header(ids: list[str]) -> None:
    rules = RuleSet.parse([RULINGS[r].switch for r in ids])
    for rid, ruling in RULINGS.items():
        default = not ruling.house_rule
        assert rules.on(rid) == (default != (rid in ids))
    again = RuleSet.parse(rules.header().split(", ")) if rules.header() else RuleSet()
    assert again == rules


@settings(max_examples=15, deadline=None)
@given(seed=seeds, n=sizes)
def test_the_longest_chain_house_rule_never_beats_the_whole_network(seed: int, n: int) -> None:
    record, _ = random_game(seed, n)
    book = score_text(write_record(record))["longest"]
    record.rulings = ["R-2=on"]
    chain = score_text(write_record(record))["longest"]
    assert all(chain[k] <= book[k] for k in ("track", "stream"))


@settings(max_examples=15, deadline=None)
@given(seed=seeds, n=sizes)
def test_replay_keeps_every_reason_coded(seed: int, n: int) -> None:
    record, _ = random_game(seed, n)
    game = replay(record)
    for m in game.board.markers:
        assert m.state == "active" or (m.why is not None and m.why.code in CODES)
    assert all(w.code in CODES for w in game.warnings)


def _slow_fails(board: Board, p: Placement) -> Any:
    board.push(p)
    try:
        state, why, _ = board.marker_state(board.markers[-1])
    finally:
        board.pop()
    return why if state == "failed" else None


task_codes = [t.code for t in catalogue() if t.section == "task"]


@settings(max_examples=25, deadline=None)
@given(seed=seeds, n=sizes, code=st.sampled_from(task_codes), value=st.integers(3, 7),
       data=st.data())
def test_own_marker_check_without_placing_equals_push_and_pop(
    seed: int, n: int, code: str, value: int, data: st.DataObject
) -> None:
    _, board = random_game(seed, n)
    shown = sorted({TERRAINS[c] for c in code if c in "FGVTS"})
    kinds: list[tuple[str, tuple[str, ...]]] = [(k, (k,)) for k in shown]
    if len(shown) >= 2:
        kinds.append(("double", (shown[0], shown[1])))
    kind, terrains = data.draw(st.sampled_from(kinds))
    checked = 0
    for at in board.frontier():
        for k in range(6):
            p = Placement(at, rotate(code, k), task=TaskSpec(kind, value, terrains))
            if board.edge_conflict(at, p.code) is None:
                assert board.own_marker_fails(p) == _slow_fails(board, p)
                checked += 1
    assert checked
