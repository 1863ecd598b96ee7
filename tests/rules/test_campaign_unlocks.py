"""Unlock effects as data, the unlocked: header, the Great Mill check and the statistics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.rules.campaign.mill import check_great_mill, detect_great_mill
from companion.rules.campaign.state import CampaignState, load_campaign, unlocked_header
from companion.rules.campaign.stats import campaign_stats
from companion.rules.campaign.track import HEXES
from companion.rules.campaign.unlocks import SCORE_ROWS, live_effects, load_content, parse_content
from companion.rules.errors import CampaignError, NotationError
from companion.rules.hexgrid import opposite
from companion.rules.notation import parse_record

CONTENT = load_content()
RULES_ACHIEVEMENTS = (
    "Castle, Circus, Clouds, Deer, Farm, Forest Tunnel, Grain Tunnel, Hill, Shepherdess, "
    "Signalman, Village Tunnel, Warehouse, Balloon Launch Site, Construction Site, Flag "
    "Festival, Forest Cabin, Golden Heart, Harbor, Harvest Festival, Heart's Desire, "
    "Locomotive, On the Road to Success, Red Hearts, Ship, Train Station, Watchtower, Great Mill"
)


def test_content_names_every_achievement_of_rules_md() -> None:
    names = {a.name for a in CONTENT.achievements.values()}
    assert names == {n.strip() for n in RULES_ACHIEVEMENTS.split(",")}


def test_every_track_hex_but_start_and_boxes_is_a_track_achievement() -> None:
    track = {a.id for a in CONTENT.achievements.values() if a.source == "track"}
    assert track == {h.id for h in HEXES if h.kind == "achievement"}
    assert set(CONTENT.boxes) == {h.id for h in HEXES if h.kind == "box"}


def test_every_score_row_is_made_live_by_something() -> None:
    ids = ["box1", "box2", "red-heart", *CONTENT.achievements]
    assert set(live_effects(ids, CONTENT).score_rows) == set(SCORE_ROWS)


def test_placeholders_are_marked() -> None:
    for a in CONTENT.achievements.values():
        if "PLACEHOLDER" in a.condition + a.reward:
            assert a.placeholder, a.id


def test_marker_pool_grows_with_boxes() -> None:
    base = live_effects([], CONTENT).markers
    assert base == {t: (4, 5, 5, 6, 6) for t in ("forest", "grain", "village", "track", "stream")}
    full = live_effects(["box1", "box2"], CONTENT).markers
    for t in ("forest", "grain", "village"):
        assert full[t] == (4, 4, 5, 5, 6, 6, 7) and sum(full[t]) == 37
    for t in ("track", "stream"):
        assert full[t] == (4, 4, 5, 5, 6, 6) and sum(full[t]) == 30


def test_special_tiles_and_catalogue_sections() -> None:
    eff = live_effects(["box1", "box2", "circus", "train-station"], CONTENT)
    assert eff.special_tiles == ("circus", "train-station")
    assert eff.tiles == ("box-1-task", "box-2-landscape")


def test_unlocked_header_is_boxes_then_score_rows_in_unlock_order_and_parses() -> None:
    state = CampaignState()
    assert unlocked_header(state) == ""
    state.record_game(400)
    state.spend("start-box1", 2)
    state.spend("box1-box2", 5)
    state.spend("box2-circus", 4)
    state.achieve("red-hearts")
    header = unlocked_header(state)
    assert header == "box1, box2, circus, red-hearts"
    rec = parse_record(f"game: board-game\nunlocked: {header}\n0 0 GGGGGG\n")
    assert rec.unlocked == ["box1", "box2", "circus", "red-hearts"]


def test_hearts_make_red_hearts_live_once() -> None:
    text = Path(__file__).resolve().parents[1].joinpath("data", "campaign_long.txt")
    state = load_campaign(text.read_text(encoding="utf-8"))
    assert state.hearts == 3
    assert state.live().score_rows.count("red-hearts") == 1
    assert "red heart" in state.live().pieces


def test_content_errors_are_one_line() -> None:
    with pytest.raises(CampaignError, match="unknown score row 'circuss'"):
        parse_content({"achievements": [
            {"id": "x", "name": "X", "effects": {"score_rows": ["circuss"]}}]})
    with pytest.raises(CampaignError, match="missing or malformed field"):
        parse_content({"achievements": [{"name": "no id"}]})


def test_edited_content_file_is_used(tmp_path: Path) -> None:
    raw = json.loads(
        Path(__file__).resolve().parents[2].joinpath(
            "companion", "data", "campaign_content.json").read_text(encoding="utf-8"))
    for a in raw["achievements"]:
        if a["id"] == "warehouse":
            a["effects"]["score_rows"] = ["harbor"]
    path = tmp_path / "content.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    content = load_content(path)
    state = load_campaign(
        "game: 400\nspend: start-box1 2, box1-box2 5, box2-warehouse 4\n", content)
    assert unlocked_header(state) == "box1, box2, harbor"


# ----- the Great Mill -----------------------------------------------------------------

RING = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]


def ring(codes: list[str], centre: str = "GGGGGG task=grain/4 mill") -> str:
    lines = ["game: board-game", f"0 0 {centre}"]
    lines += [f"{q} {r} {c}" for (q, r), c in zip(RING, codes, strict=False)]
    return "\n".join(lines) + "\n"


def test_mill_met_when_all_six_neighbours_show_grain_towards_it() -> None:
    # each neighbour shows grain only on the edge facing the centre
    codes = []
    for i in range(6):
        code = ["M"] * 6
        code[opposite(i)] = "G"
        codes.append("".join(code))
    check = check_great_mill(ring(codes))
    assert check.met and check.at == (0, 0)
    assert "meet grain edges of 6 neighbours" in check.explanation


@pytest.mark.parametrize("edge", range(6))
def test_mill_not_met_when_one_neighbour_turns_away(edge: int) -> None:
    codes = []
    for i in range(6):
        code = ["M"] * 6
        if i != edge:
            code[opposite(i)] = "G"
        else:
            code[i] = "G"  # grain, but on the far side
        codes.append("".join(code))
    check = check_great_mill(ring(codes))
    assert not check.met
    assert f"edge {edge} meets a non-grain edge" in check.explanation


def test_mill_not_met_with_an_empty_neighbour() -> None:
    check = check_great_mill(ring(["GGGGGG"] * 5))
    assert not check.met and "edge 5 faces the empty hex (-1, 0)" in check.explanation


def test_mill_needs_the_tile_itself_all_grain() -> None:
    check = check_great_mill(ring(["GGGGGG"] * 6, centre="GGGGTT task=grain/4 mill"))
    assert not check.met and "its edge 4 is not grain" in check.explanation


def test_without_a_mill_attribute_any_grain_task_tile_counts() -> None:
    assert detect_great_mill(ring(["GGGGGG"] * 6, centre="GGGGGG task=grain/5"))
    assert not detect_great_mill(ring(["GGGGGG"] * 6, centre="GGGGGG"))  # no task tile


def test_mill_attribute_selects_the_tile() -> None:
    text = ring(["GGGGGG"] * 6, centre="GGGGGG task=grain/4") + "5 5 GGGGGG task=grain/5 mill\n"
    assert not detect_great_mill(text)  # the tile with the mill is the one that counts


def test_mill_check_refuses_an_unreadable_record() -> None:
    with pytest.raises(NotationError):
        detect_great_mill("game: board-game\n0 0 XXXXXX\n")


# ----- statistics ---------------------------------------------------------------------


def test_stats_of_the_long_campaign() -> None:
    text = Path(__file__).resolve().parents[1].joinpath("data", "campaign_long.txt")
    state = load_campaign(text.read_text(encoding="utf-8"))
    stats = campaign_stats(state)
    scores = [g["score"] for g in stats["games"]]
    assert scores == [g.score for g in state.games]
    assert stats["best"] == {"number": 14, "score": 410, "title": "Empress"}
    assert stats["average"] == round(sum(scores) / len(scores), 1)
    last = stats["crosses"][-1]
    assert (last["earned"], last["spent"], last["lost"]) == (94, 91, 3)
    lost_steps = [c["lost"] for c in stats["crosses"]]
    assert lost_steps == sorted(lost_steps)
    assert stats["games"][3]["unlocked"] == ["box2"]
    assert stats["games"][6]["unlocked_names"] == ["Red Heart", "Warehouse", "Great Mill"]
    assert [t["id"] for t in stats["timeline"] if t["number"] == 11] == ["clouds"]
    json.dumps(stats)  # plain data only


def test_stats_of_an_empty_campaign() -> None:
    stats = campaign_stats(CampaignState())
    assert stats["best"] is None and stats["average"] is None and stats["games"] == []


def test_setup_reminders_and_legal_spends_function() -> None:
    from companion.rules.campaign.state import legal_spends, setup_reminders

    state = CampaignState()
    assert setup_reminders(state) == []
    state.record_game(400)
    assert legal_spends(state) == [("start-box1", "start", 0)]
    state.spend("start-box1", 2)
    state.spend("box1-box2", 5)
    state.spend("box2-circus", 4)
    state.achieve("great-mill")
    lines = setup_reminders(state)
    assert "Score rows in play: circus, great-mill" in lines
    assert "Special tiles: circus" in lines
    assert "Add the tiles of: box-1-task, box-2-landscape" in lines
    assert "Pieces: mill figure" in lines
    assert any(line.startswith("Task markers (changed pools): forest 4,4,5,5,6,6,7")
               for line in lines)


def test_an_achievement_from_an_unopened_box_is_warned_with_a_code() -> None:
    from dataclasses import replace

    base = load_content()
    boxed = replace(base.achievements["harbor"], box=1)  # as if Box 1 held the Harbor
    content = replace(base, achievements={**base.achievements, "harbor": boxed})
    state = load_campaign(f"game: 40\nachieved: {boxed.id}\n", content)
    assert [w.code for w in state.warnings] == ["achievement-box-closed"]
    assert str(state.warnings[0]) == (
        f"line 2: {boxed.id} comes from box{boxed.box}, which is not opened yet")
    sheet = state.to_json()
    assert sheet["warning_codes"][0]["params"]["box"] == f"box{boxed.box}"
