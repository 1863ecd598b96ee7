"""The recorder's text-in/text-out game logic and tile choice, without HTTP."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import (
    IllegalPlacementError,
    NotationError,
    board_game_pool,
    parse_placement,
    parse_record,
    random_record,
    rotate,
)
from companion.web.hexmap import map_view
from companion.web.play.tiles import choices, filter_catalogue, matches, painted_code
from companion.web.play_service import (
    add_completed,
    build_placement,
    duel_turn,
    explain_illegal,
    load_position,
    place,
    redo,
    undo,
)


def test_pattern_matches_every_rotation_and_only_those() -> None:
    for k in range(6):
        assert matches("TTMG", rotate("GGMTTM", k))
    assert not matches("TG", "GGMTTM")
    assert {c.code for c in filter_catalogue("")} == {c.code for c in choices()}
    assert all("SS" in c.code + c.code[:5] for c in filter_catalogue("ss"))
    assert painted_code(list("tmmmmm")) == "TMMMMM"
    assert painted_code(["T", "M", "", "M", "M", "M"]) is None


def test_explanation_names_the_edge_and_the_rule() -> None:
    assert explain_illegal("track edge 3 meets grain at (0, 1)") == (
        "Track edge 3 (S) meets grain at (0, 1). A track edge may only meet a track edge "
        "or an empty space.")
    assert "must touch" in explain_illegal("(5, 5) touches no placed tile")
    assert "No two tiles" in explain_illegal("(0, 0) already holds a tile (line 2)")
    assert "stream edge may only" in explain_illegal("forest edge 1 meets stream at (1, -1)")


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
    turn = duel_turn(load_position(text))
    assert (turn.player, turn.number, turn.offered) == ("red", 1, None)
    text = place(text, "red", parse_placement("0 0 FFFFSS task=forest/4", "duel"))
    turn = duel_turn(load_position(text))
    assert (turn.player, turn.number) == ("blue", 1)
    assert turn.offered is not None and turn.offered.code == "FFFFSS"
    text = place(text, "blue", parse_placement("0 0 FFFFSS task=forest/4", "duel"))
    text = place(text, "red", parse_placement("1 0 MMMMMM", "duel"))
    # a Module 2 special tile is an extra tile of the same turn: still blue's turn 2
    text = place(text, "red", parse_placement("0 1 MMMMMM special=school", "duel"))
    turn = duel_turn(load_position(text))
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


def test_map_view_geometry_fits_all_tiles() -> None:
    position = load_position(random_record(5, landscape=20))
    view = map_view(position.board())
    x, y, w, h = (float(v) for v in view.viewbox.split())
    for t in view.tiles + view.slots:  # type: ignore[operator]
        assert x < t.cx < x + w and y < t.cy < y + h
    assert len(view.tiles) == len(position.board())
    assert {(s.q, s.r) for s in view.slots} == {tuple(h) for h in position.board().frontier()}
