"""Which lattice cells hold tiles when the table model fails (issue 14 item 1): a dim
photo of dark wood, tiles the silhouette lost, a colourful lid beside the map.

Rendered photos (the project's renderer), real OpenCV, the scanner's own stages.
"""

from __future__ import annotations

import importlib

import cv2
import numpy as np
import pytest

from companion.vision import cell_art, scan
from companion.vision.background import foreground_mask, table_model
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.io import load_photo
from companion.vision.scan import locate_tiles
from companion.vision.synth.render import Rendered, render_record
from companion.vision.synth.render_records import random_record
from tests.helpers.held_out import read_held_out

OLD_TABLE = DEFAULT_CONFIG.tuned(table_noise_floor=1e4, dim_scale_min=1.0)
"""The table model before: one colour, Euclidean distances, fixed floors."""


def _render(seed: int, tiles: int, **options: object) -> Rendered:
    return render_record(random_record(seed, tiles), seed=seed, size_px=(2000, 1500),
                         tilt_deg=12, background="wood", glare=0.0, shadow=0.0,
                         jpeg_quality=None, **options)  # type: ignore[arg-type]


def _tile_mask(r: Rendered, shape: tuple[int, ...], scale: float = 1.0) -> np.ndarray:
    out = np.zeros(shape[:2], np.uint8)
    for t in r.tiles:
        cv2.fillPoly(out, [np.round(np.array(t.corners) * scale).astype(np.int32)], 255)
    return out


def _dim(image: np.ndarray, gain: float) -> np.ndarray:
    """The photo under a lamp ``gain`` times as bright (sensor noise stays)."""
    rng = np.random.default_rng(0)
    dark = image.astype(np.float32) * gain + rng.normal(0, 1.5, image.shape)
    out: np.ndarray = np.clip(dark, 0, 255).astype(np.uint8)
    return out


def test_the_table_model_stretches_only_along_the_colours_the_table_shows() -> None:
    rng = np.random.default_rng(1)
    base = np.array([60.0, 140.0, 150.0])
    grain = np.array([1.0, 0.3, 0.6]) / np.linalg.norm([1.0, 0.3, 0.6])
    wood = base + rng.normal(0, 15, (5000, 1)) * grain + rng.normal(0, 1, (5000, 3))
    centre, whiten = table_model(wood, floor=6.0)
    across = np.cross(grain, [0.0, 0.0, 1.0])
    across /= np.linalg.norm(across)
    along_d = np.linalg.norm(whiten @ (20 * grain))
    across_d = np.linalg.norm(whiten @ (20 * across))
    assert along_d < 0.5 * 20 < 0.9 * 20 < across_d <= 20.5
    assert np.allclose(centre, base, atol=2.0)
    cloth = base + rng.normal(0, 1, (5000, 3))
    _, plain = table_model(cloth, floor=6.0)
    assert np.allclose(np.linalg.norm(plain @ (20 * across)), 20, rtol=0.05)


def test_a_dim_photo_of_wood_keeps_its_tiles_in_the_mask() -> None:
    """At 30 % of the light (-1.7 EV) the wood's grain and the tiles' colours shrink
    together; the floors scale with the table's lightness, so the tiles stay in."""
    r = _render(31, 24, lighting=0.05)
    photo = _dim(r.image, 0.3)
    tiles = _tile_mask(r, photo.shape) > 0
    table = cv2.dilate(tiles.astype(np.uint8), np.ones((15, 15), np.uint8)) == 0
    now = foreground_mask(photo, DEFAULT_CONFIG, fill=False) > 0
    before = foreground_mask(photo, OLD_TABLE, fill=False) > 0
    assert np.count_nonzero(now & tiles) > 0.8 * np.count_nonzero(tiles)
    assert np.count_nonzero(now & table) < 0.02 * np.count_nonzero(table)
    assert np.count_nonzero(before & tiles) < 0.6 * np.count_nonzero(tiles)


@pytest.mark.slow
def test_a_dim_photo_of_wood_is_read_as_one_map() -> None:
    r = _render(32, 26, lighting=0.05)
    photo = cv2.imencode(".jpg", _dim(r.image, 0.3), [cv2.IMWRITE_JPEG_QUALITY, 92])[1]
    result = scan(photo.tobytes(), DEFAULT_CONFIG.tuned(time_limit_s=120.0))
    assert result.kind == "assembled"
    assert 0.95 * len(r.tiles) <= len(result.tiles) <= len(r.tiles)


def _located(image: np.ndarray, raw: np.ndarray, config: object = DEFAULT_CONFIG
             ) -> set[tuple[int, int]]:
    from companion.vision.background import fill_holes

    found, kind = locate_tiles(image, config, mask=fill_holes(raw), raw=raw)  # type: ignore[arg-type]
    assert kind == "assembled"
    return {f.cell for f in found if f.cell is not None}


def _working(r: Rendered) -> tuple[np.ndarray, float]:
    photo = load_photo(cv2.imencode(".png", r.image)[1].tobytes(), DEFAULT_CONFIG)
    return photo.image, photo.image.shape[1] / r.image.shape[1]


