"""Loose tiles: those whose foreground broke, or joined others through glare, are found
again by their outline (``broken_tiles.recover``); tiles lying apart beside clutter
larger than half of them (``find.apart_min``), on a lattice of larger or smaller cells
(``find.apart_cells_min``, ``find.apart_cells_small_max``) or joined by streaks of grain
and glare (``find.split_open_frac``) are read loose, not as a map, and so are tiles on
every other cell of a lattice (``find.pieces_neighboured_min``). Drawn tiles with real
OpenCV, and loose composites of real crops."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.vision import scan
from companion.vision.broken_tiles import recover
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.scan import LocatedTile, _neighboured_share
from companion.vision.synth import composite
from companion.vision.synth.evaluate import Case, Tally, run_case
from tests.helpers.held_out import loose_case

TABLE = (60, 80, 110)
RADIUS = 60


def _hexagon(centre: tuple[float, float], radius: float = RADIUS) -> np.ndarray:
    return np.array([(centre[0] + radius * math.cos(math.radians(60 * k)),
                      centre[1] + radius * math.sin(math.radians(60 * k)))
                     for k in range(6)])


def _scene(broken_rim: bool = True) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """Four tiles with dark rims on a table, three whole; the fourth's art is the
    table's colour but for two patches, so its mask is two fragments."""
    rng = np.random.default_rng(1)
    image = np.clip(rng.normal(TABLE, 3, (500, 700, 3)), 0, 255).astype(np.uint8)
    mask = np.zeros(image.shape[:2], np.uint8)
    whole = [_hexagon(c) for c in ((120.0, 120.0), (320.0, 120.0), (120.0, 330.0))]
    broken = _hexagon((330.0, 340.0))
    for h in [*whole, broken]:
        if h is not broken or broken_rim:
            cv2.fillPoly(image, [np.round(h).astype(np.int32)], (30, 40, 50))
        inner = h.mean(axis=0) + (h - h.mean(axis=0)) * 0.92
        colour = (40, 170, 120) if h is not broken else TABLE
        cv2.fillPoly(image, [np.round(inner).astype(np.int32)], colour)
        if h is not broken:
            cv2.fillPoly(mask, [np.round(h).astype(np.int32)], 255)
    for dx, dy in ((-22, -18), (18, 22)):
        cv2.circle(image, (330 + dx, 340 + dy), 25, (40, 170, 120), -1)
        cv2.circle(mask, (330 + dx, 340 + dy), 25, 255, -1)
    return image, mask, whole


def test_a_tile_in_fragments_is_found_at_its_outline() -> None:
    image, mask, whole = _scene()
    found = recover(image, mask, whole, DEFAULT_CONFIG)
    assert len(found) == 1
    assert np.linalg.norm(found[0].mean(axis=0) - (330, 340)) < 0.1 * RADIUS
    assert recover(image, mask, whole, DEFAULT_CONFIG.tuned(broken_close_frac=0.0)) == []
    assert recover(image, mask, whole[:2], DEFAULT_CONFIG) == []  # no size to trust


def test_a_tile_in_fragments_in_dim_light_is_found_by_its_contrast() -> None:
    """The broken tile and the table round it lit a third as brightly as the rest: its
    rim's gradient is a third of the whole tiles', its contrast with the table the same
    (``find.broken_log_edges``: measured on the grey's logarithm too)."""
    image, mask, whole = _scene()
    dim = np.zeros(mask.shape, np.uint8)
    cv2.circle(dim, (330, 340), int(1.6 * RADIUS), 255, -1)
    image[dim > 0] = (image[dim > 0] * 0.3).astype(np.uint8)
    found = recover(image, mask, whole, DEFAULT_CONFIG)
    assert len(found) == 1
    assert np.linalg.norm(found[0].mean(axis=0) - (330, 340)) < 0.1 * RADIUS
    assert recover(image, mask, whole, DEFAULT_CONFIG.tuned(broken_log_edges=False)) == []


