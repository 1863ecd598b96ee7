"""The tile size from the seams' periodicity, not from the outline (issue 14): rendered
real-table photos (hand-laid tiles, cardboard walls, barrel distortion, a wood table the
colour of grain fields) whose outline-based size came out at a half to a third of the
tile. Rendered photos, real OpenCV."""

from __future__ import annotations

import importlib
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import cell_art, edges, lattice, scan
from companion.vision.background import fill_holes, foreground_mask
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.io import load_photo
from companion.vision.synth.evaluate import compare, run_case, truth_of_rendered
from companion.vision.synth.render import Rendered, render_record
from companion.vision.synth.render_records import random_record
from tests.helpers.held_out import held_out_case, read_held_out
from tests.helpers.scanner_synth import draw_map, random_map

scan_mod = importlib.import_module("companion.vision.scan")
SAMPLES = Path(__file__).resolve().parents[2] / "sample_photos"


@lru_cache(maxsize=2)
def _real_table(seed: int, first: int = 2100) -> Rendered:
    """Photo ``seed`` of the evaluation's ``--set rendered --real-table --seed first``."""
    rng = np.random.default_rng(first)
    sizes = [int(rng.integers(15, 46)) for _ in range(seed - first + 1)]
    return render_record(random_record(seed, sizes[-1]), seed=seed, size_px=(4000, 3000),
                         jpeg_quality=None, real_table=True)


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def _period(photo_bytes: bytes, **changes: object) -> tuple[np.ndarray, lattice.Period | None]:
    """The working image of a photo and the seams' period in its silhouette (with the
    settings ``changes``)."""
    config = DEFAULT_CONFIG.tuned(**changes)
    photo = load_photo(photo_bytes, config)
    mask = fill_holes(foreground_mask(photo.image, config, fill=False))
    return photo.image, lattice.seam_period(photo.image, mask, config)


def _true_radius(rendered: Rendered, factor: float) -> float:
    """Median circumradius of the tiles in working pixels (``factor`` = working/original)."""
    return float(np.median([np.linalg.norm((np.asarray(t.corners) - np.asarray(t.centre))
                                           * factor, axis=1).mean() for t in rendered.tiles]))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2101, 2102])
def test_the_seams_period_gives_the_tile_size(seed: int) -> None:
    """Before: the outline said 107 px for 73 px tiles (2101) and the lattice fell to 19 px
    for 52 px tiles (2102)."""
    rendered = _real_table(seed)
    image, period = _period(_jpeg(rendered.image))
    assert period is not None
    truth = _true_radius(rendered, image.shape[1] / rendered.image.shape[1])
    assert abs(period.radius / truth - 1.0) < 0.08


def test_no_period_on_a_plain_table() -> None:
    rng = np.random.default_rng(3)
    image = np.clip(rng.normal(120, 4, (600, 800, 3)), 0, 255).astype(np.uint8)
    mask = np.zeros((600, 800), np.uint8)
    mask[100:500, 150:650] = 255
    assert lattice.seam_period(image, mask, DEFAULT_CONFIG) is None


@pytest.mark.slow
def test_a_real_table_map_on_wood_is_read_at_its_tile_size() -> None:
    """Before: 19 of 43 tiles at the right position and 117 phantom tiles."""
    rendered = _real_table(2102)
    result = scan(_jpeg(rendered.image), DEFAULT_CONFIG.tuned(time_limit_s=120.0))
    tally = compare(result, truth_of_rendered(rendered.tiles), "assembled")
    assert result.kind == "assembled"
    assert tally.placed_right >= 0.85 * len(rendered.tiles)
    assert tally.extra <= 2
    assert tally.edges_right >= 0.97 * 6 * tally.placed_right


def _located(cells: list[tuple[int, int]]) -> list[scan_mod.LocatedTile]:
    blank = np.zeros((4, 4, 3), np.uint8)
    return [scan_mod.LocatedTile(c, np.zeros((6, 2)), blank) for c in cells]


def test_groups_apart_from_the_map_are_not_tiles() -> None:
    landscape = [(q, r) for q in range(4) for r in range(3)]
    pad = [(9, 0), (9, 1)]  # beside the map: a score pad's cells
    across_a_gap = [(5, 0)]  # one missing tile away: still the landscape
    found = _located(landscape + pad + across_a_gap)
    keep = scan_mod._one_landscape(found, [True] * len(found), DEFAULT_CONFIG)
    assert keep == [True] * len(landscape) + [False, False] + [True]
    big = [(9, r) for r in range(-1, 3)]  # a part of the map on its own keeps its tiles
    found = _located(landscape + big)
    assert all(scan_mod._one_landscape(found, [True] * len(found), DEFAULT_CONFIG))


def test_blank_and_paper_cells_are_measured() -> None:
    rng = np.random.default_rng(1)
    h, w = edges.hexagon_mask(DEFAULT_CONFIG.rectify.radius).shape
    art = np.clip(rng.normal(110, 30, (h, w, 3)), 0, 255).astype(np.uint8)
    paper = np.full((h, w, 3), 235, np.uint8)
    assert cell_art.flat_and_paper(art, DEFAULT_CONFIG) == (0.0, 0.0)
    flat, white = cell_art.flat_and_paper(paper, DEFAULT_CONFIG)
    assert flat == 1.0 and white == 1.0


