"""The Dorf notation (notation.md §2, §3, §5): round trips and line-naming errors.

Every catalogue tile in every rotation and every attribute must survive
``parse -> write -> parse``; every malformed record is refused with a
``NotationError`` whose text is ``line N: reason`` for the offending line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.rules.errors import NotationError, RulesError
from companion.rules.hexgrid import Hex
from companion.rules.notation import (
    Placement,
    TaskSpec,
    format_placement,
    parse_placement,
    parse_record,
    write_record,
)
from companion.rules.tiles import catalogue, parse_catalogue, rotate

SHARED_CATALOGUE = Path("/work/shared/tiles/catalogue.txt")


# ------------------------------------------------------------------ catalogue
def test_catalogue_has_the_boxes() -> None:
    sections = [t.section for t in catalogue()]
    assert sections.count("landscape") == 48
    assert sections.count("task") == 25
    assert sections.count("box-1-task") == 5
    assert sections.count("box-2-landscape") == 5


@pytest.mark.skipif(not SHARED_CATALOGUE.exists(), reason="shared catalogue not present")
def test_packaged_catalogue_equals_the_shared_one() -> None:
    shared = parse_catalogue(SHARED_CATALOGUE.read_text(encoding="utf-8"))
    assert [t.code for t in shared] == [t.code for t in catalogue()]


@pytest.mark.parametrize("tile", catalogue(), ids=lambda t: f"{t.section}-{t.number}")
def test_every_catalogue_tile_round_trips_in_every_rotation(tile: object) -> None:
    code = tile.code  # type: ignore[attr-defined]
    for steps in range(6):
        turned = rotate(code, steps)
        line = f"3 -2 {turned}"
        p = parse_placement(line, "board-game")
        assert p.at == Hex(3, -2)
        assert p.code == turned
        assert format_placement(p) == line
        assert parse_placement(format_placement(p), "board-game") == p


def test_whole_catalogue_as_one_record_round_trips() -> None:
    lines = ["game: board-game"] + [f"{k} 0 {t.code}" for k, t in enumerate(catalogue())]
    text = "\n".join(lines) + "\n"
    record = parse_record(text)
    assert write_record(record) == text
    assert parse_record(write_record(record)) == record


# ------------------------------------------------------------------ attributes
ATTRIBUTE_LINES = [
    "0 0 GGGGGG task=grain/4",
    "0 0 GGGGGG task=grain/7",
    "0 0 GGGGGG task=grain",
    "0 0 FFFTMT task=track/6",
    "0 0 SMSTMT task=stream/5",
    "0 0 VVVVVV task=village/5",
    "0 0 FFFFFF task=forest/6",
    "1 -1 MFFMGG flag=forest",
    "1 -1 MFFMGG flag=grain",
    "1 -1 MVFMGG flag=village",
    "0 0 MMMMMM special=circus",
    "0 0 TMMTMM special=signalman",
    "0 0 MMMMMM special=shepherdess",
    "0 0 MMMMMM special=hill",
    "0 0 FFGGVV special=construction-site",
    "0 0 MMMMMM special=balloon-launch-site",
    "0 0 MMMMMM special=forest-cabin markers=5,6",
    "0 0 MMMMMM special=harvest-festival markers=4",
    "0 0 MMMMMM special=watchtower markers=7",
    "0 0 MMMMMM special=locomotive markers=4,5,6",
    "0 0 MMMMMM special=ship markers=6",
    "0 0 TMMTMM special=train-station",
    "0 0 SMMSMM special=harbor",
    "0 0 MMMMMM heart",
    "0 0 MMMMMM golden-heart",
    "0 0 MMMMMM sheep=3",
    "0 0 TMMTMM crossing=2",
    "0 0 MMMMMM balloon",
    "0 0 GGGGGG mill",
    "0 0 FFMFGG split=F:01/3",
    "0 0 FFMFGG split=F:0/1/3,G:4/5",
    "0 0 SMMSMM split=S:0/3",
    "-4 7 GGGFFF task=grain/5 flag=forest heart sheep=2 split=G:0/12,F:34/5",
]


@pytest.mark.parametrize("line", ATTRIBUTE_LINES)
def test_every_attribute_round_trips(line: str) -> None:
    p = parse_placement(line, "board-game")
    assert format_placement(p) == line
    assert parse_placement(format_placement(p), "board-game") == p


def test_attribute_values_are_read() -> None:
    p = parse_placement("-4 7 GGGFFF task=grain/5 flag=forest heart sheep=2 "
                        "split=G:0/12,F:34/5", "board-game")
    assert p.at == Hex(-4, 7)
    assert p.task == TaskSpec("grain", 5, ("grain",))
    assert p.flag == "forest"
    assert p.heart and not p.golden_heart
    assert p.sheep == 2
    assert p.split == "G:0/12,F:34/5"
    cabin = parse_placement("0 0 MMMMMM special=forest-cabin markers=5,6", "board-game")
    assert cabin.special == "forest-cabin"
    assert cabin.markers == (5, 6)
    assert parse_placement("0 0 GGGGGG task=grain", "board-game").task == TaskSpec(
        "grain", None, ("grain",))


def test_attribute_order_is_free() -> None:
    a = parse_placement("0 0 GGGFFF mill flag=grain heart task=grain/4", "board-game")
    b = parse_placement("0 0 GGGFFF task=grain/4 flag=grain heart mill", "board-game")
    assert a == b
    assert format_placement(a) == "0 0 GGGFFF task=grain/4 flag=grain heart mill"


def test_duel_attributes_round_trip() -> None:
    for line in ["0 0 FFFFVV task=double:forest+village/6", "0 0 MMMMMM task=wraparound/3",
                 "0 0 MMMMMM camera", "0 0 VVMMMM special=school"]:
        p = parse_placement(line, "duel")
        assert format_placement(p) == line
        assert parse_placement(format_placement(p), "duel") == p


FULL_RECORD = """\
game: board-game
date: 2026-11-30
players: Ana, Rui
unlocked: circus, red-hearts
completed: forest/4 forest/5 grain/6
0 0 GGGGGG task=grain/4
1 -1 MFFMGG
1 0 SMFSMM flag=forest
0 1 VVMTTM task=track/5 heart
"""


def test_headers_round_trip() -> None:
    record = parse_record(FULL_RECORD)
    assert record.game == "board-game"
    assert record.date == "2026-11-30"
    assert record.players == ["Ana", "Rui"]
    assert record.unlocked == ["circus", "red-hearts"]
    assert [t.text() for t in record.completed] == ["forest/4", "forest/5", "grain/6"]
    assert [p.line for p in record.placements] == [6, 7, 8, 9]
    assert write_record(record) == FULL_RECORD
    assert parse_record(write_record(record)) == record


def test_comments_and_blank_lines_are_ignored() -> None:
    text = "# a game\n\ngame: board-game   # the cooperative one\n\n0 0 GGGGGG  # first\n"
    record = parse_record(text)
    assert record.placements == [Placement(Hex(0, 0), "GGGGGG")]
    assert record.placements[0].line == 5


# ------------------------------------------------------------------ errors
def _refusal(text: str) -> NotationError:
    with pytest.raises(NotationError) as info:
        parse_record(text)
    return info.value


BAD_RECORDS = [
    # (record, line, words the reason must contain)
    ("game: board-game\nscore: 12\n0 0 GGGGGG\n", 2, ["unknown header", "score"]),
    ("game: board-game\n0 0 GGGGGG\n1 0 GGGGGG flags=grain\n", 3,
     ["unknown attribute", "flags=grain"]),
    ("game: board-game\n0 0 GGGGGG\n1 0 GGGGGG heart heart\n", 3, ["heart", "twice"]),
    ("game: board-game\n0 0 GGGGGG flag=grain flag=grain\n", 2, ["flag", "twice"]),
    ("game: board-game\n0 0 FFFFFF task=forest/5\n0 1 FFFFFF task=forest/9\n", 3,
     ["forest/9"]),
    ("game: board-game\n0 0 FFFFFF task=forest/3\n", 2, ["forest/3"]),
    ("game: board-game\n0 0 TTTTTT task=track/7\n", 2, ["track/7"]),
    ("game: board-game\ncompleted: forest/4 grain/8\n", 2, ["grain/8"]),
    ("game: board-game\ncompleted: forest\n", 2, ["forest"]),
    ("game: board-game\n0 0 GGGGGG\n# a comment\n1 0 GGXGGG\n", 4, ["GGXGGG", "X"]),
    ("game: board-game\n0 0 GGGGG\n", 2, ["GGGGG"]),
    ("game: board-game\n0 0 ggGGGG\n", 2, ["ggGGGG"]),
    ("game: board-game\n0 0 GGGGGG task=village/4\n", 2, ["village", "GGGGGG"]),
    ("game: board-game\n0 0 MMMMMM task=track\n", 2, ["track", "MMMMMM"]),
    ("game: board-game\n0 0 GGGGGG flag=forest\n", 2, ["forest", "GGGGGG"]),
    ("game: board-game\n0 0 GGGGGG flag=meadow\n", 2, ["flag=meadow"]),
    ("game: board-game\n0 0 MMMMMM task=meadow/4\n", 2, ["meadow"]),
    ("game: board-game\n0 0 GGGGGG task=wraparound/4\n", 2, ["wraparound"]),
    ("game: board-game\n0 0 FFFFVV task=double:forest+village/6\n", 2, ["double"]),
    ("game: board-game\n0 0 FFMFGG split=F:01\n", 2, ["split", "F:01"]),
    ("game: board-game\n0 0 FFMFGG split=F:01/13\n", 2, ["split", "two groups"]),
    ("game: board-game\n0 0 FFMFGG split=F:0/1/2/3\n", 2, ["split"]),
    ("game: board-game\n0 0 FFMFGG split=01/3\n", 2, ["split"]),
    ("game: board-game\n0 0 FFMFGG split=F:0/7\n", 2, ["split"]),
    ("game: board-game\n0 0 FFMFGG split=V:0/1\n", 2, ["split"]),
    ("game: board-game\n0 0 MMMMMM special=castle\n", 2, ["castle"]),
    ("game: board-game\n0 0 MMMMMM special=school\n", 2, ["school"]),
    ("game: board-game\n0 0 MMMMMM sheep=two\n", 2, ["sheep=two"]),
    ("game: board-game\n0 0 MMMMMM crossing=-1\n", 2, ["crossing=-1"]),
    ("game: board-game\n0 0 MMMMMM heart=1\n", 2, ["heart"]),
    ("game: board-game\n0 0 MMMMMM special=forest-cabin markers=five\n", 2, ["markers"]),
    ("game: board-game\n0 0 GGGGGG task=grain/x\n", 2, ["grain/x"]),
    ("game: board-game\n0 0 GGGGGG flag=\n", 2, ["flag"]),
    ("game: board-game\n0 zero GGGGGG\n", 2, ["zero"]),
    ("game: board-game\n0 0\n", 2, []),
    ("game: chess\n", 1, ["chess"]),
    ("game: board-game\n0 0 GGGGGG\nplayers: Ana\n", 3, ["players"]),
    ("game: board-game\nunlocked: circus\nunlocked: hill\n", 3, ["unlocked", "twice"]),
    ("game: board-game\nplayer: red\n0 0 GGGGGG\n", 2, ["player"]),
    ("game: board-game\nmodules: 1\n", 2, ["modules"]),
]


@pytest.mark.parametrize(("text", "line", "words"), BAD_RECORDS,
                         ids=[f"{i}-line{b[1]}" for i, b in enumerate(BAD_RECORDS)])
def test_errors_name_the_line(text: str, line: int, words: list[str]) -> None:
    err = _refusal(text)
    assert isinstance(err, RulesError) and isinstance(err, ValueError)
    assert err.line == line
    message = str(err)
    assert message.startswith(f"line {line}: ")
    assert "\n" not in message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


def test_unknown_unlocked_id_is_refused_when_scored() -> None:
    from companion import score_record

    with pytest.raises(RulesError) as info:
        score_record("game: board-game\nunlocked: circuss\n0 0 MMMMMM\n")
    assert str(info.value).startswith("line 2: ")
    assert "circuss" in str(info.value)


def test_placement_error_without_a_record_has_no_line() -> None:
    with pytest.raises(NotationError) as info:
        parse_placement("0 0 GGGGGG flag=village", "board-game")
    assert info.value.line is None
    assert not str(info.value).startswith("line")


@pytest.mark.parametrize("line", ["0 0 MMMMMM special=forest-cabin markers=9",
                                  "0 0 MMMMMM special=locomotive markers=7",
                                  "0 0 MMMMMM special=ship markers=3"])
def test_markers_attribute_values_are_marker_values(line: str) -> None:
    err = _refusal(f"game: board-game\nunlocked: forest-cabin, locomotive, ship\n{line}\n")
    assert err.line == 3
