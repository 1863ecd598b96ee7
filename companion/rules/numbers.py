"""Whole numbers in records, bounded: what a table can hold, never an attack's 5000 digits.

``whole_number(text, low, high)`` reads an ASCII whole number (an optional sign, at most
``MAX_DIGITS`` digits) inside ``[low, high]`` and returns it, or None when the text is not
one; callers raise their own error naming the field. The bounds are far beyond any real
game: positions within ``COORDINATE_LIMIT`` of the start, sheep and crossings per tile up
to ``COUNT_LIMIT``, campaign scores up to ``SCORE_LIMIT``.

>>> whole_number("-12", -100, 100), whole_number("9" * 5000, 0, 10), whole_number("١", 0, 9)
(-12, None, None)
"""

from __future__ import annotations

import re

MAX_DIGITS = 9
COORDINATE_LIMIT = 10_000
COUNT_LIMIT = 99
SCORE_LIMIT = 99_999
SPEND_LIMIT = 999

_WHOLE = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")


def whole_number(text: str, low: int, high: int) -> int | None:
    """``text`` as a whole number in ``[low, high]``, else None."""
    if not _WHOLE.fullmatch(text):
        return None
    value = int(text)
    return value if low <= value <= high else None
