"""Numbers in records are bounded (the 4300-digit and 10^30 attacks): refused with the line."""

from __future__ import annotations

import pytest

from companion.rules import CampaignError, NotationError, load_campaign, score_text

HUGE = "9" * 5000


@pytest.mark.parametrize(("line", "says"), [
    (f"{HUGE} 0 MMMMMM", "position"),
    (f"0 -{HUGE} MMMMMM", "position"),
    ("0 10001 MMMMMM", "-10000 to 10000"),
    (f"0 0 MMMMMM sheep={10**30}", "sheep="),
    ("0 0 MMMMMM crossing=100", "from 0 to 99"),
    (f"0 0 GGGGGG task=grain/{HUGE}", "marker value"),
    (f"0 0 MMMMMM special=forest-cabin markers=5,{HUGE}", "markers="),
])
def test_a_number_beyond_any_table_is_refused_naming_the_line(line: str, says: str) -> None:
    with pytest.raises(NotationError) as err:
        score_text(f"game: board-game\n{line}\n")
    message = str(err.value)
    assert message.startswith("line 2: ") and says in message
    assert len(message) < 300


def test_the_largest_allowed_values_still_score() -> None:
    sheet = score_text("game: board-game\nunlocked: shepherdess\n"
                       "-10000 10000 MMMMMM special=shepherdess sheep=99\n")
    assert sheet["unlocked"]["shepherdess"] == 99


@pytest.mark.parametrize(("line", "says"), [
    (f"game: {HUGE}", "not a score"),
    ("game: 100000", "0 to 99999"),
    (f"game: 120\nspend: start-box1 {HUGE}", "spend:"),
])
def test_campaign_numbers_are_bounded(line: str, says: str) -> None:
    with pytest.raises(CampaignError) as err:
        load_campaign(f"campaign: x\n{line}\n")
    assert says in str(err.value) and len(str(err.value)) < 300
