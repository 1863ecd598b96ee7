"""Duel rules one at a time: places and ties, the Many table, hearts allowed,
choice points, warnings, double and wraparound markers, the winner, the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main
from companion.rules.duel.module1 import many_points
from companion.rules.duel.module2 import hearts_allowed
from companion.rules.duel.places import place_values, share_places
from companion.rules.game import replay_text
from companion.rules.scoring import score_text
from companion.rules.scoring.duel_sheet import score_duel

DATA = Path(__file__).resolve().parent.parent / "data"

FOREST_PREFIX = """0 0 FFFFFF task=forest/3
0 -1 FFFFFF task=forest/4
1 -1 FFFFFF task=forest/5
1 0 FFFFFF task=forest/6
0 1 FFFFFF
-1 1 FFFFFF
"""


def duel(*sections: tuple[str, str], header: str = "") -> str:
    return "game: duel\n" + header + "".join(f"player: {name}\n{body}" for name, body in sections)


def texts(sheet: dict[str, object], player: str) -> list[str]:
    players = sheet["players"]
    assert isinstance(players, dict)
    return [w["text"] for w in players[player]["warnings"]]


# ------------------------------------------------------------------ places, R-8
@pytest.mark.parametrize(("keys", "players", "points"), [
    ({"a": 1, "b": 2}, 2, {"a": 8, "b": 4}),
    ({"a": 1, "b": 1}, 2, {"a": 6, "b": 6}),
    ({"a": 1, "b": None}, 2, {"a": 8, "b": 0}),
    ({"a": 3, "b": 3, "c": 3}, 3, {"a": 4, "b": 4, "c": 4}),
    ({"a": 1, "b": 2, "c": 2}, 3, {"a": 8, "b": 3, "c": 3}),
    ({"a": 5, "b": 5, "c": 5, "d": 5}, 4, {"a": 3, "b": 3, "c": 3, "d": 3}),
    ({"a": 1, "b": 2, "c": 3, "d": 4}, 4, {"a": 8, "b": 4, "c": 2, "d": 0}),
    ({"a": 1, "b": 1, "c": None, "d": 2}, 4, {"a": 6, "b": 6, "c": 0, "d": 2}),
])
def test_places_and_shared_places(keys: dict[str, int | None], players: int,
                                  points: dict[str, int]) -> None:
    got = share_places(keys, players)
    assert {p: place.points for p, place in got.items()} == points


def test_r8_off_rounds_shared_places_up() -> None:
    keys: dict[str, int | None] = {"a": 1, "b": 1, "c": 1, "d": 1}
    assert share_places(keys, 4, round_down=False)["a"].points == 4  # 14 / 4 = 3.5
    assert share_places(keys, 4, round_down=True)["a"].points == 3


def test_place_values_for_two_three_four_players() -> None:
    assert place_values(2) == (8, 4)
    assert place_values(3) == (8, 4, 2)
    assert place_values(4) == (8, 4, 2, 0)


def test_many_table() -> None:
    assert [many_points(n) for n in range(11)] == [0, 0, 1, 2, 4, 6, 9, 12, 15, 15, 15]


def test_hearts_allowed_first_later_and_same_turn() -> None:
    assert hearts_allowed({"red": 6, "blue": 9}) == {"red": 3, "blue": 2}
    assert hearts_allowed({"red": 6, "blue": 6}) == {"red": 3, "blue": 3}
    assert hearts_allowed({"red": 4}) == {"red": 3}


# ----------------------------------------------------------------- module 1
def test_only_the_cards_named_are_scored() -> None:
    text = (DATA / "duel_m1_race_won.dorf").read_text()
    text = text.replace("cards: large-forest, master-forest, many-forest", "cards: large-forest")
    red = score_text(text)["players"]["red"]
    assert red["module1"] == {"large-forest": 8, "total": 8}


def test_r8_off_in_a_record_rounds_up() -> None:
    text = (DATA / "duel_m1_three_players.dorf").read_text()
    text = text.replace("cards:", "rulings: R-8=off\ncards:")
    sheet = score_text(text)
    assert sheet["players"]["cid"]["module1"]["master-forest"] == 5  # 14 / 3 rounded up


def test_r9_is_a_house_rule_off_by_default() -> None:
    text = (DATA / "duel_m1_master_zero.dorf").read_text()
    assert score_text(text)["players"]["blue"]["module1"]["master-forest"] == 4  # 3 vs 0
    assert score_text(text.replace("cards:", "rulings: R-9=off\ncards:"))["players"][
        "blue"]["module1"]["master-forest"] == 4  # off is the default
    house = score_text(text.replace("cards:", "rulings: R-9=on\ncards:"))["players"]
    assert house["blue"]["module1"]["master-forest"] == 0
    assert house["blue"]["explanations"]["module1.master-forest"]["rulings"] == ["R-9"]
    assert house["red"]["module1"]["master-grain"] == 0  # nobody has grain: 0 each
    text3 = (DATA / "duel_m1_many.dorf").read_text()
    assert score_text(text3)["players"]["blue"]["module1"]["master-forest"] == 4


def test_module1_not_in_play_scores_zero() -> None:
    sheet = score_text(duel(("red", "0 0 FMMMMM\n0 -1 MMMFMM\n")))
    assert sheet["players"]["red"]["module1"] == {"total": 0}
    assert sheet["winner"] == "red"


# ----------------------------------------------------------------- module 2
def test_choice_points_at_4th_7th_10th_completed_task() -> None:
    body = FOREST_PREFIX + "-1 0 FFFFFF special=old-oak\n"
    sheet = score_text(duel(("red", body), header="modules: 2\n"))
    red = sheet["players"]["red"]
    assert red["module2"]["choice_turns"] == [6]
    assert "turn 6" in red["explanations"]["module2.total"]["text"]
    assert not [w for w in texts(sheet, "red") if "choice point" in w]


def test_special_tile_off_a_choice_point_is_warned() -> None:
    body = FOREST_PREFIX.replace("-1 1 FFFFFF\n", "") + "-1 1 MMMMMM special=school\n"
    sheet = score_text(duel(("red", body), header="modules: 2\n"))
    assert any("school tile placed at turn 5" in w for w in texts(sheet, "red"))


def test_two_special_tiles_are_warned() -> None:
    body = FOREST_PREFIX + "-1 0 FFFFFF special=old-oak\n2 -1 GGGGGG special=granary\n"
    sheet = score_text(duel(("red", body), header="modules: 2\n"))
    assert any("only one of the three" in w for w in texts(sheet, "red"))


def test_school_and_granary_count_their_terrain_only() -> None:
    body = FOREST_PREFIX + "-1 0 VVVVVV special=school\n-2 1 VMMMMM\n2 -1 GGGGGG\n"
    red = score_text(duel(("red", body), header="modules: 2\n"))["players"]["red"]
    assert red["module2"]["points_of_interest"] == 1  # (-2, 1) shows village; forests do not


def test_module2_not_in_play_is_not_scored_but_warned() -> None:
    sheet = score_text(duel(("red", FOREST_PREFIX + "-1 0 FFFFFF heart\n")))
    assert sheet["players"]["red"]["module2"]["total"] == 0
    assert any("Module 2 is not in play" in w for w in texts(sheet, "red"))


def test_heart_with_six_matching_edges_scores_six() -> None:
    red = score_text((DATA / "duel_m2_hearts.dorf").read_text())["players"]["red"]
    items = red["explanations"]["module2.hearts"]["items"]
    assert [i["value"] for i in items] == [6, 3]


# ----------------------------------------------------------------- markers
def test_double_fails_only_when_neither_territory_can_reach_six() -> None:
    body = "0 0 FMMVMM task=double:forest+village/6\n0 -1 MMMMMM\n"
    sheet = score_text(duel(("red", body)))
    assert sheet["players"]["red"]["markers"][0]["state"] == "active"  # village still open
    sheet = score_text(duel(("red", body + "0 1 MMMMMM\n")))
    marker = sheet["players"]["red"]["markers"][0]
    assert marker["state"] == "failed" and marker["turn"] == 3
    assert "forest" in marker["reason"] and "village" in marker["reason"]


def test_wraparound_never_fails_when_all_neighbours_fill() -> None:
    ring = "0 0 MMMMMM task=wraparound/6\n" + "".join(
        f"{q} {r} MMMMMM\n" for q, r in [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1)])
    marker = score_text(duel(("red", ring)))["players"]["red"]["markers"][0]
    assert marker["state"] == "active"
    marker = score_text(duel(("red", ring + "-1 0 MMMMMM\n")))["players"]["red"]["markers"][0]
    assert (marker["state"], marker["turn"]) == ("completed", 7)


def test_pool_warning_for_a_third_double() -> None:
    body = "".join(f"0 {r} FMMVMM task=double:forest+village/6\n" for r in range(4))
    sheet = score_text(duel(("red", body)))
    assert any("4 double markers of 6 used; the box holds 3" in w for w in texts(sheet, "red"))


# ----------------------------------------------------------------- sheet, winner
def test_sheet_keys_and_totals_add_up() -> None:
    sheet = score_text((DATA / "duel_m2_old_oak_photographer.dorf").read_text())
    assert set(sheet) >= {"game", "players", "winner", "shared_winners"}
    for s in sheet["players"].values():
        assert set(s["tasks"]) == {"forest", "grain", "village", "track", "stream",
                                   "wraparound", "double"}
        assert s["tasks_total"] == sum(s["tasks"].values())
        assert s["bonus_total"] == sum(s["flags"].values()) + sum(s["longest"].values())
        assert s["total"] == (s["tasks_total"] + s["bonus_total"] + s["module1"]["total"]
                              + s["module2"]["total"])


def test_teams_play_as_two_players() -> None:
    text = (DATA / "duel_m1_race_won.dorf").read_text()
    text = text.replace("player: red", "player: Ana & Rui").replace("player: blue",
                                                                    "player: Eva & Jo")
    sheet = score_text(text)
    assert sheet["winner"] == "Ana & Rui"


def test_score_duel_refuses_a_board_game() -> None:
    with pytest.raises(ValueError):
        score_duel(replay_text("game: board-game\n0 0 GGGGGG\n"))


def test_swapped_sections_swap_the_sheets() -> None:
    text = (DATA / "duel_m1_race_won.dorf").read_text()
    head, _, rest = text.partition("player: red\n")
    red, _, blue = rest.partition("player: blue\n")
    swapped = score_text(head + "player: blue\n" + blue + "player: red\n" + red)
    plain = score_text(text)
    for who in ("red", "blue"):
        assert swapped["players"][who]["total"] == plain["players"][who]["total"]
        assert swapped["players"][who]["module1"] == plain["players"][who]["module1"]


# ----------------------------------------------------------------- command line
def test_cli_score_json_for_a_duel(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(DATA / "duel_m1_race_won.dorf"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "duel" and out["winner"] == "red"
    assert out["players"]["blue"]["module1"]["total"] == 10


def test_cli_score_text_and_explain_for_a_duel(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(DATA / "duel_m1_race_same_turn.dorf")]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0].split()
    assert header == ["red", "blue"] and "Shared win: red, blue" in out
    assert main(["score", str(DATA / "duel_m1_race_won.dorf"), "--explain"]) == 0
    out = capsys.readouterr().out
    assert "Winner: red" in out and "Large forest" in out


def test_cli_refuses_an_illegal_duel_line(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    bad = tmp_path / "bad.dorf"
    bad.write_text(duel(("red", "0 0 TMMMMM\n0 -1 MMMMMM\n")))
    assert main(["score", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("line 4:") and "\n" == err[-1] and err.count("\n") == 1


# ----------------------------------------------------------------- reveal order, turns
def end_of_game_body(landscape: int) -> str:
    head = "0 0 FMMMMM task=forest/6\n0 1 MMMGMM task=grain/6\n-1 0 VMMMMM task=village/6\n"
    return head + "".join(f"{q} 0 MMMMMM\n" for q in range(1, landscape + 1))


def test_a_43rd_landscape_tile_is_warned() -> None:
    clean = score_text(duel(("red", end_of_game_body(42))))
    assert texts(clean, "red") == []
    sheet = score_text(duel(("red", end_of_game_body(43))))
    warned = texts(sheet, "red")
    assert any("the game was over" in w for w in warned)
    assert any("43 landscape tiles placed" in w for w in warned)
    over = next(w for w in sheet["players"]["red"]["warnings"] if "over" in w["text"])
    assert over["turn"] == 46 and over["line"] == 2 + 46  # "game:", "player:", turns


def test_task_tile_due_when_any_player_is_low() -> None:
    body = end_of_game_body(2)
    low = body.replace("-1 0 VMMMMM task=village/6\n", "-1 0 VMMMMM\n")
    sheet = score_text(duel(("red", body), ("blue", low)))
    assert any("blue has 2 active markers" in w for w in texts(sheet, "red"))
    def due(who: str) -> list[int]:
        return [w["turn"] for w in sheet["players"][who]["warnings"]
                if "task tile should" in w["text"]]

    assert due("red") == [4, 5]  # blue has only 2 active markers from turn 4 on
    assert due("blue") == [3, 4, 5]  # turn 3 is one of the first three


def test_sections_of_different_length_are_warned() -> None:
    body = end_of_game_body(3)
    sheet = score_text(duel(("red", body), ("blue", end_of_game_body(2))))
    assert any("blue played 5 turns, red 6" in w for w in texts(sheet, "blue"))


def test_rotated_tiles_are_the_same_tile() -> None:
    red = "0 0 FMMFMM task=forest/6\n1 0 GGMMMM task=grain/6\n-1 0 VMMVMM task=village/6\n"
    blue = "0 0 MFMMFM task=forest/6\n1 0 MMMGGM task=grain/6\n-1 0 MMVMMV task=village/6\n"
    sheet = score_text(duel(("red", red), ("blue", blue)))
    assert not [w for w in texts(sheet, "red") + texts(sheet, "blue") if "same tile" in w]


def _codes(sheet: dict[str, Any], who: str) -> list[tuple[int | None, int | None, str]]:
    return [(w["line"], w["turn"], w["code"]) for w in sheet["players"][who]["warnings"]]


def test_photographer_camera_away_from_the_photographer_is_warned() -> None:
    sheet = score_text((DATA / "duel_m2_photographer.dorf").read_text())
    blue = [c for c in _codes(sheet, "blue") if c[2].startswith("camera")]
    assert blue == [(34, 8, "camera-not-next-to-photographer")]
    assert not [c for c in _codes(sheet, "red") if c[2].startswith("camera")]
    # the Photographer tile is an extra tile of its turn, like School / Granary / Old Oak
    assert sheet["players"]["blue"]["module2"]["choice_turns"] == [6]
    assert not [c for c in _codes(sheet, "blue") if c[2] == "special-off-choice"]


def test_camera_without_a_photographer_tile_is_warned() -> None:
    sheet = score_text((DATA / "duel_m2_old_oak_photographer.dorf").read_text())
    assert [c[2] for c in _codes(sheet, "blue") if c[2].startswith("camera")] == [
        "camera-without-photographer"] * 2
    assert sheet["players"]["blue"]["module2"]["photographer"] == 2  # still scored


def test_a_second_photographer_is_warned() -> None:
    text = (DATA / "duel_m2_photographer.dorf").read_text().replace(
        "2 -1 FFFFFF camera\n", "2 -1 FFFFFF camera\n3 -1 MMMMMM special=photographer\n")
    assert "point-chosen-twice" in [c[2] for c in _codes(score_text(text), "blue")]


def test_special_tiles_are_exclusive_unless_taken_in_the_same_turn() -> None:
    text = (DATA / "duel_m2_special_exclusive.dorf").read_text()
    sheet = score_text(text)
    assert (31, 7, "special-taken-by-other") in _codes(sheet, "blue")
    assert "special-taken-by-other" not in [c[2] for c in _codes(sheet, "red")]
    red = text[text.index("player: red\n") + len("player: red\n"):text.index("player: blue")]
    same_turn = text[:text.index("player: blue")] + "player: blue\n" + red
    both = score_text(same_turn)
    assert all("special-taken-by-other" not in [c[2] for c in _codes(both, who)]
               for who in ("red", "blue"))


def test_board_game_heart_on_a_special_tile_is_scored_and_warned() -> None:
    from companion.rules.scoring import score_text as score

    sheet = score("game: board-game\nunlocked: red-hearts, circus\n"
                  "0 0 MMMMMM special=circus heart\n0 -1 MMMMMM\n")
    assert sheet["unlocked"]["red-hearts"] == 1
    assert [w["code"] for w in sheet["warnings"]].count("heart-on-task-or-special") == 1
    off = score("game: board-game\nunlocked: red-hearts, circus\nrulings: R-10=off\n"
                "0 0 MMMMMM special=circus heart\n0 -1 MMMMMM\n")
    assert off["unlocked"]["red-hearts"] == 1
    assert "heart-on-task-or-special" not in [w["code"] for w in off["warnings"]]


def test_duel_ends_after_the_last_landscape_tile_when_it_changed_no_task() -> None:
    text = (DATA / "duel_order_end.dorf").read_text()
    assert [c[1:] for c in _codes(score_text(text), "red")] == [(47, "game-over")]
    quiet = text.replace("1 0 MMMMMM\n", "-1 1 MMMMMM\n")  # the 42nd fails nothing
    assert (46, "game-over") in [c[1:] for c in _codes(score_text(quiet), "red")]
