"""What the box holds for a game, the tiles that fit a hex, impossible states
(``companion.rules.box``)."""

from __future__ import annotations

from companion.rules import (
    Hex,
    box_flags,
    canonical,
    catalogue,
    fit,
    fits,
    in_play,
    load_position,
    parse_record,
    rotate,
    tiles_left,
)

START = "game: board-game\n0 0 GGMTTM task=grain/4\n"


def flags_of(text: str) -> list[tuple[str, Hex | None]]:
    position = load_position(text)
    return [(f.code, f.at) for f in box_flags(position.record, position.game.boards.values())]


def test_in_play_follows_the_unlocks() -> None:
    base = in_play(parse_record("game: board-game\n"))
    assert base.sections == ("landscape", "task")
    assert base.specials == () and base.values(["forest"]) == [4, 5, 6]
    more = in_play(parse_record("game: board-game\nunlocked: box1, box2, circus\n"))
    assert more.sections == ("landscape", "task", "box-1-task", "box-2-landscape")
    assert more.specials == ("circus",)
    assert more.values(["forest"]) == [4, 5, 6, 7] and more.values(["track"]) == [4, 5, 6]
    assert in_play(parse_record("game: duel\nplayer: a\n")).values(["forest"]) == [3, 4, 5, 6]


def test_tiles_on_the_map_are_no_longer_left() -> None:
    position = load_position(START)
    left = tiles_left(position.record, position.board())
    assert left[("landscape", canonical("GGMTTM"))] == 0
    assert sum(left.values()) == sum(1 for t in catalogue()
                                     if t.section in ("landscape", "task")) - 1
    assert not any(s.startswith("box") for s, _ in left)


def test_fits_puts_best_edge_matches_first_in_the_best_rotation() -> None:
    board = load_position(START).board()
    found = fits(board, Hex(0, 1), ["GGGGGG", "TMMMMM", "MMMTTM", "SSSSSS"])
    assert [f.code for f in found] == ["TMMMMM", "MMMTTM"]  # grain and stream meet track
    best = found[1]
    assert rotate(best.code, best.rotation)[0] == "T" and best.matches == 1
    # (1, -1) touches the grain edge 1 of (0, 0): grain there first
    assert [f.code for f in fits(board, Hex(1, -1), ["MMMMMM", "GGGGGG"])] == [
        "GGGGGG", "MMMMMM"]
    assert fit(board, Hex(0, 0), "MMMMMM") is None  # not a free hex
    assert fit(board, Hex(0, 1), "TMMMMM").legal == (0,)


def test_impossible_states_are_flagged() -> None:
    assert flags_of(START) == []
    # a second copy of a tile the box holds once
    assert flags_of(START + "0 1 TTMGGM\n") == [("tile-over-box", Hex(0, 1))]
    # a Box 2 tile without Box 2; with it, no flag
    assert flags_of(START + "1 -1 MVMMFF\n") == [("tile-not-unlocked", Hex(1, -1))]
    assert flags_of("game: board-game\nunlocked: box2\n0 0 GGMTTM task=grain/4\n"
                    "1 -1 MVMMFF\n") == []
    # marker 7 in a base game; three forest 5s where the box holds two
    assert flags_of("game: board-game\n0 0 FFFFFF task=forest/7\n") == [
        ("marker-not-in-pool", Hex(0, 0))]
    three = ("game: board-game\n0 0 FFFFFF task=forest/5\n0 1 MFFFFF task=forest/5\n"
             "1 0 FFMFFF task=forest/5\n")
    assert [c for c, _ in flags_of(three) if c.startswith("marker")] == ["marker-over-pool"]
    # a special tile the game has not unlocked
    assert flags_of("game: board-game\n0 0 MMMMMM special=circus\n") == [
        ("special-not-unlocked", Hex(0, 0))]
    assert flags_of("game: board-game\nunlocked: circus\n0 0 MMMMMM special=circus\n") == []


