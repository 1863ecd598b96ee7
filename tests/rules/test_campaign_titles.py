"""The whole results table of rules.md §6: every threshold and the value just below it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.rules.campaign.titles import TITLES, crosses_for, title_for
from companion.rules.errors import CampaignError

# Copied from rules.md §6 (the pad's "Your Results" table), parsed below.
RULES_TEXT = """
0 Vagabond 1 · 100 Newsboy 2 · 110 Fisherwoman 3 · 120 Coachman 3 · 130 Night Watchman 4 ·
140 Actress 4 · 150 Landlady 5 · 160 Forest Ranger 5 · 170 Farmer's Wife 6 · 180 Engineer 6 ·
190 Ringmaster 7 · 200 Captain 7 · 210 Harbormaster 8 · 220 Station Master 8 ·
230 Photographer 9 · 240 Merchant 9 · 250 Architect 10 · 260 Inventor 10 ·
270 Astronomer 11 · 280 Doctor 11 · 290 Diplomat 12 · 300 Balloonist 12 ·
310 Manufacturer 13 · 320 Mayor 13 · 330 Councilor 14 · 340 Magnate 14 ·
350 Baroness 15 · 375 Crown Prince 15 · 400 Empress 15.
"""

ROW = re.compile(r"(\d+) ([A-Z][A-Za-z' ]+?) (\d+)")


def parse_rows(text: str) -> list[tuple[int, str, int]]:
    flat = " ".join(text.split())
    return [(int(a), b, int(c)) for a, b, c in ROW.findall(flat)]


EXPECTED = parse_rows(RULES_TEXT)


def test_the_copied_table_has_29_rows() -> None:
    assert len(EXPECTED) == 29
    assert EXPECTED[0] == (0, "Vagabond", 1) and EXPECTED[-1] == (400, "Empress", 15)


def test_rules_md_still_says_the_same() -> None:
    rules = Path(__file__).resolve().parents[3] / "shared" / "rules.md"
    if not rules.exists():
        pytest.skip("../shared/rules.md not present")
    section = rules.read_text(encoding="utf-8").split("## 6.", 1)[1].split("- Crosses", 1)[0]
    assert parse_rows(section) == EXPECTED


def test_engine_table_equals_rules() -> None:
    assert [(t.threshold, t.name, t.crosses) for t in TITLES] == EXPECTED


@pytest.mark.parametrize("threshold,name,crosses", EXPECTED)
def test_each_threshold(threshold: int, name: str, crosses: int) -> None:
    t = title_for(threshold)
    assert (t.name, t.crosses) == (name, crosses)
    assert crosses_for(threshold) == crosses


@pytest.mark.parametrize("index", range(1, len(EXPECTED)))
def test_just_below_each_threshold(index: int) -> None:
    threshold = EXPECTED[index][0]
    _, name, crosses = EXPECTED[index - 1]
    t = title_for(threshold - 1)
    assert (t.name, t.crosses) == (name, crosses)


@pytest.mark.parametrize("score", [401, 999, 10_000])
def test_above_the_top(score: int) -> None:
    assert title_for(score).name == "Empress"


def test_negative_score_refused() -> None:
    with pytest.raises(CampaignError, match="negative"):
        title_for(-1)
