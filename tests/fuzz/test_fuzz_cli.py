"""The command line on fuzzed input: exit 0 or 1 with one line, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given

from companion.cli import main
from tests.helpers.fuzz_strategies import CAMPAIGN, FUZZ, TEXT


def _run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str]:
    status = main(args)
    return status, capsys.readouterr().err


@FUZZ
@given(TEXT)
def test_score_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    path = tmp_path / "fuzz.dorf"
    path.write_text(text, encoding="utf-8")
    for command in (["score", str(path), "--json"], ["check", str(path)]):
        status, err = _run(capsys, command)
        assert status in (0, 1)
        if status == 1:
            assert err.count("\n") == 1


@FUZZ
@given(CAMPAIGN)
def test_campaign(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> None:
    path = tmp_path / "fuzz.txt"
    path.write_text(text, encoding="utf-8")
    status, err = _run(capsys, ["campaign", str(path), "--json"])
    assert status in (0, 1)
    if status == 1:
        assert err.count("\n") == 1


@pytest.mark.parametrize("content", [b"", b"\x89PNG\r\n\x1a\n" + b"\0" * 64,
                                     b"\xff\xd8\xff\xe0" + b"\x00" * 100, b"GIF89a", b"\0" * 4096])
def test_scan_refuses_what_is_not_a_photo(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          content: bytes) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(content)
    status, err = _run(capsys, ["scan", str(path)])
    assert status == 1 and err.startswith("companion: ") and err.count("\n") == 1
