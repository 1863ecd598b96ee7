"""Known-answer tests: every ``tests/data/bg_*.dorf`` against its hand-computed sheet.

Representation: each record ``bg_NAME.dorf`` (with a sketch and the hand computation
in its comments) has ``bg_NAME.expected.json`` holding either

* a subset of the ``companion score --json`` object (``tasks``, ``flags``,
  ``longest``, ``unlocked``, totals, ``markers`` with the keys given), plus
  optionally ``warnings``: a list of ``{"line", "turn", "text"}`` where ``text`` is a
  part of the warning's text (or ``"code"``: its reason code, exactly; either or both);
  when the key is present the warnings must match one to one (order free), when it
  is absent warnings are not checked; or
* ``{"error": "line N: reason"}`` for a refused record: the exact one-line error, and
  optionally ``"code"``: the code of the error's reason.

The same records also go through the command line as a subprocess for a few cases.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from companion import score_record
from companion.rules.errors import RulesError

DATA = Path(__file__).resolve().parent.parent / "data"
RECORDS = sorted(DATA.glob("bg_*.dorf"))


def _expected(record: Path) -> dict[str, Any]:
    path = record.with_name(record.name[: -len(".dorf")] + ".expected.json")
    result: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return result


def _differences(expected: Any, actual: Any, path: str = "") -> list[str]:
    """Where ``actual`` differs from ``expected`` (dict keys of ``expected`` only)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or '.'}: expected an object, got {actual!r}"]
        out: list[str] = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{path}.{key}: missing")
            else:
                out.extend(_differences(value, actual[key], f"{path}.{key}"))
        if path in (".unlocked", ".tasks", ".flags", ".longest"):
            extra = sorted(set(actual) - set(expected))
            if extra:
                out.append(f"{path}: unexpected keys {extra}")
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{path}: expected {len(expected)} items, got {actual!r}"]
        return [d for i, (e, a) in enumerate(zip(expected, actual, strict=True))
                for d in _differences(e, a, f"{path}[{i}]")]
    if expected != actual:
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return []


def _warning_differences(expected: list[dict[str, Any]],
                         actual: list[dict[str, Any]]) -> list[str]:
    left = list(actual)
    out = []
    for w in expected:
        match = next((a for a in left if a["line"] == w["line"] and a["turn"] == w["turn"]
                      and w.get("text", "") in a["text"]
                      and w.get("code", a["code"]) == a["code"]), None)
        if match is None:
            out.append(f"warnings: no warning like {w}")
        else:
            left.remove(match)
    out.extend(f"warnings: unexpected {a}" for a in left)
    return out


def check_record(record: Path) -> list[str]:
    """Score ``record`` and list every difference from its expected file."""
    expected = _expected(record)
    text = record.read_text(encoding="utf-8")
    if "error" in expected:
        try:
            sheet = score_record(text)
        except RulesError as err:
            out = [] if str(err) == expected["error"] else [
                f"error: expected {expected['error']!r}, got {str(err)!r}"]
            if expected.get("code", err.why.code) != err.why.code:
                out.append(f"error code: expected {expected['code']!r}, got {err.why.code!r}")
            return out
        return [f"expected the refusal {expected['error']!r}, got total {sheet['total']}"]
    sheet = score_record(text)
    wanted = dict(expected)
    warnings = wanted.pop("warnings", None)
    out = _differences(wanted, sheet)
    if warnings is not None:
        out.extend(_warning_differences(warnings, sheet["warnings"]))
    return out


@pytest.mark.parametrize("record", RECORDS, ids=[r.stem for r in RECORDS])
def test_known_answer(record: Path) -> None:
    differences = check_record(record)
    assert not differences, f"{record.name}:\n  " + "\n  ".join(differences)


def test_every_record_has_an_expected_sheet() -> None:
    assert len(RECORDS) >= 40
    expected = {p.name[: -len(".expected.json")] for p in DATA.glob("bg_*.expected.json")}
    assert expected == {r.stem for r in RECORDS}


def test_expected_totals_add_up() -> None:
    """The hand-written sheets are consistent with the pad's sums (S1, S2, S3, H)."""
    for record in RECORDS:
        e = _expected(record)
        if "error" in e:
            continue
        assert e["tasks_total"] == sum(e["tasks"].values()), record.name
        assert e["bonus_total"] == sum(e["flags"].values()) + sum(e["longest"].values()), (
            record.name)
        assert e["unlocked_total"] == sum(e["unlocked"].values()), record.name
        assert e["total"] == e["tasks_total"] + e["bonus_total"] + e["unlocked_total"], (
            record.name)


# ------------------------------------------------------------------ command line
def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        input=stdin, capture_output=True, text=True, timeout=60, check=False,
    )


@pytest.mark.parametrize("name", ["bg_great_mill", "bg_second_time_specials",
                                  "bg_one_placement_several_markers"])