@pytest.mark.slow
def test_glare_over_holes_in_the_map_is_not_tiles() -> None:
    """Before: 6 phantom tiles in the white glare over the map's holes (and the map at
    the wrong tile size: 94 of 147 tiles found on the set's four photos)."""
    rendered = _real_table(2400, 2400)
    result = scan(_jpeg(rendered.image), DEFAULT_CONFIG.tuned(time_limit_s=120.0))
    tally = compare(result, truth_of_rendered(rendered.tiles), "assembled")
    assert tally.extra <= 1
    assert tally.placed_right >= 0.95 * len(rendered.tiles)


@pytest.mark.slow
def test_a_map_in_pieces_smaller_than_a_tile_still_shows_its_period() -> None:
    """Real tiles on dark wood in dim light with wide hand-laid gaps (composite 2605 of
    the evaluation): the silhouette's pieces big enough to be tiles hold too little of
    the seams to show the period, the whole foreground does. Without it, and without
    the wider second growth (which finds the map too since layouts are judged by their
    typical tile), a lattice of the outline's fitted at the wrong offset: 19 of 20
    tiles placed, 48 of 120 edges (the pieces' faint period, ``period_weak_contrast``,
    the refit to the grown map, ``refit_placed``, and the lone hexagons' own lattice,
    ``hexagon_starts``, off here, find the map too).
    (The comparison closes the silhouette's gaps at 0.15 of a radius, as when it was
    found; ``lattice.gap_close_frac`` is wider since, and closed at 0.45 the map was
    read without this. It also reads the photo as taken, ``io.exposure_floor_grey`` 0:
    brought up, 99 of its 120 edges are read without this, session 39.)"""
    from companion.vision.synth import composite
    from companion.vision.synth.evaluate import composite_cases, matched_pairs

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    case = next(composite_cases(6, 2600, (4000, 3000), real_table=True, skip=5))

    def read(config: object) -> tuple[int, int, int]:
        result = scan(case.photo, config)  # type: ignore[arg-type]
        pairs = matched_pairs(result, case.truth, case.kind)
        right = sum(a == b for t, s, _ in pairs for a, b in zip(t.code, s.code, strict=True))
        return len(result.tiles), len(pairs), right

    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    found, placed, edges_right = read(slow)
    assert placed == len(case.truth) == 20 and found <= 21
    assert edges_right >= 70
    assert read(slow.tuned(period_from_whole=False, snap_search_wide=0.0,
                           period_weak_contrast=1.0, refit_placed=False,
                           hexagon_starts=False, gap_close_frac=0.15,
                           exposure_floor_grey=0.0))[2] < 60


@pytest.mark.slow
def test_faint_seams_still_propose_the_tile_size() -> None:
    """Real tiles on dark wood in dim light (composite 6102 of the evaluation): the
    seams repeat too faintly to decide the tile size (contrast under
    ``period_min_contrast``), and the lone hexagons are pieces of tiles, 9 % small.
    Asked for a weaker contrast, the seams give the size within a few per cent; the
    lattices fitted from it are placed beside the others and the tiles' outlines pick
    them. Without them (and without the refit to the grown map, which mends this photo
    too): 188 of 222 edges, 7 phantoms.
    (The comparison closes the silhouette's gaps at 0.15 of a radius, as when it was
    found; ``lattice.gap_close_frac`` is wider since, and closed at 0.45 the map was
    read without this.)"""
    from companion.vision.synth import composite
    from companion.vision.synth.evaluate import composite_cases

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    case = next(composite_cases(6, 6100, (4000, 3000), real_table=True, skip=2))
    photo = load_photo(case.photo, DEFAULT_CONFIG)
    raw = foreground_mask(photo.image, DEFAULT_CONFIG, fill=False)
    whole = fill_holes(raw)
    assert lattice.seam_period(photo.image, whole, DEFAULT_CONFIG) is None
    faint = lattice.faint_periods(photo.image, whole, DEFAULT_CONFIG)
    assert 1 <= len(faint) <= DEFAULT_CONFIG.lattice.period_faint_count
    assert all(p.contrast < DEFAULT_CONFIG.lattice.period_min_contrast for p in faint)
    centres = np.array([t.centre for t in case.truth]) * (
        photo.image.shape[1] / photo.original_size[0])
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(gaps, np.inf)
    truth = float(np.median(gaps.min(axis=1))) / np.sqrt(3.0)
    assert abs(faint[0].radius / truth - 1.0) < 0.08

    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    proposed = compare(scan(case.photo, slow), case.truth, case.kind)
    assert proposed.placed_right == len(case.truth) == 37
    assert proposed.extra <= 2 and proposed.edges_right >= 210
    without = compare(scan(case.photo, slow.tuned(period_weak_contrast=1.0,
                                                  refit_placed=False, gap_close_frac=0.15)),
                      case.truth, case.kind)
    assert without.edges_right <= 200 or without.extra >= 5


