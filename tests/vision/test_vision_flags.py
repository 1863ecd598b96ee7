"""Flags: the pennant's colour names the kind; its triangle and light outline set it apart
from roofs, fields and trees, under any exposure; a kind the tile's code lacks is at
most doubtful, and the scan drops it (doubtful) when the final code lacks its terrain."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.vision import flags
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.flags import find_flag, kind_of_hue
from companion.vision.rectify import rectify
from companion.vision.synth.render_art import FLAG_COLOURS, TileArt, draw_tile, hexagon

RADIUS = 100.0
# One edge of the flag's terrain: the pennant mostly lies on meadow, sometimes on or
# against that terrain (then it may merge with a roof of its own red: a miss allowed).
CODES = {"forest": "FMMMMM", "grain": "GMMMMM", "village": "VMMMMM"}


def _tile(code: str, flag: str | None, seed: int) -> np.ndarray:
    img, _ = draw_tile(TileArt(code, None, None, flag), RADIUS, np.random.default_rng(seed))
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    half = img.shape[0] / 2
    return rectify(img, hexagon(RADIUS, (half, half)).astype(np.float32),
                   DEFAULT_CONFIG.rectify.detail_radius)


@pytest.mark.parametrize("kind", sorted(FLAG_COLOURS))
def test_hue_of_each_flag_colour_names_its_kind(kind: str) -> None:
    bgr = np.uint8([[FLAG_COLOURS[kind]]])
    hue = float(cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)[0, 0, 0])
    assert kind_of_hue(hue) == kind


@pytest.mark.parametrize("kind", sorted(CODES))
def test_flag_on_a_drawn_tile(kind: str) -> None:
    found = [find_flag(_tile(CODES[kind], kind, seed), CODES[kind]) for seed in range(6)]
    kinds = [f.kind if f else None for f in found]
    assert kinds.count(kind) >= 5, kinds
    assert set(kinds) <= {kind, None}


@pytest.mark.parametrize("kind", sorted(CODES))
def test_flag_on_a_tile_read_without_its_terrain_is_only_doubtful(kind: str) -> None:
    """The same picture, read with a code that lacks the flag's terrain: the code as
    read may be wrong, so the flag is kept, but never as a sure one."""
    other = "MMSMMS"
    for seed in range(3):
        flag = find_flag(_tile(CODES[kind], kind, seed), other)
        assert flag is None or flag.confidence < DEFAULT_CONFIG.flags.flag_doubt_below


@pytest.mark.parametrize("gain", [0.4, 0.6, 1.25])
def test_flag_found_under_dim_or_bright_light(gain: float) -> None:
    """A tile photographed darker (a shadow, a dim room) or brighter keeps its flag."""
    kinds = []
    for seed, kind in enumerate(sorted(CODES) * 2):
        tile = cv2.convertScaleAbs(_tile(CODES[kind], kind, seed), alpha=gain)
        flag = find_flag(tile, CODES[kind])
        kinds.append(flag.kind if flag else None)
        assert flag is None or flag.kind == kind
    assert kinds.count(None) <= 1, kinds


@pytest.mark.parametrize("warm", [True, False])
def test_flag_found_under_warm_or_cool_light(warm: bool) -> None:
    """What is left of a colour cast once the scan has balanced the whitest art."""
    gains = np.array([0.85, 0.97, 1.1] if warm else [1.1, 1.0, 0.88], np.float32)
    kinds = []
    for seed, kind in enumerate(sorted(CODES) * 2):
        tile = _tile(CODES[kind], kind, seed).astype(np.float32) * gains
        flag = find_flag(np.clip(tile, 0, 255).astype(np.uint8), CODES[kind])
        kinds.append(flag.kind if flag else None)
    assert kinds.count(None) <= 1 and set(kinds) <= set(CODES) | {None}, kinds


def test_yellow_flag_on_a_grain_field() -> None:
    """A yellow pennant lying on grain touches it: it is split from the field."""
    found = [find_flag(_tile("MGGGGG", "grain", seed), "MGGGGG") for seed in range(6)]
    kinds = [f.kind if f else None for f in found]
    assert kinds.count("grain") >= 4, kinds


def test_roof_squares_and_tree_clumps_are_not_triangles() -> None:
    """Shape evidence: a drawn pennant nearly fills its least enclosing triangle."""
    from companion.vision.flags import candidates

    tile = _tile("VVFFMM", "village", 3)
    found = candidates(tile)
    assert max(c.triangle for c in found) > 0.85
    assert sum(c.triangle > 0.85 for c in found) == 1, [round(c.triangle, 2) for c in found]


def test_no_flag_on_tiles_without_one() -> None:
    codes = ["VVVMFF", "GGGGMM", "FFFFFF", "VVMTTM", "SGGSMF", "MVVVMF", "GMGMGM", "FVFVFV"]
    seen = [(code, seed) for code in codes for seed in range(3)
            if find_flag(_tile(code, None, seed), code) is not None]
    assert not seen


def test_a_pennant_cut_by_the_tile_edge_is_no_flag() -> None:
    """A pennant on the hexagon's rim belongs to a neighbour seen through an offset
    outline (or is cut by the edge): not this tile's flag."""
    from companion.vision.flags import candidates

    for seed, kind in enumerate(sorted(CODES)):
        tile = _tile(CODES[kind], kind, seed)
        flag = find_flag(tile, CODES[kind])
        assert flag is not None
        h, w = tile.shape[:2]
        dy = (h - 10) - flag.center[1]  # move the pennant's centre onto the bottom rim
        m = np.float32([[1, 0, (w / 2 - flag.center[0]) * 0.3], [0, 1, dy]])
        moved = cv2.warpAffine(tile, m, (w, h))
        at = (flag.center[0] + m[0, 2], h - 10)
        seen = [c for c in candidates(moved) if np.hypot(c.center[0] - at[0],
                                                         c.center[1] - at[1]) < 8]
        assert not seen, seen