def test_cli_score_json_matches_expected(name: str) -> None:
    record = DATA / f"{name}.dorf"
    done = _run("score", str(record), "--json")
    assert done.returncode == 0, done.stderr
    sheet = json.loads(done.stdout)
    wanted = dict(_expected(record))
    wanted.pop("warnings", None)
    assert _differences(wanted, sheet) == []


def test_cli_score_reads_stdin() -> None:
    record = DATA / "bg_branching_track.dorf"
    done = _run("score", "-", "--json", stdin=record.read_text(encoding="utf-8"))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["longest"]["track"] == 5


@pytest.mark.parametrize("name", ["bg_err_track_meets_meadow", "bg_task_refused_too_large",
                                  "bg_err_marker_value", "bg_err_wrong_letter",
                                  "bg_err_occupied_hex"])
@pytest.mark.parametrize("command", ["score", "check"])
def test_cli_refuses_with_one_line(name: str, command: str) -> None:
    record = DATA / f"{name}.dorf"
    done = _run(command, str(record))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines() == [_expected(record)["error"]]
    assert "Traceback" not in done.stderr


def test_cli_check_accepts_a_legal_record() -> None:
    done = _run("check", str(DATA / "bg_order_clean.dorf"))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr


def test_cli_check_prints_warnings_but_accepts() -> None:
    done = _run("check", str(DATA / "bg_order_warnings.dorf"))
    assert done.returncode == 0
    assert done.stderr.count("warning") == 3
    assert "line 26" in done.stderr


# ------------------------------------------------------------------ explanations
def _walk(e: dict[str, Any], path: str) -> list[str]:
    out = []
    if not e["text"]:
        out.append(f"{path}: no text")
    items = e.get("items", [])
    if items and sum(i["value"] for i in items) != e["value"]:
        out.append(f"{path}: {e['value']} is not the sum of its items")
    for k, item in enumerate(items):
        out.extend(_walk(item, f"{path}[{k}]"))
    return out


@pytest.mark.parametrize("record", [r for r in RECORDS if "error" not in _expected(r)],
                         ids=lambda r: r.stem)
def test_every_number_is_explained(record: Path) -> None:
    """rules.md §8: each sheet number has an explanation equal to it, whose parts add up
    and whose tiles lie on the map."""
    sheet = score_record(record.read_text(encoding="utf-8"))
    ex = sheet["explanations"]
    on_map = {(q, r) for q, r in _map_hexes(record)}
    checks = {f"tasks.{t}": sheet["tasks"][t] for t in sheet["tasks"]}
    checks |= {f"flags.{t}": sheet["flags"][t] for t in sheet["flags"]}
    checks |= {f"longest.{t}": sheet["longest"][t] for t in sheet["longest"]}
    checks |= {f"unlocked.{u}": v for u, v in sheet["unlocked"].items()}
    checks |= {k: sheet[k] for k in ("tasks_total", "bonus_total", "unlocked_total", "total")}
    problems = []
    for path, value in checks.items():
        if path not in ex:
            problems.append(f"{path}: no explanation")
            continue
        if ex[path]["value"] != value:
            problems.append(f"{path}: explanation says {ex[path]['value']}, sheet {value}")
        problems.extend(_walk(ex[path], path))
        for q, r in ex[path]["tiles"]:
            if (q, r) not in on_map:
                problems.append(f"{path}: tile {(q, r)} is not on the map")
    assert not problems, "\n".join(problems)


def _map_hexes(record: Path) -> list[tuple[int, int]]:
    from companion.rules.notation import parse_record

    return [tuple(p.at) for p in parse_record(record.read_text(encoding="utf-8")).placements]


def test_explanations_name_turns_and_open_edges() -> None:
    sheet = score_record((DATA / "bg_stream5_completed_by_task6.dorf").read_text())
    stream = sheet["explanations"]["tasks.stream"]
    assert 5 in stream["turns"]
    assert "turn 5" in json.dumps(stream)
    flags = score_record((DATA / "bg_flags_closed_open.dorf").read_text())["explanations"]
    assert "open" in json.dumps(flags["flags.forest"])
    text = (DATA / "bg_branching_track.dorf").read_text()
    longest = score_record(text)["explanations"]
    assert longest["longest.track"]["rulings"] == []  # the books' rule: no ruling decides
    assert longest["longest.track"]["code"] == "longest-network"
    assert sorted(map(tuple, longest["longest.track"]["tiles"])) == sorted(
        [(0, -2), (0, -1), (0, 0), (1, 0), (-1, 1)])
    house = score_record(text.replace("game: board-game", "game: board-game\nrulings: R-2=on"))
    assert house["longest"]["track"] == 4  # the longest chain without branching back
    assert house["explanations"]["longest.track"]["rulings"] == ["R-2"]
    assert score_record(text.replace("game: board-game",
                                     "game: board-game\nrulings: R-2=off"))["longest"][
        "track"] == 5
