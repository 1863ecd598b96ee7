"""Loose tiles joined by a pool of light or glare are parted inside the cluster they make
(``scan._parted_by_glare``, ``find.glare_parts``), and only where the parts lie apart as
loose tiles do (``scan._parts_lie_apart``). Drawn photos and masks, real OpenCV."""

from __future__ import annotations

import importlib
import math

import cv2
import numpy as np
import pytest

from companion.vision.background import foreground_mask
from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.find_tiles import blobs
from companion.vision.scan import scan
from companion.vision.synth import composite
from companion.vision.synth.evaluate import run_case
from tests.helpers.held_out import loose_case
from tests.helpers.lit_table import LIGHT, RADIUS, SIZE, hexagon, lit_photo

scan_module = importlib.import_module("companion.vision.scan")

WIDTH = math.sqrt(3) * RADIUS
"""A tile's width across its flat sides: the distance between neighbours in a map."""
TILE = (400.0, 450.0)


def _parts(mask: np.ndarray) -> int:
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    return sum(1 for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > 2000)


@pytest.mark.parametrize("table", [(40, 95, 45), (40, 75, 140)], ids=["green felt", "wood"])
def test_loose_tiles_joined_by_glare_are_located_apart(table: tuple[int, int, int]) -> None:
    """(On dark grey one tile keeps a notch of glare's fringe: one hexagon of two parts is
    too few, ``test_round_lumps_of_glare_around_tiles_do_not``.)"""
    image = lit_photo(table, pool=1.7, glare=0.7)
    mask, _ = scan_module.foreground(image, DEFAULT_CONFIG)
    _, kind = scan_module.locate_tiles(image, DEFAULT_CONFIG)
    assert _parts(mask) == 2
    assert kind == "loose"
    off = DEFAULT_CONFIG.tuned(glare_parts=False)
    joined, _ = scan_module.foreground(image, off)
    _, kind_off = scan_module.locate_tiles(image, off)
    assert _parts(joined) == 1  # one shapeless cluster, taken for a map
    assert kind_off == "assembled"


def test_tiles_apart_with_art_in_the_tables_colours_are_left_whole() -> None:
    """Fields on wood lie in the plane of the wood's colour and white: the table-in-glare
    test takes some of them for table. Tiles that were never joined are left as the
    foreground found them."""
    wood = (40, 75, 140)
    tiles = ((300.0, 450.0), (900.0, 450.0))
    image = lit_photo(wood, pool=1.0, glare=0.0, tiles=tiles)
    for c in tiles:  # pale fields, the wood's colour lightened
        cv2.fillPoly(image, [hexagon(c, RADIUS * 0.5)], (80, 130, 210))
    _, raw = scan_module.foreground(image, DEFAULT_CONFIG)
    assert np.array_equal(raw, foreground_mask(image, DEFAULT_CONFIG, fill=False))
    everywhere = DEFAULT_CONFIG.tuned(glare_as_table=True)
    eaten = foreground_mask(image, everywhere, fill=False)
    assert (raw > eaten).sum() > 0.1 * (raw > 0).sum()  # glare as table everywhere


def _mask(*shapes: np.ndarray) -> np.ndarray:
    w, h = SIZE
    out = np.zeros((h, w), np.uint8)
    for s in shapes:
        cv2.fillPoly(out, [s], 255)
    return out


def _lie_apart(mask: np.ndarray, config: ScanConfig = DEFAULT_CONFIG) -> bool:
    parted = blobs(mask, config)
    return scan_module._parts_lie_apart(parted, parted, [], 0.0, mask.shape, config)


def _rest(gap: float) -> list[np.ndarray]:
    """The rest of a map beside the tile at ``TILE``: its two right-hand neighbours and
    the tile beyond them, moved ``gap`` to the right."""
    x, y = TILE
    return [hexagon((x + 1.5 * RADIUS + gap, y - WIDTH / 2)),
            hexagon((x + 1.5 * RADIUS + gap, y + WIDTH / 2)),
            hexagon((x + 3 * RADIUS + gap, y))]


@pytest.mark.parametrize("gap", [20.0, 40.0])
def test_a_tile_clear_of_the_rest_lies_apart(gap: float) -> None:
    assert _lie_apart(_mask(hexagon(TILE), *_rest(gap)))


def test_a_tile_touching_the_rest_of_a_map_does_not() -> None:
    """The removal cut a map's tile off along a seam: it still touches the rest."""
    touching = _mask(hexagon(TILE), *_rest(6.0))
    assert not _lie_apart(touching)
    assert _lie_apart(touching, DEFAULT_CONFIG.tuned(glare_apart_gap=0.0))


