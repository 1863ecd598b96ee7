"""Table in a pool of light or under glare is table (``background.table_in_glare``,
``background.glare_as_table``, off by default): loose tiles the lit table joined into
one component lie apart again; tile art under the same glare stays foreground. Drawn
photos, real OpenCV."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from companion.vision.background import foreground_mask, table_in_glare
from companion.vision.config import DEFAULT_CONFIG

GLARE = DEFAULT_CONFIG.tuned(glare_as_table=True)

SIZE = (1200, 900)
TILES = ((520.0, 450.0), (700.0, 450.0))
RADIUS = 70.0


def _hexagon(centre: tuple[float, float]) -> np.ndarray:
    return np.array([(centre[0] + RADIUS * math.cos(math.radians(60 * k)),
                      centre[1] + RADIUS * math.sin(math.radians(60 * k)))
                     for k in range(6)], np.int32)


def _photo(table: tuple[int, int, int], pool: float, glare: float) -> np.ndarray:
    """Two tiles (meadow, grain and a forest's dark texture) on a table lit by a pool of
    light ``pool`` times as bright and glare blending towards white by up to ``glare``,
    both centred between the tiles."""
    w, h = SIZE
    rng = np.random.default_rng(5)
    image = np.clip(rng.normal(table, 2.0, (h, w, 3)), 0, 255).astype(np.float32)
    for c in TILES:
        cv2.fillPoly(image, [_hexagon(c)], (40, 60, 90))  # the cardboard rim
        inner = (np.array(c) + (_hexagon(c) - np.array(c)) * 0.92).astype(np.int32)
        cv2.fillPoly(image, [inner], (60, 175, 150))  # meadow
        cv2.rectangle(image, (int(c[0]) - 30, int(c[1]) - 40), (int(c[0]) + 30, int(c[1])),
                      (40, 190, 225), -1)  # grain
        for k in range(12):
            x, y = int(c[0] - 40 + 7 * k), int(c[1] + 20 + 9 * (k % 3))
            cv2.circle(image, (x, y), 6, (30, 70, 35), -1)  # trees
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    d2 = ((xs - 610) ** 2 + (ys - 450) ** 2)
    image *= (1.0 + (pool - 1.0) * np.exp(-d2 / (2 * 260.0 ** 2)))[..., None]
    shine = (glare * np.exp(-d2 / (2 * 70.0 ** 2)))[..., None]
    image = image * (1 - shine) + 255.0 * shine
    return np.clip(image, 0, 255).astype(np.uint8)


def _components(mask: np.ndarray) -> int:
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    return sum(1 for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] > 2000)


@pytest.mark.parametrize("table", [(40, 95, 45), (40, 75, 140), (50, 52, 50)],
                         ids=["green felt", "wood", "dark grey"])
def test_tiles_joined_by_a_pool_of_light_and_glare_lie_apart(table: tuple[int, int, int]
                                                             ) -> None:
    image = _photo(table, pool=1.7, glare=0.7)
    off = foreground_mask(image, DEFAULT_CONFIG)
    on = foreground_mask(image, GLARE)
    assert _components(off) == 1  # the lit table between them is foreground
    assert _components(on) == 2
    assert not on[450, 610] and not on[450, 900]


def test_tile_art_under_glare_stays_foreground() -> None:
    image = _photo((40, 95, 45), pool=1.0, glare=0.6)
    glare = table_in_glare(image, GLARE)
    mask = foreground_mask(image, GLARE)
    for c in TILES:
        inside = np.zeros(mask.shape, np.uint8)
        cv2.fillPoly(inside, [_hexagon(c)], 1)
        assert mask[inside > 0].mean() > 0.95 * 255
        assert glare[inside > 0].mean() < 0.05
