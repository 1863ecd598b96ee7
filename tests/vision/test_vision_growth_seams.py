"""A tile beside the map that fails the colour tests joins when every side it shows to
the table is a tile's edge (``lattice.grow_seam_min``): grey village tiles, whose
cobbles and roofs are no meadow, forest or grain and look like a pale table. Real
OpenCV on a drawn lattice and a held-out real-table render."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import lattice
from companion.vision.scan import DIRECTIONS, _table_sides
from tests.helpers.held_out import read_held_out


def test_the_sides_shown_to_the_table_are_those_facing_free_cells() -> None:
    hom = np.array([[40.0, 5.0, 300.0], [-3.0, 38.0, 200.0], [0.0, 0.0, 1.0]])
    lat = lattice.Lattice(hom, 0)
    cell = (2, -1)
    neighbours = [(cell[0] + d.q, cell[1] + d.r) for d in DIRECTIONS]
    for k in range(7):
        taken = set(neighbours[:k])
        sides = _table_sides(lat, cell, taken)
        assert sides.shape == (6 - k, 2, 2)
        free = neighbours[k:]
        for (a, b), n in zip(sides, free, strict=True):
            # the side's middle lies half-way between the two cells' centres
            middle = (np.array(lat.cell_center(cell)) + np.array(lat.cell_center(n))) / 2
            assert np.allclose((a + b) / 2, middle, atol=1e-6)
            assert np.linalg.norm(b - a) == pytest.approx(
                np.linalg.norm(lat.cell_corners(cell)[0] - lat.cell_corners(cell)[1]), rel=0.2)


@pytest.mark.slow
def test_a_grey_village_tile_at_the_rim_is_grown_by_its_edges() -> None:
    """Render 12424 (held out, then looked into): a VVVVVV task tile at the map's rim
    on a pale table shows its colours no likelier among the tiles than on the table,
    so the colour tests refuse it (26 of 27 tiles); its three sides against the table
    are its own cardboard edge, and it is found."""
    seams, colours, tiles = read_held_out(12400, 24, grow_seam_min=0.0)
    assert seams.placed_right == tiles == 27 and seams.extra == 0
    assert seams.edges_right >= 6 * tiles - 2
    assert colours.placed_right == tiles - 1