@pytest.mark.slow
def test_wood_grain_outscoring_faint_seams_leaves_the_tile_size_a_candidate() -> None:
    """Real tiles on strongly grained wood under glare (composite 9019, a seed first run
    to look for photos whose seams show no period): the grain's streaks make a lattice
    three times the tiles' the best faint period; the tiles' own size comes second.
    With only the best tried, 57 phantom cells and 46 of 192 edges; with both, the
    tiles' outlines pick the right one.
    (The comparison closes the silhouette's gaps at 0.15 of a radius, as when it was
    found; ``lattice.gap_close_frac`` is wider since, and closed at 0.45 the map was
    read without this.)"""
    from companion.vision.synth import composite
    from companion.vision.synth.evaluate import composite_cases

    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    case = next(composite_cases(60, 9000, (4000, 3000), real_table=True, skip=19))
    photo = load_photo(case.photo, DEFAULT_CONFIG)
    whole = fill_holes(foreground_mask(photo.image, DEFAULT_CONFIG, fill=False))
    faint = lattice.faint_periods(photo.image, whole, DEFAULT_CONFIG)
    centres = np.array([t.centre for t in case.truth]) * (
        photo.image.shape[1] / photo.original_size[0])
    gaps = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(gaps, np.inf)
    truth = float(np.median(gaps.min(axis=1))) / np.sqrt(3.0)
    assert len(faint) == 2 and faint[0].radius > 2.5 * truth
    assert abs(faint[1].radius / truth - 1.0) < 0.12

    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    both = compare(scan(case.photo, slow), case.truth, case.kind)
    assert both.extra <= 8 and both.edges_right >= 135
    best_only = compare(scan(case.photo, slow.tuned(period_faint_count=1,
                                                    refit_placed=False,
                                                    gap_close_frac=0.15)),
                        case.truth, case.kind)
    assert best_only.extra >= 30 and best_only.edges_right <= 80


def test_faint_periods_are_candidates_of_distinct_sizes() -> None:
    """On a drawn map: each faint period at least
    ``period_weak_contrast`` (or the share of the best), sizes more than 10 % apart, at
    most ``period_faint_count``; none on a plain table."""
    photo, _ = draw_map(random_map(20, 7), size=50, tilt_deg=10.0, rotate_deg=5.0, seed=7)
    mask = foreground_mask(photo, DEFAULT_CONFIG)
    config = DEFAULT_CONFIG.tuned(period_faint_count=3)
    faint = lattice.faint_periods(photo, mask, config)
    assert 1 <= len(faint) <= 3
    floor = min(config.lattice.period_weak_contrast,
                config.lattice.period_faint_share * faint[0].contrast)
    assert all(p.contrast >= floor for p in faint)
    assert all(a.contrast >= b.contrast for a, b in zip(faint, faint[1:], strict=False))
    for i, p in enumerate(faint):
        for q in faint[i + 1:]:
            assert abs(p.radius / q.radius - 1.0) > 0.1
    strong = lattice.seam_period(photo, mask, config)
    assert strong is not None and abs(faint[0].radius / strong.radius - 1.0) < 0.2
    rng = np.random.default_rng(3)
    plain = np.clip(rng.normal(120, 4, (600, 800, 3)), 0, 255).astype(np.uint8)
    table = np.zeros((600, 800), np.uint8)
    table[100:500, 150:650] = 255
    assert lattice.faint_periods(plain, table, config) == []


@pytest.mark.slow
def test_a_period_of_a_coarser_sublattice_does_not_collapse_the_map() -> None:
    """A sparse map of bright tiles on green felt (real-table render 9516, found by a
    held-out run): the seams' period is that of the sublattice sqrt(7) times the tiles'
    (its translations are every tiles' lattice's too), no lone hexagon tells the size,
    and the map came back as 3 of its 35 tiles. A map read as a handful of cells tries
    the finer lattices it may be a sublattice of.
    (The comparison closes the silhouette's gaps at 0.15 of a radius, as when it was
    found; ``lattice.gap_close_frac`` is wider since, and closed at 0.45 the map was
    read without this.)"""
    finer, coarse, tiles = read_held_out(9500, 16, finer_below_cells=0,
                                         period_rival_peaks=0, gap_close_frac=0.15,
                                         period_derived_finer=False, period_weak_agreement=0.0)
    assert finer.placed_right == tiles == 35 and finer.extra == 0
    assert finer.edges_right >= 200
    assert coarse.placed_right <= 5


@pytest.mark.slow
@pytest.mark.parametrize(("first", "skip"), [(11400, 26), (11600, 2)])
def test_the_tiles_period_below_the_strongest_peaks_is_found_among_more(
        first: int, skip: int) -> None:
    """A sparse hand-laid map with holes on green felt (real-table render 11426) and one
    on a cloth (11602), found by held-out runs: the tiles' neighbour vectors rank below
    the 30 strongest peaks of the seams' autocorrelation, and every lattice paired from
    those is 1.8 times the tiles' size or more. Paired from 80 peaks (one
    autocorrelation for both), the period is the tiles'."""
    case = held_out_case(first, skip)
    photo = load_photo(case.photo, DEFAULT_CONFIG)
    mask = fill_holes(foreground_mask(photo.image, DEFAULT_CONFIG, fill=False))
    # The finer lattices derived from the period mend it too (tested below): off here.
    peaks_only = DEFAULT_CONFIG.tuned(period_derived_finer=False)
    strongest, more = lattice.seam_periods(photo.image, mask, peaks_only, (30, 80))
    alone = lattice.seam_period(photo.image, mask, peaks_only)
    assert strongest is not None and alone is not None
    assert np.array_equal(np.r_[strongest.a, strongest.b], np.r_[alone.a, alone.b])
    centres = np.array([t.centre for t in case.truth])
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(apart, np.inf)
    truth = float(np.median(apart.min(axis=1))) / np.sqrt(3) * photo.image.shape[1] / 4000
    assert strongest.radius > 1.7 * truth
    assert more is not None and abs(more.radius / truth - 1.0) < 0.05
    derived = lattice.seam_period(photo.image, mask, DEFAULT_CONFIG)
    assert derived is not None and abs(derived.radius / truth - 1.0) < 0.05


