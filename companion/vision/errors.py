"""The scanner's one domain error.

``ScanError`` is a ``ValueError`` whose message is a single clear line meant for a
person ("not an image: ...", "no tiles found on the table", ...). The command line
prints it as ``companion: <reason>``; the web app maps it to a 4xx answer and shows it
in the player's language from its ``code`` and ``params`` (``companion.web.reasons``),
never from the English words.

Codes: a raise site may name its code (``ScanError(reason, code=..., **params)``); else
the code is read off the English message by ``MESSAGES`` (one pattern per sentence the
scanner writes; named groups become the parameters, numbers as ``int`` or ``float``).
A message no pattern knows has the code ``scan-refused`` (``params``: none).

>>> e = ScanError("photo too small: 20x10")
>>> e.code, e.params
('photo-too-small', {'width': 20, 'height': 10})
>>> ScanError("no tiles found: the table looks empty").code
'no-tiles-empty'
"""

from __future__ import annotations

import re
from typing import Any

UNKNOWN = "scan-refused"

MESSAGES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (code, re.compile(pattern)) for code, pattern in (
        ("photo-too-large-bytes",
         r"photo too large: (?P<bytes>\d+) bytes \(limit (?P<limit>\d+)\)"),
        ("photo-too-large-pixels",
         r"photo too large: (?P<width>\d+)x(?P<height>\d+) is over (?P<megapixels>\d+) MP"),
        ("photo-too-small", r"photo too small: (?P<width>\d+)x(?P<height>\d+)"),
        ("cannot-read", r"cannot read "),
        ("not-an-image-directory", r"not an image: .* is a directory"),
        ("not-an-image-input", r"not an image: unsupported input"),
        ("not-an-image-array", r"not an image: expected a uint8 array"),
        ("not-an-image-channels", r"not an image: expected 1, 3 or 4 colour channels"),
        ("not-an-image-format", r"not an image: the file is not a JPEG"),
        ("not-an-image-empty", r"not an image: zero size"),
        ("not-an-image-decode", r"not an image: cannot decode"),
        ("image-bomb", r"refused: .*decompression bomb"),
        ("truncated-image", r"truncated image"),
        ("time-limit", r"time limit exceeded: the photo took over (?P<seconds>[\d.]+) s"),
        ("no-tiles-empty", r"no tiles found: the table looks empty"),
        ("no-tiles-not-tiles", r"no tiles recognised: this does not look like a photo"),
        ("no-tiles-not-hexagons", r"no tiles recognised: the shapes on the table are not"),
        ("no-tiles-no-lattice", r"no tiles recognised: could not fit a hex lattice"),
        ("no-tiles-colours", r"no tiles recognised: the colours are not those"),
        ("no-tiles-too-dark", r"no tiles recognised: the photo is too dark"),
    ))
CODES = frozenset(code for code, _p in MESSAGES) | {UNKNOWN}


def _number(text: str) -> int | float:
    return float(text) if "." in text else int(text)


def classify(reason: str) -> tuple[str, dict[str, Any]]:
    """The code and parameters of one of the scanner's English messages."""
    for code, pattern in MESSAGES:
        found = pattern.match(reason)
        if found:
            return code, {k: _number(v) for k, v in found.groupdict().items()}
    return UNKNOWN, {}


class ScanError(ValueError):
    """A photo the scanner refuses, with the reason in ``str(error)`` and as ``code`` and
    ``params``."""

    def __init__(self, reason: str, code: str | None = None, **params: Any) -> None:
        super().__init__(reason)
        self.reason = reason
        if code is None:
            code, found = classify(reason)
            params = {**found, **params}
        self.code = code
        self.params = params

    def __str__(self) -> str:
        return self.reason