def _art_tile(art: TileArt, seed: int) -> np.ndarray:
    img, _ = draw_tile(art, RADIUS, np.random.default_rng(seed))
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    half = img.shape[0] / 2
    return rectify(img, hexagon(RADIUS, (half, half)).astype(np.float32),
                   DEFAULT_CONFIG.rectify.detail_radius)


def test_a_sure_pennant_outranks_a_task_bubble() -> None:
    """A pennant's white outline round a strong colour can pass for a task's speech
    bubble: a tile read as a task without a marker is a landscape tile when a sharp
    pennant is found on it; a task tile's bubble and icon never look that sure."""
    from companion.vision.flags import candidates, outranks_bubble

    for seed, kind in enumerate(sorted(CODES) * 2):
        assert outranks_bubble(candidates(_tile(CODES[kind], kind, seed))), (kind, seed)
    tasks = ["forest", "grain", "village", "track", "stream"]
    for seed, task in enumerate(tasks * 2):
        tile = _art_tile(TileArt("FGVTSM", task, None, None), seed)
        assert not outranks_bubble(candidates(tile)), (task, seed)


def _pennant_pixels(tile: np.ndarray, kind: str) -> np.ndarray:
    """Where the drawn pennant of ``kind`` found on ``tile`` lies: its drawn colour
    (give or take blur) near the found flag's centre."""
    flag = find_flag(tile, CODES[kind])
    assert flag is not None and flag.kind == kind
    ref = np.asarray(FLAG_COLOURS[kind], np.int16)
    near = np.abs(tile.astype(np.int16) - ref).max(axis=2) < 60
    ys, xs = np.mgrid[:tile.shape[0], :tile.shape[1]]
    return np.asarray(near & (np.hypot(xs - flag.center[0], ys - flag.center[1]) < 14))


def _recoloured(tile: np.ndarray, where: np.ndarray, hsv: tuple[int, int, int]
                ) -> np.ndarray:
    out = tile.copy()
    out[where] = cv2.cvtColor(np.array([[hsv]], np.uint8), cv2.COLOR_HSV2BGR)[0, 0]
    return out


def test_a_greener_yellow_pennant_is_a_grain_flag_when_bright() -> None:
    """Photographed tiles show the yellow pennant at hues 29..32, near the meadow's: it
    is still a grain flag, being twice as bright as the meadow; as dull as the meadow,
    that colour is no pennant."""
    found, dull = [], []
    for seed in range(4):
        tile = _tile(CODES["grain"], "grain", seed)
        where = _pennant_pixels(tile, "grain")
        bright = find_flag(_recoloured(tile, where, (32, 200, 240)), CODES["grain"])
        found.append(bright.kind if bright else None)
        dim = find_flag(_recoloured(tile, where, (32, 200, 130)), CODES["grain"])
        dull.append(dim.kind if dim else None)
    assert found.count("grain") >= 3, found
    assert "grain" not in dull, dull