@pytest.mark.slow
def test_a_period_below_the_strongest_peaks_does_not_collapse_the_map() -> None:
    """Render 11426 (above) came back as 4 of its 41 tiles with 10 phantoms: the period
    paired from 80 peaks is placed beside the one from 30, and the tiles' outlines
    choose it (``lattice.period_rival_peaks``). (The comparison closes the silhouette's
    gaps at 0.15 of a radius, as when it was found; ``lattice.gap_close_frac`` is wider
    since, and closed at 0.3 the map without the rival is 15 of 41 tiles. Without the
    rival, the colour reading beside the model reads the misplaced cells' codes closer
    to the truth's, so more of them align with it: 14 of 41, with 14 phantoms.)"""
    fine, coarse, tiles = read_held_out(11400, 26, period_rival_peaks=0, gap_close_frac=0.15,
                                        period_derived_finer=False, period_weak_agreement=0.0)
    assert fine.placed_right == tiles == 41 and fine.extra == 0
    assert fine.edges_right >= 236
    assert coarse.placed_right <= 16 and coarse.extra >= 5


@pytest.mark.slow
@pytest.mark.parametrize("seed", [31, 32, 34])
def test_a_small_map_keeps_its_tile_size(seed: int) -> None:
    """A map of a few tiles (an early game) is a handful of cells by design: the finer
    lattices tried do not split its tiles (24 such renders, seeds 31-42: none read worse),
    and where its own period was a sublattice's (seed 34: 2 of 8 tiles) they mend it.
    Seed 34's period is now mended before any lattice is fitted
    (``lattice.period_derived_finer``); placed at its own size, the map kept the hole
    among five of its tiles, where the light makes the wood look like a grain field, as
    a ninth tile until the cell model was refitted with ``cell_art.crossing``."""
    rendered = render_record(random_record(seed, 5), seed=seed, size_px=(4000, 3000),
                             jpeg_quality=None, real_table=True)
    photo, truth = _jpeg(rendered.image), truth_of_rendered(rendered.tiles)
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    found = compare(scan(photo, slow), truth, "assembled")
    assert len(truth) <= 9
    assert found.placed_right == len(truth) and found.extra == 0
    if seed == 34:
        # The silhouette's gaps closed at 0.15, as when this was found.
        narrow = slow.tuned(finer_below_cells=0, gap_close_frac=0.15,
                            period_derived_finer=False)
        assert compare(scan(photo, narrow), truth, "assembled").placed_right <= 3


@pytest.mark.slow
def test_a_finer_period_holds_a_coarser_ones_translations_within_its_peaks_error() -> None:
    """A sparse map on green felt with a glare patch (real-table render 9626, found by a
    held-out run): the seams repeat both the tiles' lattice (63.8 px, contrast 0.188) and
    its sqrt-7 sublattice (172 px, 0.216). The sublattice's vectors are 1-3 of the tiles'
    in each direction, and the peaks' error grew with them to 0.13 of a unit, beyond the
    fixed 0.12 the finer lattice had to hold them within: the map came back as 1 of its
    31 tiles and 8 phantoms, too many cells for the sublattice check."""
    # With the fixed 0.12 the two periods hold neither the other, so the sublattice
    # check would mend it too (``Period.coarse``): both are turned off.
    held, fixed, tiles = read_held_out(9600, 26, period_holds_slack=0.0,
                                        finer_below_cells=0, period_derived_finer=False,
                                        period_weak_agreement=0.0)
    assert held.placed_right == tiles == 31 and held.extra == 0
    assert held.edges_right >= 175
    assert fixed.placed_right < tiles // 4 and fixed.extra >= 5


@pytest.mark.slow
def test_two_periods_neither_holding_the_other_are_both_coarser_than_the_map() -> None:
    """An overexposed map on green felt (real-table render 9823, found by a held-out
    run): the seams repeat at 147 px (0.355) and 96 px (0.318), the sqrt-7 and sqrt-3
    sublattices of the 55 px tiles, whose own period is not among the peaks. Their
    sizes are as sqrt 7 to sqrt 3 and neither holds the other's translations, so the
    map's lattice is finer than both
    (``Period.coarse``): the finer lattices are tried though the map read as 11 cells,
    and the tiles' outlines choose them (before: 5 of 45 tiles, 3 phantoms)."""
    period = _period(held_out_case(9800, 23).photo, period_derived_finer=False)[1]
    assert period is not None and period.coarse
    finer, coarse, tiles = read_held_out(9800, 23, finer_below_cells=0,
                                         period_rival_peaks=0, period_derived_finer=False,
                                         period_weak_agreement=0.0)
    assert finer.placed_right == tiles == 45 and finer.extra == 0
    assert finer.edges_right >= 260
    assert coarse.placed_right <= 10


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2101, 2102])
def test_the_tiles_own_period_is_not_coarse(seed: int) -> None:
    """The coarser periods a map's seams also repeat (sublattices) are held by its own."""
    period = _period(_jpeg(_real_table(seed).image))[1]
    assert period is not None and not period.coarse