def test_next_tile_kind_follows_the_reveal_order() -> None:
    from companion.rules import next_tile_kind

    assert next_tile_kind(load_position("game: board-game\n").game) == "task"
    three = ("game: board-game\n0 0 GGGGGG task=grain/4\n0 1 GGGGGG task=grain/5\n"
             "1 0 FFFFFF task=forest/5\n")
    assert next_tile_kind(load_position(three).game) == "landscape"
    assert next_tile_kind(load_position("game: duel\nplayer: a\n").game) is None
    assert next_tile_kind(load_position("game: board-game\ncompleted: forest/4\n").game) is None


def test_placement_flags_warn_before_the_tile_is_placed() -> None:
    from companion.rules import Placement, TaskSpec, placement_flags

    position = load_position(START)
    board = position.board()
    assert placement_flags(position.record, board, Placement(Hex(1, -1), "GGGGGG")) == []
    assert [f.code for f in placement_flags(position.record, board,
                                            Placement(Hex(0, 1), "TTMGGM"))] == ["tile-over-box"]
    seven = Placement(Hex(1, -1), "GGGGGG", task=TaskSpec("grain", 7, ("grain",)))
    assert [f.code for f in placement_flags(position.record, board, seven)] == [
        "marker-not-in-pool"]


def _duel(lines: str) -> str:
    return "game: duel\nmodules: 2\nplayer: a\n" + lines


def test_duel_box_holds_its_kinds_per_player() -> None:
    from companion.rules import DUEL_HOLDS

    assert DUEL_HOLDS == {"landscape": 42, "task": 27, "school": 1, "granary": 1,
                          "old-oak": 1, "photographer": 1}


def test_duel_tile_over_box_is_flagged_before_and_after_placing() -> None:
    from companion.rules import Placement, box_flags, placement_flags, render

    ring = _spiral(50)
    text = _duel("".join(f"{h.q} {h.r} MMMMMM\n" for h in ring[:42]))
    position = load_position(text)
    board = position.board("a")
    assert box_flags(position.record, [board]) == []
    extra = Placement(ring[42], "MMMMMM")
    [flag] = placement_flags(position.record, board, extra)
    assert (flag.code, flag.at, flag.params["kind"], flag.params["have"]) == (
        "tile-over-box", ring[42], "landscape", 42)
    assert flag.why is not None and render(flag.why) == (
        f"tile MMMMMM at ({ring[42].q}, {ring[42].r}): the box holds only 42 landscape "
        "tiles per player")
    over = load_position(text + f"{ring[42].q} {ring[42].r} MMMMMM\n")
    assert [(f.code, f.at) for f in box_flags(over.record, over.game.boards.values())] == [
        ("tile-over-box", ring[42])]


def test_duel_second_special_tile_is_flagged() -> None:
    from companion.rules import Placement, placement_flags

    position = load_position(_duel("0 0 MMMMMM\n1 0 VVVVVV special=school\n"))
    board = position.board("a")
    again = Placement(Hex(-1, 0), "VVVVVV", special="school")
    [flag] = placement_flags(position.record, board, again)
    assert flag.params["kind"] == "school" and flag.why is not None
    assert str(flag.why).startswith("School tile at (-1, 0): the box holds one per player")
    other = Placement(Hex(-1, 0), "GGGGGG", special="granary")
    assert placement_flags(position.record, board, other) == []
    assert placement_flags(position.record, board, Placement(Hex(-1, 0), "MMMMMM")) == []


def _spiral(n: int) -> list[Hex]:
    """``n`` hexes nearest the origin, nearest first (each touches one placed before it)."""
    from companion.rules.hexgrid import distance, within

    near = sorted(within(Hex(0, 0), 5), key=lambda h: (distance(h, Hex(0, 0)), h.q, h.r))
    return [Hex(0, 0), *near][:n]
