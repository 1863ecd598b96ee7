"""The colour thresholds' reading as a second expert beside the terrain model
(``terrain.colour_weight``, ``scan.with_colours``)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from companion.vision import ScanConfig, edges
from companion.vision.edges import LETTERS
from companion.vision.synth.render_art import TileArt, draw_tile
from companion.vision.terrain_model import edge_log_likelihoods

scan_mod = importlib.import_module("companion.vision.scan")
G, M = LETTERS.index("G"), LETTERS.index("M")


def _tile(code: str) -> tuple[np.ndarray, np.ndarray]:
    """A drawn tile rectified at the scanner's radius, and its pixel classes."""
    from companion.vision.rectify import rectify, standard_corners

    radius = ScanConfig().rectify.radius
    art, _ = draw_tile(TileArt(code, None, None, None), 3.0 * radius,
                       np.random.default_rng(0))
    h, w = art.shape[:2]
    corners = standard_corners(int(3 * radius)).astype(np.float64)
    corners += np.array([w / 2.0, h / 2.0]) - corners.mean(axis=0)
    tile = rectify(art, corners, radius)
    return tile, edges.pixel_classes(tile, edges.meadow_reference([tile]))


def test_an_unsure_model_follows_a_sure_colour_reading() -> None:
    logp = np.log(np.full((6, 6), 0.01))
    logp[:, G], logp[:, M] = np.log(0.53), np.log(0.42)  # the model leans to grain
    colours = np.full((6, 6), 0.01)
    colours[:, M] = 0.95
    p = scan_mod.with_colours(logp, colours, 0.5)
    assert np.allclose(p.sum(axis=1), 1.0)
    assert (p.argmax(axis=1) == M).all()
    # a sure model stands against the same colours
    logp[:, G], logp[:, M] = np.log(0.9), np.log(0.05)
    assert (scan_mod.with_colours(logp, colours, 0.5).argmax(axis=1) == G).all()


def test_a_colour_reading_of_zero_vetoes_nothing() -> None:
    logp = np.log(np.full((6, 6), 1 / 6))
    logp[:, G] = np.log(0.9)
    colours = np.zeros((6, 6))
    colours[:, M] = 1.0
    p = scan_mod.with_colours(logp, colours, 0.5)
    assert (p[:, G] > 0).all() and np.isfinite(p).all()


@pytest.mark.parametrize("code", ["GGMMFF", "MSSMVV"])
def test_the_scanner_joins_the_model_and_the_colours_as_configured(code: str) -> None:
    tile, classes = _tile(code)
    cfg = ScanConfig().tuned(colour_weight=0.5)
    colours = edges.letter_probabilities(edges.band_fractions(classes, cfg), cfg)
    alone = scan_mod._edge_probabilities(tile, colours, cfg.tuned(colour_weight=0.0))
    assert np.allclose(alone, np.exp(edge_log_likelihoods(tile)))
    both = scan_mod._edge_probabilities(tile, colours, cfg)
    expected = alone * np.clip(colours, scan_mod.COLOUR_FLOOR, 1.0) ** 0.5
    assert np.allclose(both, expected / expected.sum(axis=1, keepdims=True))
    hand = ScanConfig().tuned(learned=False)
    assert np.allclose(scan_mod._edge_probabilities(tile, colours, hand), colours)
