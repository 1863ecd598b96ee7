"""How much of a located cell the table shows (``scan.with_table_seen``, the cell
model's ``table_seen`` and ``glare_seen``): the table model's own verdict per pixel
(``background.foreground_and_table``) and the table in glare, measured inside each
cell of an assembled map. Real OpenCV on drawn masks and photos."""

from __future__ import annotations

import importlib

import cv2
import numpy as np
import pytest

from companion.vision.background import foreground_and_table, foreground_mask, tidied
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.in_background import Background
from companion.vision.synth import evaluate as ev

scan_module = importlib.import_module("companion.vision.scan")


def _cell(centre: tuple[float, float], radius: float) -> scan_module.LocatedTile:
    angles = np.radians(60.0 * np.arange(6))
    corners = np.stack([centre[0] + radius * np.cos(angles),
                        centre[1] + radius * np.sin(angles)], axis=1)
    return scan_module.LocatedTile((0, 0), corners, np.zeros((1, 1, 3), np.uint8))


def _seen(table: np.ndarray, glare: np.ndarray | None) -> scan_module.Foreground:
    blank = np.zeros(table.shape, np.uint8)
    return scan_module.Foreground(blank, blank, table,
                                  None if glare is None else Background.ready(glare))


def test_each_cell_gets_the_shares_of_its_inside_that_show_table_and_glare() -> None:
    table = np.zeros((300, 400), bool)
    table[:, 200:] = True           # the right half is table
    glare = np.zeros((300, 400), bool)
    glare[150:, :] = True           # the lower half is table in glare
    cells = [_cell((100, 75), 50), _cell((300, 75), 50), _cell((200, 225), 50)]
    out = scan_module.with_table_seen(cells, "assembled", _seen(table, glare))
    left, right, middle = (f.table_seen for f in out)
    assert left == (0.0, 0.0)
    assert right == (1.0, 0.0)
    assert abs(middle[0] - 0.5) < 0.05 and middle[1] == 1.0
    # Only the inside counts: a cell whose rim alone lies over the table shows none.
    rim = np.zeros((300, 400), bool)
    cv2.circle(rim.view(np.uint8), (100, 75), 60, 1, 12)
    assert scan_module.with_table_seen(cells[:1], "assembled",
                                       _seen(rim, None))[0].table_seen == (0.0, 0.0)


def test_loose_tiles_and_cells_off_the_photo_are_left_as_they_are() -> None:
    table = np.ones((200, 200), bool)
    cells = [_cell((100, 100), 40)]
    assert scan_module.with_table_seen(cells, "loose", _seen(table, None)) == cells
    off = [_cell((-500, -500), 40)]
    assert scan_module.with_table_seen(off, "assembled", _seen(table, None))[0].table_seen \
        == (0.0, 0.0)


def test_the_table_the_model_sees_is_the_foreground_before_it_is_tidied() -> None:
    """Specks of the table's colour inside a tile, which tidying closes, are table to the
    model; the foreground itself is the one ``foreground_mask`` gives."""
    rng = np.random.default_rng(7)
    image = np.clip(rng.normal((60, 110, 160), 3, (600, 800, 3)), 0, 255).astype(np.uint8)
    hexagon = 120 * np.array(
        [[np.cos(a), np.sin(a)] for a in np.radians(60.0 * np.arange(6))])
    cv2.fillConvexPoly(image, (hexagon + (400, 300)).astype(np.int32), (40, 150, 60))
    image[300:302, 400:402] = (60, 110, 160)  # a speck of table inside the tile
    mask, table = foreground_and_table(image, DEFAULT_CONFIG)
    assert np.array_equal(mask, foreground_mask(image, DEFAULT_CONFIG, fill=False))
    assert table[300, 400] and mask[300, 400] == 255
    assert table[50, 50] and not table[300, 350]
    assert np.array_equal(tidied(np.where(table, 0, 255).astype(np.uint8)), mask)


@pytest.mark.slow
def test_holes_in_a_glare_pool_on_a_pale_cloth_are_no_tiles() -> None:
    """Render 28062 (held out with holes, then looked into): six holes of the map in a
    pool of glare on a pale checked cloth were read as meadow and grain tiles (the cell
    model gave them P 0.39-0.78, their art judged only against the tiles'). The table
    model and the glare judgement take most of each for table (0.52-0.58 and 0.61-0.97;
    tiles there at most 0.16 and 0.63), and the model refitted with them keeps none."""
    case = list(ev.rendered_cases(23, 28040, (4000, 3000), real_table=True, skip=22,
                                  holes=0.4))[-1]
    assert case.name == "rendered-28062"
    tally = ev.run_case(case, scan_module.scan)
    assert tally.placed_right == len(case.truth) == 21
    assert tally.extra <= 1