@pytest.mark.slow
def test_pairs_of_one_lattice_a_tilt_sets_apart_are_not_two_sublattices() -> None:
    """Real-table composite 9405: the seams' pairs measure 74.8 and 86.5 px (one lattice
    seen through a tilted camera), sizes as 2 to sqrt 3 within 0.2 %; taken for two
    sublattices, the finer lattices were grown and placed for nothing (15 s)."""
    from companion.vision.synth.evaluate import composite_cases

    case = next(composite_cases(6, 9400, (4000, 3000), real_table=True, skip=5))
    period = _period(case.photo)[1]
    assert period is not None and not period.coarse
    assert abs(period.radius / 74.8 - 1.0) < 0.03


@pytest.mark.slow
def test_a_period_no_lattice_fits_is_the_tables_not_the_tiles() -> None:
    """A map on a brown checkerboard cloth under glare (real-table render 9802, found by
    a held-out run): the silhouette loses dark forest and track tiles and takes in
    lightened checks, and the seams' period (181 px against tiles of about 48 px at the
    working scale) is the checks', at which no lattice covers a cell: the photo was
    refused. Fitted again without the period, the lone hexagons give the size."""
    again, refused, tiles = read_held_out(9800, 2, period_retry_without=False)
    assert again.placed_right == tiles == 41 and again.extra == 0
    assert again.edges_right >= 240
    assert refused.errors == 1 and refused.placed_right == 0


@pytest.mark.slow
def test_a_period_the_lone_hexagons_disown_competes_with_their_size() -> None:
    """A map of real tiles on wood beside a score pad and cards (composite 10316, found by
    a held-out run): the wood grain repeats at 23 px where the lone hexagons show tiles of
    about 78 px (3.4 times, no sublattice's ratio), and with most of the map in clusters
    it was read as 10 loose tiles (6 of 38 right). Tiles in clusters make it a map, and
    the map fitted at the hexagons' size wins on the tiles' outlines (at the period's:
    hundreds of phantom cells). (A period covering more cells than any map,
    ``period_cells_max``, is left for the fit without it too: off for the comparison.)"""
    rival, period_only, tiles = read_held_out(10300, 16, composite=True, lone_rival_min=0.0,
                                              period_weak_agreement=0.0,
                                              period_cells_max=1000.0)
    assert rival.placed_right >= tiles - 1 == 37 and rival.extra == 0
    assert rival.edges_right >= 215
    assert period_only.extra > 100


@pytest.mark.slow
def test_tiles_that_fit_their_outlines_poorly_let_the_fit_without_the_period_compete(
        ) -> None:
    """Composite 15521 (dim light on a dark cloth, found by a fresh run in session 26):
    the seams' period was 24.8 px against tiles of about 100, no lone hexagon disowned it
    and the table around the map does not repeat it, so it stood: 288 cells placed, their
    median agreement with their outlines 0.11 (maps read right: 0.41-0.95), 16 of 20
    tiles right and 240 phantoms. Below ``period_weak_agreement`` the fit without the
    period competes, and the outlines choose it. (The cap on a period's cells,
    ``period_cells_max``, mends it too: off for the comparison.)"""
    fixed, weak, tiles = read_held_out(15500, 21, composite=True, period_weak_agreement=0.0,
                                       period_cells_max=1000.0)
    assert fixed.placed_right == tiles == 20 and fixed.extra == 0
    assert fixed.edges_right >= 6 * tiles - 2
    assert weak.extra >= 100


@pytest.mark.slow
def test_a_map_placed_where_its_tiles_fit_poorly_says_so() -> None:
    """Composite 15725 (a checkerboard cloth in dim light, found by a fresh run in
    session 26): every lattice found, with the seams' period (the checks') and without
    it, places cells about half a tile wide whose outlines fit 0.12-0.13 (121 phantoms).
    The scan cannot place it right, so it says so: ``poor_fit`` and a warning, which
    the review shows. Composite 15521, read right, does not. (Since session 28 the checks
    are table, ``background.checks_as_table``, and 15725 is read: the warning is shown
    with them taken for tiles, as a cloth the check test misses would be.)"""
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    poor = scan(held_out_case(15700, 25, composite=True).photo,
                slow.tuned(checks_as_table=False))
    assert poor.poor_fit and poor.fit is not None and poor.fit < 0.25
    assert any("fit the lattice poorly" in w for w in poor.warnings)
    assert poor.to_json()["poor_fit"] is True
    assert all(t.doubtful == (0, 1, 2, 3, 4, 5) for t in poor.tiles)
    good = scan(held_out_case(15500, 21, composite=True).photo, slow)
    assert not good.poor_fit and good.fit is not None and good.fit > 0.4
    assert not any("poorly" in w for w in good.warnings)
    assert sum(len(t.doubtful) for t in good.tiles) < 6 * len(good.tiles) // 4



