"""What the campaign unlocks, and what each unlock changes in later games (rules.md §5, §6).

Representation: the editable content file ``companion/data/campaign_content.json`` is
read into a ``Content`` value: the base marker pool, the boxes (``box1``, ``box2``), the
red heart, and every achievement (``Achievement``: id, name, source ``track``/``box``/
``duel``, the box that holds it or None when unknown, condition and reward text, and its
``Effects``). An *unlock id* is a box id, an achievement id, or ``red-heart``.
``live_effects(ids, content)`` folds the effects of a list of unlock ids into one
``Effects``: the score-sheet rows that are live, the special tiles and pieces in play,
the catalogue sections added to the tile pool and the task-marker pool per type.

>>> content = load_content()
>>> live_effects(["box1", "circus", "red-heart"], content).score_rows
('circus', 'red-hearts')
>>> live_effects(["box1"], content).markers["forest"]
(4, 4, 5, 5, 6, 6)
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from companion.rules.errors import CampaignError
from companion.rules.notation import SCORE_ROWS

RED_HEART = "red-heart"
MARKER_TYPES = ("forest", "grain", "village", "track", "stream")


@dataclass(frozen=True)
class Effects:
    """What an unlock (or a set of unlocks) puts into play."""

    score_rows: tuple[str, ...] = ()
    special_tiles: tuple[str, ...] = ()
    markers: dict[str, tuple[int, ...]] = field(default_factory=dict)
    tiles: tuple[str, ...] = ()
    pieces: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "score_rows": list(self.score_rows),
            "special_tiles": list(self.special_tiles),
            "markers": {k: list(v) for k, v in self.markers.items()},
            "tiles": list(self.tiles),
            "pieces": list(self.pieces),
        }


@dataclass(frozen=True)
class Achievement:
    """One achievement card as the players keep it."""

    id: str
    name: str
    source: str
    box: int | None
    condition: str
    reward: str
    placeholder: bool
    effects: Effects


@dataclass(frozen=True)
class Box:
    id: str
    name: str
    contents: str
    placeholder: bool
    effects: Effects


@dataclass(frozen=True)
class Content:
    """The whole editable campaign content."""

    base_markers: dict[str, tuple[int, ...]]
    boxes: dict[str, Box]
    red_heart: Effects
    achievements: dict[str, Achievement]

    def effects_of(self, unlock_id: str) -> Effects:
        """The effects of one unlock id; ``CampaignError`` for an unknown id."""
        if unlock_id == RED_HEART:
            return self.red_heart
        if unlock_id in self.boxes:
            return self.boxes[unlock_id].effects
        if unlock_id in self.achievements:
            return self.achievements[unlock_id].effects
        raise CampaignError(f"unknown unlock {unlock_id!r}")

    def name_of(self, unlock_id: str) -> str:
        if unlock_id == RED_HEART:
            return "Red Heart"
        if unlock_id in self.boxes:
            return self.boxes[unlock_id].name
        if unlock_id in self.achievements:
            return self.achievements[unlock_id].name
        return unlock_id


def _strs(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CampaignError(f"campaign content: {where} must be a list of strings")
    return tuple(value)


def _markers(value: Any, where: str) -> dict[str, tuple[int, ...]]:
    if not isinstance(value, dict):
        raise CampaignError(f"campaign content: {where} must map marker types to numbers")
    out: dict[str, tuple[int, ...]] = {}
    for kind, nums in value.items():
        if kind not in MARKER_TYPES:
            raise CampaignError(f"campaign content: {where}: unknown marker type {kind!r}")
        if not isinstance(nums, list) or not all(isinstance(n, int) for n in nums):
            raise CampaignError(f"campaign content: {where}.{kind} must be a list of numbers")
        out[kind] = tuple(nums)
    return out


def _effects(raw: Any, where: str) -> Effects:
    if not isinstance(raw, dict):
        raise CampaignError(f"campaign content: {where}.effects must be an object")
    rows = _strs(raw.get("score_rows", []), f"{where}.score_rows")
    for row in rows:
        if row not in SCORE_ROWS:
            raise CampaignError(f"campaign content: {where}: unknown score row {row!r}")
    return Effects(
        score_rows=rows,
        special_tiles=_strs(raw.get("special_tiles", []), f"{where}.special_tiles"),
        markers=_markers(raw.get("markers", {}), f"{where}.markers"),
        tiles=_strs(raw.get("tiles", []), f"{where}.tiles"),
        pieces=_strs(raw.get("pieces", []), f"{where}.pieces"),
    )


def parse_content(raw: Any) -> Content:
    """Build ``Content`` from the decoded JSON; a malformed file is one clear error."""
    if not isinstance(raw, dict):
        raise CampaignError("campaign content: the file must hold one JSON object")
    try:
        boxes = {
            b["id"]: Box(
                b["id"], b["name"], b.get("contents", ""), bool(b.get("placeholder")),
                _effects(b.get("effects", {}), b["id"]),
            )
            for b in raw.get("boxes", [])
        }
        achievements: dict[str, Achievement] = {}
        for a in raw.get("achievements", []):
            box = a.get("box")
            if box is not None and not isinstance(box, int):
                raise CampaignError(f"campaign content: {a['id']}.box must be a number or null")
            achievements[a["id"]] = Achievement(
                a["id"], a["name"], a.get("source", "box"), box,
                a.get("condition", ""), a.get("reward", ""), bool(a.get("placeholder")),
                _effects(a.get("effects", {}), a["id"]),
            )
        red = _effects(raw.get("red_heart", {}).get("effects", {}), RED_HEART)
        base = _markers(raw.get("base_markers", {}), "base_markers")
    except (KeyError, TypeError, AttributeError) as err:
        raise CampaignError(f"campaign content: missing or malformed field {err}") from None
    return Content(base, boxes, red, achievements)


@lru_cache(maxsize=1)
def default_content() -> Content:
    """The packaged campaign content, read once."""
    return load_content()


def load_content(path: str | Path | None = None) -> Content:
    """Read the campaign content: the packaged file, or the players' edited copy at ``path``."""
    try:
        if path is None:
            text = resources.files("companion").joinpath("data/campaign_content.json").read_text(
                encoding="utf-8"
            )
        else:
            text = Path(path).read_text(encoding="utf-8")
        raw = json.loads(text)
    except (OSError, json.JSONDecodeError) as err:
        raise CampaignError(f"campaign content cannot be read: {err}") from None
    return parse_content(raw)