def _joined_scene() -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """Three whole tiles, two more joined by a patch of glare, and a score pad larger
    than a tile: the rest of the foreground is the joined pair and the pad."""
    rng = np.random.default_rng(2)
    image = np.clip(rng.normal(TABLE, 3, (520, 900, 3)), 0, 255).astype(np.uint8)
    mask = np.zeros(image.shape[:2], np.uint8)
    whole = [_hexagon(c) for c in ((100.0, 100.0), (300.0, 100.0), (100.0, 300.0))]
    joined = [_hexagon(c) for c in ((300.0, 280.0), (300.0, 440.0))]
    cv2.ellipse(image, (300, 360), (45, 40), 0, 0, 360, (215, 225, 230), -1)
    cv2.ellipse(mask, (300, 360), (45, 40), 0, 0, 360, 255, -1)
    for h in [*whole, *joined]:
        cv2.fillPoly(image, [np.round(h).astype(np.int32)], (30, 40, 50))
        inner = h.mean(axis=0) + (h - h.mean(axis=0)) * 0.92
        cv2.fillPoly(image, [np.round(inner).astype(np.int32)], (40, 170, 120))
        cv2.fillPoly(mask, [np.round(h).astype(np.int32)], 255)
    cv2.rectangle(image, (560, 150), (760, 450), (225, 230, 235), -1)
    for y in range(180, 450, 30):
        cv2.line(image, (560, y), (760, y), (90, 90, 90), 2)
    cv2.rectangle(mask, (560, 150), (760, 450), 255, -1)
    return image, mask, whole


def test_tiles_joined_by_glare_are_found_and_a_pad_gives_none() -> None:
    """The joined pair is one part of the foreground, far larger than a tile: a candidate
    at each point deep inside it (``find.broken_peak_frac``) finds both tiles. The pad's
    deep points give none: the outlines placed there have the pad all round them
    (``find.broken_joined_beyond_max``)."""
    image, mask, whole = _joined_scene()
    found = recover(image, mask, whole, DEFAULT_CONFIG)
    centres = sorted(tuple(np.round(f.mean(axis=0)).tolist()) for f in found)
    assert len(found) == 2, centres
    for f, truth in zip(sorted(found, key=lambda f: f.mean(axis=0)[1]),
                        ((300, 280), (300, 440)), strict=True):
        assert np.linalg.norm(f.mean(axis=0) - truth) < 0.1 * RADIUS
    assert recover(image, mask, whole, DEFAULT_CONFIG.tuned(broken_peak_frac=0.0)) == []
    loose_limit = DEFAULT_CONFIG.tuned(broken_joined_beyond_max=1.0)
    assert len(recover(image, mask, whole, loose_limit)) > 2  # the pad's, without it


def test_fragments_with_no_tile_outline_round_them_are_left() -> None:
    """Two patches of art colour with no rim: no tile's outline lies there."""
    image, mask, whole = _scene(broken_rim=False)
    assert recover(image, mask, whole, DEFAULT_CONFIG) == []


