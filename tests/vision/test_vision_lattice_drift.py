"""Maps laid by hand drift from one homography (issue 14): the wider second growth of
the best lattices (``lattice.snap_search_wide``, ``lattice.wide_candidates``) and the
judge between them, each tile's own outline (``lattice.CellFits.agreement``, the median
over a layout's tiles: ``scan._Placed.agreement``); a lattice a whole factor too fine
grown to the tiles' size (``scan._coarser``). Real OpenCV on drawn maps, a real-table
render and composites of real tiles."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from companion.vision import lattice, scan
from companion.vision.background import foreground_mask
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.scan import _Placed
from companion.vision.synth.evaluate import compare, rendered_cases
from tests.helpers.held_out import held_out_case, read_held_out
from tests.helpers.scanner_synth import draw_map, random_map

scan_module = importlib.import_module("companion.vision.scan")


def _view_and_lattice() -> tuple[lattice.MapView, lattice.Lattice, list[tuple[int, int]]]:
    """A drawn map of 20 tiles under tilt, its view and the lattice grown on it."""
    photo, _ = draw_map(random_map(20, 7), size=50, tilt_deg=15.0, rotate_deg=5.0, seed=7)
    mask = foreground_mask(photo, DEFAULT_CONFIG)
    view = lattice.map_view(photo, mask, lattice.estimate_radius(mask))
    lat = max((lattice.refine_by_seams(s, view) for s in lattice.fit_local(view)),
              key=lambda la: lattice.fit_quality(la, view))
    return view, lat, lattice.occupied(lat, view)


def test_tiles_outlines_agree_best_where_the_tiles_lie() -> None:
    """The judge: the cells' outlines agree with the seams on the lattice that fits,
    less on the same lattice shifted by 0.9 of the tile radius (which ``fit_cells``
    cannot snap back, its search reaching ``snap_search_frac`` of the radius)."""
    view, lat, cells = _view_and_lattice()
    assert len(cells) >= 15
    right = lattice.fit_cells(lat, view, cells)
    assert set(right.corners) == set(cells) and len(right.agreement) == len(cells)
    shift = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
    shift[0, 2] = 0.9 * view.radius
    moved = lattice.Lattice(shift @ lat.homography, 0)
    wrong = lattice.fit_cells(moved, view, cells)
    assert right.agreement.mean() > wrong.agreement.mean() + 0.1


def test_a_layout_placed_where_an_earlier_one_lies_is_not_placed_again() -> None:
    """``scan._is_new``, the rule by which the wider growths (shared out beside the
    placements) and the runners-up are placed once each: a layout whose cells the
    earlier lattice puts within a quarter of the tile radius of where its own lattice
    does tells nothing new; one moved by half a radius does."""
    view, lat, cells = _view_and_lattice()

    def moved(frac: float) -> lattice.Lattice:
        shift = np.eye(3)
        shift[0, 2] = frac * view.radius
        return lattice.Lattice(shift @ lat.homography, 0)

    earlier = [(lat, cells)]
    assert not scan_module._is_new((moved(0.1), cells), earlier, view.radius)
    assert scan_module._is_new((moved(0.5), cells), earlier, view.radius)
    assert scan_module._is_new((moved(0.5), cells), [], view.radius)
    near, far = moved(0.1), moved(0.5)
    kept = scan_module._distinct([(lat, cells), (near, cells), (far, cells)], view.radius)
    assert len(kept) == 2 and kept[0][0] is lat and kept[1][0] is far


@pytest.mark.slow
def test_a_hand_laid_map_drifting_from_one_homography_is_followed() -> None:
    """Real tiles laid by hand with gaps that add up across the map (composite 5203 of
    the evaluation): grown with the usual reach the lattice falls a third of a tile
    behind on one side, 116 of 144 edges right; the wider growth follows the map (and
    so, here, do the runner-up lattice and the refit to every tile placed,
    ``refit_placed``: all off for the comparison, with the silhouette's gaps closed
    at 0.15 of a radius as when it was found; ``lattice.gap_close_frac`` is wider
    since, and closed at 0.45 the usual reach follows it too)."""
    from companion.vision.synth import composite
    from companion.vision.synth.evaluate import composite_cases

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    case = next(composite_cases(6, 5200, (4000, 3000), real_table=True, skip=3))
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    wide = compare(scan(case.photo, slow), case.truth, case.kind)
    narrow = compare(scan(case.photo, slow.tuned(snap_search_wide=0.0, placed_candidates=1,
                                                refit_placed=False, gap_close_frac=0.15)),
                     case.truth, case.kind)
    assert wide.placed_right == len(case.truth) == 24 and wide.extra == 0
    assert wide.edges_right >= 138
    # 116 when found, 127 with the white patch of the less coloured half (session 25):
    # still more than a tile's edges short of the wide growth's
    assert narrow.edges_right <= 130


@pytest.mark.slow
def test_the_runner_up_grown_wider_follows_a_steeply_tilted_map() -> None:
    """Real tiles under a steep tilt, with lamp glare breaking the silhouette near the
    middle (composite 20852 of a held-out set of session 31): grown wider, the best
    lattice by the silhouette still stops half a cell off on the far (upper) side, its
    cells there too large; 18 of 24 tiles placed. The runner-up's start grown wider
    (``lattice.wide_candidates``) follows the perspective onto every tile, and the
    tiles' outlines choose it (median agreement 0.49 against 0.33)."""
    from companion.vision.synth import composite

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    both, best_only, tiles = read_held_out(20800, 52, composite=True, wide_candidates=1)
    assert both.placed_right == tiles == 24 and both.extra == 0
    assert both.edges_right >= 140
    assert best_only.errors == 0 and best_only.placed_right <= 20


