"""The renderer: ground truth consistent with the pixels, determinism, errors."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from companion.rules import Hex
from companion.vision.synth import render_art as art
from companion.vision.synth.render import BOARD, render_record
from companion.vision.synth.render_scene import project

RECORD = """game: board-game
0 0 GGMTTM
0 1 TFFFFT task=forest/5
1 0 SSMFFM flag=forest
-1 1 VVVMMT
1 -1 MMGGSS
0 -1 FFVVMM task=village/4
-1 0 MVVVGG
"""

# colour families of the procedural art (BGR), one list per terrain letter
FAMILIES = {
    "M": [art.MEADOW, art.MEADOW_DARK],
    "F": [art.FOREST_FLOOR, *art.FOREST_CROWNS],
    "G": [art.GRAIN, art.GRAIN_STRIPE],
    "V": [art.COBBLE, art.COBBLE_LINE, art.ROOF, art.ROOF_DARK],
    "T": [art.BALLAST, art.SLEEPER, art.RAIL],
    "S": [art.WATER, art.WATER_LIGHT, art.BANK],
}


def _lab(bgr: tuple[int, int, int] | np.ndarray) -> np.ndarray:
    px = np.uint8([[list(bgr)]])
    return cv2.cvtColor(px, cv2.COLOR_BGR2LAB)[0, 0].astype(float)


def _family(bgr: np.ndarray) -> str:
    lab = _lab(bgr)
    best = min(((float(np.linalg.norm(lab - _lab(c))), letter)
                for letter, colours in FAMILIES.items() for c in colours))
    return best[1]


def _edge_families(image: np.ndarray, tiles, frac: float = 0.8) -> tuple[int, int]:
    right = total = 0
    for t in tiles:
        c = np.array(t.centre)
        for e, mid in enumerate(t.edge_midpoints):
            x, y = c + frac * (np.array(mid) - c)
            patch = image[int(y) - 2:int(y) + 3, int(x) - 2:int(x) + 3].reshape(-1, 3)
            total += 1
            right += _family(np.median(patch, axis=0).astype(np.uint8)) == t.code[e]
    return right, total


def clean(**kw):
    options = dict(size_px=(1200, 900), lighting=0.0, shadow=0.0, glare=0.0, blur=0.0,
                   noise=0.0, jpeg_quality=None, yaw_deg=0.0)
    options.update(kw)
    return render_record(RECORD, seed=3, **options)


def test_truth_lists_every_placement_with_its_attributes():
    r = clean(tilt_deg=10)
    by_at = {t.at: t for t in r.tiles}
    assert set(by_at) == {Hex(0, 0), Hex(0, 1), Hex(1, 0), Hex(-1, 1), Hex(1, -1), Hex(0, -1),
                          Hex(-1, 0)}
    assert by_at[Hex(0, 1)].task_type == "forest" and by_at[Hex(0, 1)].marker == 5
    assert by_at[Hex(1, 0)].flag == "forest"
    assert by_at[Hex(0, 0)].code == "GGMTTM"
    assert all(len(t.edge_midpoints) == 6 and len(t.corners) == 6 for t in r.tiles)
    assert r.image.shape == (900, 1200, 3) and r.image.dtype == np.uint8


@pytest.mark.parametrize("tilt", [0.0, 35.0])
def test_homography_maps_lattice_to_tile_centres(tilt):
    r = clean(tilt_deg=tilt)
    for t in r.tiles:
        p = project(r.homography, np.array([BOARD.to_pixel(t.at)]))[0]
        # tiles are jittered by at most 0.025 tile units around their lattice point
        assert np.hypot(*(p - np.array(t.centre))) < 0.08 * r.tile_radius_px


def test_tilt_foreshortens_the_far_side():
    flat, tilted = clean(tilt_deg=0.0), clean(tilt_deg=35.0)

    def heights(r):
        return [abs(t.edge_midpoints[0][1] - t.edge_midpoints[3][1]) /
                abs(t.corners[0][0] - t.corners[3][0]) for t in r.tiles]

    assert np.median(heights(flat)) == pytest.approx(np.sqrt(3) / 2, rel=0.05)
    # seen from 35 degrees, depth shrinks by about cos(35 deg)
    assert np.median(heights(tilted)) == pytest.approx(np.sqrt(3) / 2 * np.cos(np.radians(35)),
                                                       rel=0.08)


@pytest.mark.parametrize("tilt", [0.0, 30.0])
def test_edge_bands_show_their_terrain_colour(tilt):
    r = clean(tilt_deg=tilt)
    right, total = _edge_families(r.image, r.tiles)
    assert right >= 0.95 * total


def test_edge_bands_survive_photo_effects():
    r = render_record(RECORD, seed=5, size_px=(1200, 900), tilt_deg=20, lighting=0.08,
                      shadow=0.0, glare=0.0, blur=0.8, noise=3.0, jpeg_quality=85)
    right, total = _edge_families(r.image, r.tiles)
    assert right >= 0.85 * total


def test_tiles_stand_out_from_the_table():
    r = clean(tilt_deg=15, background="cloth")
    hsv = cv2.cvtColor(r.image, cv2.COLOR_BGR2HSV)
    corner = r.image[:20, :20].reshape(-1, 3).mean(axis=0)
    assert corner.min() > 180 and hsv[:20, :20, 1].mean() < 40  # white cloth
    half = int(0.4 * r.tile_radius_px)
    for t in r.tiles:
        x, y = (int(v) for v in t.centre)
        assert hsv[y - half:y + half, x - half:x + half, 1].mean() > 80  # coloured art


def test_same_seed_same_photo_other_seed_other_photo():
    a = render_record(RECORD, seed=11, size_px=(480, 360))
    b = render_record(RECORD, seed=11, size_px=(480, 360))
    c = render_record(RECORD, seed=12, size_px=(480, 360))
    assert np.array_equal(a.image, b.image)
    assert a.truth_json() == b.truth_json()
    assert not np.array_equal(a.image, c.image)


def test_truth_json_is_plain_json():
    r = clean(tilt_deg=5)
    data = json.loads(json.dumps(r.truth_json()))
    assert data["size"] == [1200, 900]
    assert len(data["tiles"]) == 7 and len(data["homography"]) == 3


def test_bad_input_is_refused_with_a_reason():
    with pytest.raises(ValueError, match="no tiles"):
        render_record("game: board-game\n", seed=1)
    with pytest.raises(ValueError, match="background"):
        render_record(RECORD, seed=1, background="marble")
