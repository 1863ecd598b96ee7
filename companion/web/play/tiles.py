"""Choosing a tile: the catalogue filtered by a typed pattern, and painted codes.

Representation: a ``Choice`` is one distinct tile of the catalogue
(``companion.rules.tiles.catalogue()``): its code as listed, the catalogue
section (``landscape``, ``task``, ``box-1-task``, ``box-2-landscape``) and how
many physical tiles show it. A pattern of letters matches a tile when it reads
along the tile's edges clockwise from some edge, i.e. in any rotation
(``"TT"`` matches ``GGMTTM``; ``"MGG"`` matches it too, wrapping round).

>>> [c.code for c in filter_catalogue("gggggg")]
['GGGGGG']
>>> matches("MGG", "GGMTTM")
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from companion.rules import TERRAINS, canonical, catalogue, rotate

LETTERS = "FGVTSM"


@dataclass(frozen=True)
class Choice:
    code: str
    section: str
    count: int

    @property
    def is_task(self) -> bool:
        return "task" in self.section


@lru_cache(maxsize=1)
def choices() -> tuple[Choice, ...]:
    """Distinct catalogue tiles (by rotation), in catalogue order."""
    seen: dict[tuple[str, str], list[str]] = {}
    for t in catalogue():
        key = (t.section, canonical(t.code))
        seen.setdefault(key, []).append(t.code)
    return tuple(Choice(codes[0], section, len(codes)) for (section, _), codes in seen.items())


def clean_pattern(text: str) -> str:
    """Upper-case terrain letters only (anything else typed is dropped)."""
    return re.sub(f"[^{LETTERS}]", "", text.upper())


def matches(pattern: str, code: str) -> bool:
    """Does ``pattern`` read along ``code``'s edges clockwise in some rotation?"""
    if len(pattern) > 6:
        return False
    return pattern in code + code[:5]


def filter_catalogue(text: str, sections: tuple[str, ...] | None = None) -> list[Choice]:
    pattern = clean_pattern(text)
    return [c for c in choices()
            if (sections is None or c.section in sections) and matches(pattern, c.code)]


def section_of(code: str) -> str | None:
    """The catalogue section of a tile code (any rotation), None when not in it."""
    c = canonical(code)
    for choice in choices():
        if canonical(choice.code) == c:
            return choice.section
    return None


def painted_code(edges: list[str]) -> str | None:
    """Six painted edge letters as a code, None unless all six are terrain letters."""
    code = "".join(e.strip().upper()[:1] for e in edges)
    return code if len(code) == 6 and all(c in TERRAINS for c in code) else None


def rotation_codes(code: str) -> list[tuple[int, str]]:
    """(steps, rotated code) for every rotation 0..5, duplicates included."""
    return [(k, rotate(code, k)) for k in range(6)]
