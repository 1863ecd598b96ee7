"""Composite ground truth: the task type is the icon of the crop actually drawn."""

from __future__ import annotations

import numpy as np
import pytest

from companion.rules import Hex
from companion.vision.synth import composite
from companion.vision.synth.render import TileTruth
from companion.vision.synth.render_records import LaidTile


@pytest.fixture(scope="module")
def tiles() -> tuple[composite.RealTile, ...]:
    if composite.shared_tiles_dir() is None:
        pytest.skip("../shared/tiles is absent")
    return composite.real_tiles()


def test_fallback_crop_sets_the_task_type_of_the_truth(
        tiles: tuple[composite.RealTile, ...]) -> None:
    crop = next(t for t in tiles if t.section == "task" and t.task_type == "stream")
    wrong = "village"  # ask for a type this code's crops do not show
    assert all(t.task_type != wrong for t in tiles if t.code == crop.code)
    painter = composite.CropPainter(tiles)
    laid = LaidTile(Hex(2, -1), crop.code, wrong, None, None)
    painter(laid, 40.0, np.random.default_rng(0))
    truth = TileTruth(Hex(2, -1), crop.code, wrong, None, None, (0.0, 0.0), (), ())
    assert composite._shown_task(painter, truth) == "stream"


def test_composite_truth_matches_the_crops_drawn(tiles: tuple[composite.RealTile, ...]) -> None:
    r = composite.composite_record(seed=3, landscape=12, size_px=(800, 600),
                                   jpeg_quality=None)
    icons = {(t.section, t.task_type) for t in tiles}
    for t in r.tiles:
        assert ("task" if t.task_type else "landscape", t.task_type) in icons
