"""The shipped learned terrain model (companion.vision.terrain_model)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.rules import rotate
from companion.vision import terrain_model as tm
from companion.vision.rectify import rectify, standard_size
from companion.vision.synth.composite import real_tiles, shared_tiles_dir
from companion.vision.synth.render import render_record
from companion.vision.synth.render_records import random_record

RENDER_MIN_ACCURACY = 0.97
"""Edges right on procedural tiles from render seeds never used in training."""
REAL_MIN_ACCURACY = 0.97
"""Edges right on the development crops (these tiles *are* in the training set; the
held-out figure is printed by ``train_terrain --evaluate``)."""


def _rendered_tiles(seed: int, count: int = 20) -> list[tuple[np.ndarray, str]]:
    rendered = render_record(random_record(seed, count), seed=seed, size_px=(1800, 1350),
                             glare=0.0)
    return [(rectify(rendered.image, np.array(t.corners), 64), t.code)
            for t in rendered.tiles]


def _accuracy(tiles: list[tuple[np.ndarray, str]]) -> float:
    right = total = 0
    for img, code in tiles:
        got, _ = tm.classify(img)
        right += sum(a == b for a, b in zip(got, code, strict=True))
        total += 6
    return right / total


def test_shipped_model_loads_and_gives_normalised_log_probabilities() -> None:
    model = tm.load_model()
    assert model is tm.load_model()  # cached
    img, _ = _rendered_tiles(424242, 3)[0]
    lp = tm.edge_log_likelihoods(img)
    assert lp.shape == (6, 6)
    assert np.all(np.isfinite(lp)) and np.all(lp <= 0)
    np.testing.assert_allclose(np.exp(lp).sum(axis=1), 1.0, atol=1e-6)


def test_any_radius_is_accepted() -> None:
    img, _ = _rendered_tiles(424243, 3)[0]
    w, h = standard_size(100)
    big = cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)
    assert tm.edge_log_likelihoods(big).shape == (6, 6)
    assert tm.classify(big)[0] == tm.classify(img)[0]


def test_reads_rendered_tiles_from_unseen_seeds() -> None:
    tiles = _rendered_tiles(777001) + _rendered_tiles(777002)
    assert _accuracy(tiles) >= RENDER_MIN_ACCURACY


def test_turning_the_tile_turns_the_letters() -> None:
    """A tile turned 60 degrees clockwise reads as the code turned one step."""
    same = total = 0
    for img, _ in _rendered_tiles(777003, 12):
        h, w = img.shape[:2]
        m = cv2.getRotationMatrix2D((w / 2 - 0.5, h / 2 - 0.5), -60.0, 1.0)
        turned = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR)
        code, _ = tm.classify(img)
        code_turned, _ = tm.classify(turned)
        same += sum(a == b for a, b in zip(code_turned, rotate(code, 1), strict=True))
        total += 6
        lp, lp_t = tm.edge_log_likelihoods(img), tm.edge_log_likelihoods(turned)
        assert np.abs(np.exp(np.roll(lp, 1, axis=0)) - np.exp(lp_t)).mean() < 0.05
    assert same / total >= 0.97


def test_mirror_of_a_tile_reads_mirrored() -> None:
    for img, _ in _rendered_tiles(777004, 6):
        code, _ = tm.classify(img)
        flipped, _ = tm.classify(cv2.flip(img, 1))
        mirrored = "".join(code[(6 - i) % 6] for i in range(6))
        assert sum(a == b for a, b in zip(flipped, mirrored, strict=True)) >= 5


@pytest.mark.skipif(shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_reads_the_real_development_crops() -> None:
    tiles = [(t.image, t.code) for t in real_tiles()]
    assert len(tiles) >= 40
    assert _accuracy(tiles) >= REAL_MIN_ACCURACY


def test_training_augmentation_keeps_the_truth() -> None:
    """The training script's views: turns and mirrors carry the code along, light keeps
    the hexagon, a tile laid among neighbours rectifies back to itself."""
    from companion.vision.synth import train_terrain as tt

    assert tt.mirror_code("GGMTTM") == "GMTTMG"
    warm = tt.white_balance_gains(2700, 1.0)
    assert warm[2] > warm[1] > warm[0]  # B, G, R: warm light is red
    np.testing.assert_allclose(tt.white_balance_gains(2700, 0.0), 1.0, atol=1e-9)
    rendered = render_record(random_record(777005, 4), seed=777005, size_px=(1600, 1200))
    truth = rendered.tiles[0]
    corners = np.array(truth.corners)
    rng = np.random.default_rng(0)
    view, code = tt.sample_view(rendered.image, corners, truth.code, rng, None, None,
                                turn=1, mirror=False)
    assert code == rotate(truth.code, -1)
    np.testing.assert_array_equal(view, rectify(rendered.image, np.roll(corners, -1, axis=0),
                                                tm.MODEL_RADIUS))
    lit = tt.apply_photometric(view, tt.random_photometric(rng), rng)
    from companion.vision.rectify import hexagon_mask
    assert lit.shape == view.shape and not lit[hexagon_mask(tm.MODEL_RADIUS) == 0].any()
    flat = rectify(rendered.image, corners, tt.FLOWER_RADIUS)
    canvas, laid, same = tt.flower(flat, truth.code, [flat], rng)
    assert same == truth.code
    back = rectify(canvas, laid, tm.MODEL_RADIUS).astype(float)
    ref = tm.prepare(flat).astype(float)
    inner = cv2.erode(hexagon_mask(tm.MODEL_RADIUS), np.ones((9, 9), np.uint8)) > 0
    assert np.abs(back - ref)[inner].mean() < 12


def test_soft_histograms_of_many_rows_are_each_row_counted_alone() -> None:
    """The features count the six edges' histograms in one pass: each row must come out
    as that row counted alone, bit for bit, and the linear split must keep each
    sample's weight (a sample on a bin's centre all in that bin)."""
    rng = np.random.default_rng(3)
    x, y = (rng.normal(0.0, 0.7, (6, 400)).astype(np.float32) for _ in range(2))
    many = tm._soft_hist2d(x, y, -1.2, 1.2, 8)
    assert many.shape == (6, 64)
    for e in range(6):
        alone = tm._soft_hist2d(x[e], y[e], -1.2, 1.2, 8)
        assert np.array_equal(many[e], alone)
        assert np.array_equal(tm._soft_hist1d(x, -1.2, 0.8, 10)[e],
                              tm._soft_hist1d(x[e], -1.2, 0.8, 10))
    assert np.allclose(many.sum(axis=1), 1.0, atol=1e-5)
    centre = tm._soft_hist2d(np.array([0.0], np.float32), np.array([-1.2], np.float32),
                             -1.2, 1.2, 9)  # x on bin 4, y on bin 0
    assert centre[4 * 9 + 0] == pytest.approx(1.0)
    assert centre.sum() == pytest.approx(1.0)
