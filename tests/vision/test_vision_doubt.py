"""The doubt calibrator: evidence per edge, the shipped coefficients, what a scan flags."""

from __future__ import annotations

import importlib
import json

import numpy as np
import pytest

from companion.rules import catalogue
from companion.vision import ScanConfig, doubt, scan
from companion.vision.edges import LETTERS
from companion.vision.prior import decode
from companion.vision.synth import composite, evaluate
from companion.vision.synth.fit_doubt import FIT_SEEDS, fit_logistic, threshold_for
from tests.helpers.scanner_synth import draw_map, random_map

scan_mod = importlib.import_module("companion.vision.scan")

LANDSCAPE = ("landscape", "box-2-landscape")
EVALUATION_SEEDS = {700, 701, 702, 703, 800, 801, 802, 803, *range(900, 906),
                    *range(2000, 2006), *range(2100, 2104)}


def _reading(code: str, sure: float = 0.97) -> np.ndarray:
    probs = np.full((6, 6), (1 - sure) / 5)
    for e, c in enumerate(code):
        probs[e, LETTERS.index(c)] = sure
    return probs


def _judge(probs: np.ndarray) -> tuple[tuple[int, ...], np.ndarray]:
    code, conf, _, _ = decode(probs, 0.02, LANDSCAPE)
    ev = doubt.tile_evidence(probs, code, conf, LANDSCAPE)
    return doubt.doubtful(ev), doubt.load_calibrator().probability(ev)


def test_the_shipped_calibrator_matches_the_features() -> None:
    cal = doubt.load_calibrator()
    assert cal.features == doubt.COLUMNS
    assert len(cal.weights) == len(doubt.COLUMNS) == len(cal.mean)
    assert 0.0 < cal.threshold < 1.0
    # fitted on photos no evaluation uses
    for seeds in FIT_SEEDS.values():
        assert not set(seeds) & EVALUATION_SEEDS


def test_an_ambiguous_edge_is_doubtful_and_clear_edges_are_not() -> None:
    """GGMVVM and MGMVVM are both landscape tiles: art halfway between grain and meadow
    at edge 0 leaves the catalogue no way to tell. That edge is doubtful and by far the
    likeliest wrong; a tile read this unsure at one edge is often wrong at others, so
    its other edges may be marked too (the calibrator fitted on the model and the colour
    reading together marks them)."""
    clear, p_clear = _judge(_reading("GGMVVM", 0.995))
    assert clear == ()
    probs = _reading("GGMVVM", 0.995)
    probs[0, LETTERS.index("G")] = 0.5
    probs[0, LETTERS.index("M")] = 0.49
    unsure, p_unsure = _judge(probs)
    assert 0 in unsure
    assert p_unsure[0] > 5 * max(p_unsure[1:])
    assert p_unsure[0] > 5 * p_clear[0]


def test_an_edge_the_catalogue_bent_is_doubtful() -> None:
    """The art reads an edge one way, the catalogue another: a person should look."""
    tile = next(t.code for t in catalogue() if t.section == "landscape" and "M" in t.code)
    e = tile.index("M")
    probs = _reading(tile, 0.98)
    probs[e] = 0.004
    probs[e, LETTERS.index("G")] = 0.6
    probs[e, LETTERS.index("M")] = 0.38
    code, conf, _, _ = decode(probs, 0.02, LANDSCAPE)
    ev = doubt.tile_evidence(probs, code, conf, LANDSCAPE)
    assert e in doubt.doubtful(ev)


def test_a_tile_whose_outline_misses_the_seams_carries_its_misfit() -> None:
    """The same sure reading, once from a tile sitting on its own outline and once from
    one the lattice put half off it: the evidence says so (``misfit``). The calibrator
    fitted on the model and the colour reading together gives it almost no weight
    (-0.004): the other evidence of a misplaced tile, its unsure edges, says it all."""
    code = next(t.code for t in catalogue() if t.section == "landscape")
    probs = _reading(code, 0.98)
    _, conf, _, _ = decode(probs, 0.02, LANDSCAPE)
    placed = doubt.tile_evidence(probs, code, conf, LANDSCAPE)
    off = doubt.tile_evidence(probs, code, conf, LANDSCAPE, misfit=0.6)
    column = doubt.FEATURES.index("misfit")
    assert (placed[:, column] == 0).all() and (off[:, column] == 0.6).all()
    others = [i for i in range(len(doubt.FEATURES)) if i != column]
    assert np.array_equal(placed[:, others], off[:, others])


