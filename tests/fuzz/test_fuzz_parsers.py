"""The record and campaign parsers: any text is scored or refused with a RulesError."""

from __future__ import annotations

import time

from hypothesis import given

from companion.rules import RulesError, load_campaign, score_text
from tests.helpers.fuzz_strategies import CAMPAIGN, FUZZ, TEXT


@FUZZ
@given(TEXT)
def test_any_record_text_is_scored_or_refused_with_a_line(text: str) -> None:
    started = time.monotonic()
    try:
        sheet = score_text(text)
    except RulesError as err:
        assert str(err) and "\n" not in str(err) and len(str(err)) < 1000
    else:
        assert isinstance(sheet["total"], int) and abs(sheet["total"]) < 10**9
    assert time.monotonic() - started < 2.0


@FUZZ
@given(CAMPAIGN)
def test_any_campaign_text_is_replayed_or_refused_with_a_line(text: str) -> None:
    try:
        state = load_campaign(text)
    except RulesError as err:
        assert str(err) and "\n" not in str(err) and len(str(err)) < 1000
    else:
        state.to_json()
