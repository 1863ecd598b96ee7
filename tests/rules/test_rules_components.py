"""Unlocked components of the board-game pad (rules.md §5 E) and the Great Mill.

Each test builds a small legal map (replayed by the real engine), scores one
component and compares with a number worked out by hand in the comments.
Geometry: flat-topped, axial ``q r``; the neighbour across edge ``i`` (0 N, 1 NE,
2 SE, 3 S, 4 SW, 5 NW) is ``(q, r) + D[i]`` with
``D = [(0,-1), (1,-1), (1,0), (0,1), (-1,1), (-1,0)]``, touching with edge ``(i+3) % 6``.
"""

from __future__ import annotations

import pytest

from companion import score_record
from companion.rules.explain import Explanation
from companion.rules.game import replay_text
from companion.rules.landscape import Landscape
from companion.rules.scoring.components import COMPONENTS
from companion.rules.scoring.fields import landscape_of

RING = ["0 -1", "1 -1", "1 0", "0 1", "-1 1", "-1 0"]  # around (0,0), edge order 0..5


def land(*lines: str) -> Landscape:
    game = replay_text("game: board-game\n" + "\n".join(lines) + "\n")
    return landscape_of(game.record, game.board)


def score(component: str, *lines: str) -> Explanation:
    return COMPONENTS[component](land(*lines))


def test_every_pad_row_has_a_component() -> None:
    rows = {"red-hearts", "circus", "signalman", "shepherdess", "hill", "construction-site",
            "balloon-launch-site", "golden-heart", "forest-cabin", "harvest-festival",
            "watchtower", "locomotive", "ship", "train-station", "harbor", "great-mill"}
    assert rows <= set(COMPONENTS)


@pytest.mark.parametrize("component", sorted(COMPONENTS))
def test_component_without_its_tile_scores_zero(component: str) -> None:
    e = score(component, "0 0 GGGGGG", "0 1 GGGGGG")
    assert e.value == 0
    assert e.text


# ------------------------------------------------------------------ hearts
def test_red_heart_counts_matching_edges_meadow_included() -> None:
    # heart (0,0) "FGVMMM": N (0,-1) edge 3 F: match; NE (1,-1) edge 4 V against G: no;
    # SE (1,0) edge 5 V: match; S (0,1) edge 0 M: match (meadow); SW (-1,1) edge 1 F
    # against M: no; NW (-1,0) empty: no  -> 3
    e = score("red-hearts", "0 0 FGVMMM heart", "0 -1 MMMFMM", "1 -1 MMMMVM",
              "1 0 MMMMMV", "0 1 MMMMMM", "-1 1 MFMMMM")
    assert e.value == 3


def test_red_heart_empty_hexes_do_not_count() -> None:
    assert score("red-hearts", "0 0 MMMMMM heart").value == 0
    assert score("red-hearts", "0 0 MMMMMM heart", "0 1 MMMMMM").value == 1


def test_red_heart_at_most_six_and_hearts_add_up() -> None:
    ring = [f"{h} MMMMMM" for h in RING]
    assert score("red-hearts", "0 0 MMMMMM heart", *ring).value == 6
    # a second heart on the ring tile (0,-1): its neighbours (1,-1), (0,0), (-1,0) -> 3
    ring[0] = "0 -1 MMMMMM heart"
    assert score("red-hearts", "0 0 MMMMMM heart", *ring).value == 9


def test_golden_heart_scores_two_per_edge() -> None:
    ring = [f"{h} GGGGGG" for h in RING]
    assert score("golden-heart", "0 0 GGGGGG golden-heart", *ring).value == 12
    assert score("golden-heart", "0 0 GGGGGG golden-heart", *ring[:2]).value == 4
    # the golden heart is not a red heart and the other way round
    assert score("red-hearts", "0 0 GGGGGG golden-heart", *ring).value == 0
    assert score("golden-heart", "0 0 GGGGGG heart", *ring).value == 0


# ------------------------------------------------------------------ circus
def test_circus_ten_only_when_surrounded() -> None:
    ring = [f"{h} VVVVVV" for h in RING]
    assert score("circus", "0 0 VVVVVV special=circus", *ring).value == 10
    for missing in range(6):  # every ring tile touches (0,0), placed first
        partial = ring[:missing] + ring[missing + 1:]
        assert score("circus", "0 0 VVVVVV special=circus", *partial).value == 0


# ------------------------------------------------------------------ signalman
def test_signalman_counts_crossings_on_its_network_only() -> None:
    # network (0,-1) - (0,0) signalman - (0,1) - (1,1)... : crossings 2 + 1 + 3 = 6 -> 12;
    # (1,0) "MMTMMM crossing=4" is a separate network (its track edge 2 faces an empty hex)
    e = score("signalman", "0 0 TMMTMM special=signalman crossing=1", "0 -1 TMMTMM crossing=2",
              "0 1 TMTMMM crossing=3", "1 1 MMMMMT", "1 0 MMTMMM crossing=4")
    assert e.value == 12
    assert "R-3" in e.rulings


