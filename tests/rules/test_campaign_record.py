"""The campaign record (notation.md §4): parsing, errors naming the line, writing, replay."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.rules.campaign.record import (
    AchievedEvent,
    GameEvent,
    SpendEvent,
    SpendItem,
    parse_campaign,
    write_campaign,
)
from companion.rules.campaign.state import load_campaign, replay, unlocked_header
from companion.rules.errors import CampaignError

DATA = Path(__file__).resolve().parents[1] / "data"

NOTATION_EXAMPLE = """\
campaign: Sunday table
players: Ana, Rui
game: 78                       # a finished game's total; earns crosses per rules.md §6
spend: start-box1 1            # cross 1 circle on that path
game: 140
spend: start-box1 1, box1-box2 3
achieved: great-mill           # an achievement met during play, ticked by the players
"""


def test_notation_example_json() -> None:
    out = load_campaign(NOTATION_EXAMPLE).to_json()
    assert {k: out[k] for k in (
        "games", "crosses_earned", "crosses_spent", "crosses_lost", "crosses_available",
        "reached", "hearts", "unlocked",
    )} == {
        "games": [{"score": 78, "title": "Vagabond", "crosses": 1},
                  {"score": 140, "title": "Actress", "crosses": 4}],
        "crosses_earned": 5, "crosses_spent": 5, "crosses_lost": 0, "crosses_available": 0,
        "reached": ["box1"], "hearts": 0, "unlocked": ["box1"],
    }
    assert out["achieved"] == ["great-mill"]
    assert out["unlocked_header"] == "box1, great-mill"


def test_parse_events_and_lines() -> None:
    rec = parse_campaign(NOTATION_EXAMPLE)
    assert rec.name == "Sunday table" and rec.players == ["Ana", "Rui"]
    assert rec.events == [
        GameEvent(78),
        SpendEvent((SpendItem("start-box1", 1),)),
        GameEvent(140),
        SpendEvent((SpendItem("start-box1", 1), SpendItem("box1-box2", 3))),
        AchievedEvent(("great-mill",)),
    ]
    assert [e.line for e in rec.events] == [3, 4, 5, 6, 7]


def test_write_parse_round_trip() -> None:
    for text in (NOTATION_EXAMPLE, (DATA / "campaign_long.txt").read_text(encoding="utf-8")):
        rec = parse_campaign(text)
        again = parse_campaign(write_campaign(rec))
        assert again == rec
        assert write_campaign(again) == write_campaign(rec)


def test_from_hex_extension_round_trips() -> None:
    rec = parse_campaign("game: 400\nspend: warehouse-signalman 2 from signalman\n")
    assert rec.events[1] == SpendEvent((SpendItem("warehouse-signalman", 2, "signalman"),))
    assert "warehouse-signalman 2 from signalman" in write_campaign(rec)


@pytest.mark.parametrize(
    "text,message",
    [
        ("game: 78\nfoo: 1\n", "line 2: unknown key 'foo'"),
        ("game: 78\njust words\n", "line 2: expected 'key: value'"),
        ("game: many\n", "line 1: game: 'many' is not a score"),
        ("game: -5\n", "line 1: game: '-5' is not a score"),
        ("game: 78\nspend: start-box1\n", "line 2: spend: expected 'PATH N'"),
        ("game: 78\nspend: start-box1 0\n", "line 2: spend: 'start-box1 0': cross at least 1"),
        ("game: 78\nspend: start-box1 1,\n", "line 2: spend: expected 'PATH N'"),
        ("game: 78\ncampaign: late\n", "line 2: campaign: must come before the first game"),
        ("players: a\nplayers: b\n", "line 2: players: given twice"),
        ("game: 78\nachieved: Great Mill\n", "line 2: achieved: 'Great Mill' is not an"),
    ],
)
def test_notation_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(CampaignError) as err:
        parse_campaign(text)
    assert str(err.value).startswith(message)


@pytest.mark.parametrize(
    "text,message",
    [
        ("spend: start-box1 1\n", "line 1: no game recorded yet"),
        ("# c\n\ngame: 78\nspend: start-box1 2\n", "line 4: spending 2 crosses but only 1"),
        ("game: 400\nspend: start-box1 2, box2-circus 1\n",
         "line 2: path box2-circus cannot be crossed yet"),
        ("game: 400\nspend: start-box2 1\n", "line 2: unknown path 'start-box2'"),
        ("game: 400\nspend: start-box1 3\n", "line 2: path start-box1 has 2 circles left"),
        ("game: 400\nspend: start-box1 2\nspend: start-box1 1\n",
         "line 3: path start-box1 is full"),
        ("game: 400\nachieved: circus\n", "line 2: circus is a hex of the advancement track"),
        ("game: 400\nachieved: nope\n", "line 2: unknown achievement 'nope'"),
        ("game: 400\nachieved: great-mill\nachieved: great-mill\n",
         "line 3: great-mill is already achieved"),
        ("achieved: great-mill\n", "line 1: achieved: comes after the game"),
        ("game: 50\nspend: start-box1 1\ngame: 60\nspend: start-box1 1\nspend: box1-box2 1\n",
         "line 5: spending 1 cross but only 0 available (game 2 earned 1, 1 spent)"),
    ],
)
def test_rule_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(CampaignError) as err:
        load_campaign(text)
    assert str(err.value).startswith(message)


def test_long_campaign_replays_to_expected_json() -> None:
    state = load_campaign((DATA / "campaign_long.txt").read_text(encoding="utf-8"))
    expected = json.loads((DATA / "campaign_long.json").read_text(encoding="utf-8"))
    out = state.to_json()
    paths = expected.pop("paths")
    for key, value in expected.items():
        assert out[key] == value, key
    assert {p: [d["from_low"], d["from_high"]] for p, d in out["paths"].items()} == paths
    assert "clouds" in state.reached
    assert unlocked_header(state) == expected["unlocked_header"]


def test_long_campaign_state_writes_a_record_that_replays_identically() -> None:
    state = load_campaign((DATA / "campaign_long.txt").read_text(encoding="utf-8"))
    again = replay(parse_campaign(state.record_text()))
    assert again.to_json() == state.to_json()


def test_built_in_code_writes_a_replayable_record() -> None:
    state = load_campaign("campaign: Built\ngame: 400\n")
    state.spend("start-box1", 2)
    state.spend("box1-box2", 5)
    state.spend("box2-circus", 4)
    state.achieve("great-mill")
    state.record_game(62)
    state.spend("circus-deer", 1)
    text = state.record_text()
    assert text == (
        "campaign: Built\ngame: 400\nspend: start-box1 2, box1-box2 5, box2-circus 4\n"
        "achieved: great-mill\ngame: 62\nspend: circus-deer 1\n"
    )
    assert load_campaign(text).to_json() == state.to_json()


# ----- the command line ---------------------------------------------------------------


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "campaign", *args],
        input=stdin, capture_output=True, text=True, timeout=60,
    )


def test_cli_json_of_the_long_campaign() -> None:
    proc = run_cli(str(DATA / "campaign_long.txt"), "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    expected = json.loads((DATA / "campaign_long.json").read_text(encoding="utf-8"))
    assert out["games"] == expected["games"] and out["unlocked"] == expected["unlocked"]


def test_cli_text_sheet_from_stdin() -> None:
    proc = run_cli("-", stdin=NOTATION_EXAMPLE)
    assert proc.returncode == 0, proc.stderr
    assert "Campaign: Sunday table" in proc.stdout
    assert "Crosses: earned 5, spent 5, lost 0, available 0" in proc.stdout
    assert "  box1-box2                     xxxoo" in proc.stdout


def test_cli_error_is_one_line_exit_1() -> None:
    proc = run_cli("-", stdin="game: 78\nspend: start-box1 2\n")
    assert proc.returncode == 1
    assert proc.stderr == (
        "line 2: spending 2 crosses but only 1 available (game 1 earned 1, 0 spent)\n"
    )
    assert proc.stdout == ""


def test_cli_missing_file_exit_1(tmp_path: Path) -> None:
    proc = run_cli(str(tmp_path / "missing.txt"))
    assert proc.returncode == 1
    assert proc.stderr.startswith("cannot read ") and proc.stderr.count("\n") == 1
