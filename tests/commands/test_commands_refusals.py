"""The CLI attacks of the hardening issue: huge numbers get one line and exit 1, never a
traceback (a 5000-digit coordinate or score used to raise ValueError past the parser)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

HUGE = "9" * 5000


@pytest.mark.parametrize(("command", "text"), [
    ("score", f"game: board-game\n{HUGE} 0 MMMMMM\n"),
    ("check", f"game: board-game\n0 0 MMMMMM sheep={HUGE}\n"),
    ("campaign", f"campaign: x\ngame: {HUGE}\n"),
])
def test_a_huge_number_is_one_line(tmp_path: Path, command: str, text: str) -> None:
    path = tmp_path / "input.txt"
    path.write_text(text, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "companion", command, str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.startswith("line 2: ") and proc.stderr.count("\n") == 1
    assert len(proc.stderr) < 300 and "Traceback" not in proc.stderr