@pytest.mark.slow
def test_a_map_of_more_tiles_than_any_game_holds_says_so() -> None:
    """Render 18026 (the checked cloth under a bright lamp, found by a fresh run in
    session 28): the overexposed checks in the middle of the table stand out from the
    darker border's, the silhouette takes them in with most of the map, and every
    lattice placed over it is about half a tile wide. 186 cells are kept, their outlines
    fit 0.27, just above ``period_weak_agreement``: no game's map holds that many tiles
    (``find.max_map_tiles``), so the scan says it fits poorly, with all edges doubtful.
    (The checks are now table, ``background.checks_as_table``, and the map is read: the
    bound is shown with them taken for tiles, as a cloth the check test misses would be.)"""
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0, checks_as_table=False)
    case = held_out_case(18000, 26)
    crowded = scan(case.photo, slow)
    assert len(case.truth) == 27 and len(crowded.tiles) > 100
    assert crowded.fit is not None and crowded.fit >= 0.25
    assert crowded.poor_fit and crowded.to_json()["poor_fit"] is True
    assert any("more than any game's map holds" in w for w in crowded.warnings)
    assert all(t.doubtful == (0, 1, 2, 3, 4, 5) for t in crowded.tiles)
    unbounded = scan(case.photo, slow.tuned(max_map_tiles=1000))
    assert not unbounded.poor_fit and len(unbounded.tiles) == len(crowded.tiles)


def test_the_tile_bound_is_counted_on_the_tiles_kept() -> None:
    """A map of 22 tiles is within the bound; with a bound of 21 it is over it."""
    photo = (SAMPLES / "wood-from-above.jpg").read_bytes()
    within = scan(photo)
    over = scan(photo, DEFAULT_CONFIG.tuned(max_map_tiles=21))
    assert len(within.tiles) == len(over.tiles) == 22
    assert not within.poor_fit and over.poor_fit
    assert any("22 tiles found, more than any game's map holds (21)" in w
               for w in over.warnings)
    assert not any("more than any game's map holds" in w for w in within.warnings)

MENDED_EARLIER = [
    (9500, 16, False, 35, {"finer_below_cells": 0, "period_rival_peaks": 0,
                           "gap_close_frac": 0.15, "period_derived_finer": False}),
    (11400, 26, False, 41, {"period_rival_peaks": 0, "gap_close_frac": 0.15,
                            "period_derived_finer": False}),
    (9600, 26, False, 31, {"period_holds_slack": 0.0, "finer_below_cells": 0,
                           "period_derived_finer": False}),
    (9800, 23, False, 45, {"finer_below_cells": 0, "period_rival_peaks": 0,
                           "period_derived_finer": False}),
    (10300, 16, True, 38, {"lone_rival_min": 0.0}),
    (10600, 23, True, 26, {"period_table_share": 0.0, "refit_placed": False}),
]
"""Maps earlier sessions found collapsed and mended each its own way (the tests above),
with those mends off: the counterfactuals above, which also turn the weak-fit rival off."""


@pytest.mark.slow
@pytest.mark.parametrize(("first", "skip", "composite", "tiles", "off"), MENDED_EARLIER)
def test_the_fit_without_the_period_alone_mends_maps_mended_otherwise_before(
        first: int, skip: int, composite: bool, tiles: int, off: dict[str, object]) -> None:
    """Session 26's weak-fit rival (``lattice.period_weak_agreement``) was made for
    composite 15521; with the mends made for these six (renders 9516, 11426, 9626, 9823,
    composites 10316, 10623) turned off, it reads each of them too: the map placed at
    the misread period fits below the bar, and the fit without the period wins on the
    tiles' outlines. (It does not mend 12624, misread at 0.26, nor 13600, misread at
    0.22 with no better fit without the period: ``test_the_finer_lattice_...``.)"""
    case = held_out_case(first, skip, composite)
    assert len(case.truth) == tiles
    config = DEFAULT_CONFIG.tuned(time_limit_s=120.0, **off)
    alone = run_case(case, lambda photo: scan(photo, config))
    assert alone.placed_right >= tiles - 1 and alone.extra <= 2
    assert alone.edges_right >= 6 * tiles - 12


