"""Reading a command's input: bounded while reading, one clear line on every refusal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.commands.console import InputError, read_bytes, read_text


def test_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "game.dorf"
    path.write_text("game: board-game\n", encoding="utf-8")
    assert read_text(str(path)) == "game: board-game\n"


def test_dash_reads_standard_input() -> None:
    proc = subprocess.run([sys.executable, "-m", "companion", "check", "-"],
                          input="game: board-game\n0 0 MMMMMM\n", capture_output=True,
                          text=True, timeout=60)
    assert (proc.returncode, proc.stdout) == (0, "ok\n")


def test_a_device_that_never_ends_is_refused_at_the_bound() -> None:
    with pytest.raises(InputError, match="larger than 1024 bytes"):
        read_bytes("/dev/zero", 1024)


def test_a_file_exactly_at_the_bound_is_read(tmp_path: Path) -> None:
    path = tmp_path / "x"
    path.write_bytes(b"a" * 1024)
    assert len(read_bytes(str(path), 1024)) == 1024
    path.write_bytes(b"a" * 1025)
    with pytest.raises(InputError):
        read_bytes(str(path), 1024)


@pytest.mark.parametrize("make", ["missing", "directory", "latin1"])
def test_unreadable_inputs_name_the_path(tmp_path: Path, make: str) -> None:
    path = tmp_path / "in"
    if make == "directory":
        path.mkdir()
    elif make == "latin1":
        path.write_bytes("canção".encode("latin-1"))
    with pytest.raises(InputError, match=f"cannot read {path}"):
        read_text(str(path))


@pytest.mark.parametrize("command", ["score", "check", "campaign", "scan"])
def test_cli_on_dev_zero_refuses_in_one_line(command: str) -> None:
    proc = subprocess.run([sys.executable, "-m", "companion", command, "/dev/zero"],
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONWARNINGS": "ignore"})
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "larger than" in proc.stderr
    assert "Traceback" not in proc.stderr
