"""Real-table conditions of the renderer (render_table): the truth follows the lens, the
other draws stay the same, the clutter lies beside the map."""

from __future__ import annotations

import numpy as np

from companion.vision.synth.render import render_record
from companion.vision.synth.render_table import barrel, barrel_points, light_colour

RECORD = "game: board-game\n0 0 GGMTTM\n1 0 MFFFFF\n0 1 SVMSFM\n1 -1 VVVVVV\n"


def test_barrel_moves_a_dot_where_barrel_points_says() -> None:
    img = np.zeros((600, 800, 3), np.uint8)
    img[95:106, 95:106] = 255  # a dot near a corner, where the lens moves it most
    bent = barrel(img, 0.12)
    ys, xs = np.nonzero(bent[..., 0] > 128)
    seen = np.array([xs.mean(), ys.mean()])
    expected = barrel_points(np.array([[100.0, 100.0]]), (800, 600), 0.12)[0]
    assert np.hypot(*(seen - expected)) < 1.5
    assert np.hypot(*(seen - np.array([100.0, 100.0]))) > 10  # it did move


def test_warm_light_is_warm_and_exposure_brightens() -> None:
    grey = np.full((4, 4, 3), 100, np.uint8)
    warm = light_colour(grey, 2700, 0.0, 0.0)[0, 0]
    assert warm[2] > warm[1] > warm[0]  # BGR: red up, blue down
    assert light_colour(grey, 6500, 0.5, 1.0)[0, 0].mean() > 180


def test_the_real_table_adds_to_the_photo_without_moving_the_map_much() -> None:
    plain = render_record(RECORD, seed=3, size_px=(800, 600))
    again = render_record(RECORD, seed=3, size_px=(800, 600))
    table = render_record(RECORD, seed=3, size_px=(800, 600), real_table=True)
    assert np.array_equal(plain.image, again.image)
    assert not np.array_equal(plain.image, table.image)
    assert "real_table" in table.params and "real_table" not in plain.params
    assert [t.code for t in table.tiles] == [t.code for t in plain.tiles]
    for a, b in zip(plain.tiles, table.tiles, strict=True):  # hand-laid: a little off
        assert np.hypot(a.centre[0] - b.centre[0], a.centre[1] - b.centre[1]) < (
            0.5 * plain.tile_radius_px)


def test_a_table_can_be_chosen_and_only_the_table_changes() -> None:
    """``table`` fixes the table a real-table photo shows (``evaluate --table``); the
    other conditions are those the seed draws, so the map lies where it did."""
    import pytest

    drawn = render_record(RECORD, seed=3, size_px=(800, 600), real_table=True)
    kinds = {"wood", "cloth", "mat", "green-mat", "pattern"} - {
        drawn.params["real_table"]["background"]}
    chosen = sorted(kinds)[0]
    other = render_record(RECORD, seed=3, size_px=(800, 600), real_table=True, table=chosen)
    assert other.params["real_table"]["background"] == chosen
    assert {k: v for k, v in other.params["real_table"].items() if k != "background"} == {
        k: v for k, v in drawn.params["real_table"].items() if k != "background"}
    assert [t.centre for t in other.tiles] == [t.centre for t in drawn.tiles]
    assert not np.array_equal(other.image, drawn.image)
    with pytest.raises(ValueError, match="unknown table"):
        render_record(RECORD, seed=3, size_px=(800, 600), real_table=True, table="lawn")


def test_the_exposure_can_be_chosen_and_only_the_exposure_changes() -> None:
    """``ev`` fixes a real-table photo's exposure (``evaluate --ev``, the doubt fit's
    bright sets): the map lies where it did and the photo is brighter."""
    drawn = render_record(RECORD, seed=3, size_px=(800, 600), real_table=True)
    bright = render_record(RECORD, seed=3, size_px=(800, 600), real_table=True, ev=1.2)
    assert bright.params["real_table"]["ev"] == 1.2
    assert {k: v for k, v in bright.params["real_table"].items() if k != "ev"} == {
        k: v for k, v in drawn.params["real_table"].items() if k != "ev"}
    assert [t.centre for t in bright.tiles] == [t.centre for t in drawn.tiles]
    assert bright.image.mean() > drawn.image.mean() + 10
    plain = render_record(RECORD, seed=3, size_px=(800, 600), ev=1.2)  # no real table
    assert np.array_equal(plain.image, render_record(RECORD, seed=3, size_px=(800, 600)).image)


def test_the_clutter_can_be_left_out_and_only_the_clutter_changes() -> None:
    """``clutter`` false (``evaluate --no-clutter``): nothing beside the map; the map and
    the other conditions are those the seed draws, and the tiles look as they did."""
    drawn = render_record(RECORD, seed=3, size_px=(800, 600), real_table=True)
    assert drawn.params["real_table"]["clutter"]
    bare = render_record(RECORD, seed=3, size_px=(800, 600), real_table=True, clutter=False)
    assert bare.params["real_table"]["clutter"] == []
    assert {k: v for k, v in bare.params["real_table"].items() if k != "clutter"} == {
        k: v for k, v in drawn.params["real_table"].items() if k != "clutter"}
    assert [t.centre for t in bare.tiles] == [t.centre for t in drawn.tiles]
    differs = np.abs(bare.image.astype(int) - drawn.image.astype(int)).max(axis=2) > 40
    x, y = (int(v) for v in drawn.tiles[0].centre)
    assert differs.mean() > 0.01 and not differs[y - 5:y + 5, x - 5:x + 5].any()