@pytest.mark.slow
def test_a_lattice_twice_too_fine_is_grown_to_the_tiles_size() -> None:
    """Real tiles on dark wood whose seams show no period (composite 6102 of the
    evaluation): the lone hexagons give the tile size, yet every search settles on a
    lattice twice finer (it holds every centre of the map's): 25 of 37 tiles placed,
    135 phantom cells. Grown again at the hexagons' size from it, the map is found.
    (The seams' faint period, ``period_weak_contrast``, proposes the size too: off here.)"""
    from companion.vision.synth import composite
    from companion.vision.synth.evaluate import composite_cases

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    case = next(composite_cases(6, 6100, (4000, 3000), real_table=True, skip=2))
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0, period_weak_contrast=1.0)
    rescued = compare(scan(case.photo, slow), case.truth, case.kind)
    # Closed at 0.45 (``lattice.gap_close_frac`` is wider than 0.15 since) the searches
    # find the tiles' size without the rescue: the comparison closes the gaps at 0.15,
    # as when it was found.
    # The lone hexagons' own lattice (``hexagon_starts``: 5 of the 8 agree) finds the map
    # too without the rescue: off in the comparison.
    fine = compare(scan(case.photo, slow.tuned(rescue_coarser=False, gap_close_frac=0.15,
                                               hexagon_starts=False)),
                   case.truth, case.kind)
    assert rescued.placed_right == len(case.truth) == 37
    assert rescued.extra <= 20 and rescued.edges_right >= 170
    assert fine.extra >= 100
    # A lattice of the tiles' size grown from the finer one (``coarser_rival``) is placed
    # beside the best of that size and fits the outlines better before either is refitted;
    # refitted, the best fits better still (0.42 against 0.29): both must be refitted.
    grown_only = compare(scan(case.photo, slow.tuned(refit_poor_more=0)), case.truth,
                         case.kind)
    assert grown_only.placed_right < 37



@pytest.mark.slow
def test_a_finer_lattice_outscoring_the_tiles_size_is_grown_to_it() -> None:
    """Composite 20250 (a fresh run of session 29): dark forest and tracks on dark wood,
    tilted, large tiles, seams repeating at a fifth of a tile (the sleepers and the
    grain), which five lone hexagons disown. Fitted without that period, a lattice half
    the tiles' size outscores every lattice of their size, and the best of those lies
    at 0.8 of it: 19 of 20 tiles, 18 phantoms, 52 of 120 edges. Grown to the hexagons'
    size from the finer one (``lattice.coarser_rival``), it competes and wins. (The five
    hexagons' own lattice, ``lattice.hexagon_starts``, finds the map too: off here.)"""
    from companion.vision.synth import composite

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    case = held_out_case(20200, 50, composite=True)
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0, hexagon_starts=False)
    grown = compare(scan(case.photo, slow), case.truth, case.kind)
    assert grown.placed_right == len(case.truth) == 20
    assert grown.extra == 0 and grown.edges_right >= 118
    finer = compare(scan(case.photo, slow.tuned(coarser_rival=False)), case.truth, case.kind)
    assert finer.extra >= 10


