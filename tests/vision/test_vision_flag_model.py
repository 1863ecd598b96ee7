"""The learned flag decision (``flag_reading``): shipped for the current features, it
reports drawn pennants of the right kind and seldom one on a plain tile, keeps working in
deep shade, marks unsure flags doubtful, and its training picks thresholds that keep the
rates it is asked for."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.rules import Hex
from companion.vision import flag_reading, flags
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.rectify import rectify
from companion.vision.scan import _scanned
from companion.vision.synth import train_flags
from companion.vision.synth.render_art import TileArt, draw_tile, hexagon

RADIUS = 100.0
CODES = {"forest": "FFMMMM", "grain": "GGMMMM", "village": "VVMMMM"}
HAND_SET = dataclasses.replace(
    DEFAULT_CONFIG, flags=dataclasses.replace(DEFAULT_CONFIG.flags, learned_flags=False))


def _tile(code: str, flag: str | None, seed: int, blur: float = 0.8,
          light: float = 1.0) -> np.ndarray:
    img, _ = draw_tile(TileArt(code, None, None, flag), RADIUS, np.random.default_rng(seed))
    img = cv2.GaussianBlur(img, (0, 0), blur)
    if light != 1.0:
        img = np.clip(img.astype(np.float32) * light, 0, 255).astype(np.uint8)
    half = img.shape[0] / 2
    return rectify(img, hexagon(RADIUS, (half, half)).astype(np.float32),
                   DEFAULT_CONFIG.rectify.detail_radius)


def _read(tile: np.ndarray, code: str) -> flag_reading.FlagReading:
    seen = flags.lit(tile, None)
    return flag_reading.read_flag(tile, code, DEFAULT_CONFIG, None, seen,
                                  flags.candidates(tile, DEFAULT_CONFIG, None, seen))


def test_the_shipped_model_matches_the_features() -> None:
    model = flag_reading.load_model()
    assert model is not None, "models/flags.json missing or made for other features"
    assert model.weights.shape == model.mean.shape == (flag_reading.N_FEATURES,)
    assert model.biases.shape == (3,)
    assert 0.0 < model.found_above <= model.sure_above < 1.0
    assert 0.0 < model.maybe_above < 1.0


def test_features_are_finite_and_one_row_per_kind() -> None:
    x = flag_reading.kind_features(_tile("GGMMFF", "grain", 1), "GGMMFF")
    assert x.shape == (3, flag_reading.N_FEATURES)
    assert np.all(np.isfinite(x))
    in_code = flag_reading.FEATURES.index("in_code")
    assert list(x[:, in_code]) == [1.0, 1.0, 0.0]  # forest, grain, village


@pytest.mark.parametrize("kind", sorted(CODES))
def test_a_drawn_pennant_is_reported_with_its_kind(kind: str) -> None:
    kinds = [r.flag.kind if r.flag else None
             for r in (_read(_tile(CODES[kind], kind, s, 1.2), CODES[kind]) for s in range(6))]
    assert kinds.count(kind) >= 5, kinds
    assert set(kinds) <= {kind, None}


def test_plain_tiles_seldom_get_a_flag_or_a_mark() -> None:
    readings = [_read(_tile(code, None, s), code)
                for code in ("GGMMMM", "FFMMMM", "VVMMMM", "MMMMMM") for s in range(4)]
    assert sum(r.flag is not None for r in readings) == 0
    assert sum(r.doubtful for r in readings) <= 2


@pytest.mark.parametrize("kind", sorted(CODES))
def test_a_pennant_in_deep_shade_is_still_found(kind: str) -> None:
    """A tile photographed in a seventh of the light: the meadow's own estimate leaves
    such dark meadow out, and the hand-set search finds nothing (its gain stays 1);
    ``dim_lit`` brings the tile up by its own meadow for the relaxed search."""
    found = 0
    for seed in range(4):
        tile = _tile(CODES[kind], kind, seed, 1.0, light=0.15)
        seen = flags.lit(tile, None)
        assert flags.dim_lit(tile, seen, None).gain > seen.gain
        reading = _read(tile, CODES[kind])
        found += reading.flag is not None and reading.flag.kind == kind
    assert found >= 3


def test_the_hand_set_decision_is_used_when_switched_off() -> None:
    tile = _tile("GGMMMM", "grain", 2, 1.5)
    seen = flags.lit(tile, None)
    strict = flags.candidates(tile, HAND_SET, None, seen)
    reading = flag_reading.read_flag(tile, "GGMMMM", HAND_SET, None, seen, strict)
    assert reading.flag == flags.find_flag(tile, "GGMMMM", HAND_SET, None, strict)


def test_the_features_are_the_same_whether_or_not_the_search_is_passed_in() -> None:
    tile = _tile("GGMMFF", "village", 3)
    seen = flags.lit(tile, None)
    strict = flags.candidates(tile, DEFAULT_CONFIG, None, seen)
    assert np.array_equal(
        flag_reading.kind_features(tile, "GGMMFF", DEFAULT_CONFIG, None, seen, strict),
        flag_reading.kind_features(tile, "GGMMFF"))


def test_an_unsure_flag_and_a_likely_missed_one_are_doubtful() -> None:
    conf = (0.99,) * 6
    unsure = _scanned(Hex(0, 0), "GMMMMM", conf, {"flag": "grain", "flag_doubtful": True},
                      (0.0, 0.0), (), DEFAULT_CONFIG)
    missed = _scanned(Hex(0, 0), "GMMMMM", conf, {"flag_doubtful": True}, (0.0, 0.0), (),
                      DEFAULT_CONFIG)
    sure = _scanned(Hex(0, 0), "GMMMMM", conf, {"flag": "grain"}, (0.0, 0.0), (),
                    DEFAULT_CONFIG)
    off_terrain = _scanned(Hex(0, 0), "FMMMMM", conf, {"flag": "grain"}, (0.0, 0.0), (),
                           DEFAULT_CONFIG)
    assert unsure.flag_doubtful and unsure.placement.flag == "grain"
    assert missed.flag_doubtful and missed.placement.flag is None
    assert not sure.flag_doubtful and sure.placement.flag == "grain"
    assert off_terrain.flag_doubtful and off_terrain.placement.flag is None


def test_decide_follows_the_thresholds() -> None:
    z = np.zeros(flag_reading.N_FEATURES)
    model = flag_reading.FlagModel(z, z + 1, z, np.zeros(3), 0.6, 0.9, 0.3)
    assert model.decide(np.array([0.05, 0.0, 0.95, 0.0])) == ("grain", 0.95, False)
    assert model.decide(np.array([0.3, 0.7, 0.0, 0.0])) == ("forest", 0.7, True)
    assert model.decide(np.array([0.6, 0.2, 0.1, 0.1])) == (None, 0.0, True)
    assert model.decide(np.array([0.9, 0.05, 0.05, 0.0])) == (None, 0.0, False)


def test_a_model_file_round_trips_and_a_foreign_one_is_refused(tmp_path: Path) -> None:
    model = flag_reading.load_model()
    assert model is not None
    path = tmp_path / "flags.json"
    path.write_text(json.dumps(model.to_json()))
    again = flag_reading.load_model(path)
    assert again is not None and np.array_equal(again.weights, model.weights)
    foreign = tmp_path / "foreign.json"  # (load_model caches by path)
    foreign.write_text(json.dumps(dict(model.to_json(), features=["something", "else"])))
    assert flag_reading.load_model(foreign) is None
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(dict(model.to_json(), biases=[0.0, float("nan"), 0.0])))
    assert flag_reading.load_model(broken) is None


def test_fit_learns_which_kind_a_feature_marks() -> None:
    """Synthetic tiles whose first feature is high on the flag's kind only: the fitted
    model reads the kind back on fresh tiles."""
    rng = np.random.default_rng(0)

    def draw(n: int) -> tuple[np.ndarray, np.ndarray]:
        y = rng.integers(0, 4, n)
        x = rng.normal(0, 1, (n, 3, flag_reading.N_FEATURES))
        for i, label in enumerate(y):
            if label:
                x[i, label - 1, 0] += 4.0
        return x, y

    x, y = draw(600)
    params = train_flags.fit(x, y, steps=400)
    xt, yt = draw(300)
    p = flag_reading.probabilities(xt, *params)
    assert float((p.argmax(axis=1) == yt).mean()) > 0.9


def test_thresholds_keep_the_asked_rates() -> None:
    rng = np.random.default_rng(1)
    n = 4000
    y = np.where(rng.random(n) < 0.25, rng.integers(1, 4, n), 0)
    p = rng.dirichlet(np.ones(4), n)
    p[y > 0] = 0.1 * p[y > 0]
    p[np.arange(n)[y > 0], y[y > 0]] += 0.9  # flags mostly sure, flagless tiles random
    found, sure, maybe = train_flags.thresholds(p, y, false_rate=0.5, doubt_share=0.8,
                                                maybe_rate=1.5)
    top, kind = p[:, 1:].max(axis=1), p[:, 1:].argmax(axis=1) + 1
    assert 100.0 * float(((top > found) & (y == 0)).sum()) / float((y == 0).sum()) <= 0.5
    wrong = (top > found) & (kind != y)
    assert float((top[wrong] < sure).mean()) >= 0.8
    quiet = (top <= found) & (y == 0)
    assert float((p[quiet, 1:].sum(axis=1) > maybe).mean()) <= 0.016
    assert found <= sure


def test_the_training_harvest_reads_tiles_as_the_scan_passes_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``train_flags.harvest`` wraps the scan's ``read_flag`` call: it must take what the
    scan passes (a change of that call once made every harvest raise) and label tiles.
    Render 3600 lays 40 landscape tiles, 4 with a flag. When the scan read the tiles in
    two processes, the forked child's calls were lost: 21 tiles harvested, and 1 flag or
    none depending on which process took which tile. The harvest reads by threads."""
    import importlib

    from companion.vision.synth import evaluate as ev
    from companion.vision.synth import render_records as rr

    scan_mod = importlib.import_module("companion.vision.scan")  # the module, not scan()
    monkeypatch.setattr(rr, "_placement", rr._placement)  # harvest adds flags: undone after
    monkeypatch.setattr(train_flags, "_cases", lambda _ev, count, small: ev.rendered_cases(
        1, 3600, (1600, 1200), real_table=False))
    original = scan_mod.read_flag
    data = train_flags.harvest(1, 0)
    assert scan_mod.read_flag is original
    assert len(data["y"]) >= 36
    assert data["x"].shape == (len(data["y"]), 3, flag_reading.N_FEATURES)
    assert set(np.unique(data["y"])) <= {0, 1, 2, 3} and int((data["y"] > 0).sum()) >= 3
    assert len(data["kind"]) == len(data["hand"]) == len(data["y"])