def test_tiles_a_width_apart_do_not() -> None:
    """Neighbours of a map, a seam apart: loose tiles lie farther apart."""
    x, y = TILE  # 1.09 widths apart, the gap between them 10 pixels
    assert not _lie_apart(_mask(hexagon(TILE), hexagon((x + 1.5 * RADIUS + 12, y + WIDTH / 2))))
    assert _lie_apart(_mask(hexagon(TILE), hexagon((x + 2.1 * RADIUS, y + 0.7 * WIDTH))))


def test_round_lumps_of_glare_around_tiles_do_not() -> None:
    """Glare's fringe left round around a tile: most parts of a tile's size must be
    hexagons."""
    x, y = TILE
    lump = cv2.ellipse2Poly((int(x + 3 * RADIUS), int(y)), (66, 66), 0, 0, 360, 5)
    assert not _lie_apart(_mask(hexagon(TILE), lump))
    assert _lie_apart(_mask(hexagon(TILE), hexagon((x + 3 * RADIUS, y))))


CORNERS = ((150.0, 150.0), (1050.0, 150.0), (150.0, 750.0), (1050.0, 750.0))


@pytest.mark.parametrize("table", [(40, 95, 45), (40, 75, 140), (60, 60, 60)],
                         ids=["green felt", "wood", "grey"])
def test_a_lone_tile_in_a_pool_of_light_is_parted_from_it(
        table: tuple[int, int, int]) -> None:
    """The pool joined the table round one tile: one part, a hexagon, is enough
    (``find.glare_parts_min``)."""
    lit = (LIGHT[0] + 40, LIGHT[1])
    image = lit_photo(table, pool=1.7, glare=0.7, tiles=(lit, *CORNERS))

    def lit_tile_found(config: ScanConfig) -> bool:
        found, kind = scan_module.locate_tiles(image, config)
        near = [f for f in found if np.hypot(*(f.corners.mean(axis=0) - lit)) < 0.3 * RADIUS]
        return kind == "loose" and len(found) == 5 and len(near) == 1

    assert lit_tile_found(DEFAULT_CONFIG)
    assert not lit_tile_found(DEFAULT_CONFIG.tuned(glare_parts_min=2))


def _star(centre: tuple[float, float], points: int = 5) -> np.ndarray:
    """A ragged part of a tile's area, far from convex (solidity about 0.6)."""
    angles = np.radians(np.arange(2 * points) * 180.0 / points)
    radii = np.where(np.arange(2 * points) % 2 == 0, 1.25 * RADIUS, 0.6 * RADIUS)
    return np.stack([centre[0] + radii * np.cos(angles), centre[1] + radii * np.sin(angles)],
                    axis=1).round().astype(np.int32)


def test_a_ragged_remnant_of_glare_is_not_counted_against_the_hexagons() -> None:
    """Two hexagons beside a round lump and a ragged remnant of glare's fringe: only
    solid parts count (``find.glare_solid_parts``), two hexagons of three."""
    x, y = TILE
    lump = cv2.ellipse2Poly((int(x + 3 * RADIUS), int(y)), (66, 66), 0, 0, 360, 5)
    mask = _mask(hexagon(TILE), hexagon((x, y + 3 * RADIUS)), lump,
                 _star((x + 3 * RADIUS, y + 3 * RADIUS)))
    ragged = [b for b in blobs(mask, DEFAULT_CONFIG) if b.hexagon is None]
    assert len(ragged) == 2 and not scan_module._solid(ragged[-1], DEFAULT_CONFIG)
    assert _lie_apart(mask)
    assert not _lie_apart(mask, DEFAULT_CONFIG.tuned(glare_solid_parts=False))


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_a_loose_composites_tile_in_a_pool_of_light_is_found() -> None:
    """Loose composite 27303 (12 real crops on wood at -1 EV): one tile lies in a pool
    of light that joined the table round it, a shapeless part 1.3 tiles large, too small
    a cluster at 1.6 (``find.glare_cluster_min``)."""
    case, _ = loose_case(27303, 12, clutter=True, ev=-1.0)
    before = run_case(case, lambda p: scan(p, DEFAULT_CONFIG.tuned(glare_cluster_min=1.6)))
    after = run_case(case, scan)
    assert before.placed_right == 11
    assert after.placed_right == 12 and after.extra == 0 and after.edges_right >= 70


def test_one_hexagon_left_is_a_lone_tile_only_beside_lone_hexagons() -> None:
    """One part is enough where lone hexagons elsewhere give a tile's size; without
    them it may be what glare left of a map (render 9126 on a checked cloth, its
    checks not taken for table, lost the map so)."""
    mask = _mask(hexagon(TILE))
    parted = blobs(mask, DEFAULT_CONFIG)
    area = parted[0].area
    assert not scan_module._parts_lie_apart(parted, parted, [], 0.0, mask.shape, DEFAULT_CONFIG)
    assert scan_module._parts_lie_apart(parted, parted, [], area, mask.shape, DEFAULT_CONFIG)
