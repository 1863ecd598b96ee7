"""The scanner's fast paths give exactly what the plain numpy they replace gives: the
hexagon's pixels by flat index (``rectify.inside_pixels``), the gains by lookup table
(``edges.apply_gains``), the white patch's channel extremes taken pairwise
(``edges.white_gains``), the boundary map zeroed per channel (``lattice.boundary_map``),
the table's colours measured once per photo (``background.ColourOdds.of_photo``) and a
map view's distance transforms made in a thread beside its boundary maps
(``lattice.map_view``); a scan measures what its map's tiles look like once
(``scan._reference_of``), and judges the table in glare beside its foreground
(``scan.foreground``)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from pytest import MonkeyPatch

from companion.vision import edges, lattice
from companion.vision.background import ColourOdds, border_pixels, fill_holes, foreground_mask
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.rectify import hexagon_mask, inside_pixels, rectify, standard_size
from tests.helpers.lit_table import lit_photo


@given(radius=st.integers(4, 60), channels=st.sampled_from([0, 1, 3]), seed=st.integers(0, 99))
@settings(max_examples=40, deadline=None)
def test_inside_pixels_are_the_masks_pixels(radius: int, channels: int, seed: int) -> None:
    w, h = standard_size(radius)
    shape = (h, w) if channels == 0 else (h, w, channels)
    image = np.random.default_rng(seed).integers(0, 256, shape, np.uint8)
    assert np.array_equal(inside_pixels(image, radius), image[hexagon_mask(radius) > 0])
    strided = np.random.default_rng(seed).integers(0, 256, (h, 2 * w, 3), np.uint8)[:, ::2]
    assert np.array_equal(inside_pixels(strided, radius), strided[hexagon_mask(radius) > 0])


@given(gains=st.lists(st.floats(0.6, 1.6), min_size=3, max_size=3), seed=st.integers(0, 99))
@settings(max_examples=40, deadline=None)
def test_gains_by_table_are_the_gains_by_pixel(gains: list[float], seed: int) -> None:
    image = np.random.default_rng(seed).integers(0, 256, (40, 50, 3), np.uint8)
    g = np.array(gains)
    by_pixel = np.clip(image.astype(np.float32) * g.astype(np.float32).reshape(1, 1, 3),
                       0, 255).astype(np.uint8)
    expected = image if np.allclose(g, 1.0, atol=0.02) else by_pixel
    assert np.array_equal(edges.apply_gains(image, g), expected)


def _white_gains_by_axis(tiles: list[np.ndarray]) -> np.ndarray:
    """``edges.white_gains`` as first written: the channels' extremes by axis reduction
    and the less coloured half by boolean mask."""
    px = np.concatenate([inside_pixels(t, t.shape[1] // 2).reshape(-1, 3) for t in tiles])
    if len(px) < 500:
        return np.ones(3)
    hi = px.max(axis=1).astype(np.float32)
    chroma = (hi - px.min(axis=1)) / np.maximum(hi, 1.0)
    px = px[chroma <= np.median(chroma)]
    bright = px[:, 0].astype(np.int32) + px[:, 1] + px[:, 2]
    mean = px[bright >= np.percentile(bright, 97)].astype(np.float64).mean(axis=0)
    if mean.min() < 60 or mean.max() > edges.WHITE_TINT_MAX * mean.min():
        return np.ones(3)
    return np.clip(mean.mean() / mean, 1.0 / 1.5, 1.5)


@given(count=st.integers(1, 12), tint=st.lists(st.floats(0.6, 1.0), min_size=3, max_size=3),
       seed=st.integers(0, 99))
@settings(max_examples=40, deadline=None)
def test_white_gains_taken_pairwise_are_the_gains_by_axis(count: int, tint: list[float],
                                                         seed: int) -> None:
    rng = np.random.default_rng(seed)
    w, h = standard_size(24)
    tiles = [np.clip(rng.normal(rng.uniform(60, 230, 3), rng.uniform(5, 50), (h, w, 3))
                     * np.array(tint), 0, 255).astype(np.uint8) for _ in range(count)]
    assert np.array_equal(edges.white_gains(tiles), _white_gains_by_axis(tiles))


def test_rectify_blacks_out_what_lies_outside_the_hexagon() -> None:
    image = np.full((300, 300, 3), 200, np.uint8)
    corners = np.array([(150 + 80 * np.cos(np.radians(60 * k)),
                         150 + 80 * np.sin(np.radians(60 * k))) for k in range(6)], np.float32)
    tile = rectify(image, corners, 40)
    inside = hexagon_mask(40) > 0
    assert np.all(tile[~inside] == 0) and np.all(tile[inside] > 0)


def test_the_boundary_map_is_zero_beyond_the_grown_mask_only_when_asked() -> None:
    rng = np.random.default_rng(5)
    image = cv2.GaussianBlur(rng.integers(0, 256, (120, 160, 3), np.uint8), (0, 0), 2)
    mask = np.zeros((120, 160), np.uint8)
    mask[30:90, 40:120] = 255
    grown = cv2.dilate(mask, np.ones((5, 5), np.uint8)) > 0
    inside = lattice.boundary_map(image, mask, 20.0)
    outside = lattice.boundary_map(image, mask, 20.0, outside=True)
    assert inside.shape == (120, 160, 2) and inside.dtype == np.float32
    assert np.all(inside[~grown] == 0) and np.any(outside[~grown] != 0)
    assert np.array_equal(inside[grown], outside[grown])
    # scaled so the strongest edges inside the grown mask are about 1
    assert 0.9 < float(np.percentile(np.hypot(*np.moveaxis(inside[grown], -1, 0)), 95)) < 1.1


@given(seed=st.integers(0, 999))
@settings(max_examples=30, deadline=None)
def test_oriented_score_is_across_less_along_clipped(seed: int) -> None:
    rng = np.random.default_rng(seed)
    grad = (rng.standard_normal((30, 40, 2)) * 1.2).astype(np.float32)
    pts = rng.uniform(-5, 45, (4, 7, 2))  # some beyond the map: clamped to its border
    tangents = rng.standard_normal((4, 1, 2)) + 0.1
    xs = np.clip(np.rint(pts[..., 0]), 0, 39).astype(int)
    ys = np.clip(np.rint(pts[..., 1]), 0, 29).astype(int)
    g = grad[ys, xs].astype(np.float64)
    t = tangents / np.linalg.norm(tangents, axis=-1, keepdims=True)
    along = g[..., 0] * t[..., 0] + g[..., 1] * t[..., 1]
    across = g[..., 1] * t[..., 0] - g[..., 0] * t[..., 1]
    expected = np.minimum(np.abs(across), 1.5) - np.minimum(np.abs(along), 1.5)
    assert np.allclose(lattice.oriented_score(grad, pts, tangents), expected, atol=1e-5)
    # a float64 map and a strided view of one (each pair gathered as one complex number)
    assert np.allclose(lattice.oriented_score(grad.astype(np.float64), pts, tangents),
                       expected, atol=1e-12)
    wide = np.repeat(grad, 2, axis=1)
    assert not wide[:, ::2].flags.c_contiguous
    assert np.array_equal(lattice.oriented_score(wide[:, ::2], pts, tangents),
                          lattice.oriented_score(grad, pts, tangents))


def test_colour_odds_of_a_photo_are_those_measured_on_its_border_every_time() -> None:
    config = DEFAULT_CONFIG
    tile = np.random.default_rng(0).integers(0, 256, (500, 3), np.uint8)
    for seed in range(6):  # each image freed before the next: ids may be reused
        image = np.random.default_rng(seed).integers(0, 256 - 40 * seed, (90, 120, 3),
                                                     np.uint8)
        direct = ColourOdds(tile, border_pixels(image, config))
        for _ in range(2):
            kept = ColourOdds.of_photo(tile, image, config)
            assert np.array_equal(kept._log_ratio, direct._log_ratio)
        del image, kept


@given(seed=st.integers(0, 999))
@settings(max_examples=30, deadline=None)
def test_oriented_score_of_shifted_points_is_that_of_the_moved_points(seed: int) -> None:
    rng = np.random.default_rng(seed)
    grad = rng.standard_normal((30, 40, 2)).astype(np.float32)
    pts = rng.uniform(-3, 43, (3, 1, 5, 2))
    shifts = rng.uniform(-4, 4, (1, 6, 1, 2))
    tangents = rng.standard_normal((3, 1, 5, 2))
    assert np.array_equal(lattice.oriented_score(grad, pts, tangents, shifts),
                          lattice.oriented_score(grad, pts + shifts, tangents))


@given(seed=st.integers(0, 99), radius=st.floats(6.0, 30.0))
@settings(max_examples=15, deadline=None)
def test_a_map_view_is_its_parts_computed_one_after_another(seed: int, radius: float) -> None:
    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (120, 160, 3), np.uint8)
    mask = np.zeros((120, 160), np.uint8)
    for _ in range(3):  # blobs of several sizes: the deepest point is in the largest
        x, y, r = int(rng.integers(20, 140)), int(rng.integers(20, 100)), int(rng.integers(5, 30))
        cv2.circle(mask, (x, y), r, 255, -1)
    view = lattice.map_view(image, mask, radius)
    grad, beyond = lattice.boundary_maps(image, mask, radius)
    assert np.array_equal(view.soft, lattice.soft_mask(mask, radius))
    assert view.middle == lattice.deepest_point(mask)
    assert np.array_equal(view.grad, grad) and np.array_equal(view.beyond, beyond)
    x, y, w, h = cv2.boundingRect(mask)
    assert view.box == (x, y, x + w, y + h)


def test_a_scan_measures_what_the_map_s_tiles_look_like_once(monkeypatch: MonkeyPatch
                                                              ) -> None:
    """Every placement of the tiles' size, the refit of the chosen one included, judges
    the cells beside the map against one art reference (``scan._reference_of``, about
    0.05 s a measurement): the refit measuring its own made it two a photo."""
    scan_module = importlib.import_module("companion.vision.scan")
    measured = scan_module._reference_of
    calls: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return measured(*args, **kwargs)

    monkeypatch.setattr(scan_module, "_reference_of", counted)
    photo = Path(__file__).resolve().parents[2] / "sample_photos" / "wood-from-above.jpg"
    result = scan_module.scan(photo, DEFAULT_CONFIG.tuned(fork_locating=False,
                                                          time_limit_s=120.0))
    assert result.kind == "assembled" and len(result.tiles) >= 20
    assert len(calls) == 1


def test_the_foreground_with_the_glare_judged_in_a_thread_is_the_plain_one() -> None:
    """``scan.foreground`` judges the table in glare while the foreground is made; the
    masks are those of the two steps one after the other (here two loose tiles joined
    by a pool of light on wood, which the glare parts)."""
    scan_module = importlib.import_module("companion.vision.scan")
    image = lit_photo((40, 75, 140), pool=1.7, glare=0.7)
    raw = foreground_mask(image, DEFAULT_CONFIG, fill=False)
    plain = scan_module._parted_by_glare(image, fill_holes(raw), raw, DEFAULT_CONFIG)
    threaded = scan_module.foreground(image, DEFAULT_CONFIG)
    assert not np.array_equal(plain[1], raw)  # the glare parted them
    assert all(np.array_equal(p, t) for p, t in zip(plain, threaded, strict=True))
