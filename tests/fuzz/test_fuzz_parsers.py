"""The record and campaign parsers: any text is scored or refused with a RulesError, in
bounded time and memory per input."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from hypothesis import given

from companion.rules import RulesError, load_campaign, score_text
from tests.helpers.fuzz_strategies import CAMPAIGN, FUZZ, TEXT

SECONDS = 2.0
PEAK_BYTES = 50 * 1024 * 1024


@contextmanager
def bounded() -> Iterator[None]:
    """The block takes under ``SECONDS`` and allocates under ``PEAK_BYTES`` at its peak."""
    tracemalloc.start()
    started = time.monotonic()
    try:
        yield
    finally:
        elapsed = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    assert elapsed < SECONDS and peak < PEAK_BYTES, (elapsed, peak)


def _refused_in_one_line(run: Callable[[], object]) -> object | None:
    try:
        return run()
    except RulesError as err:
        assert str(err) and "\n" not in str(err) and len(str(err)) < 1000
        return None


@FUZZ
@given(TEXT)
def test_any_record_text_is_scored_or_refused_with_a_line(text: str) -> None:
    with bounded():
        sheet = _refused_in_one_line(lambda: score_text(text))
    if sheet is not None:
        assert isinstance(sheet, dict)
        assert isinstance(sheet["total"], int) and abs(sheet["total"]) < 10**9


@FUZZ
@given(CAMPAIGN)
def test_any_campaign_text_is_replayed_or_refused_with_a_line(text: str) -> None:
    with bounded():
        state = _refused_in_one_line(lambda: load_campaign(text))
        if state is not None:
            state.to_json()  # type: ignore[attr-defined]