def _washed_out(tile: np.ndarray, keep: float) -> np.ndarray:
    """The tile with its saturation scaled by ``keep`` (haze, a washed-out camera)."""
    hsv = cv2.cvtColor(tile, cv2.COLOR_BGR2HSV)
    hsv[:, :, 1] = cv2.convertScaleAbs(hsv[:, :, 1], alpha=keep)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)


def test_saturation_gain_raises_only_a_pale_meadow() -> None:
    from companion.vision.flags import _inside, saturation_gain

    tile = _tile(CODES["forest"], "forest", 0)
    inside = _inside(tile.shape[1] // 2, tile.shape[:2])
    assert saturation_gain(cv2.cvtColor(tile, cv2.COLOR_BGR2HSV), inside) == 1.0
    pale = cv2.cvtColor(_washed_out(tile, 0.55), cv2.COLOR_BGR2HSV)
    assert saturation_gain(pale, inside) > 1.3


def test_flags_found_on_a_washed_out_tile() -> None:
    """A hazy or washed-out photo pales every colour, the pennant's below the search's
    saturation: the tile's own meadow tells how much to raise it again."""
    kinds = []
    for seed, kind in enumerate(sorted(CODES) * 2):
        flag = find_flag(_washed_out(_tile(CODES[kind], kind, seed), 0.55), CODES[kind])
        kinds.append(flag.kind if flag else None)
        assert flag is None or flag.kind == kind
    assert kinds.count(None) <= 1, kinds


def test_no_flag_on_washed_out_tiles_without_one() -> None:
    codes = ["VVVMFF", "GGGGMM", "FFFFFF", "SGGSMF", "MVVVMF", "GMGMGM"]
    seen = [(code, seed) for code in codes for seed in range(2)
            if find_flag(_washed_out(_tile(code, None, seed), 0.55), code) is not None]
    assert not seen


def test_unveiled_divides_out_a_glare_veil_of_any_size() -> None:
    """The scan measures glare on the working-resolution tile; the flag search divides
    it out of the detail tile, where a veil had paled the pennant."""
    from companion.vision.flags import unveiled

    kinds, veiled_kinds = [], []
    for seed, kind in enumerate(sorted(CODES) * 2):
        tile = _tile(CODES[kind], kind, seed)
        veil = np.full((tile.shape[0] // 2, tile.shape[1] // 2), 0.65, np.float32)
        seen = np.clip(0.35 * tile.astype(np.float32) + 0.65 * 255.0, 0, 255).astype(np.uint8)
        back = unveiled(seen, veil)
        assert back.shape == tile.shape
        assert float(np.abs(back.astype(np.float32) - tile).mean()) < 3.0
        flag = find_flag(back, CODES[kind])
        kinds.append(flag.kind if flag else None)
        veiled = find_flag(seen, CODES[kind])
        veiled_kinds.append(veiled.kind if veiled else None)
    assert kinds.count(None) <= 1, kinds
    assert veiled_kinds.count(None) >= 3, veiled_kinds  # what the veil did
    tile = _tile(CODES["grain"], "grain", 0)
    assert unveiled(tile, np.zeros((5, 5), np.float32)) is tile


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 255), min_size=1, max_size=60), st.sampled_from(
    [np.uint8, np.float32, np.float64]), st.floats(-3.0, 3.0))
def test_the_quick_median_is_numpy_s(values: list[int], dtype: type, shift: float) -> None:
    data = np.array(values, np.float64)
    data = (data if dtype is np.uint8 else data / 7.0 + shift).astype(dtype)
    assert flags._median(data) == float(np.median(data))


def test_labels_sized_keeps_the_components_within_the_areas() -> None:
    mask = np.zeros((40, 60), np.uint8)
    mask[2:4, 2:4] = 1      # 4 px
    mask[10:15, 10:15] = 1  # 25 px
    mask[20:30, 30:40] = 1  # 100 px
    _, labels, stats = flags._components(mask, 8)
    area_of = {int(labels[3, 3]): 4, int(labels[12, 12]): 25, int(labels[25, 35]): 100}
    for least, most, kept in ((1, np.inf, {4, 25, 100}), (5, 100, {25, 100}),
                              (4, 25, {4, 25}), (26, 99, set())):
        assert {area_of[i] for i in flags._labels_sized(stats, least, most)} == kept
