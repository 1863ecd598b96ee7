"""Draw the app icons (PNG) with Pillow: ``python -m companion.web.icons``.

Representation: a flat-topped hex tile whose six edge triangles show the six terrains
(edge 0 at the top, clockwise: forest, grain, village, track, stream, meadow), on the
theme colour; written to ``static/icons/icon-{32,180,192,512}.png`` and a maskable
512 px variant with a wider safe margin. Palette images keep the files small.
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

from companion.web import ROOT

BACKGROUND = (47, 93, 58)
TERRAIN = [(62, 123, 58), (227, 192, 74), (192, 80, 77), (138, 138, 138), (74, 144, 194),
           (169, 207, 114)]
SIZES = {"icon-32.png": (32, 0.46), "icon-180.png": (180, 0.42), "icon-192.png": (192, 0.42),
         "icon-512.png": (512, 0.42), "icon-maskable-512.png": (512, 0.32)}


def draw_icon(size: int, radius_ratio: float) -> Image.Image:
    scale = 4  # supersample, then shrink for smooth edges
    big = size * scale
    img = Image.new("RGB", (big, big), BACKGROUND)
    d = ImageDraw.Draw(img)
    cx = cy = big / 2
    r = big * radius_ratio
    corners = [(cx + r * math.cos(math.radians(60 * k)), cy + r * math.sin(math.radians(60 * k)))
               for k in range(6)]
    for edge in range(6):
        a, b = corners[(edge + 4) % 6], corners[(edge + 5) % 6]
        d.polygon([(cx, cy), a, b], fill=TERRAIN[edge])
    d.polygon(corners, outline=(250, 246, 235), width=max(scale, big // 60))
    small = img.resize((size, size), Image.Resampling.LANCZOS)
    return small.quantize(colors=32, method=Image.Quantize.MEDIANCUT)


def main(out: Path = ROOT / "static" / "icons") -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name, (size, ratio) in SIZES.items():
        draw_icon(size, ratio).save(out / name, optimize=True)
        print(f"{name}: {(out / name).stat().st_size} bytes")


if __name__ == "__main__":
    main()