def test_an_edge_the_camera_clipped_carries_its_clipped_share() -> None:
    """The same sure reading with and without the camera clipping two edges' bands
    (``clipped``): only that column of those edges changes."""
    code = next(t.code for t in catalogue() if t.section == "landscape")
    probs = _reading(code, 0.98)
    _, conf, _, _ = decode(probs, 0.02, LANDSCAPE)
    plain = doubt.tile_evidence(probs, code, conf, LANDSCAPE)
    share = [0.0, 0.7, 0.0, 0.0, 0.3, 0.0]
    clipped = doubt.tile_evidence(probs, code, conf, LANDSCAPE, clipped=share)
    column = doubt.FEATURES.index("clipped")
    assert (plain[:, column] == 0).all() and list(clipped[:, column]) == share
    others = [i for i in range(len(doubt.FEATURES)) if i != column]
    assert np.array_equal(plain[:, others], clipped[:, others])


def test_an_edge_the_camera_clipped_is_likelier_wrong() -> None:
    """Overexposed or under glare, grain and meadow turn the same yellow: the shipped
    calibrator weighs the same sure reading as likelier wrong where the camera clipped
    most of its band (the scans it was fitted on hold 20 of 97 wrong edges in bands
    clipped over 40 %, against 3 % of all edges)."""
    code = next(t.code for t in catalogue() if t.section == "landscape")
    probs = _reading(code, 0.98)
    _, conf, _, _ = decode(probs, 0.02, LANDSCAPE)
    cal = doubt.load_calibrator()
    plain = cal.probability(doubt.tile_evidence(probs, code, conf, LANDSCAPE))
    clipped = cal.probability(doubt.tile_evidence(probs, code, conf, LANDSCAPE,
                                                  clipped=[0.8] * 6))
    assert (clipped > 1.5 * plain).all()


def test_misfit_is_measured_against_the_photos_median_tile() -> None:
    def tile(agreement: float | None) -> scan_mod.LocatedTile:
        return scan_mod.LocatedTile((0, 0), np.zeros((6, 2)), np.zeros((2, 2, 3), np.uint8),
                                    agreement)

    found = [tile(0.8), tile(0.8), tile(0.9), tile(0.4), tile(None), tile(-0.2)]
    assert scan_mod._misfits(found) == pytest.approx([0.0, 0.0, 0.0, 0.5, 0.0, 1.0])
    assert scan_mod._misfits([tile(None), tile(None)]) == [0.0, 0.0]


def test_the_other_edges_columns_sum_up_the_rest_of_the_tile() -> None:
    """``others_*`` of an edge describe the tile's five other edges, never the edge."""
    code = "GGMVVM"
    probs = _reading(code, 0.99)
    probs[2, LETTERS.index("G")] = 0.5
    probs[2, LETTERS.index("M")] = 0.3
    _, conf, _, _ = decode(probs, 0.02, LANDSCAPE)
    ev = doubt.tile_evidence(probs, code, conf, LANDSCAPE)
    col = doubt.FEATURES.index
    for e in range(6):
        rest = [k for k in range(6) if k != e]
        assert ev[e, col("others_logit_conf")] == min(ev[rest, col("logit_conf")])
        assert ev[e, col("others_log_p")] == min(ev[rest, col("log_p")])
        assert ev[e, col("others_not_argmax")] == sum(ev[rest, col("not_argmax")])
    assert ev[2, col("not_argmax")] == 1
    assert ev[2, col("others_not_argmax")] == 0
    assert all(ev[e, col("others_not_argmax")] == 1 for e in (0, 1, 3, 4, 5))


def test_a_sure_edge_of_a_tile_unsure_elsewhere_is_likelier_wrong() -> None:
    """A tile read wrong is often wrong at several edges, only some of them unsure: the
    calibrator weighs the same sure edge as likelier wrong when its tile's other edges
    are unsure (only the ``others_*`` columns differ). Since the calibrator also weighs
    how much of each edge the camera clipped (``clipped``: a tile in glare is often
    wrong at several edges), the others carry less of it: 1.2 times, 1.9 before."""
    code = next(t.code for t in catalogue() if t.section == "landscape")
    sure = _reading(code, 0.99)
    _, conf, _, _ = decode(sure, 0.02, LANDSCAPE)
    calm = doubt.tile_evidence(sure, code, conf, LANDSCAPE)
    unsure = sure.copy()
    for e in (2, 3):
        unsure[e] = 0.01
        unsure[e, LETTERS.index(code[e])] = 0.45
        unsure[e, (LETTERS.index(code[e]) + 1) % len(LETTERS)] = 0.51
    _, conf2, _, _ = decode(unsure, 0.02, LANDSCAPE)
    troubled = doubt.tile_evidence(unsure, code, conf2, LANDSCAPE)
    mixed = calm.copy()
    others = [i for i, n in enumerate(doubt.FEATURES) if n.startswith("others_")]
    mixed[:, others] = troubled[:, others]
    cal = doubt.load_calibrator()
    assert cal.probability(mixed)[0] > 1.1 * cal.probability(calm)[0]


