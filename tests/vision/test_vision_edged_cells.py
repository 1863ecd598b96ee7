"""A located cell whose every side shown to the table is a tile's edge holds a tile,
whatever its art shows (``find.keep_edged_cells``, ``scan._edged_all_round``): an
all-village tile of pale cobbles in bright light looks like blank paper to the cell
model, but a tile has its own cardboard edge all round, and the table beside the map or
a hole in it does not. Real OpenCV on a drawn map and on held-out real-table renders."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import lattice
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.scan import DIRECTIONS, _edged_all_round
from tests.helpers.held_out import read_held_out

HOM = np.array([[44.0, 6.0, 320.0], [-5.0, 42.0, 260.0], [0.0, 0.0, 1.0]])


def _drawn_map(cells: list[tuple[int, int]]) -> tuple[lattice.Lattice, lattice.MapView]:
    """Tiles (mottled meadow, darker than the table) on a plain table, and the map's
    view with the tiles' union as its silhouette."""
    lat = lattice.Lattice(HOM, 0)
    rng = np.random.default_rng(3)
    image = np.clip(rng.normal(200, 3, (560, 680, 3)), 0, 255).astype(np.uint8)
    mask = np.zeros(image.shape[:2], np.uint8)
    for cell in cells:
        poly = np.round(lat.cell_corners(cell)).astype(np.int32)
        art = cv2.GaussianBlur(np.clip(rng.normal((80, 170, 120), 40, image.shape), 0, 255)
                               .astype(np.uint8), (0, 0), 3)
        inside = np.zeros(image.shape[:2], np.uint8)
        cv2.fillPoly(inside, [poly], 255)
        image[inside > 0] = art[inside > 0]
        mask |= inside
    return lat, lattice.map_view(image, mask, 40.0)


def test_a_tile_with_its_edge_all_round_is_edged_the_table_beside_it_is_not() -> None:
    row = [(0, 0), (1, 0), (2, 0)]
    lat, view = _drawn_map(row)
    taken = set(row)
    for cell in row:  # four or five sides to the table, each the tile's own edge
        assert _edged_all_round(lat, view, cell, taken, DEFAULT_CONFIG)
    beside = [(c[0] + d.q, c[1] + d.r) for c in row for d in DIRECTIONS]
    for cell in set(beside) - taken:  # plain table: no edge on its free sides
        assert not _edged_all_round(lat, view, cell, taken | {cell}, DEFAULT_CONFIG)
    off = DEFAULT_CONFIG.tuned(grow_seam_min=0.0)
    assert not _edged_all_round(lat, view, (1, 0), taken, off)


def test_a_cell_kept_against_the_model_shows_three_sides_to_the_table() -> None:
    """Two sides can each lie along a straight edge of clutter; the cells kept against
    the cell model must show ``find.keep_edged_sides_min`` (3)."""
    four = [(d.q, d.r) for d in DIRECTIONS][:4]
    lat, view = _drawn_map([(0, 0), *four])
    taken = {(0, 0), *four}
    assert _edged_all_round(lat, view, (0, 0), taken, DEFAULT_CONFIG)  # two sides
    assert not _edged_all_round(lat, view, (0, 0), taken, DEFAULT_CONFIG,
                                DEFAULT_CONFIG.find.keep_edged_sides_min)
    assert _edged_all_round(lat, view, four[0], taken, DEFAULT_CONFIG,
                            DEFAULT_CONFIG.find.keep_edged_sides_min)


def test_a_hole_the_map_surrounds_shows_no_side_to_the_table() -> None:
    """Each side of a hole is a neighbouring tile's edge: with no side of its own to
    the table it is never edged (``lattice.grow_seam_sides_min``)."""
    ring = [(d.q, d.r) for d in DIRECTIONS]
    lat, view = _drawn_map(ring)
    assert not _edged_all_round(lat, view, (0, 0), set(ring) | {(0, 0)}, DEFAULT_CONFIG)


@pytest.mark.slow
@pytest.mark.parametrize(("skip", "tiles", "by_model"), [(21, 19, 18), (17, 44, 44)])
def test_pale_village_tiles_the_cell_model_refuses_are_kept_by_their_edges(
        skip: int, tiles: int, by_model: int) -> None:
    """Renders 22021 and 22017 (held out, then looked into): an all-village tile in
    bright light, located by the lattice, was refused by the cell model (0.16 and 0.19
    against its 0.35); its sides to the table are its own cardboard edge, and it is
    kept, with no tile where none lies. Since the model judges the table each cell
    shows (session 49), it keeps 22017's tile by itself; 22021's it still refuses."""
    edged, model_only, count = read_held_out(22000, skip, keep_edged_cells=False)
    assert count == tiles
    assert model_only.placed_right == by_model
    assert edged.placed_right == tiles and edged.extra == 0
    assert edged.edges_right >= model_only.edges_right + 6 * (tiles - by_model)
