"""Lone hexagons seed the lattice (``lattice.hexagon_start``, issue 14): each lone
hexagon's own corners span a lattice; the one most other hexagons lie on, refitted to
them all, is a start beside the seams' searches. Real OpenCV on exact and perturbed
hexagons, and a composite of real tiles."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision import lattice
from companion.vision.config import DEFAULT_CONFIG
from tests.helpers.held_out import read_held_out


def _camera(turn_deg: float, size: float, tilt: float) -> np.ndarray:
    """A homography from lattice space to the image: turned, scaled, squashed by a
    tilt and with a little perspective."""
    c, s = np.cos(np.radians(turn_deg)), np.sin(np.radians(turn_deg))
    return np.array([[size * c, -size * s, 800.0],
                     [size * s * tilt, size * c * tilt, 600.0],
                     [2e-5 * size, 4e-5 * size, 1.0]])


def _hexagon(hom: np.ndarray, cell: tuple[int, int], jitter: np.ndarray) -> np.ndarray:
    return lattice.Lattice(hom, 0).cell_corners(cell) + jitter


@settings(max_examples=30, deadline=None)
@given(turn=st.floats(-30.0, 30.0), size=st.floats(40.0, 110.0), tilt=st.floats(0.8, 1.0),
       seed=st.integers(0, 10_000))
def test_scattered_hexagons_give_their_lattice(turn: float, size: float, tilt: float,
                                               seed: int) -> None:
    """Four hexagons far apart (no two neighbours, which ``fit_lattice`` needs), their
    corners off by up to 2 % of the radius, and one shape off the lattice: the start
    puts every cell of the map within 15 % of a radius of its true centre (a start:
    the seams refine it)."""
    rng = np.random.default_rng(seed)
    hom = _camera(turn, size, tilt)
    cells = [(0, 0), (3, -1), (-2, 3), (1, 4)]
    shapes = [_hexagon(hom, c, rng.uniform(-0.02, 0.02, (6, 2)) * size) for c in cells]
    stray = _hexagon(hom, (2, 1), np.zeros((6, 2))) + np.array([0.5, 0.4]) * size
    start = lattice.hexagon_start([stray, *shapes], DEFAULT_CONFIG)
    assert start is not None and start.inliers == 4
    truth = lattice.Lattice(hom, 0)
    # The start may label the cells otherwise (a turn of 60 degrees, another origin):
    # every true centre of the map must have a found one near it.
    mapped = [(q, r) for q in range(-3, 5) for r in range(-2, 6)]
    truth_centres = np.array([truth.cell_center(c) for c in mapped])
    wide = [(q, r) for q in range(-12, 13) for r in range(-12, 13)]
    found = start.to_image(np.array([lattice.UNIT.to_pixel(c) for c in wide]))
    gaps = np.linalg.norm(truth_centres[:, None] - found[None], axis=2).min(axis=1)
    assert gaps.max() < 0.15 * size


def test_hexagons_that_share_no_lattice_give_no_start() -> None:
    """Hexagons of different sizes and turns agree on nothing; three of a lattice among
    four others do not make a majority (lone outlines may be pieces of tiles), three
    of five do."""
    zero = np.zeros((6, 2))
    mixed = [_hexagon(_camera(turn, size, 1.0), cell, zero) for turn, size, cell in
             ((0.0, 40.0, (5, 5)), (10.0, 110.0, (2, 2)), (-12.0, 45.0, (-6, 1)))]
    assert lattice.hexagon_start(mixed, DEFAULT_CONFIG) is None
    hom = _camera(5.0, 70.0, 0.9)
    three = [_hexagon(hom, cell, zero) for cell in ((0, 0), (3, -1), (-2, 3))]
    assert lattice.hexagon_start(three + mixed, DEFAULT_CONFIG) is None
    start = lattice.hexagon_start(three + mixed[:2], DEFAULT_CONFIG)
    assert start is not None and start.inliers == 3


@pytest.mark.slow
def test_a_dim_map_is_placed_on_its_lone_hexagons() -> None:
    """Composite 20508 (a fresh run of session 30): dark tiles on dark wood in dim light.
    The seams show no period, and every search settled at 0.6-0.8 of the tile size:
    36 of 37 tiles, 54 phantoms, 105 of 222 edges, said to fit poorly. Five lone
    hexagons lie on the map's lattice; started from their corners, the map is found
    (one dark tile at its rim is lost). The "off" run also leaves the thin parts of
    the mask in place (``find.thin_part_frac``, session 34): without them, the planks'
    gaps no longer join the lone tiles' masks, and the search without the hexagons'
    starts finds this map too (37/37, no phantom), so it would not show what the starts
    do. It reads the photo as taken (``io.exposure_floor_grey`` 0) for the same reason:
    brought up, the map is found without the starts, session 39."""
    from companion.vision.synth import composite

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    seeded, unseeded, n = read_held_out(20500, 8, composite=True, hexagon_starts=False,
                                        thin_part_frac=0.0, exposure_floor_grey=0.0)
    assert n == 37 and seeded.placed_right >= n - 1
    assert seeded.extra <= 1 and seeded.edges_right >= 6 * (n - 1) - 4
    assert unseeded.extra >= 10
