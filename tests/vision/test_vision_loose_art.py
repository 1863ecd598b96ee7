"""Which loose outlines hold tile art (``scan._shows_tile_art``): cards in dim or warm
light are no tile, a tile in a dim corner is one. Rendered loose tiles, real OpenCV."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.rules import catalogue
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.io import load_photo
from companion.vision.scan import LocatedTile, locate_tiles, read_tiles
from companion.vision.synth.render import render_record

PLACES = ((0, 0), (3, 0), (0, 3), (3, 3), (-3, 3), (6, -3))


@pytest.fixture(scope="module")
def loose() -> tuple[object, list[LocatedTile]]:
    """Six rendered tiles lying apart on a table, located as loose tiles."""
    codes = [t.code for t in catalogue()]
    record = "game: board-game\n" + "".join(
        f"{q} {r} {codes[5 * i + 2]}\n" for i, (q, r) in enumerate(PLACES))
    rendered = render_record(record, seed=11, size_px=(2400, 1800))
    photo = load_photo(cv2.imencode(".jpg", rendered.image)[1].tobytes(), DEFAULT_CONFIG)
    found, kind = locate_tiles(photo.image, DEFAULT_CONFIG)
    assert kind == "loose" and len(found) == len(PLACES)
    return photo, found


def _card(like: np.ndarray, lightness: float) -> np.ndarray:
    """A playing card filling a cell: grey-white paper at ``lightness`` (too dim for
    the paper test's 190) with two printed bars and a meadow-green picture, and the
    camera's noise."""
    out = np.empty_like(like)
    h, w = out.shape[:2]
    out[:] = (lightness, lightness, lightness * 0.97)
    for x0, x1, colour in ((0.2, 0.35, (70, 80, 170)), (0.4, 0.5, (150, 60, 190)),
                           (0.55, 0.9, (40, 170, 110))):
        cv2.rectangle(out, (int(x0 * w), int(0.2 * h)), (int(x1 * w), int(0.75 * h)),
                      tuple(lightness / 200 * c for c in colour), -1)
    noise = np.random.default_rng(1).normal(0, 3.0, out.shape)
    return np.clip(out + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize("lightness", [120.0, 170.0])
def test_a_card_in_dim_light_is_no_tile(loose: tuple[object, list[LocatedTile]],
                                        lightness: float) -> None:
    photo, found = loose
    card = LocatedTile(None, found[0].corners + 400.0, _card(found[0].rectified, lightness))
    assert len(read_tiles(photo, [*found, card], "loose", DEFAULT_CONFIG).tiles) == len(found)
    off = DEFAULT_CONFIG.tuned(grey_flat_max=0.0)
    assert len(read_tiles(photo, [*found, card], "loose", off).tiles) == len(found) + 1


def test_a_tile_in_a_dim_corner_is_a_tile(loose: tuple[object, list[LocatedTile]]) -> None:
    """Its Laplacian falls with its light: a quarter of the others' texture, as busy for
    its light as they are."""
    photo, found = loose
    dim = [*found[1:], LocatedTile(None, found[0].corners,
                                   cv2.convertScaleAbs(found[0].rectified, alpha=0.25))]
    assert len(read_tiles(photo, dim, "loose", DEFAULT_CONFIG).tiles) == len(found)
    off = DEFAULT_CONFIG.tuned(art_texture_by_lightness=False)
    assert len(read_tiles(photo, dim, "loose", off).tiles) == len(found) - 1