def test_signalman_without_track_scores_zero() -> None:
    assert score("signalman", "0 0 MMMMMM special=signalman crossing=2").value == 0


# ------------------------------------------------------------------ shepherdess
def test_shepherdess_counts_sheep_joined_through_meadow() -> None:
    # Shepherdess (0,0) "MMMFFF" meadow on 0, 1, 2: (0,-1) joined (2 sheep), (0,-2) joined
    # through (0,-1) (3 sheep), (1,-1) meets it with meadow edge 4 (4 sheep);
    # (-1,1) meets the forest edge 4 (5 sheep): not joined; own sheep 1 -> 1+2+3+4 = 10
    e = score("shepherdess", "0 0 MMMFFF special=shepherdess sheep=1",
              "0 -1 MMMMMM sheep=2", "0 -2 MMMMMM sheep=3", "1 -1 MMMMMM sheep=4",
              "-1 1 MFMMMM sheep=5")
    assert e.value == 10
    assert "R-4" in e.rulings


def test_shepherdess_not_joined_through_other_terrain() -> None:
    # (0,1) shows grain on edge 0 against the shepherdess meadow edge 3: not joined
    assert score("shepherdess", "0 0 MMMMMM special=shepherdess",
                 "0 1 GMMMMM sheep=3").value == 0


# ------------------------------------------------------------------ hill
def test_hill_counts_task_tiles_at_distance_one_and_two() -> None:
    # d((0,0),(q,r)) = (|q| + |r| + |q + r|) / 2
    lines = ["0 0 MMMMMM special=hill",
             "0 -1 GMMMMM task=grain",      # d 1: counts
             "1 -1 MMMMMM",                 # d 1, landscape: no
             "2 -2 MMMMGM task=grain",      # d 2: counts
             "3 -3 MMMMMG task=grain",      # d 3: no
             "1 0 MMGMMM task=grain/6",     # d 1: counts (a live marker)
             "2 0 MMMMMM",                  # d 2, landscape: no
             "3 0 MMMMMM",
             "4 -1 GMMMMM task=grain"]      # d (4 + 1 + 3) / 2 = 4: no
    e = score("hill", *lines)
    assert e.value == 6
    assert "R-5" in e.rulings


def test_hill_does_not_count_itself() -> None:
    assert score("hill", "0 0 GMMMMM special=hill task=grain").value == 0


# ------------------------------------------------------------------ construction site
@pytest.mark.parametrize(("forest", "grain", "village", "points"), [
    (6, 6, 6, 0), (7, 6, 6, 7), (6, 8, 6, 7), (7, 7, 6, 14), (7, 7, 7, 21), (9, 1, 10, 14),
])
def test_construction_site(forest: int, grain: int, village: int, points: int) -> None:
    # C (0,0) "FFGGVV": forest column north (edges 0/3), grain row south-east (edges 2/5),
    # village row south-west (edges 1/4); sizes include C itself
    lines = ["0 0 FFGGVV special=construction-site"]
    lines += [f"0 -{k} FMMFMM" for k in range(1, forest)]
    lines += [f"{k} 0 MMGMMG" for k in range(1, grain)]
    lines += [f"-{k} {k} MVMMVM" for k in range(1, village)]
    assert score("construction-site", *lines).value == points


# ------------------------------------------------------------------ balloon
@pytest.mark.parametrize(("path", "points"), [
    (["1 -1 MMMMMM balloon"], 2),
    (["0 1 MMMMMM", "0 2 MMMMMM balloon"], 4),
    (["1 0 MMMMMM", "2 0 MMMMMM", "2 1 MMMMMM balloon"], 6),  # d (2,1) = (2+1+3)/2 = 3
    (["-1 1 MMMMMM", "-2 2 MMMMMM", "-3 2 MMMMMM balloon"], 6),  # d (-3,2) = (3+2+1)/2 = 3
])
def test_balloon_two_per_hex_of_distance(path: list[str], points: int) -> None:
    assert score("balloon-launch-site", "0 0 MMMMMM special=balloon-launch-site",
                 *path).value == points


# ------------------------------------------------------------------ second time
SECOND_TIME = [("forest-cabin", "forest", "F"), ("harvest-festival", "grain", "G"),
               ("watchtower", "village", "V"), ("locomotive", "track", "T"),
               ("ship", "stream", "S")]