def test_a_layout_is_judged_by_its_typical_tile() -> None:
    """A layout with a few sharp fits among many poor ones (cells half a cell off, each
    over two tiles) loses to one whose every tile fits fairly, though its mean is higher;
    cells grown onto the table do not outvote the tiles either."""
    corners = np.zeros((6, 2))
    straddling = _Placed([((0, i), corners) for i in range(43)], [0.2] * 30 + [0.6] * 13)
    fitting = _Placed([((0, i), corners) for i in range(40)], [0.3] * 40)
    assert np.mean(straddling.agreements) > np.mean(fitting.agreements)
    assert fitting.agreement > straddling.agreement == 0.2
    assert _Placed([], []).agreement == -np.inf


@pytest.mark.slow
def test_a_broken_silhouette_does_not_put_the_map_half_a_cell_off() -> None:
    """A white table under +EV light swallows the village tiles' pale art (real-table
    render 6303 of the evaluation): the silhouette breaks, and the lattice it prefers
    lies half a cell off the map, each cell over two tiles (22 of 25 placed, 6 phantoms,
    53 of 150 edges). The wider growth lies on the seams and more cells, each straddling
    two tiles, no longer outvote it: the map is read."""
    case = next(rendered_cases(4, 6300, (4000, 3000), real_table=True, skip=3))
    found = compare(scan(case.photo, DEFAULT_CONFIG.tuned(time_limit_s=120.0)),
                    case.truth, case.kind)
    assert len(case.truth) == 25
    assert found.placed_right >= 24 and found.extra == 0
    assert found.edges_right >= 140


@pytest.mark.slow
def test_the_runner_up_lattice_is_placed_when_the_silhouette_misjudges() -> None:
    """Real tiles on a dark cloth in dim light (composite 6400 of the evaluation): the
    silhouette's fit prefers a lattice a third of a cell off (169 of 210 edges); the
    runner-up, placed too, lies on the tiles and its tiles' outlines say so. (The refit
    to the grown map, ``refit_placed``, mends the first one too: off for the
    comparison, with the silhouette's gaps closed at 0.15 of a radius as when it was found;
    so is the fit without the period that a poor fit lets compete, ``period_weak_agreement``,
    which mends it as well.)"""
    from companion.vision.synth import composite
    from companion.vision.synth.evaluate import composite_cases

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    case = next(composite_cases(6, 6400, (4000, 3000), real_table=True))
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    both = compare(scan(case.photo, slow), case.truth, case.kind)
    alone = compare(scan(case.photo, slow.tuned(placed_candidates=1, refit_placed=False,
                                                gap_close_frac=0.15,
                                                period_weak_agreement=0.0)),
                    case.truth, case.kind)
    assert both.placed_right >= 32 and both.edges_right >= 185
    assert alone.edges_right <= 175


@pytest.mark.slow
def test_a_lattice_fitted_on_a_few_cells_is_refitted_to_the_grown_map() -> None:
    """Real tiles on dark wood, the photo underexposed (composite 9034, a seed first
    run to look for photos whose seams show no period): the silhouette holds 12 of the
    39 tiles, the lattice fitted there is 8 % large and, grown by the art to the whole
    map, lies half a cell off at its far side (176 of 234 edges, 6 phantoms). Refitted
    to the seams over every tile placed, the map is read. (Without the refit, with
    the silhouette's gaps closed at 0.15 of a radius as when it was found; closed at
    0.45, ``lattice.gap_close_frac``, the first lattice reads it too; and it reads the
    photo as taken, ``io.exposure_floor_grey`` 0: brought up, the map is read without the
    refit, session 39.)"""
    from companion.vision.synth import composite
    from companion.vision.synth.evaluate import composite_cases

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    case = next(composite_cases(60, 9000, (4000, 3000), real_table=True, skip=34))
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    refit = compare(scan(case.photo, slow), case.truth, case.kind)
    assert refit.placed_right == len(case.truth) == 39
    assert refit.extra <= 1 and refit.edges_right >= 220
    grown = compare(scan(case.photo, slow.tuned(refit_placed=False, gap_close_frac=0.15,
                                                exposure_floor_grey=0.0)),
                    case.truth, case.kind)
    assert grown.edges_right <= 195


def test_a_layout_is_left_alone_when_the_refit_is_off_or_it_has_no_tiles() -> None:
    """``scan._refitted`` places nothing again with ``refit_placed`` off, nor a layout
    whose every cell is a free neighbour (nothing to refit to)."""
    view, lat, cells = _view_and_lattice()
    corners = {c: lat.cell_corners(c) for c in cells}
    placed = _Placed([(c, corners[c]) for c in cells], [0.5] * len(cells))
    image = np.zeros((10, 10, 3), np.uint8)
    off = DEFAULT_CONFIG.tuned(refit_placed=False)
    assert scan_module._refitted(image, (lat, cells), placed, off, None) is placed
    beside = _Placed([(c, corners[c]) for c in cells], [0.5] * len(cells), set(cells))
    assert scan_module._refitted(image, (lat, cells), beside, DEFAULT_CONFIG, None) is beside


