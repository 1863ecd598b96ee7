"""The board (rules.md §2-3): legality with its reason, unchecked/checked push,
exact ``pop()``, independent ``copy()``, ``legal_placements`` and marker states.

Geometry reminder: flat-topped hexes, axial ``q r``, edges 0..5 clockwise from the
top; the neighbour across edge ``i`` is ``(q, r) + D[i]`` with
``D = [(0,-1), (1,-1), (1,0), (0,1), (-1,1), (-1,0)]``, touching with edge ``(i+3) % 6``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.rules.board import Board
from companion.rules.errors import IllegalPlacementError, RulesError
from companion.rules.hexgrid import Hex, opposite
from companion.rules.notation import Placement, parse_record
from companion.rules.tiles import TERRAINS, rotate

DATA = Path(__file__).resolve().parent.parent / "data"
D = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]


def P(text: str) -> Placement:
    return Placement.parse(text, "board-game")


def board_of(*lines: str) -> Board:
    b = Board()
    for line in lines:
        b.push_checked(P(line))
    return b


def snapshot(b: Board) -> dict[str, Any]:
    """Everything observable about a board."""
    sizes = {(h, letter): b.territory_size(h, letter)
             for h, p in b.tiles.items() for letter in set(p.code)}
    return {
        "tiles": dict(b.tiles),
        "history": list(b.history),
        "turns": list(b.turns),
        "markers": [(m.at, m.task, m.state, m.turn, m.reason, m.via) for m in b.markers],
        "sizes": sizes,
        "frontier": sorted(b.frontier()),
    }


# ------------------------------------------------------------------ legality
def test_first_tile_may_go_anywhere() -> None:
    assert Board().why_illegal(P("7 -3 TTTTTT")) is None


def test_occupied_hex_names_the_earlier_line() -> None:
    b = Board()
    first = parse_record("game: board-game\n0 0 GGGGGG\n").placements[0]
    b.push_checked(first)
    assert b.why_illegal(P("0 0 VVVVVV")) == "(0, 0) already holds a tile (line 2)"


def test_tile_touching_nothing() -> None:
    b = board_of("0 0 GGGGGG")
    for q, r in [(2, 0), (0, 2), (-2, 1), (1, 1), (2, -2)]:
        assert b.why_illegal(P(f"{q} {r} GGGGGG")) == f"({q}, {r}) touches no placed tile"
    for dq, dr in D:
        assert b.is_legal(P(f"{dq} {dr} GGGGGG"))


def test_track_meeting_meadow_names_edge_terrain_and_neighbour() -> None:
    b = board_of("0 0 MMMMMM")
    # (1,0) touches (0,0) with its edge 5 (NW)
    assert b.why_illegal(P("1 0 TMMMMT")) == "track edge 5 meets meadow at (0, 0)"
    assert b.why_illegal(P("1 0 TMMMMM")) is None  # the track faces an empty hex


def test_every_terrain_pair_across_one_edge() -> None:
    """F, G, V, M meet each other freely; T and S meet only themselves."""
    for a in TERRAINS:
        for c in TERRAINS:
            b = board_of(f"0 0 MMM{a}MM")  # edge 3 (S) faces (0,1)
            reason = b.why_illegal(P(f"0 1 {c}MMMMM"))  # its edge 0 (N) faces (0,0)
            legal = a == c or (a not in "TS" and c not in "TS")
            if legal:
                assert reason is None, (a, c, reason)
            else:
                assert reason == f"{TERRAINS[c]} edge 0 meets {TERRAINS[a]} at (0, 0)"


def test_task_tile_refused_when_too_large() -> None:
    b = board_of("0 0 FMMFMM", "0 1 FMMFMM", "0 2 FMMFMM")
    assert b.why_illegal(P("0 3 FMMFMM task=forest/4")) is None  # exactly 4: completes
    assert b.why_illegal(P("0 3 FMMFMM task=forest/5")) is None
    b.push_checked(P("0 3 FMMFMM"))
    assert b.why_illegal(P("0 4 FMMFMM task=forest/4")) == (
        "task tile forest/4 would fail at once: its forest territory has 5 tiles, more than 4")
    assert b.why_illegal(P("0 4 FMMFMM task=forest/5")) is None


def test_task_tile_refused_when_closed_smaller() -> None:
    b = board_of("0 0 MMMFMM")
    assert b.why_illegal(P("0 1 FMMMMM task=forest/4")) == (
        "task tile forest/4 would fail at once: its forest territory is closed with 2 tiles, "
        "fewer than 4")
    # the same tile turned so that its forest faces an empty hex is fine
    assert b.why_illegal(P("0 1 MFMMMM task=forest/4")) is None


def test_task_tile_may_break_other_markers() -> None:
    b = board_of("0 0 MMMGMM task=grain/6")
    # the village task tile closes the grain territory: grain/6 fails, and that is legal
    b.push_checked(P("0 1 MMMMMV task=village/4"))
    assert [m.state for m in b.markers] == ["failed", "active"]
    assert b.markers[0].turn == 2


def test_refused_task_check_leaves_the_board_unchanged() -> None:
    b = board_of("0 0 FMMFMM task=forest/6", "0 1 FMMFMM", "0 2 FMMFMM", "0 3 FMMFMM")
    before = snapshot(b)
    assert not b.is_legal(P("0 4 FMMMMM task=forest/4"))  # 5 tiles > 4
    assert snapshot(b) == before


def test_push_checked_raises_with_the_record_line() -> None:
    record = parse_record("game: board-game\n0 0 MMMMMM\n\n1 0 TMMMMT\n")
    b = Board()
    b.push_checked(record.placements[0])
    with pytest.raises(IllegalPlacementError) as info:
        b.push_checked(record.placements[1])
    assert isinstance(info.value, RulesError)
    assert info.value.line == 4
    assert str(info.value) == "line 4: track edge 5 meets meadow at (0, 0)"
    assert len(b) == 1


def test_push_is_unchecked_but_never_stacks_tiles() -> None:
    b = Board()
    b.push(P("0 0 MMMMMM"))
    b.push(P("1 0 TMMMMT"))  # illegal edges: push does not check
    b.push(P("5 5 GGGGGG"))  # touches nothing: push does not check
    assert len(b) == 3
    with pytest.raises(IllegalPlacementError):
        b.push(P("0 0 GGGGGG"))


# ------------------------------------------------------------------ markers
def test_marker_lifecycle_and_reasons() -> None:
    b = board_of("0 0 FMMFMM task=forest/4")
    m = b.markers[0]
    assert (m.state, m.turn, m.placed_turn) == ("active", None, 1)
    assert b.marker_status(m)[0] == "active"
    for r in (1, 2):
        b.push_checked(P(f"0 {r} FMMFMM"))
        assert m.state == "active"
    b.push_checked(P("0 3 FMMFMM"))
    assert (m.state, m.turn) == ("completed", 4)
    assert "exactly 4" in m.reason
    b.push_checked(P("0 4 FMMFMM"))
    assert (m.state, m.turn) == ("completed", 4)
    assert b.active_markers() == []


def test_marker_without_value_is_no_marker() -> None:
    b = board_of("0 0 GGGGGG task=grain")
    assert b.markers == []


def test_territory_size_counts_tiles_not_edges() -> None:
    b = board_of("0 0 GGGGGG", "0 -1 GGGGGG", "1 -1 GGGGGG")
    # three tiles meeting pairwise on three edges: still 3 tiles
    assert b.territory_size(Hex(0, 0), "G") == 3
    assert b.territory_size(Hex(0, 0), "F") == 0


# ------------------------------------------------------------------ pop / copy
def _legal_records() -> list[Path]:
    import json

    out = []
    for path in sorted(DATA.glob("bg_*.dorf")):
        expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
        if "error" not in expected:
            out.append(path)
    return out


@pytest.mark.parametrize("record", _legal_records(), ids=lambda p: p.stem)
def test_pop_restores_every_earlier_state(record: Path) -> None:
    placements = parse_record(record.read_text(encoding="utf-8")).placements
    b = Board()
    states = [snapshot(b)]
    for p in placements:
        b.push_checked(p)
        states.append(snapshot(b))
    for p in reversed(placements):
        assert b.pop() == p
        states.pop()
        assert snapshot(b) == states[-1]
    with pytest.raises(IndexError):
        b.pop()


def test_pop_reactivates_a_completed_marker_and_allows_replay() -> None:
    b = board_of("0 0 FMMFMM task=forest/4", "0 1 FMMFMM", "0 2 FMMFMM", "0 3 FMMFMM")
    assert b.markers[0].state == "completed"
    b.pop()
    assert (b.markers[0].state, b.markers[0].turn, b.markers[0].reason) == ("active", None, "")
    b.push_checked(P("0 -1 MMMFMM"))  # a different 4th tile, closing the top
    assert (b.markers[0].state, b.markers[0].turn) == ("completed", 4)


def test_copy_is_equal_and_independent() -> None:
    b = board_of("0 0 FMMFMM task=forest/5", "0 1 FMMFMM", "0 2 FMMFMM")
    c = b.copy()
    assert snapshot(c) == snapshot(b)
    c.push_checked(P("0 3 FMMFMM"))
    c.push_checked(P("0 4 FMMFMM"))
    assert c.markers[0].state == "completed"
    assert b.markers[0].state == "active"
    assert len(b) == 3 and len(c) == 5
    b.pop()
    assert len(c) == 5


# ------------------------------------------------------------------ legal_placements
def test_legal_placements_on_an_empty_board() -> None:
    assert sorted(Board().legal_placements(P("0 0 GGMTTM"))) == [(Hex(0, 0), k) for k in range(6)]
    assert list(Board().legal_placements(P("0 0 MMMMMM"))) == [(Hex(0, 0), 0)]
    # rotations giving the same code are listed once
    assert sorted(Board().legal_placements(P("0 0 GMGMGM"))) == [(Hex(0, 0), 0), (Hex(0, 0), 1)]


def test_legal_placements_next_to_a_track() -> None:
    b = board_of("0 0 TMMMMM")  # track on edge 0, facing (0,-1)
    meadow = set(b.legal_placements(P("0 0 MMMMMM")))
    assert meadow == {(Hex(dq, dr), 0) for dq, dr in D if (dq, dr) != (0, -1)}
    track = set(b.legal_placements(P("0 0 TMMMMM")))
    # at (0,-1) the track must face down (edge 3): rotation 3; elsewhere the track
    # must not face (0,0): 5 rotations at each of the other 5 hexes
    expected = {(Hex(0, -1), 3)}
    for i, (dq, dr) in enumerate(D):
        if (dq, dr) != (0, -1):
            facing = opposite(i)  # the edge of the new tile that faces (0,0)
            expected |= {(Hex(dq, dr), k) for k in range(6) if k != facing}
    assert track == expected
    assert len(track) == 26
    for at, k in track:
        assert b.is_legal(P(f"{at.q} {at.r} {rotate('TMMMMM', k)}"))


def test_legal_placements_apply_the_task_rule() -> None:
    b = board_of("0 0 MMMFMM")  # forest on edge 3, facing (0,1)
    tile = P("0 0 FMMMMM task=forest/4")  # forest on edge k after k steps
    got = set(b.legal_placements(tile))
    # illegal exactly when the single forest edge faces the tile at (0,0): closed with
    # 1 tile (meeting meadow) or 2 tiles (meeting the forest edge at (0,1)) < 4
    expected = {(Hex(dq, dr), k) for i, (dq, dr) in enumerate(D) for k in range(6)
                if k != opposite(i)}
    assert got == expected
    assert len(got) == 30


def test_legal_placements_with_split_match_the_unsplit_tile() -> None:
    b = board_of("0 0 FFMFGG", "1 -1 MMMMFM")
    plain = set(b.legal_placements(P("0 0 FFMFGG")))
    split = set(b.legal_placements(P("0 0 FFMFGG split=F:01/3")))
    assert plain == split
    assert plain


def test_frontier() -> None:
    assert Board().frontier() == [Hex(0, 0)]
    b = board_of("0 0 MMMMMM", "0 1 MMMMMM")
    assert len(b.frontier()) == 8
    assert all(h not in b.tiles for h in b.frontier())
