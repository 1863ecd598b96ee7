"""Edge reading, the catalogue prior with constraints, neighbour consistency and the
per-cell outline snap, on small synthetic inputs (fast, no ../shared needed)."""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.vision import lattice
from companion.vision.background import foreground_mask
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.consistency import mismatches, resolve
from companion.vision.edges import (
    BANK,
    BLUE,
    CLASSES,
    DARK,
    DEPTH_BINS,
    GRAIN,
    LETTERS,
    PALE,
    apply_gains,
    band_fractions,
    band_masks,
    clipped_bands,
    crossing,
    local_meadows,
    meadow_reference,
    pixel_classes,
    remove_veil,
    veils,
    white_gains,
)
from companion.vision.edges import (
    FOREST as FOREST_CLASS,
)
from companion.vision.edges import (
    MEADOW as MEADOW_CLASS,
)
from companion.vision.prior import decode
from companion.vision.rectify import hexagon_mask, standard_corners, standard_size
from tests.helpers.scanner_synth import FOREST, MEADOW, WATER, draw_map, hsv_bgr, random_map

R = 64
W, H = standard_size(R)


def _flat(bgr: tuple[int, int, int]) -> np.ndarray:
    img = np.zeros((H, W, 3), np.uint8)
    img[:] = bgr
    img[hexagon_mask(R) == 0] = 0
    return img


def _scaled(img: np.ndarray, factor: float) -> np.ndarray:
    return np.clip(img.astype(np.float32) * factor, 0, 255).astype(np.uint8)


def _probs(code: str, sure: float = 0.96) -> np.ndarray:
    p = np.full((6, 6), (1.0 - sure) / 5)
    for e, letter in enumerate(code):
        p[e, LETTERS.index(letter)] = sure
    return p


# --- meadow reference and colour classes --------------------------------------------------

def test_local_meadow_follows_light_and_ignores_an_all_forest_tile() -> None:
    bright = _flat(MEADOW)
    dim = _scaled(bright, 0.7)
    forest = _flat(FOREST)
    tiles = [bright, bright, dim, dim, forest]
    centres = [(0.0, 0.0), (100.0, 0.0), (1000.0, 0.0), (1100.0, 0.0), (1050.0, 90.0)]
    refs = local_meadows(tiles, centres, meadow_reference(tiles))
    assert refs[2][2] < 0.8 * refs[0][2]  # the dim side of the photo has a dim meadow
    # the forest tile takes its neighbours' meadow, not its own dark green
    assert abs(refs[4][2] - refs[2][2]) < 0.15 * refs[2][2]
    classes = pixel_classes(dim, refs[2])
    inside = classes[hexagon_mask(R) > 0]
    assert np.mean(inside == MEADOW_CLASS) > 0.9
    forest_classes = pixel_classes(forest, refs[4])[hexagon_mask(R) > 0]
    assert np.mean(forest_classes == FOREST_CLASS) > 0.9


def test_meadow_in_shade_is_not_forest_but_trees_are() -> None:
    ref = meadow_reference([_flat(MEADOW)])
    # Measured on the real tile photos: meadow in shade keeps its hue, loses about a
    # third of its value and gains saturation (MEADOW is HSV 30, 190, 150).
    shade = _flat(hsv_bgr(30, 215, 102))
    shaded = pixel_classes(shade, ref)[hexagon_mask(R) > 0]
    assert np.mean(shaded == MEADOW_CLASS) > 0.9
    trees = pixel_classes(_flat(FOREST), ref)[hexagon_mask(R) > 0]
    assert np.mean(trees == FOREST_CLASS) > 0.9


def test_pale_shore_of_water_is_bank_and_cobbles_stay_pale() -> None:
    img = _flat(MEADOW)
    cv2.rectangle(img, (10, 40), (W - 10, 55), WATER, -1)
    sand = hsv_bgr(25, 25, 235)
    cv2.rectangle(img, (10, 56), (W - 10, 64), sand, -1)  # bank along the water
    cv2.rectangle(img, (50, 85), (75, 100), sand, -1)  # a patch away from the water
    classes = pixel_classes(img, meadow_reference([_flat(MEADOW)]))
    assert np.mean(classes[58:63, 20:W - 20] == BANK) > 0.9
    assert np.mean(classes[88:98, 55:70] == PALE) > 0.9
    assert np.mean(classes[43:52, 20:W - 20] == BLUE) > 0.9