@pytest.mark.slow
def test_a_lattice_drifting_off_hand_laid_tiles_is_refitted_to_every_tile() -> None:
    """Real tiles laid by hand on a table (composite 11900, found by a held-out run): the
    silhouette holds the whole map, but the lattice fitted from it lies a fifth of the
    tile spacing off the tiles at the map's left end, where each cell's own outline
    search snaps to the wrong lines and four tiles are misread (208 of 228 edges, all
    marked doubtful). Refitted to the seams over every tile placed, the map is read.
    (Without the refit, with the silhouette's gaps closed at 0.15 of a radius as when
    it was found.)"""
    from companion.vision.synth import composite

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    refit, once, tiles = read_held_out(11900, 0, composite=True, refit_placed=False,
                                       gap_close_frac=0.15)
    assert refit.placed_right >= tiles - 1 == 37 and refit.extra == 0
    assert refit.edges_right >= 6 * refit.placed_right - 2
    # 208 when found, 215 with the white patch of the less coloured half (session 25),
    # 217 with this dim photo lifted (session 29): the map is still misread where the
    # lattice drifted
    assert once.edges_right <= 218


@pytest.mark.slow
def test_tiles_the_first_placement_lost_are_found_on_the_refitted_lattice() -> None:
    """Two grey village tiles on a pale grey table (render 12010, found by a held-out
    run): placed on the lattice fitted to the silhouette, one is not grown and the
    other is refused by the cell model (22 of 24 tiles). Placed again on the lattice
    refitted to every tile, one is found (both were by the cell model fitted before
    the refit; the one fitted on the refit's rows refuses the other). With the
    silhouette's gaps closed at 0.45 (``lattice.gap_close_frac``) both were found;
    without the refit, with the silhouette's gaps closed at 0.15 of a radius as when it
    was found."""
    refit, once, tiles = read_held_out(12000, 10, refit_placed=False, gap_close_frac=0.15)
    assert refit.placed_right >= tiles - 1 == 23 and refit.extra == 0
    assert refit.edges_right >= 136
    assert once.placed_right <= tiles - 2


def _placed_once(photo: np.ndarray) -> tuple[lattice.MapView, lattice.Lattice,
                                             list[tuple[int, int]], _Placed]:
    """The silhouette's view of ``photo``, its best lattice, the cells that lattice
    covers and their placement (``scan._place_cells``)."""
    mask = foreground_mask(photo, DEFAULT_CONFIG)
    view = lattice.map_view(photo, mask, lattice.estimate_radius(mask))
    lat = max((lattice.refine_by_seams(s, view) for s in lattice.fit_local(view)),
              key=lambda la: lattice.fit_quality(la, view))
    cells = lattice.occupied(lat, view)
    return view, lat, cells, scan_module._place_cells(photo, view, lat, cells,
                                                      DEFAULT_CONFIG, None)


