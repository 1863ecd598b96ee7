"""Reasons as codes (``companion.rules.reasons``): every refusal, warning and marker
explanation carries a known code, and the English comes from the one renderer."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import companion.rules
from companion.rules.errors import IllegalPlacementError, RulesError
from companion.rules.game import replay_text
from companion.rules.hexgrid import Hex
from companion.rules.reasons import CODES, Reason, message, render
from companion.rules.scoring import score_text

RULES_DIR = Path(companion.rules.__file__).parent
DATA = Path(__file__).resolve().parent.parent / "data"


def _string_constants(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)}


def _reason_literals(path: Path) -> set[str]:
    """First arguments of ``Reason(...)`` and ``Reason.of(...)`` that are literals."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        f = node.func
        named = (isinstance(f, ast.Name) and f.id == "Reason") or (
            isinstance(f, ast.Attribute) and f.attr == "of"
            and isinstance(f.value, ast.Name) and f.value.id == "Reason")
        if named and isinstance(node.args[0], ast.Constant):
            out.add(str(node.args[0].value))
    return out


def test_every_code_the_engine_writes_is_known_and_every_known_code_is_used() -> None:
    files = [p for p in RULES_DIR.rglob("*.py") if p.name != "reasons.py"]
    written = set().union(*(_reason_literals(p) for p in files))
    assert written and written <= CODES, sorted(written - CODES)
    mentioned = set().union(*(_string_constants(p) for p in files))
    unused = CODES - mentioned - {"message", "rule-broken", "all-of"}
    assert not unused, f"templates no engine code produces: {sorted(unused)}"


def test_render_is_the_one_english_form() -> None:
    why = Reason.of("edge-mismatch", terrain="track", edge=3, other="meadow",
                    neighbour=Hex(1, 0))
    assert render(why) == str(why) == "track edge 3 meets meadow at (1, 0)"
    assert why.to_json() == {"code": "edge-mismatch", "params": {
        "terrain": "track", "edge": 3, "other": "meadow", "neighbour": [1, 0]}}
    nested = Reason.of("task-fails-at-once", task="forest/4", why=Reason.of(
        "size-over", terrain="forest", size=5, value=4))
    assert render(nested) == ("task tile forest/4 would fail at once: its forest territory "
                              "has 5 tiles, more than 4")
    assert nested.to_json()["params"]["why"]["code"] == "size-over"
    with pytest.raises(KeyError):
        Reason.of("no-such-code")


def test_errors_carry_the_reason_and_keep_their_line_form() -> None:
    with pytest.raises(IllegalPlacementError) as err:
        replay_text("game: board-game\n0 0 GGMTTM\n0 1 GGGGGG\n")
    assert str(err.value) == "line 3: grain edge 0 meets track at (0, 0)"
    assert err.value.why.code == "edge-mismatch"
    assert err.value.why["neighbour"] == (0, 0) and err.value.line == 3
    plain = RulesError("something odd", 2)
    assert plain.why == message("something odd") and str(plain) == "line 2: something odd"


def _all_reasons(sheet: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if "code" in node and "params" in node:
                found.append(node)
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(sheet)
    return found


@pytest.mark.parametrize("record", sorted(DATA.glob("*.dorf")), ids=lambda p: p.stem)
def test_every_warning_and_explanation_has_a_code(record: Path) -> None:
    try:
        sheet = score_text(record.read_text(encoding="utf-8"))
    except RulesError as err:
        assert err.why.code in CODES
        return
    sheets = list(sheet["players"].values()) if sheet["game"] == "duel" else [sheet]
    warnings = [w for s in [sheet, *sheets] for w in s.get("warnings", [])]
    assert all(w["code"] in CODES and w["text"] for w in warnings)
    for s in sheets:
        for t in s["tasks"]:
            for item in s["explanations"][f"tasks.{t}"].get("items", []):
                assert item["code"].startswith("marker-"), item
    explanations = [e for s in sheets for e in s["explanations"].values()]
    if sheet["game"] == "duel":
        explanations.append(sheet["winner_explanation"])
    uncoded = [e["text"] for e in explanations for e in _tree(e) if "code" not in e]
    assert not uncoded
    assert all(r["code"] in CODES for r in _all_reasons(sheet))


def _tree(e: dict[str, Any]) -> list[dict[str, Any]]:
    return [e, *(x for item in e.get("items", []) for x in _tree(item))]


BAD_RECORDS = [
    "0 0 GGXGGG\n", "0 0 GGGGGG task=forest/4\n", "0 0 GGGGGG flag=forest\n",
    "0 0 GGGGGG sheep=x\n", "0 0 GGGGGG heart heart\n", "0 0 GGGGGG colour=red\n",
    "game: chess\n", "modules: 3\n", "0 0\n", "a b GGGGGG\n", "0 0 GGGGGG task=grain/9\n",
    "0 0 FFFFFF split=F:01\n", "rulings: R-99\n", "rulings: R-7=off\n",
    "game: duel\n0 0 GGGGGG\n", "player: red\n", "unlocked: circuss\n0 0 MMMMMM\n",
    "0 0 MMMMMM special=school\n", "0 0 MMMMMM mill\n", "0 0 MMMMMM markers=5\n",
]


@pytest.mark.parametrize("text", BAD_RECORDS)
def test_notation_refusals_carry_their_own_code(text: str) -> None:
    with pytest.raises(RulesError) as err:
        score_text(text)
    assert err.value.why.code in CODES and err.value.why.code != "message"
    assert str(err.value).startswith("line ") and render(err.value.why) == err.value.reason


@pytest.mark.parametrize("steps", [["game: 12", "spend: nowhere 1"], ["spend: start-box1 1"],
                                   ["game: 70", "spend: start-box1 9"], ["colour: red"]])
def test_campaign_refusals_carry_their_own_code(steps: list[str]) -> None:
    from companion.rules.campaign.state import load_campaign

    with pytest.raises(RulesError) as err:
        load_campaign("\n".join(steps) + "\n")
    assert err.value.why.code in CODES and err.value.why.code != "message"


def test_the_public_api_exposes_the_codes() -> None:
    import companion.rules as api

    assert {"Reason", "render", "CODES", "rule_text", "illegal_now", "explain_illegal"} <= set(
        api.__all__)
    why = api.Reason.of("touches-nothing", at=(5, 5))
    assert api.rule_text(why) == "Every tile after the first must touch a placed tile."
