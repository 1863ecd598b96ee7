"""Tile codes, rotation, areas and the tile catalogue (notation.md section 2).

Representation: a tile code is a six-letter ``str`` giving the terrain at edges
0..5 *as the tile lies* (rotation already applied). Letters: ``F`` forest,
``G`` grain, ``V`` village, ``T`` track, ``S`` stream, ``M`` meadow.

An *area* is a ``frozenset`` of edge indices of one terrain on one tile. By
default all edges of a terrain form one area (ruling R-1); a ``split=`` spec
such as ``"F:01/3"`` separates them. ``areas(code, split)`` returns the areas of
a tile as a tuple of ``Area`` (terrain letter + edges), ordered by first edge.

>>> rotate("GGMTTM", 1)
'MGGMTT'
>>> [(a.terrain, sorted(a.edges)) for a in areas("FFMFGG")]
[('F', [0, 1, 3]), ('M', [2]), ('G', [4, 5])]
>>> [(a.terrain, sorted(a.edges)) for a in areas("FFMFGG", "F:01/3")]
[('F', [0, 1]), ('M', [2]), ('F', [3]), ('G', [4, 5])]
>>> canonical("MGGMTT") == canonical("GGMTTM")
True
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from companion.rules.errors import NotationError
from companion.rules.reasons import Reason

TERRAINS: dict[str, str] = {
    "F": "forest",
    "G": "grain",
    "V": "village",
    "T": "track",
    "S": "stream",
    "M": "meadow",
}
LETTER_OF: dict[str, str] = {name: letter for letter, name in TERRAINS.items()}
TERRITORY_LETTERS = frozenset("FGV")
NETWORK_LETTERS = frozenset("TS")
SCORED_TYPES: tuple[str, ...] = ("forest", "grain", "village", "track", "stream")


def edges_can_meet(a: str, b: str) -> bool:
    """Whether two touching edge letters may meet (rules.md section 2): a track or stream
    edge meets only its own letter; forest, grain, village and meadow meet each other.

    >>> edges_can_meet("T", "T"), edges_can_meet("T", "M"), edges_can_meet("F", "G")
    (True, False, True)
    """
    return a == b or (a not in NETWORK_LETTERS and b not in NETWORK_LETTERS)


class Area(NamedTuple):
    """Edges of one terrain on one tile that belong together."""

    terrain: str
    edges: frozenset[int]


def check_code(code: str) -> str:
    """Return ``code`` if it is six terrain letters, else raise ``NotationError``."""
    if len(code) != 6 or any(c not in TERRAINS for c in code):
        bad = [c for c in code if c not in TERRAINS]
        raise NotationError(Reason("bad-tile-code", {"code": code, "letter": bad[0] if bad
                                                     else None, "length": len(code)}))
    return code


def rotate(code: str, steps: int) -> str:
    """Rotate a code ``steps`` x 60 degrees clockwise (letters move right)."""
    k = steps % 6
    return code[-k:] + code[:-k] if k else code


def rotations(code: str) -> list[str]:
    """The distinct rotations of ``code``, in order of steps 0..5."""
    seen: list[str] = []
    for k in range(6):
        r = rotate(code, k)
        if r not in seen:
            seen.append(r)
    return seen


def canonical(code: str) -> str:
    """The smallest rotation: equal for codes that are the same physical tile."""
    return min(rotate(code, k) for k in range(6))


def parse_split(spec: str, code: str) -> dict[str, list[frozenset[int]]]:
    """Parse ``split=`` (e.g. ``F:01/3,G:4/5``) against ``code``.

    Each named terrain's groups must partition exactly that terrain's edges.
    """
    result: dict[str, list[frozenset[int]]] = {}
    for part in spec.split(","):
        letter, sep, groups = part.partition(":")
        if not sep or letter not in TERRAINS or not groups:
            raise NotationError(Reason("split-form", {"split": spec}))
        if letter in result:
            raise NotationError(Reason("split-terrain-twice", {"split": spec, "letter": letter}))
        sets: list[frozenset[int]] = []
        for g in groups.split("/"):
            if not g or any(ch not in "012345" for ch in g):
                raise NotationError(Reason("split-bad-group", {"split": spec, "group": g}))
            sets.append(frozenset(int(ch) for ch in g))
        union: set[int] = set()
        for s in sets:
            if union & s:
                raise NotationError(Reason("split-edge-twice", {"split": spec}))
            union |= s
        expected = {i for i, c in enumerate(code) if c == letter}
        if union != expected:
            raise NotationError(Reason("split-wrong-edges", {
                "split": spec, "terrain": TERRAINS[letter], "code": code,
                "edges": "".join(map(str, sorted(expected)))}))
        result[letter] = sets
    return result


@lru_cache(maxsize=4096)
def areas(code: str, split: str | None = None) -> tuple[Area, ...]:
    """The areas of a tile, ordered by their smallest edge."""
    groups: dict[str, list[frozenset[int]]] = parse_split(split, code) if split else {}
    out: list[Area] = []
    for letter in dict.fromkeys(code):
        if letter in groups:
            out.extend(Area(letter, g) for g in groups[letter])
        else:
            out.append(Area(letter, frozenset(i for i, c in enumerate(code) if c == letter)))
    out.sort(key=lambda a: min(a.edges))
    return tuple(out)


@lru_cache(maxsize=4096)
def area_index(code: str, split: str | None = None) -> tuple[int, ...]:
    """For each edge 0..5, the index of its area in ``areas(code, split)``."""
    idx = [0] * 6
    for n, a in enumerate(areas(code, split)):
        for e in a.edges:
            idx[e] = n
    return tuple(idx)


def split_spec(groups: dict[str, Iterable[Iterable[int]]]) -> str:
    """Write a ``split=`` value: ``{"F": [[0, 1], [3]]}`` -> ``"F:01/3"``."""
    return ",".join(
        f"{letter}:" + "/".join("".join(str(e) for e in sorted(g)) for g in gs)
        for letter, gs in groups.items()
    )


class CatalogueTile(NamedTuple):
    """One physical tile of the catalogue: its section, 1-based number in it, code."""

    section: str
    number: int
    code: str


@lru_cache(maxsize=1)
def catalogue() -> tuple[CatalogueTile, ...]:
    """Every tile of ``companion/data/catalogue.txt`` (base box, Box 1, Box 2)."""
    text = resources.files("companion").joinpath("data/catalogue.txt").read_text("utf-8")
    return parse_catalogue(text)


def parse_catalogue(text: str) -> tuple[CatalogueTile, ...]:
    tiles: list[CatalogueTile] = []
    section = ""
    number = 0
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            section = line.strip("[]")
            number = 0
            continue
        number += 1
        tiles.append(CatalogueTile(section, number, check_code(line)))
    return tuple(tiles)