def _paired(case: Case, **off: float) -> tuple[Tally, Tally]:
    """The case scanned with the settings ``off`` (the counterfactual) and as it is."""
    return (run_case(case, lambda p: scan(p, DEFAULT_CONFIG.tuned(**off))),
            run_case(case, scan))


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_a_held_out_loose_composite_keeps_every_tile() -> None:
    """Loose composite 26758 (held out: paired, never looked into), 8 real crops, no
    clutter: two tiles' foreground broke and they were not found; now all 8 are read."""
    case, _ = loose_case(26758, 8)
    before, after = _paired(case, broken_close_frac=0.0)
    assert before.placed_right <= 6
    assert after.placed_right == 8 and after.extra == 0 and after.edges_right == 48


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_loose_tiles_beside_clutter_larger_than_half_of_them_are_read_loose() -> None:
    """Loose composite 26754 (held out: paired, never looked into), 10 real crops beside
    a box lid, cards and markers: the clutter made the photo look assembled, and the map
    located, fitting its outlines poorly, brought phantoms; the tiles lying apart are
    read loose (``find.apart_min``)."""
    case, params = loose_case(26754, 10, clutter=True)
    table = params["real_table"]
    assert isinstance(table, dict) and "box lid" in table["clutter"]
    before, after = _paired(case, apart_min=0.0)
    assert before.extra >= 5 and before.poor_fit == 1
    assert after.placed_right == 10 and after.extra == 0 and after.edges_right == 60


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_loose_tiles_close_together_beside_a_box_lid_are_read_loose() -> None:
    """Loose composite 27311 (19 real crops at -1 EV beside a box lid and a score pad):
    their centres lie 1.16 tile widths apart, closer than ``find.apart_min``, and a map
    of 49 cells fitting its outlines poorly was located among them. Every one of them
    lies clear of everything else, as a map's tiles never do
    (``find.apart_isolated_min``)."""
    case, params = loose_case(27311, 19, clutter=True, ev=-1.0)
    table = params["real_table"]
    assert isinstance(table, dict) and "box lid" in table["clutter"]
    before, after = _paired(case, apart_isolated_min=0.0)
    assert before.extra >= 10 and before.poor_fit == 1
    assert after.placed_right == 19 and after.extra == 0 and after.edges_right == 114


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_a_loose_tile_in_fragments_in_dim_light_is_found() -> None:
    """Loose composite 27205 (6 real crops at -1 EV): one tile's mask broke, and its rim
    measured 0.53 of the whole tiles' edge strength on the grey, 0.63 on its logarithm
    (``find.broken_log_edges``)."""
    case, _ = loose_case(27205, 6, clutter=True, ev=-1.0)
    before, after = _paired(case, broken_log_edges=False)
    assert before.placed_right == 5
    assert after.placed_right == 6 and after.extra == 0 and after.edges_right == 36


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_loose_tiles_on_a_lattice_of_larger_cells_are_read_loose() -> None:
    """Loose composite 26912 (15 real crops 1.3 tile widths apart, tilted 33 degrees,
    no clutter) lies close enough to a lattice to look assembled: its cells, 1.2 times
    the tiles, rectified tile and table together. A map's cells are its tiles, so cells
    this much larger than the lone hexagons mean loose tiles (``find.apart_cells_min``)."""
    case, _ = loose_case(26912, 15)
    before, after = _paired(case, apart_cells_min=0.0)
    assert before.edges_right <= 60
    assert after.placed_right == 15 and after.extra == 0 and after.edges_right == 90


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_loose_tiles_joined_by_grain_and_glare_are_read_loose() -> None:
    """Loose composite 26909 (7 real crops on wood, no clutter): wood grain and a patch of
    glare joined five of them into one cluster, read as a map of cells 1.7 times the
    tiles that fitted poorly. Opened apart (``find.split_open_frac``), the streaks go and
    the tiles lie apart; the two still joined by the glare are found by their outlines
    (``find.broken_peak_frac``). Since session 44 the glare is parted first
    (``find.glare_parts``), so both counterfactuals turn that off too."""
    case, _ = loose_case(26909, 7)
    unparted = DEFAULT_CONFIG.tuned(glare_parts=False)
    before = run_case(case, lambda p: scan(p, unparted.tuned(split_open_frac=0.0)))
    no_peaks = run_case(case, lambda p: scan(p, unparted.tuned(broken_peak_frac=0.0)))
    parted = run_case(case, lambda p: scan(p, DEFAULT_CONFIG.tuned(split_open_frac=0.0)))
    after = run_case(case, scan)
    assert before.poor_fit == 1 and before.edges_right <= 20
    assert no_peaks.placed_right == 5
    assert parted.placed_right == 7 and parted.edges_right == 42
    assert after.placed_right == 7 and after.extra == 0 and after.edges_right == 42


def _at(cells: list[tuple[int, int]]) -> list[LocatedTile]:
    return [LocatedTile(c, np.zeros((6, 2)), np.zeros((1, 1, 3), np.uint8)) for c in cells]


def test_a_map_has_its_tiles_side_by_side_and_loose_tiles_on_a_lattice_do_not() -> None:
    """A map grows beside its tiles; loose tiles two widths apart sit on every other cell."""
    compact = [(0, 0), (1, 0), (0, 1), (-1, 1), (2, -1), (3, -1)]
    assert _neighboured_share(_at(compact)) == 1.0
    every_other = [(2 * q, 2 * r) for q in range(3) for r in range(3)]
    assert _neighboured_share(_at(every_other)) == 0.0
    assert _neighboured_share(_at([(0, 0), (1, 0), (4, 0), (8, 0)])) == 0.5


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_loose_tiles_on_every_other_cell_are_not_a_map_in_pieces() -> None:
    """Loose composite 26861 (24 real crops about two widths apart on a dark checked cloth,
    no clutter): only 11 are whole hexagons, the rest is pieces, and the map located from
    all of it held the hexagons on its lattice, every tile without a neighbour, and lost
    tiles. Read loose, the pieces are found by their outlines."""
    case, _ = loose_case(26861, 24)
    before, after = _paired(case, pieces_neighboured_min=0.0)
    assert before.placed_right <= 18
    assert after.placed_right >= 21 and after.extra == 0


@pytest.mark.slow
@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_loose_tiles_beside_a_score_pad_are_not_cells_of_its_lines() -> None:
    """Loose composite 26817 (7 real crops on a green mat beside a score pad, markers and
    a box lid): the pad's ruled lines sized a lattice of cells a third of the tiles, 49 of
    them over the pad and one tile. Cells that much smaller than the lone hexagons are
    not theirs either (``find.apart_cells_small_max``)."""
    case, params = loose_case(26817, 7, clutter=True)
    table = params["real_table"]
    assert isinstance(table, dict) and "score pad" in table["clutter"]
    before, after = _paired(case, apart_cells_small_max=0.0)
    assert before.extra >= 5
    assert after.placed_right == 7 and after.extra == 0