def test_white_balance_leaves_coloured_photos_alone_and_fixes_a_tint() -> None:
    purple = _flat((90, 60, 160))
    assert np.allclose(white_gains([purple]), 1.0)
    tile = _flat(MEADOW)
    cv2.circle(tile, (W // 2, H // 2), 20, (235, 235, 235), -1)
    warm = np.clip(tile.astype(np.float32) * np.array([0.8, 1.0, 1.15]), 0, 255
                   ).astype(np.uint8)
    fixed = apply_gains(warm, white_gains([warm]))
    white = fixed[H // 2, W // 2].astype(float)
    assert white.max() - white.min() < 12


# --- catalogue prior with constraints ----------------------------------------------------

def test_decode_respects_constraints_and_scores_them() -> None:
    probs = _probs("TMMMMM", sure=0.7)
    free = decode(probs, off_catalogue=1.0)
    forced = decode(probs, off_catalogue=1.0, allowed={0: "FGVM"})
    assert free[0] == "TMMMMM"
    assert forced[0][0] in "FGVM" and forced[0][1:] == "MMMMM"
    assert forced[3] < free[3]


def test_prior_snaps_one_weak_edge_to_the_catalogue() -> None:
    probs = _probs("GGMTTM")  # catalogue landscape tile 1
    probs[2] = 0.05
    probs[2, LETTERS.index("F")] = 0.55  # a doubtful forest instead of meadow
    probs[2, LETTERS.index("M")] = 0.25
    code, conf, snapped, _ = decode(probs, 0.02, ("landscape",))
    assert code == "GGMTTM" and snapped
    assert conf[2] < conf[0]


# --- neighbour consistency -----------------------------------------------------------------

def _decoder(probs: list[np.ndarray]):  # type: ignore[no-untyped-def]
    def run(i: int, allowed: dict[int, str]) -> tuple[str, tuple[float, ...], float]:
        code, conf, _, score = decode(probs[i], 1.0, None, allowed)
        return code, conf, score
    return run


def test_resolve_corrects_a_weak_track_facing_a_clear_meadow() -> None:
    cells = [(0, 0), (0, -1)]  # (0, -1) lies across edge 0 of (0, 0)
    probs = [_probs("MMMMMM"), _probs("MMMMMM")]
    probs[0][0] = [0.02, 0.02, 0.02, 0.50, 0.02, 0.42]  # T barely beats M
    readings = [("TMMMMM", (0.5, 1, 1, 1, 1, 1)), ("MMMMMM", (1.0,) * 6)]
    assert mismatches(dict(zip(cells, [r[0] for r in readings], strict=True)))[(0, 0)] == [0]
    fixed, corrected = resolve(cells, readings, _decoder(probs))
    assert fixed[0][0] == "MMMMMM" and fixed[1][0] == "MMMMMM"
    assert corrected == [(((0, 0), 0), ((0, -1), 3))]
    assert fixed[0][1][0] < 0.99


def test_resolve_keeps_a_clear_mismatch_for_a_person() -> None:
    cells = [(0, 0), (0, -1)]
    probs = [_probs("TMMMMM", sure=0.99), _probs("MMMMMM", sure=0.99)]
    readings = [("TMMMMM", (0.99,) * 6), ("MMMMMM", (0.99,) * 6)]
    fixed, corrected = resolve(cells, readings, _decoder(probs), max_cost=4.0)
    assert [r[0] for r in fixed] == ["TMMMMM", "MMMMMM"] and corrected == []


def test_resolve_matches_a_stream_across_two_weak_sides() -> None:
    cells = [(0, 0), (1, 0)]  # edge 2 of (0, 0) faces edge 5 of (1, 0)
    probs = [_probs("MMSMMM"), _probs("MMMMMS")]
    probs[0][2] = [0.02, 0.02, 0.02, 0.02, 0.6, 0.32]
    probs[1][5] = [0.02, 0.02, 0.02, 0.02, 0.4, 0.52]
    readings = [("MMSMMM", (1.0,) * 6), ("MMMMMM", (1.0,) * 6)]
    fixed, _ = resolve(cells, readings, _decoder(probs))
    assert fixed[0][0][2] == fixed[1][0][5] == "S"


# --- per-cell snap -------------------------------------------------------------------------

def test_snap_moves_a_shifted_lattice_back_onto_the_tiles() -> None:
    truth = random_map(12, 7)
    photo, centres = draw_map(truth, size=50, tilt_deg=15.0, rotate_deg=5.0, seed=7)
    mask = foreground_mask(photo, DEFAULT_CONFIG)
    view = lattice.map_view(photo, mask, lattice.estimate_radius(mask))
    lat = max((lattice.refine_by_seams(s, view) for s in lattice.fit_local(view)),
              key=lambda x: lattice.fit_quality(x, view))
    cells = lattice.occupied(lat, view)
    shift = np.array([[1.0, 0.0, 0.2 * 50], [0.0, 1.0, -0.12 * 50], [0.0, 0.0, 1.0]])
    off = lattice.Lattice(shift @ lat.homography, lat.inliers)

    def error(corners: dict[tuple[int, int], np.ndarray]) -> float:
        got = np.array([c.mean(axis=0) for c in corners.values()])
        return float(np.median([np.min(np.hypot(got[:, 0] - x, got[:, 1] - y))
                                for x, y in centres.values()]))

    before = error({c: off.cell_corners(c) for c in cells})
    after = error(lattice.snap_cells(off, view, cells))
    assert before > 0.2 * 50
    assert after < 0.5 * before
    assert math.isfinite(after)


# --- glare veil -----------------------------------------------------------------------------

def _art(seed: int) -> np.ndarray:
    """Meadow with scattered dark tree clumps (every patch of real art has dark bits)."""
    rng = np.random.default_rng(seed)
    img = _flat(MEADOW)
    for _ in range(40):
        x, y = (int(v) for v in rng.integers(8, [W - 8, H - 8]))
        cv2.circle(img, (x, y), int(rng.integers(3, 7)), FOREST, -1)
    img[hexagon_mask(R) == 0] = 0
    return img


def test_glare_veil_is_measured_and_divided_out() -> None:
    clear = [_art(s) for s in range(6)]
    veiled = clear[0].astype(np.float32) * 0.5 + 255.0 * 0.5
    veiled[hexagon_mask(R) == 0] = 0
    tiles = [veiled.astype(np.uint8)] + clear[1:]
    v = veils(tiles)
    inner = cv2.erode(hexagon_mask(R), np.ones((25, 25), np.uint8)) > 0
    assert abs(float(np.median(v[0][inner])) - 0.5) < 0.1
    assert all(float(x.max()) < 0.02 for x in v[1:])  # evenly lit tiles: no veil
    restored = remove_veil(tiles[0], v[0])
    err = np.abs(restored.astype(np.int16) - clear[0].astype(np.int16))[inner]
    assert float(np.median(err)) < 12
    # the washed-out art reads as it does in clear light once the veil is gone
    ref = meadow_reference(clear)
    truth = pixel_classes(clear[0], ref)[inner]
    before = np.mean(pixel_classes(tiles[0], ref)[inner] == truth)
    after = np.mean(pixel_classes(restored, ref)[inner] == truth)
    assert after > 0.9 and after > before + 0.2, (before, after)
    assert remove_veil(clear[1], v[1]) is clear[1]


def test_a_dark_line_along_the_edge_is_no_track_crossing() -> None:
    """A rim or gap seen along a whole edge fills every window; a track fills a few."""
    terrain = DEFAULT_CONFIG.terrain
    masks, cells = band_masks(R, terrain.band_inner_frac, terrain.band_outer_frac,
                              terrain.band_length_frac)
    along = cells[0] // DEPTH_BINS
    strip = np.where((along >= 4) & (along <= 5), DARK, MEADOW_CLASS).astype(np.uint8)
    line = np.full(along.shape, DARK, np.uint8)
    assert crossing(strip, cells[0], DARK, localized=True) > 0.8
    assert crossing(line, cells[0], DARK) > 0.8
    assert crossing(line, cells[0], DARK, localized=True) < 0.1


def test_a_field_reaching_into_the_band_ends_counts_less_than_the_middle() -> None:
    """A neighbouring edge's grain field in the corners of edge 0's band: the middle of
    the edge (meadow) outweighs it once pixels are weighted towards the middle."""

    terrain = DEFAULT_CONFIG.terrain
    masks, cells = band_masks(R, terrain.band_inner_frac, terrain.band_outer_frac,
                              terrain.band_length_frac)
    w, h = standard_size(R)
    classes = np.full((h, w), MEADOW_CLASS, np.uint8)
    along = cells[0] // DEPTH_BINS
    classes[masks[0]] = np.where((along <= 2) | (along >= 7), GRAIN, MEADOW_CLASS)
    flat = DEFAULT_CONFIG.tuned(band_midpoint_weight=0.0, band_rim_weight=0.0)
    unweighted = band_fractions(classes, flat)[0]
    weighted = band_fractions(classes, DEFAULT_CONFIG)[0]
    assert unweighted[GRAIN] > unweighted[MEADOW_CLASS]
    assert weighted[MEADOW_CLASS] > weighted[GRAIN]
    assert abs(weighted[:len(CLASSES)].sum() - 1.0) < 1e-9


def test_clipped_bands_measure_each_edge_the_camera_clipped() -> None:
    """A tile whose wedge towards one edge is overexposed (a channel at 255, the rest
    of the tile mid-meadow): that edge's band is clipped throughout and no other edge's
    is (to within a band's overlap at the corners); a channel at 249 is not clipped.
    Edge e lies between corners e+4 and e+5."""
    corners = standard_corners(R)
    centre = np.array([W / 2.0, H / 2.0])
    for e in range(6):
        tile = _flat(MEADOW)
        wedge = np.array([centre, corners[(e + 4) % 6], corners[(e + 5) % 6]])
        glare = np.zeros((H, W), np.uint8)
        cv2.fillConvexPoly(glare, np.round(wedge).astype(np.int32), 255)
        tile[glare > 0] = (255, 240, 200)
        share = clipped_bands(tile)
        # (a band reaches a little past its edge's corners, into the neighbours' wedges)
        assert share[e] > 0.9 and np.delete(share, e).max() < 0.1, (e, share)
        tile[glare > 0] = (249, 240, 200)
        assert not clipped_bands(tile).any()
