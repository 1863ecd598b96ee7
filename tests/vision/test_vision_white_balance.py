"""The tiles are white-balanced on themselves: cells the lattice reached beyond the
map (a colourful mat, the table, clutter) are dropped before the white patch, the
glare and the meadow are measured again (``terrain.balance_on_tiles``). Real OpenCV on
a held-out real-table composite of real tile photos."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision import edges
from tests.helpers.held_out import read_held_out


@pytest.mark.slow
def test_a_pink_mat_beside_the_map_no_longer_tints_every_tile_green() -> None:
    """Composite 12526 (held out, then looked into): 32 tiles on wood beside a rainbow
    play mat. Six cells over the mat were located and dropped, but their bright pink
    was the photo's white patch: gains (0.88, 1.22, 0.95) turned grain into meadow and
    forest, 11 wrong edges (2 not marked doubtful) and 6 of 12 task types."""
    balanced, tinted, tiles = read_held_out(12500, 26, composite=True,
                                            balance_on_tiles=False)
    assert balanced.placed_right == tiles == 32 and balanced.extra == 0
    assert balanced.edges_right >= 6 * tiles - 1
    assert sum(balanced.wrong_undoubted) == 0
    assert tinted.edges_right <= 6 * tiles - 8


def test_the_white_patch_follows_the_brightest_pixels_of_the_cells_given() -> None:
    """Unit: white tiles under a warm light give gains that neutralise it; a few cells
    of saturated pink beside them dominate the brightest pixels (why the scan measures
    again on the tiles alone)."""
    warm = np.zeros((41, 41, 3), np.uint8)
    warm[:] = (60, 90, 110)
    warm[15:25, 15:25] = (170, 200, 230)  # white art under warm light (BGR)
    gains = edges.white_gains([warm.copy() for _ in range(4)])
    assert gains[0] > 1.05 > 0.95 > gains[2]
    pink = np.full((41, 41, 3), (235, 140, 250), np.uint8)
    tinted = edges.white_gains([warm.copy() for _ in range(4)] + [pink] * 2)
    assert tinted[1] > 1.1 and tinted[1] > gains[1]


def test_sunlit_grain_brighter_than_the_white_art_is_not_taken_for_white() -> None:
    """Unit, after render 14423 (held out, then looked into): a map in neutral light whose
    brightest pixels were half grain yellow and half white art. The old white patch
    boosted blue 1.3-fold, the village grey turned blue and was read as meadow (20 wrong
    edges). Only the less coloured half of the pixels is searched for white now."""
    tile = np.zeros((41, 41, 3), np.uint8)
    tile[:] = (70, 175, 120)             # meadow (BGR)
    tile[10:20, 10:20] = (175, 180, 180)  # white art, a little dimmer than ...
    tile[25:30, 25:30] = (90, 220, 250)   # ... sunlit grain
    gains = edges.white_gains([tile.copy() for _ in range(4)])
    assert np.all(np.abs(gains - 1.0) < 0.05), gains
