"""The learned "has a flag" model: shipped for the current features, it rates tiles with a
pennant above tiles without, and where the search found no flag but the model says likely,
the scan marks the flag doubtful (and records no flag)."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from companion.rules import Hex
from companion.vision import flags
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.rectify import rectify
from companion.vision.scan import _scanned
from companion.vision.synth.render_art import TileArt, draw_tile, hexagon

RADIUS = 100.0


def _tile(code: str, flag: str | None, seed: int, blur: float = 0.8) -> np.ndarray:
    img, _ = draw_tile(TileArt(code, None, None, flag), RADIUS, np.random.default_rng(seed))
    img = cv2.GaussianBlur(img, (0, 0), blur)
    half = img.shape[0] / 2
    return rectify(img, hexagon(RADIUS, (half, half)).astype(np.float32),
                   DEFAULT_CONFIG.rectify.detail_radius)


def test_the_shipped_model_matches_the_features() -> None:
    model = flags.load_model()
    assert model is not None, "models/flags.json missing or made for other features"
    assert len(model.weights) == len(model.mean) == len(model.scale) == flags.N_FEATURES
    assert 0.0 < model.threshold < 1.0


def test_features_are_finite_and_complete() -> None:
    x = flags.flag_features(_tile("GGMMMM", "grain", 1))
    assert x.shape == (flags.N_FEATURES,)
    assert np.all(np.isfinite(x))


@pytest.mark.parametrize("code,kind", [("GGMMMM", "grain"), ("FFMMMM", "forest"),
                                       ("VVMMMM", "village")])
def test_a_pennant_raises_the_likelihood(code: str, kind: str) -> None:
    with_flag = [flags.flag_likelihood(_tile(code, kind, s, 1.5)) for s in range(6)]
    without = [flags.flag_likelihood(_tile(code, None, s, 1.5)) for s in range(6)]
    assert None not in with_flag and None not in without
    assert float(np.median(with_flag)) > float(np.median(without))  # type: ignore[arg-type]


def test_plain_tiles_are_seldom_marked() -> None:
    marked = sum(flags.flag_maybe(_tile(code, None, s))
                 for code in ("GGMMMM", "FFMMMM", "VVMMMM", "MMMMMM") for s in range(4))
    assert marked <= 2


def test_the_model_can_be_switched_off() -> None:
    tile = _tile("GGMMMM", "grain", 2, 1.5)
    off = dataclasses.replace(DEFAULT_CONFIG,
                              flags=dataclasses.replace(DEFAULT_CONFIG.flags, use_model=False))
    always = dataclasses.replace(DEFAULT_CONFIG,
                                 flags=dataclasses.replace(DEFAULT_CONFIG.flags, maybe_above=0.0))
    assert not flags.flag_maybe(tile, off)
    assert flags.flag_maybe(tile, always)


def test_a_likely_flag_not_found_is_doubtful_and_not_recorded() -> None:
    conf = (0.99,) * 6
    maybe = _scanned(Hex(0, 0), "GMMMMM", conf, {"flag_maybe": True}, (0.0, 0.0), (),
                     DEFAULT_CONFIG)
    plain = _scanned(Hex(0, 0), "GMMMMM", conf, {}, (0.0, 0.0), (), DEFAULT_CONFIG)
    assert maybe.flag_doubtful and maybe.placement.flag is None
    assert not plain.flag_doubtful


def test_the_training_harvest_reads_tiles_as_the_scan_passes_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``train_flags.harvest`` wraps the scan's ``find_flag`` call: it must take what the
    scan passes (a change of that call once made every harvest raise) and label tiles."""
    import importlib

    from companion.vision.synth import evaluate as ev
    from companion.vision.synth import render_records as rr
    from companion.vision.synth import train_flags

    scan_mod = importlib.import_module("companion.vision.scan")  # the module, not scan()
    monkeypatch.setattr(rr, "_placement", rr._placement)  # harvest adds flags: undone after
    monkeypatch.setattr(train_flags, "_cases", lambda _ev, count, small: ev.rendered_cases(
        1, 3600, (1600, 1200), real_table=False))
    original = scan_mod.find_flag
    data = train_flags.harvest(1, 0)
    assert scan_mod.find_flag is original
    assert len(data["y"]) >= 10 and data["x"].shape == (len(data["y"]), flags.N_FEATURES)
    assert set(np.unique(data["y"])) <= {0, 1} and int(data["y"].sum()) >= 1
    assert len(data["kind"]) == len(data["y"])


@pytest.mark.parametrize("flag", [None, "grain", "village"])
def test_the_lit_tile_computed_once_gives_the_same_search_and_features(flag: str | None) -> None:
    tile = _tile("GGMMFF", flag, 3)
    seen = flags.lit(tile, None)
    found = flags.candidates(tile, DEFAULT_CONFIG, None, seen)
    assert found == flags.candidates(tile)
    assert np.array_equal(flags.flag_features(tile, DEFAULT_CONFIG, None, found, seen),
                          flags.flag_features(tile))