def test_tiles_the_silhouette_lost_join_the_map_by_their_art() -> None:
    """Erase a third of the tiles from the silhouette: the lattice's cells over them
    show tile art, so they join the map; without growing by art they are lost."""
    r = _render(33, 24, lighting=0.05)
    image, scale = _working(r)
    raw = foreground_mask(image, DEFAULT_CONFIG, fill=False)
    rng = np.random.default_rng(3)
    lost = rng.choice(len(r.tiles), len(r.tiles) // 3, replace=False)
    for i in lost:
        hexagon = np.round(np.array(r.tiles[i].corners) * scale).astype(np.int32)
        cv2.fillPoly(raw, [cv2.convexHull(hexagon)], 0)
    grown = _located(image, raw)
    plain = _located(image, raw, DEFAULT_CONFIG.tuned(grow_by_art=False))
    assert len(grown) >= len(r.tiles) - 1
    assert len(grown) <= len(r.tiles)
    assert len(plain) <= len(r.tiles) - len(lost) // 2


@pytest.mark.slow
def test_tiles_in_dim_light_join_the_map_though_flat_by_the_usual_bar() -> None:
    """A long map of dark tiles on a dark green mat in shadow (real-table render 9821,
    found by a held-out run): the silhouette loses a tail of tiles, and the cells over
    them, flat over 81-83 % of their inside in the dim light, failed growth's bar of
    80 %: 35 of 43 tiles. Measured as if the photo had the standard exposure (as bare
    table is, ``scan._is_bare_table``) they are flat over 37-54 %, and their colours are
    clearly the tiles' (log odds 1.7-6.8): they join the map. (The counterfactual also
    turns off the tiles' edges, ``grow_seam_min``: alone, they find 40 of the 43; and
    closes the silhouette's gaps at 0.15 of a radius, as when it was found:
    ``lattice.gap_close_frac`` is wider since: closed at 0.45 it found more without this
    path; and reads the photo as taken, ``io.exposure_floor_grey`` 0: brought up, 42 of
    the 43 are found without this path, session 39.)"""
    grown, fixed, tiles = read_held_out(9800, 21, grow_dim_log_odds_min=1000.0,
                                        grow_seam_min=0.0, gap_close_frac=0.15,
                                        exposure_floor_grey=0.0)
    assert grown.placed_right >= tiles - 1 == 42 and grown.extra == 0
    assert grown.edges_right >= 245
    assert fixed.placed_right <= 36


@pytest.mark.slow
def test_a_tile_in_a_shadow_joins_the_map_by_its_texture_for_its_light() -> None:
    """A map of real tiles on dark wood with a shadow across its top (composite 10603,
    found by a held-out run): the silhouette misses the shadowed forest tile at the top,
    and growth refused it for its texture, 0.53 of the map's median cell against a bar
    of 0.6. Its lightness is about half the median cell's: scaled by that, the texture
    passes, and its colours are clearly the tiles' (log odds 6.1, above the bar of
    2.5): it joins. (The counterfactual closes the silhouette's gaps at 0.15 of a
    radius, as when it was found; ``lattice.gap_close_frac`` is wider since: closed at
    0.45 the tile was found without this path.)"""
    grown, smooth, tiles = read_held_out(10600, 3, composite=True,
                                         grow_shaded_log_odds_min=1000.0,
                                         gap_close_frac=0.15)
    assert grown.placed_right == tiles == 21 and grown.extra == 0
    assert grown.edges_right >= 122
    assert smooth.placed_right == tiles - 1


@pytest.mark.slow
def test_a_tile_all_village_joins_the_map_by_its_colours() -> None:
    """A village tile with no meadow, forest or grain (VVVVVV) beside a map on a dark
    table (real-table render 10715, found by a held-out run): the silhouette misses it
    and growth refused it for its share of game colours (0.01 of the map's median
    cell's, against a bar of 0.15), though its colours were clearly the tiles' (log
    odds 4.35; roofs over 10 % of it). A cell without game colours now joins when roofs
    cover 5 % of it or more and its log odds reach 2.5
    (``lattice.grow_village_roof_min``, ``lattice.grow_village_log_odds_min``). (The
    counterfactual also turns off the tiles' edges, ``grow_seam_min``.)"""
    grown, refused, tiles = read_held_out(10700, 15, grow_village_log_odds_min=1000.0,
                                          grow_seam_min=0.0)
    assert grown.placed_right == tiles == 32 and grown.extra == 0
    assert grown.edges_right >= 190
    assert refused.placed_right == tiles - 1


def _pad(side: int, radius: float) -> np.ndarray:
    """A score pad: white paper ruled in blue every third of a tile, a few numbers."""
    pad = np.full((side, side, 3), (236, 240, 242), np.uint8)
    step = max(6, int(radius / 3))
    for y in range(step, side, step):
        cv2.line(pad, (0, y), (side, y), (150, 110, 60), 2)
        cv2.putText(pad, str(17 + 7 * y % 80), (side // 3, y - 4), cv2.FONT_HERSHEY_SIMPLEX,
                    step / 30, (90, 40, 20), 2)
    return pad


@pytest.mark.parametrize("thing", ["lid", "pad"])
def test_a_picture_or_a_pad_beside_the_map_is_not_a_group_of_tiles(thing: str) -> None:
    """A colourful picture (a box lid) or a ruled score pad three tiles wide (four cells
    or more) beside the map: the lattice covers it with cells, but no seams run between
    them every way (the pad's lines run one way), so they are not tiles."""
    r = _render(34, 14, lighting=0.05, fill=0.45)
    image, scale = _working(r)
    tiles = _tile_mask(r, image.shape, scale)
    ys, xs = np.nonzero(tiles)
    radius = scale * float(np.median([
        np.linalg.norm(np.array(t.corners) - np.array(t.centre), axis=1).mean()
        for t in r.tiles]))
    side = int(5 * radius)
    # The lid four cells away (a group apart, ``find.island_gap``), the pad one cell away
    # (within the gap a missing tile leaves, but not edge to edge with the map).
    gap = (7.0 if thing == "lid" else 2.6) * radius
    x0 = int(xs.max() + gap) if xs.max() + gap + side < image.shape[1] else int(
        xs.min() - gap - side)
    assert x0 >= 0
    y0 = int(max(5, ys.min()))
    if thing == "lid":
        rng = np.random.default_rng(5)
        art = (rng.random((5, 5, 3)) * 200 + 30).astype(np.uint8)
        picture = cv2.resize(art, (side, side), interpolation=cv2.INTER_CUBIC)
    else:
        picture = _pad(side, radius)
    image = image.copy()
    image[y0:y0 + side, x0:x0 + side] = picture
    raw = foreground_mask(image, DEFAULT_CONFIG, fill=False)
    assert np.count_nonzero(raw[y0:y0 + side, x0:x0 + side]) > 0.5 * side * side
    kept = DEFAULT_CONFIG.tuned(inner_seam_min=-9.0)
    assert len(_located(image, raw, kept)) > len(_located(image, raw))
    assert len(_located(image, raw)) <= len(r.tiles)


@pytest.mark.slow
def test_a_plain_field_of_grain_at_the_rim_is_not_a_hole_in_the_map() -> None:
    """Real-table render 2503 of the evaluation: two tiles at the map's rim, mostly grain
    under dim light, are as smooth and plain as the table a hole shows, and were dropped
    (32 of 34 placed). Table seen through a hole is flat over most of the cell (0.76 to
    1.0 of its pixels over the development sets); such art is not (0.58 to 0.66). (The
    cell model fitted on the refit's rows refuses a third tile of that rim; its sides to
    the table are its own edge, and it is kept: ``find.keep_edged_cells``.)"""
    from companion.vision.synth.evaluate import compare, rendered_cases

    case = next(rendered_cases(4, 2500, (4000, 3000), real_table=True, skip=3))
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    kept = compare(scan(case.photo, slow), case.truth, case.kind)
    assert kept.placed_right == len(case.truth) == 34 and kept.extra == 0
    assert kept.edges_right >= 195
    dropped = compare(scan(case.photo, slow.tuned(bare_flat_min=0.0)), case.truth, case.kind)
    assert dropped.placed_right < kept.placed_right


def test_a_smooth_cell_is_table_only_when_flat_over_most_of_it() -> None:
    """``scan._is_bare_table``: plain table is bare; the same smoothness with fine detail
    over the cell (a grain field's furrows) is not; busy art never is."""
    from companion.vision.rectify import standard_size

    scan_mod = importlib.import_module("companion.vision.scan")
    w, h = standard_size(DEFAULT_CONFIG.rectify.radius)
    rng = np.random.default_rng(5)
    table = np.full((h, w, 3), (60, 90, 120), np.uint8)
    assert scan_mod._is_bare_table(table, DEFAULT_CONFIG)
    # Gentle stripes, as a field's furrows: detail everywhere, little edge or contrast.
    furrows = 8.0 * np.sin(2.0 * np.pi * np.arange(w) / 12.0)
    stubble = np.clip(table + furrows[None, :, None], 0, 255).astype(np.uint8)
    texture, spread = cell_art.texture(stubble, DEFAULT_CONFIG)
    flat = cell_art.flat_and_paper(stubble, DEFAULT_CONFIG)[0]
    assert texture < DEFAULT_CONFIG.lattice.bare_texture_max
    assert spread < DEFAULT_CONFIG.lattice.bare_std_max
    assert flat < DEFAULT_CONFIG.lattice.bare_flat_min
    assert not scan_mod._is_bare_table(stubble, DEFAULT_CONFIG)
    assert scan_mod._is_bare_table(stubble, DEFAULT_CONFIG.tuned(bare_flat_min=0.0))
    busy = rng.integers(0, 255, (h, w, 3), np.uint8)
    assert not scan_mod._is_bare_table(busy, DEFAULT_CONFIG)
