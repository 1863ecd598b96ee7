"""Drawn photos of tiles on a table lit by a pool of light and glare.

Representation: ``lit_photo(table, pool, glare, tiles)`` is a BGR uint8 image of
``SIZE`` (width, height): a table of colour ``table`` (BGR) with noise, hexagonal tiles
of ``RADIUS`` (pointy at left and right) centred at ``tiles``, each a cardboard rim
around meadow, a grain field and a forest's trees; the light is ``pool`` times as bright
at ``LIGHT`` and blends towards white by up to ``glare`` there.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

SIZE = (1200, 900)
TILES = ((520.0, 450.0), (700.0, 450.0))
RADIUS = 70.0
LIGHT = (610.0, 450.0)


def hexagon(centre: tuple[float, float], radius: float = RADIUS) -> np.ndarray:
    """The corners of a tile's outline, as int32 pixel coordinates."""
    return np.array([(centre[0] + radius * math.cos(math.radians(60 * k)),
                      centre[1] + radius * math.sin(math.radians(60 * k)))
                     for k in range(6)], np.int32)


def lit_photo(table: tuple[int, int, int], pool: float, glare: float,
              tiles: tuple[tuple[float, float], ...] = TILES) -> np.ndarray:
    w, h = SIZE
    rng = np.random.default_rng(5)
    image = np.clip(rng.normal(table, 2.0, (h, w, 3)), 0, 255).astype(np.float32)
    for c in tiles:
        cv2.fillPoly(image, [hexagon(c)], (40, 60, 90))  # the cardboard rim
        cv2.fillPoly(image, [hexagon(c, RADIUS * 0.92)], (60, 175, 150))  # meadow
        cv2.rectangle(image, (int(c[0]) - 30, int(c[1]) - 40), (int(c[0]) + 30, int(c[1])),
                      (40, 190, 225), -1)  # grain
        for k in range(12):
            x, y = int(c[0] - 40 + 7 * k), int(c[1] + 20 + 9 * (k % 3))
            cv2.circle(image, (x, y), 6, (30, 70, 35), -1)  # trees
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    d2 = ((xs - LIGHT[0]) ** 2 + (ys - LIGHT[1]) ** 2)
    image *= (1.0 + (pool - 1.0) * np.exp(-d2 / (2 * 260.0 ** 2)))[..., None]
    shine = (glare * np.exp(-d2 / (2 * 70.0 ** 2)))[..., None]
    image = image * (1 - shine) + 255.0 * shine
    return np.clip(image, 0, 255).astype(np.uint8)