@pytest.mark.parametrize(("special", "kind", "letter"), SECOND_TIME)
def test_second_time_specials(special: str, kind: str, letter: str) -> None:
    # a column of 4 "XMMXMM" with task=kind/4 on top: completed at turn 4;
    # the special tile (1,0) "MMMMMM" carries the marker
    x = f"{letter}MM{letter}MM"
    record = (f"game: board-game\nunlocked: {special}\n0 0 {x} task={kind}/4\n"
              f"0 1 {x}\n0 2 {x}\n0 3 {x}\n1 0 MMMMMM special={special} markers=4\n")
    sheet = score_record(record)
    assert sheet["tasks"][kind] == 4
    assert sheet["unlocked"] == {special: 4}
    longest = 4 if kind in ("track", "stream") else 0
    assert sheet["total"] == 4 + 4 + longest


def test_second_time_counts_only_its_own_kind() -> None:
    # a completed grain/4 does not make the forest cabin score: no marker laid on it
    e = score("forest-cabin", "0 0 GMMGMM task=grain/4", "0 1 GMMGMM", "0 2 GMMGMM",
              "0 3 GMMGMM", "1 0 MMMMMM special=forest-cabin")
    assert e.value == 0


# ------------------------------------------------------------------ station / harbor
def test_train_station_closed_and_open() -> None:
    closed = ["0 0 TMMTMM special=train-station", "0 -1 MMMTMM", "0 1 TMMMMM"]
    assert score("train-station", *closed).value == 3
    assert score("train-station", *closed[:2]).value == 0  # (0,0) edge 3 faces an empty hex
    # a closed network elsewhere, (1,0) "MMTMMM" + (2,0) "MMMMMT", does not help
    assert score("train-station", "0 0 TMMTMM special=train-station",
                 "1 0 MMTMMM", "2 0 MMMMMT").value == 0


def test_harbor_closed_and_open() -> None:
    # a stream branching in three: (0,0) "SMSMSM" harbor, closed by three end tiles
    lines = ["0 0 SMSMSM special=harbor", "0 -1 MMMSMM", "1 0 MMMMMS", "-1 1 MSMMMM"]
    assert score("harbor", *lines).value == 4
    assert score("harbor", *lines[:3]).value == 0
    assert score("harbor", "0 0 MMMMMM special=harbor").value == 0


# ------------------------------------------------------------------ Great Mill
MILL_COLUMN = ["0 0 GMMGMM task=grain/4", "0 1 GMMGMM", "0 2 GMMGMM",
               "0 3 GMMGMM task=grain/5",       # turn 4: grain/4 completed (4 tiles)
               "0 4 GMMGMM mill flag=grain",    # turn 5: grain/5 completed (5 tiles)
               "0 -1 MMMGMM flag=grain"]        # closes the top; bottom (0,4) edge 3 open


def test_great_mill_closed_territory() -> None:
    # closed by (0,5) "GMMMMM": 2 completed grain tasks + 2 yellow flags -> 8
    assert score("great-mill", *MILL_COLUMN, "0 5 GMMMMM").value == 8


def test_great_mill_open_territory_scores_zero() -> None:
    assert score("great-mill", *MILL_COLUMN).value == 0


def test_great_mill_ignores_other_territories_and_kinds() -> None:
    # The mill column (0,-1)..(0,5) is closed by (0,5) "GMMMMM": 7 tiles, grain/4 and
    # grain/5 completed in it, no yellow flag in it. (0,2) "GFMGMM flag=forest" has a
    # green flag (its own forest, not grain): not counted. The column q=1, (1,0)..(1,3)
    # "GMMGMM", is another grain territory with a completed grain/4 and a yellow flag:
    # not counted. Columns meet only with meadow/forest edges.
    lines = ["0 0 GMMGMM task=grain/4", "0 1 GMMGMM", "0 2 GFMGMM flag=forest",
             "0 3 GMMGMM task=grain/5", "0 4 GMMGMM mill", "0 -1 MMMGMM", "0 5 GMMMMM",
             "1 0 GMMGMM task=grain/4", "1 1 GMMGMM flag=grain", "1 2 GMMGMM", "1 3 GMMGMM"]
    assert score("great-mill", *lines).value == 2 * 2


def test_great_mill_on_a_task_or_special_tile_never_scores() -> None:
    # rules.md §5: the figure goes on a just-placed grain LANDSCAPE tile (not a task or
    # special tile). Closed grain territory (0,0)-(0,3) with grain/4 completed on (0,0):
    # with the mill on a landscape tile this is 2; on the task tile it must not score
    # (the record may be refused instead).
    legal = ["0 0 MMMGMM task=grain/4", "0 1 GMMGMM mill", "0 2 GMMGMM", "0 3 GMMMMM"]
    assert score("great-mill", *legal).value == 2
    on_task = ["0 0 MMMGMM task=grain/4 mill", "0 1 GMMGMM", "0 2 GMMGMM", "0 3 GMMMMM"]
    on_special = ["0 0 MMMGMM task=grain/4", "0 1 GMMGMM special=hill mill", "0 2 GMMGMM",
                  "0 3 GMMMMM"]
    for lines in (on_task, on_special):
        try:
            e = score("great-mill", *lines)
        except ValueError:
            continue
        assert e.value == 0
