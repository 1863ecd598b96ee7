"""Table in a pool of light or under glare is table (``background.table_in_glare``,
``background.glare_as_table``, off by default): loose tiles the lit table joined into
one component lie apart again; tile art under the same glare stays foreground. Drawn
photos, real OpenCV."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision.background import foreground_mask, table_in_glare
from companion.vision.config import DEFAULT_CONFIG
from tests.helpers.lit_table import TILES, hexagon, lit_photo

GLARE = DEFAULT_CONFIG.tuned(glare_as_table=True)


def _components(mask: np.ndarray) -> int:
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    return sum(1 for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > 2000)


@pytest.mark.parametrize("table", [(40, 95, 45), (40, 75, 140), (50, 52, 50)],
                         ids=["green felt", "wood", "dark grey"])
def test_tiles_joined_by_a_pool_of_light_and_glare_lie_apart(table: tuple[int, int, int]
                                                             ) -> None:
    image = lit_photo(table, pool=1.7, glare=0.7)
    off = foreground_mask(image, DEFAULT_CONFIG)
    on = foreground_mask(image, GLARE)
    assert _components(off) == 1  # the lit table between them is foreground
    assert _components(on) == 2
    assert not on[450, 610] and not on[450, 900]


def test_tile_art_under_glare_stays_foreground() -> None:
    image = lit_photo((40, 95, 45), pool=1.0, glare=0.6)
    glare = table_in_glare(image, GLARE)
    mask = foreground_mask(image, GLARE)
    for c in TILES:
        inside = np.zeros(mask.shape, np.uint8)
        cv2.fillPoly(inside, [hexagon(c)], 1)
        assert mask[inside > 0].mean() > 0.95 * 255
        assert glare[inside > 0].mean() < 0.05
