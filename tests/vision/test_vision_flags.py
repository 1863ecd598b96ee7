"""Flags: the pennant's colour names the kind; a kind the tile's terrain lacks is refused."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.config import DEFAULT_CONFIG
from companion.vision.flags import find_flag, kind_of_hue
from companion.vision.rectify import rectify
from companion.vision.synth.render_art import FLAG_COLOURS, TileArt, draw_tile, hexagon

RADIUS = 100.0
# One edge of the flag's terrain: the pennant mostly lies on meadow, sometimes on or
# against that terrain (then it may merge with a roof of its own red: a miss allowed).
CODES = {"forest": "FMMMMM", "grain": "GMMMMM", "village": "VMMMMM"}


def _tile(code: str, flag: str | None, seed: int) -> np.ndarray:
    img, _ = draw_tile(TileArt(code, None, None, flag), RADIUS, np.random.default_rng(seed))
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    half = img.shape[0] / 2
    return rectify(img, hexagon(RADIUS, (half, half)).astype(np.float32),
                   DEFAULT_CONFIG.rectify.detail_radius)


@pytest.mark.parametrize("kind", sorted(FLAG_COLOURS))
def test_hue_of_each_flag_colour_names_its_kind(kind: str) -> None:
    bgr = np.uint8([[FLAG_COLOURS[kind]]])
    hue = float(cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[0, 0, 0])
    assert kind_of_hue(hue) == kind


@pytest.mark.parametrize("kind", sorted(CODES))
def test_flag_on_a_drawn_tile(kind: str) -> None:
    found = [find_flag(_tile(CODES[kind], kind, seed), CODES[kind]) for seed in range(6)]
    kinds = [f.kind if f else None for f in found]
    assert kinds.count(kind) >= 5, kinds
    assert set(kinds) <= {kind, None}


@pytest.mark.parametrize("kind", sorted(CODES))
def test_flag_refused_on_a_tile_without_its_terrain(kind: str) -> None:
    """The same picture, read with a code that lacks the flag's terrain: no flag."""
    other = "MMSMMS"
    for seed in range(3):
        assert find_flag(_tile(CODES[kind], kind, seed), other) is None


def test_no_flag_on_tiles_without_one() -> None:
    codes = ["VVVMFF", "GGGGMM", "FFFFFF", "VVMTTM", "SGGSMF", "MVVVMF", "GMGMGM", "FVFVFV"]
    seen = [(code, seed) for code in codes for seed in range(3)
            if find_flag(_tile(code, None, seed), code) is not None]
    assert not seen