def test_a_hole_in_the_map_is_not_taken_in_by_the_refit() -> None:
    """The refit's view is the placed tiles' outlines, closed over their gaps: a free
    cell the map surrounds is largely covered, and a textured table shows there (here
    a checkerboard cloth). Only cells centred on a placed tile are the map's, and the
    shadow rescue (``lattice.partly_covered``) is not asked of a view that is no
    silhouette: the hole stays free. (Before, the refit took it in as a tile.)"""
    tiles = random_map(24, 3)
    hole = next(c for c in tiles
                if all((c[0] + d.q, c[1] + d.r) in tiles for d in scan_module.DIRECTIONS))
    del tiles[hole]
    photo, centres = draw_map(tiles, size=50, tilt_deg=10.0, rotate_deg=5.0, seed=3,
                              gap=0.06)
    yy, xx = np.mgrid[0: photo.shape[0], 0: photo.shape[1]]
    checks = (xx // 9 + yy // 9) % 2 == 0
    table = np.abs(photo.astype(int) - (70, 110, 150)).max(axis=2) < 30
    photo[table & checks] = (60, 60, 60)
    photo[table & ~checks] = (200, 200, 200)
    free = np.mean([centres[(hole[0] + d.q, hole[1] + d.r)]
                    for d in scan_module.DIRECTIONS], axis=0)
    view, lat, cells, first = _placed_once(photo)
    kept = [t for t in first.tiles if t[0] not in first.beside]
    placed = _Placed(kept, [0.0] * len(kept))
    again = scan_module._refitted(photo, (lat, cells), placed, DEFAULT_CONFIG, None)
    assert again is not placed

    def at(point: np.ndarray, found: _Placed) -> bool:
        return any(np.linalg.norm(corners.mean(axis=0) - point) < 0.4 * view.radius
                   for cell, corners in found.tiles if cell not in found.beside)

    assert all(at(np.array(c), again) for c in centres.values())
    assert not at(free, first) and not at(free, again)


def _tiles_at(xs: list[float], ys: list[float]) -> list[tuple[tuple[int, int], np.ndarray]]:
    """Placed tiles whose outlines are unit hexagons (radius 10) centred at (xs, ys)."""
    unit = np.array(lattice.UNIT.corners((0, 0))) * 10.0
    return [((i, 0), unit + (x, y)) for i, (x, y) in enumerate(zip(xs, ys, strict=True))]


def test_a_placement_with_a_whole_part_more_of_the_map_wins_when_its_tiles_fit() -> None:
    """The fuller placement (``scan._best_placed``): a lattice that places the part of
    the map in shadow too (5 further tiles fitting 0.45, median 0.55) outranks the one
    whose 10 tiles fit 0.6 without it; not when its further tiles fit poorly, when its
    median falls more than ``fuller_margin`` short or below the poor-fit bar
    (``period_weak_agreement``), nor with ``fuller_min_extra`` 0."""
    xs = [20.0 * i for i in range(10)]
    best = _Placed(_tiles_at(xs, [0.0] * 10), [0.6] * 10)
    further = _tiles_at([20.0 * i for i in range(5)], [200.0] * 5)
    fuller = _Placed(_tiles_at(xs, [0.0] * 10) + further, [0.6] * 6 + [0.55] * 4 + [0.45] * 5)
    assert fuller.agreement < best.agreement
    assert scan_module._best_placed([best, fuller], 10.0, DEFAULT_CONFIG) == 1
    assert scan_module._best_placed([fuller, best], 10.0, DEFAULT_CONFIG) == 0
    poor = _Placed(fuller.tiles, [0.6] * 10 + [0.2] * 5)
    assert scan_module._best_placed([best, poor], 10.0, DEFAULT_CONFIG) == 0
    short = _Placed(fuller.tiles, [0.45] * 15)
    assert scan_module._best_placed([best, short], 10.0, DEFAULT_CONFIG) == 0
    two_more = _Placed(fuller.tiles[:12], [0.6] * 12)
    assert scan_module._best_placed([best, two_more], 10.0, DEFAULT_CONFIG) == 0
    off = DEFAULT_CONFIG.tuned(fuller_min_extra=0)
    assert scan_module._best_placed([best, fuller], 10.0, off) == 0
    # Among poor fits (composite 6102 on a lattice twice too fine: 77 cells at 0.14,
    # 136 at 0.128) more cells are no better map.
    weak = _Placed(best.tiles, [0.14] * 10)
    finer = _Placed(fuller.tiles, [0.128] * 15)
    assert scan_module._best_placed([weak, finer], 10.0, DEFAULT_CONFIG) == 0


@pytest.mark.slow
def test_half_a_map_beyond_a_dark_tile_in_shadow_is_placed() -> None:
    """Real-table render 17013 of the evaluation on the checked cloth (``--table pattern``): a dark
    village tile in a band of shadow splits the silhouette, and the lattice the
    silhouette prefers lies off the lower half, whose seams it then misses: dropped as
    a cloth's pattern (``scan._seamless_groups``), 13 of 26 tiles. The runner-up places
    25; its median tile fits a little worse (the half in shadow), its further tiles
    fit as tiles do, and it stands (``scan._best_placed``). Since every placement of the
    tiles' size judges the cells beside the map against one art reference measured on
    the best lattice's cells (``scan._reference_of``; before, each on its own cells),
    the best fit grows the lower half by its art too: without the fuller rule it
    placed 13."""
    case = next(rendered_cases(14, 17000, (4000, 3000), real_table=True, skip=13,
                               table="pattern"))
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    fuller = compare(scan(case.photo, slow), case.truth, case.kind)
    best_fit = compare(scan(case.photo, slow.tuned(fuller_min_extra=0)), case.truth,
                       case.kind)
    assert len(case.truth) == 26
    assert fuller.placed_right >= 25 and fuller.extra == 0
    assert fuller.edges_right >= 148
    assert best_fit.placed_right >= 25 and best_fit.extra == 0
