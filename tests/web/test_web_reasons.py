"""The engine's reasons in the player's language (``companion.web.reasons``): every
engine code has a web template, and the known-answer sheets render in every language."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from companion.rules import CODES
from companion.rules.errors import RulesError
from companion.rules.scoring import score_text
from companion.web import create_app
from companion.web.reasons import TEMPLATES, say

DATA = Path(__file__).resolve().parent.parent / "data"


def test_every_engine_code_has_a_web_template() -> None:
    assert set(TEMPLATES) == set(CODES), sorted(set(CODES) ^ set(TEMPLATES))


def _reasons(node: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if "code" in node and "params" in node and "text" in node:
            found.append(node)
        for v in node.values():
            found.extend(_reasons(v))
    elif isinstance(node, list):
        for v in node:
            found.extend(_reasons(v))
    return found


def _all_known_reasons() -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for record in sorted(DATA.glob("*.dorf")):
        try:
            out.extend(_reasons(score_text(record.read_text(encoding="utf-8"))))
        except RulesError as err:
            out.append({**err.why.to_json(), "text": err.reason})
    return out


REASONS = _all_known_reasons()


@pytest.mark.parametrize("lang", ["de", "es", "pt_BR"])
def test_known_answer_reasons_are_translated(lang: str) -> None:
    app = create_app({"TESTING": True, "DATABASE": ":memory:"})
    untranslated = set()
    with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
        for r in REASONS:
            text = say(r)
            assert text
            if r["code"] != "message" and text == r["text"] and re.search("[a-z]{3,}", text):
                untranslated.add((r["code"], text))
    assert not untranslated, sorted(untranslated)[:20]


def test_english_web_words_keep_the_engine_sentence_shape() -> None:
    app = create_app({"TESTING": True, "DATABASE": ":memory:"})
    with app.test_request_context("/"):
        same = sum(say(r) == r["text"] for r in REASONS)
    assert same >= len(REASONS) * 0.6


@pytest.mark.parametrize("lang", ["de", "es", "pt_BR"])
def test_duel_box_flags_are_translated(lang: str) -> None:
    from companion.rules import Hex, Reason, render

    app = create_app({"TESTING": True, "DATABASE": ":memory:"})
    whys = [Reason("duel-tile-over-box", {"code": "MMMMMM", "kind": kind, "have": have,
                                          "at": Hex(1, 0)})
            for kind, have in (("landscape", 42), ("task", 27), ("school", 1))]
    with app.test_request_context("/", headers={"Cookie": f"lang={lang}"}):
        for why in whys:
            assert say(why) != render(why) and "(1, 0)" in say(why)
    with app.test_request_context("/"):
        assert [say(w) for w in whys] == [render(w) for w in whys]
