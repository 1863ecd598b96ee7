"""A lone village tile shows its houses, not the game's field colours: a loose cell with
too little meadow, forest and grain still shows tile art when it shows houses
(``find.houses_min``, ``cell_art.houses``). Real OpenCV on drawn cells and on rendered
lone tiles."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import ScanError, scan
from companion.vision import edges as edges_mod
from companion.vision.cell_art import houses
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.rectify import standard_size
from companion.vision.synth.render import render_record


def _classes(roofs: list[tuple[int, int, int]]) -> np.ndarray:
    """A rectified cell of grey cobbles (``DARK``) with square roofs (x, y, side px)."""
    w, h = standard_size(DEFAULT_CONFIG.rectify.radius)
    classes = np.full((h, w), edges_mod.DARK, np.uint8)
    for x, y, side in roofs:
        classes[y:y + side, x:x + side] = edges_mod.ROOF
    return classes


def test_houses_are_roof_blobs_of_a_houses_size() -> None:
    r = DEFAULT_CONFIG.rectify.radius
    side = int(r * 0.18)  # about 1.2 % of the hexagon each
    three = [(r // 2, r // 2, side), (r, r // 2 + 3, side), (r, r + r // 3, side)]
    assert houses(_classes(three), DEFAULT_CONFIG) == 3
    # One red object much larger than a house, and specks too small for one: none.
    assert houses(_classes([(r // 2, r // 2, r)]), DEFAULT_CONFIG) == 0
    assert houses(_classes([(r // 2, r // 2, 2), (r, r, 2)]), DEFAULT_CONFIG) == 0


def _lone(code: str, seed: int, real_table: bool) -> bytes:
    r = render_record(f"game: board-game\n0 0 {code}\n", seed=seed, real_table=real_table)
    return cv2.imencode(".jpg", r.image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


@pytest.mark.parametrize("real_table", [False, True])
def test_a_lone_village_tile_is_read_not_refused(real_table: bool) -> None:
    """VVVVSS alone (seed 309, the lone-tile sweep of session 33): its grey cobbles beside
    its own bright meadow leave a fifth of the game's colours, and the photo was refused
    as not showing the game's colours; its six houses show a tile."""
    photo = _lone("VVVVSS", 309, real_table)
    result = scan(photo)
    assert (result.kind, len(result.tiles)) == ("loose", 1)
    code = result.tiles[0].placement.code
    assert code in {"VVVVSS"[i:] + "VVVVSS"[:i] for i in range(6)}
    with pytest.raises(ScanError, match="no tiles recognised"):
        scan(photo, DEFAULT_CONFIG.tuned(houses_min=0))


def test_a_red_hexagon_is_still_not_a_tile() -> None:
    """A lone hexagon of one roof red (a red object) is one blob, no houses: refused."""
    img = np.full((900, 1200, 3), 225, np.uint8)
    angles = np.radians(np.arange(6) * 60.0)
    hexagon = np.stack([600 + 260 * np.cos(angles), 450 + 260 * np.sin(angles)], axis=1)
    cv2.fillPoly(img, [hexagon.astype(np.int32)], (40, 40, 190))
    with pytest.raises(ScanError, match="no tiles recognised"):
        scan(img)
