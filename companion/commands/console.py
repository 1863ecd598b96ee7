"""A command's console: reading its input with a size bound, and its one-line refusals.

Input is a path, or ``-`` for standard input.
The bound is applied while reading (never trusting the file's reported size), so
``/dev/zero`` or an endless pipe is refused after ``limit`` bytes instead of filling memory.
Every failure is an ``InputError`` whose message is the one line a person reads.
"""

from __future__ import annotations

import sys
from typing import BinaryIO

RECORD_LIMIT = 4 * 1024 * 1024
"""Largest record or campaign text a command reads (a 45-tile game is about 2 KB)."""


class InputError(Exception):
    """A command's input cannot be read; ``str()`` is the message for standard error."""


def refuse(message: str) -> int:
    """Print the one line a person reads on standard error; the exit status 1."""
    print(message, file=sys.stderr)
    return 1


def read_bytes(path: str, limit: int) -> bytes:
    """The bytes at ``path`` (``-``: standard input), refusing more than ``limit`` bytes."""
    try:
        if path == "-":
            return _bounded(sys.stdin.buffer, path, limit)
        with open(path, "rb") as fh:
            return _bounded(fh, path, limit)
    except IsADirectoryError:
        raise InputError(f"cannot read {path}: it is a directory") from None
    except OSError as err:
        raise InputError(f"cannot read {path}: {err.strerror or err}") from None


def read_text(path: str, limit: int = RECORD_LIMIT) -> str:
    """UTF-8 text at ``path`` (``-``: standard input), refusing more than ``limit`` bytes."""
    data = read_bytes(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"cannot read {path}: not UTF-8 text") from None


def _bounded(fh: BinaryIO, path: str, limit: int) -> bytes:
    data = fh.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"cannot read {path}: larger than {limit} bytes")
    return data
