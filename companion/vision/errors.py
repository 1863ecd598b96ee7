"""The scanner's one domain error.

``ScanError`` is a ``ValueError`` whose message is a single clear line meant for a
person ("not an image: ...", "no tiles found on the table", ...). The command line
prints it as ``companion: <reason>``; the web app maps it to a 4xx answer.
"""

from __future__ import annotations


class ScanError(ValueError):
    """A photo the scanner refuses, with the reason in ``str(error)``."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason
