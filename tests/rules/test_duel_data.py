"""Known-answer duel records: every tests/data/duel_*.dorf is scored and compared
with its duel_*.expected.json on the keys the expected file names (explanations may
grow; the numbers may not change), or refused with ``{"error": "line N: ...", "code"}``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.rules.errors import RulesError
from companion.rules.scoring import score_text

DATA = Path(__file__).resolve().parent.parent / "data"
RECORDS = sorted(DATA.glob("duel_*.dorf"))


def subset_mismatches(expected: Any, actual: Any, path: str = "$") -> list[str]:
    """Where ``actual`` differs from ``expected`` on the keys ``expected`` names
    (lists must have the same length; their items are compared the same way)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path}: expected an object, got {actual!r}"]
        out: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing")
            else:
                out.extend(subset_mismatches(value, actual[key], f"{path}.{key}"))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {len(expected)} items, got {actual!r}"]
        return [m for i, (e, a) in enumerate(zip(expected, actual, strict=True))
                for m in subset_mismatches(e, a, f"{path}[{i}]")]
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]


def test_every_duel_record_has_an_expected_sheet() -> None:
    assert len(RECORDS) >= 10
    missing = [r.name for r in RECORDS if not r.with_suffix(".expected.json").exists()]
    assert not missing


@pytest.mark.parametrize("record", RECORDS, ids=[r.stem for r in RECORDS])
def test_duel_record_scores_as_expected(record: Path) -> None:
    expected = json.loads(record.with_suffix(".expected.json").read_text(encoding="utf-8"))
    text = record.read_text(encoding="utf-8")
    if "error" in expected:  # a refused record: the exact line error and its code
        with pytest.raises(RulesError) as err:
            score_text(text)
        assert (str(err.value), err.value.why.code) == (expected["error"], expected["code"])
        return
    actual = score_text(text)
    assert subset_mismatches(expected, actual) == []


def test_subset_compare_reports_differences() -> None:
    assert subset_mismatches({"a": {"b": 1}}, {"a": {"b": 2, "c": 3}}) == [
        "$.a.b: expected 1, got 2"]
    assert subset_mismatches({"a": [1]}, {"a": [1, 2]}) != []
    assert subset_mismatches({"a": [{"x": 1}]}, {"a": [{"x": 1, "y": 2}]}) == []