def test_mismatches_are_always_doubtful() -> None:
    code = next(t.code for t in catalogue() if t.section == "landscape")
    probs = _reading(code, 0.995)
    _, conf, _, _ = decode(probs, 0.02, LANDSCAPE)
    ev = doubt.tile_evidence(probs, code, conf, LANDSCAPE)
    assert 3 in doubt.doubtful(ev, mismatch=(3,))


def test_a_calibrator_for_other_features_is_refused(tmp_path) -> None:
    data = doubt.load_calibrator().to_json()
    again = doubt.Calibrator.from_json(json.loads(json.dumps(data)))
    assert np.allclose(again.weights, doubt.load_calibrator().weights)
    data["features"] = data["features"][:-1]
    with pytest.raises(ValueError, match="other features"):
        doubt.Calibrator.from_json(data)


def test_fitting_finds_the_informative_feature_and_meets_the_recall() -> None:
    rng = np.random.default_rng(1)
    x = rng.normal(size=(4000, 3))
    y = rng.random(4000) < 1 / (1 + np.exp(-(3.0 * x[:, 1] - 4.0)))
    mean, scale, w, b = fit_logistic(x, y, np.ones(len(y)))
    assert abs(w[1]) > 5 * max(abs(w[0]), abs(w[2]))
    p = 1 / (1 + np.exp(-(((x - mean) / scale) @ w + b)))
    groups = np.array(["a"] * len(y))
    t = threshold_for(p, y, groups, 0.95, ("a",))
    assert (p[y] >= t).mean() >= 0.95
    assert (p >= t).mean() < 0.5


def _wrong_and_flagged(truth: dict, photo: np.ndarray, centres: dict,
                       config: ScanConfig) -> tuple[int, int, int]:
    """Wrong edges (each asserted doubtful), flagged edges and edges of a drawn map."""
    result = scan(photo, config)
    wrong = flagged = edges = 0
    for t in result.tiles:
        cell = min(centres, key=lambda c: np.hypot(centres[c][0] - t.center_px[0],
                                                   centres[c][1] - t.center_px[1]))
        for e in range(6):
            edges += 1
            flagged += e in t.doubtful
            if t.code[e] != truth[cell][e]:
                wrong += 1
                assert e in t.doubtful, (cell, truth[cell], t.code, e)
    return wrong, flagged, edges


def test_the_tiles_the_inventory_had_to_swap_are_doubtful() -> None:
    """A map laying one physical tile several times (random_map draws with replacement),
    drawn flat. Read by the model alone, the copies are unsure enough that the inventory
    reads them as other free tiles, and the review must point at every edge that this
    made wrong. Read by the model and the colour reading together (the default), both
    are sure of the copies: an off-inventory reading survives such evidence, the map is
    read as drawn, and little is flagged."""
    truth = random_map(30, 0)
    photo, centres = draw_map(truth, size=55, rotate_deg=-10.0, seed=0)
    wrong, _, _ = _wrong_and_flagged(truth, photo, centres,
                                     ScanConfig().tuned(colour_weight=0.0))
    assert wrong >= 2
    wrong, flagged, edges = _wrong_and_flagged(truth, photo, centres, ScanConfig())
    assert wrong == 0
    assert flagged <= 0.1 * edges


def test_hand_rule_still_available() -> None:
    truth = random_map(9, 3)
    photo, _ = draw_map(truth, size=70, seed=3)
    cfg = ScanConfig().tuned(calibrated_doubt=False, doubt_below=1.01)
    result = scan(photo, cfg)
    assert all(t.doubtful == tuple(range(6)) for t in result.tiles)


@pytest.mark.skipif(composite.shared_tiles_dir() is None, reason="../shared/tiles is absent")
def test_recall_on_a_small_real_table_composite_set() -> None:
    """Two composite photos of a seed range neither fitted nor evaluated on: the
    doubtful edges hold the wrong edges and stay a small share of all edges."""
    cases = list(evaluate.composite_cases(2, 4000, (3000, 2250), real_table=True))
    tally = evaluate.evaluate(cases)
    assert tally.placed_right >= 0.9 * tally.truth_tiles
    assert tally.wrong_doubtful >= 0.9 * tally.placed_edges_wrong
    assert tally.edges_doubtful <= 0.15 * 6 * tally.placed_right