def _checks(size: int, period: int, rng: np.random.Generator) -> np.ndarray:
    """A brown checkerboard cloth of squares ``period // 2`` wide, with noise."""
    yy, xx = np.mgrid[:size, :size * 4 // 3]
    dark = ((yy // (period // 2) + xx // (period // 2)) % 2).astype(bool)
    image = np.where(dark[:, :, None], np.array([60, 90, 140]), np.array([150, 190, 235]))
    return np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)


def test_a_period_the_table_repeats_around_the_map_may_be_the_tables() -> None:
    """The period's contrast on a band of the table around the map against its own: a
    checkerboard cloth goes on under the silhouette and around it; plain wood around a
    patterned map does not."""
    rng = np.random.default_rng(5)
    cloth = _checks(600, 40, rng)
    mask = np.zeros(cloth.shape[:2], np.uint8)
    mask[200:400, 250:550] = 255
    # Inside the silhouette the checks show through blotches of forest and meadow.
    blots = cv2.GaussianBlur(rng.normal(0, 1, cloth.shape[:2]), (0, 0), 5.0) > 0
    art = np.where(blots[:, :, None], np.array([40, 160, 90]), np.array([60, 200, 230]))
    inside = 0.3 * cloth[200:400, 250:550] + 0.7 * art[200:400, 250:550]
    cloth[200:400, 250:550] = np.clip(inside, 0, 255).astype(np.uint8)
    period = lattice.seam_period(cloth, mask, DEFAULT_CONFIG)
    assert period is not None
    assert lattice.table_repeats(cloth, mask, period, DEFAULT_CONFIG)
    plain = np.clip(rng.normal(120, 4, cloth.shape), 0, 255).astype(np.uint8)
    plain[200:400, 250:550] = cloth[200:400, 250:550]
    assert lattice.seam_period(plain, mask, DEFAULT_CONFIG) is not None
    assert not lattice.table_repeats(plain, mask, period, DEFAULT_CONFIG)
    assert not lattice.table_repeats(cloth, mask, period,
                                     DEFAULT_CONFIG.tuned(period_table_share=0.0))


@pytest.mark.slow
@pytest.mark.parametrize(("first", "skip", "composite", "tiles", "edges"),
                         [(9100, 26, False, 26, 150), (10600, 23, True, 26, 150)])
def test_a_map_on_a_checkerboard_cloth_is_not_read_at_the_checks_size(
        first: int, skip: int, composite: bool, tiles: int, edges: int) -> None:
    """Maps on a checkerboard cloth under a pool of light (real-table render 9126, found by
    a held-out run in session 12; composite of real tiles 10623, found by one in session
    15): the light lifts checks into the silhouette and the checks outscore the seams
    (periods of 50 and 30 px against tiles of about 60 and 80). No lone hexagon
    disowns the period and lattices of its size cover cells, so neither earlier retry
    applied: 20/26 and 15/26 tiles right, 16 and 150 phantoms. The table around the map
    repeats the period four to seven times as strongly as the map: the map is also
    fitted without it, and the tiles' outlines choose that fit. (The refit to every
    tile placed, ``refit_placed``, mends the checks' fit of render 9126 too: off for
    the comparison.) Composite 10623 has 2 phantoms since the silhouette's gaps are
    closed at 0.3 of a radius (``lattice.gap_close_frac``; at most 1 at 0.15). Read at
    the checks' size, 10623 places 24 of 26 since the tiles are white-balanced on
    themselves (``terrain.balance_on_tiles``: truer codes align that map better), with
    156 phantoms; 25 of 26 with 164 since the cell model weighs the checks' crossing
    (``cell_art.crossing``), which also took 10623's 2 phantoms away. The checked cloth
    taken for table (``background.checks_as_table``, session 28) reads both maps too,
    and so does the cap on a period's cells (``period_cells_max``) the first: off for
    the comparison."""
    fixed, checks, count = read_held_out(first, skip, composite=composite,
                                         period_table_share=0.0, refit_placed=False,
                                         period_weak_agreement=0.0, checks_as_table=False,
                                         period_cells_max=1000.0)
    assert count == tiles
    assert fixed.placed_right == tiles and fixed.extra <= 2
    assert fixed.edges_right >= edges
    assert checks.extra >= 10 and checks.placed_right <= tiles - 1


@pytest.mark.slow
def test_a_coarse_period_that_fits_nothing_still_places_the_finer_rival() -> None:
    """Render 12624 (held out): the seams' strongest period is the sqrt-7 sublattice's
    (109 px, ``Period.coarse``) and no lattice of its size fits, so the scan fell back on
    the map sized without seams. With the silhouette's gaps closed at 0.3 of a radius
    (``lattice.gap_close_frac``, 0.15 when this was found) that fit chose a lattice half
    the tiles' size: 113 phantoms. The finer period the peaks also show (41 px) is
    placed there too, and the tiles' outlines choose it."""
    case = held_out_case(12600, 24)
    closed = DEFAULT_CONFIG.tuned(time_limit_s=120.0, gap_close_frac=0.3)
    with_rival = run_case(case, lambda photo: scan(photo, closed))
    without = run_case(case, lambda photo: scan(photo, closed.tuned(
        period_rival_peaks=0, period_derived_finer=False)))
    tiles = len(case.truth)
    assert with_rival.placed_right == tiles == 39 and with_rival.extra == 0
    assert with_rival.edges_right >= 6 * tiles - 4
    assert without.extra >= 20


def _peaks_at(u: np.ndarray, v: np.ndarray, size: int = 401) -> tuple[np.ndarray, tuple[int, int]]:
    """An autocorrelation whose peaks are the translations of the lattice of neighbour
    vectors ``u`` and ``v`` (rows, in its pixels), as a map's seams repeat them: weaker
    at longer lags, where fewer seams overlap."""
    auto = np.zeros((size, size), np.float32)
    centre = (size // 2, size // 2)
    for i in range(-12, 13):
        for j in range(-12, 13):
            lag = i * u + j * v
            x, y = np.round(centre[0] + lag[0]), np.round(centre[1] + lag[1])
            if 0 <= x < size and 0 <= y < size:
                auto[int(y), int(x)] = np.exp(-np.hypot(*lag) / size)
    return cv2.GaussianBlur(auto, (0, 0), 1.5) * 14.0, centre


@pytest.mark.parametrize(("name", "sublattice"), [
    ("sqrt 3", ((1, 1), (-1, 2))), ("2", ((2, 0), (0, 2))), ("sqrt 7", ((2, 1), (-1, 3))),
    ("sqrt 7, the other hand", ((1, 2), (-2, 3))), ("3", ((3, 0), (0, 3)))])
def test_a_coarser_sublattices_period_gives_way_to_the_tiles(
        name: str, sublattice: tuple[tuple[int, int], tuple[int, int]]) -> None:
    """Chosen from the peaks, the period may be a coarser sublattice's (its translations
    are the tiles' too); the finer lattices derived from its vectors are scored exactly,
    and the tiles' own, holding it, wins; the tiles' period itself stays."""
    turn = np.radians(17.0)
    u = 21.0 * np.array([np.cos(turn), np.sin(turn)])
    v = 21.0 * np.array([np.cos(turn + np.pi / 3), np.sin(turn + np.pi / 3)])
    auto, centre = _peaks_at(u, v)
    coarse = np.array([m[0] * u + m[1] * v for m in sublattice])
    scored = lattice._Scored([], 1.0, auto, centre, 10.0)
    own = float(lattice._contrasts(auto, centre, np.array([[u, v]]))[0])
    score, a, b = lattice._finest_derived(
        (float(lattice._contrasts(auto, centre, coarse[None])[0]), coarse[0], coarse[1]),
        0.5, scored)
    # The same lattice: each vector a whole combination of the tiles' own.
    coords = np.linalg.solve(np.array([u, v]).T, np.array([a, b]).T)
    assert np.allclose(coords, np.round(coords), atol=0.02)
    assert abs(abs(np.linalg.det(np.round(coords))) - 1.0) < 1e-9
    assert score == pytest.approx(own, rel=0.05)
    kept = lattice._finest_derived((own, u, v), 0.5, scored)
    assert np.array_equal(kept[1], u) and np.array_equal(kept[2], v)
    # No lattice finer than a tile may be is taken, however it scores.
    short = lattice._Scored([], 1.0, auto, centre, 22.0)
    _, a, b = lattice._finest_derived((1.0, coarse[0], coarse[1]), 0.0, short)
    assert min(np.hypot(*a), np.hypot(*b)) >= 22.0


@pytest.mark.slow
@pytest.mark.parametrize(("first", "skip", "tiles"),
                         [(9500, 16, 35), (9800, 23, 45), (12600, 24, 39), (13600, 0, 25)])
def test_the_finer_lattice_a_sublattices_period_derives_mends_the_map(
        first: int, skip: int, tiles: int) -> None:
    """Sparse maps whose seams' period is a coarser sublattice's (renders 9516 and 9823
    sqrt 7, 12624 sqrt 7, 13600 sqrt 3, found by held-out runs; 13600 in session 24 came
    back as 6 of 25 tiles and 15 phantoms). The tiles' own neighbour vectors show only
    weak, displaced peaks, so no pair of peaks held the period's translations; the
    finer lattices derived exactly from the period's vectors score as well as it or
    better. With the other two mends off (the sublattice check, the rival from more
    peaks), this alone reads each map. (13600 lies on a checked cloth, which session 28
    takes for table, ``background.checks_as_table``: that reads it too, so it is off for
    the comparison, and so is the clutter retry of session 40, ``find.clutter_retry``:
    looked for again without the components its refused cells lay on, 13600 is read whole
    without either mend.) Render 9823 is overexposed (+0.78 EV) under a shadow band: the
    colour reading beside the model pulls two grain tiles' edges to meadow (265 of 270
    edges, every edge of both tiles doubtful; the model alone reads 270)."""
    derived, neither, count = read_held_out(first, skip, finer_below_cells=0,
                                            period_rival_peaks=0, period_derived_finer=False,
                                            period_weak_agreement=0.0, checks_as_table=False,
                                            clutter_retry=False)
    assert count == tiles
    assert derived.placed_right == tiles and derived.extra == 0
    assert derived.edges_right >= 6 * tiles - 6
    # 12624 without it places 22 of 39 (since the white patch of session 25) among 110
    # phantoms: a map this far off is as failed as one half lost. 13600 without it is
    # refused since the placements share one art reference (session 36): the cells of
    # the sublattice's placement are not the tiles' colours.
    assert neither.extra >= 3 or neither.errors == 1
    assert neither.placed_right <= tiles // 2 or neither.extra >= tiles


@pytest.mark.slow
def test_a_period_placing_more_cells_than_any_map_is_left_for_the_fit_without_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Render 22118 (held out, session 33, then looked into): a cloth's fine pattern
    repeats at a fifth of the tiles' size; its lattice covers 547-557 cells, and
    placing and refitting them four times took the photo past the time limit. A
    lattice at the period covering more cells than ``lattice.period_cells_max`` times
    the largest map is a texture's: the fit without the period decides alone, and
    reads the map whole."""
    from companion.vision.synth.evaluate import run_case
    from tests.helpers.held_out import held_out_case

    scan_module = importlib.import_module("companion.vision.scan")
    case = held_out_case(22100, 18)
    placed: list[int] = []
    place = scan_module._place_cells

    def counting(*args: object, **kwargs: object) -> object:
        placed.append(len(args[3]))  # type: ignore[arg-type]
        return place(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(scan_module, "_place_cells", counting)
    # threads, not a forked process: a child's placements would be counted in its memory
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0, fork_locating=False)
    tally = run_case(case, lambda photo: scan_module.scan(photo, slow))
    assert tally.placed_right == len(case.truth) == 25 and tally.extra == 0
    assert max(placed) <= 2 * DEFAULT_CONFIG.find.max_map_tiles
    placed.clear()
    run_case(case, lambda photo: scan_module.scan(photo, slow.tuned(period_cells_max=1000.0)))
    assert max(placed) > 500