def _union(seq: list[str], items: tuple[str, ...]) -> None:
    for item in items:
        if item not in seq:
            seq.append(item)


def live_effects(unlock_ids: list[str] | tuple[str, ...], content: Content) -> Effects:
    """Everything in play after the given unlocks (first-unlock order for rows and tiles;
    the marker pool is the base pool plus every unlock's markers, sorted)."""
    rows: list[str] = []
    specials: list[str] = []
    tiles: list[str] = []
    pieces: list[str] = []
    markers = {k: list(v) for k, v in content.base_markers.items()}
    for uid in unlock_ids:
        eff = content.effects_of(uid)
        _union(rows, eff.score_rows)
        _union(specials, eff.special_tiles)
        _union(tiles, eff.tiles)
        _union(pieces, eff.pieces)
        for kind, nums in eff.markers.items():
            markers.setdefault(kind, []).extend(nums)
    return Effects(
        tuple(rows),
        tuple(specials),
        {k: tuple(sorted(v)) for k, v in markers.items()},
        tuple(tiles),
        tuple(pieces),
    )


__all__ = [
    "Achievement",
    "Box",
    "Content",
    "Effects",
    "MARKER_TYPES",
    "RED_HEART",
    "SCORE_ROWS",
    "live_effects",
    "load_content",
    "parse_content",
]
