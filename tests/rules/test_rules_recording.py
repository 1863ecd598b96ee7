"""Recording a game (``companion.rules.recording``): text in, text out; whose turn."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.duel.turns import duel_turn
from companion.rules.errors import IllegalPlacementError, NotationError
from companion.rules.game import replay_text
from companion.rules.notation import parse_placement, parse_record
from companion.rules.pools import board_game_pool
from companion.rules.randomgame import random_record
from companion.rules.reasons import Reason
from companion.rules.recording import (
    add_completed,
    build_placement,
    explain_illegal,
    load_position,
    place,
    redo,
    undo,
)


def test_explanation_names_the_edge_and_the_rule() -> None:
    board = replay_text("game: board-game\n0 0 GGGGGG\n").board
    why = board.illegal_reason(parse_placement("0 1 TMMMMM", "board-game"))
    assert why is not None and why.code == "edge-mismatch"
    assert explain_illegal(why) == (
        "Track edge 0 (N) meets grain at (0, 0). A track edge may only meet a track edge "
        "or an empty space.")
    touch = board.illegal_reason(parse_placement("5 5 MMMMMM", "board-game"))
    assert touch is not None and "must touch" in explain_illegal(touch)
    taken = board.illegal_reason(parse_placement("0 0 MMMMMM", "board-game"))
    assert taken is not None and "No two tiles" in explain_illegal(taken)
    stream = Reason.of("edge-mismatch", terrain="forest", edge=1, other="stream",
                       neighbour=(1, -1))
    assert "stream edge may only" in explain_illegal(stream)


def test_place_raises_the_code_of_the_broken_rule() -> None:
    with pytest.raises(IllegalPlacementError) as err:
        place("game: board-game\n0 0 GGMTTM\n", None, parse_placement("0 1 GGGGGG", "board-game"))
    assert err.value.why.code == "rule-broken"
    assert err.value.why["why"].code == "edge-mismatch"
    assert err.value.why["why"]["neighbour"] == (0, 0)


def test_place_refuses_with_the_reason_and_keeps_the_text() -> None:
    text = "game: board-game\n0 0 GGMTTM\n"
    with pytest.raises(IllegalPlacementError, match="meets track"):
        place(text, None, parse_placement("0 1 GGGGGG", "board-game"))
    assert place(text, None, parse_placement("0 1 TMMMMM", "board-game")).endswith(
        "0 0 GGMTTM\n0 1 TMMMMM\n")


def test_build_placement_validates_marker_values() -> None:
    p = build_placement("board-game", 1, 0, "ggmttm", {"task": "track/5", "heart": "1"})
    assert (p.code, p.task and p.task.text(), p.heart) == ("GGMTTM", "track/5", True)
    with pytest.raises(NotationError, match="no track marker shows 7"):
        build_placement("board-game", 1, 0, "GGMTTM", {"task": "track/7"})
    with pytest.raises(NotationError, match="shows no forest"):
        build_placement("board-game", 1, 0, "GGMTTM", {"flag": "forest"})


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(1, 12))
def test_undo_then_redo_gives_back_the_same_text(seed: int, steps: int) -> None:
    text = random_record(seed, landscape=12)
    stack = []
    current = text
    for _ in range(steps):
        if not load_position(current).board().history:
            break
        current, entry = undo(current)
        stack.append(entry)
    for entry in reversed(stack):
        current = redo(current, entry)
    assert parse_record(current) == parse_record(text)


def test_duel_turns_and_undo_order() -> None:
    text = "game: duel\nmodules: 2\nplayer: red\nplayer: blue\n"
    turn = duel_turn(load_position(text).game)
    assert (turn.player, turn.number, turn.offered) == ("red", 1, None)
    text = place(text, "red", parse_placement("0 0 FFFFSS task=forest/4", "duel"))
    turn = duel_turn(load_position(text).game)
    assert (turn.player, turn.number) == ("blue", 1)
    assert turn.offered is not None and turn.offered.code == "FFFFSS"
    text = place(text, "blue", parse_placement("0 0 FFFFSS task=forest/4", "duel"))
    text = place(text, "red", parse_placement("1 0 MMMMMM", "duel"))
    # a Module 2 special tile is an extra tile of the same turn: still blue's turn 2
    text = place(text, "red", parse_placement("0 1 MMMMMM special=school", "duel"))
    turn = duel_turn(load_position(text).game)
    assert (turn.player, turn.number) == ("blue", 2)
    assert turn.offered is not None and turn.offered.code == "MMMMMM"
    assert turn.offered.special is None
    # undo takes red's latest line (red is ahead), then blue's, then red's
    text, entry = undo(text)
    assert entry.player == "red" and "special=school" in entry.line
    text, entry = undo(text)
    assert entry == ("red", "1 0 MMMMMM")
    text, entry = undo(text)
    assert entry.player == "blue"


def test_completed_markers_follow_the_box() -> None:
    text = "game: board-game\n"
    for _ in range(2):
        text = add_completed(text, "grain", 6)
    with pytest.raises(NotationError, match="no grain marker of 6 is left"):
        add_completed(text, "grain", 6)
    with pytest.raises(NotationError):
        add_completed(text, "grain", 7)  # no 7s before the campaign unlocks them
    # campaign unlocks change the box (the engine's pool is the authority)
    text = "game: board-game\nunlocked: box1\n"
    have = board_game_pool(["box1"])["grain"].get(4, 0)
    for _ in range(have):
        text = add_completed(text, "grain", 4)
    assert text.count("grain/4") == have
    with pytest.raises(NotationError, match="no grain marker of 4 is left"):
        add_completed(text, "grain", 4)
