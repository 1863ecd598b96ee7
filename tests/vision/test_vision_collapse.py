"""No collapse: a compact map whose outline looks like one big hexagon is a map, a lone
tile stays one tile (issue 14 item 1). Rendered photos, real OpenCV."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.rules import catalogue, rotate
from companion.vision import scan
from companion.vision.synth.render import render_record


def _hexagonal_map(radius: int, seed: int) -> str:
    """A record filling a hexagon of hexes (its outline is nearly one big hexagon)."""
    rng = np.random.default_rng(seed)
    codes = [t.code for t in catalogue()]
    order = rng.permutation(len(codes))
    lines, i = ["game: board-game"], 0
    for q in range(-radius, radius + 1):
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1):
            lines.append(f"{q} {r} {rotate(codes[order[i]], int(rng.integers(6)))}")
            i += 1
    return "\n".join(lines) + "\n"


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


@pytest.mark.slow
def test_a_hexagon_shaped_map_is_read_as_a_map_not_one_tile() -> None:
    """Before the change this photo came back as one loose tile."""
    rendered = render_record(_hexagonal_map(3, 5), seed=5)
    result = scan(_jpeg(rendered.image))
    assert result.kind == "assembled"
    assert len(result.tiles) >= 0.95 * len(rendered.tiles) == 0.95 * 37


@pytest.mark.parametrize("seed", [4, 8])
def test_a_lone_tile_stays_one_tile_and_the_scan_says_so(seed: int) -> None:
    code = catalogue()[seed].code
    rendered = render_record(f"game: board-game\n0 0 {code}\n", seed=seed)
    result = scan(_jpeg(rendered.image))
    assert result.kind == "loose" and len(result.tiles) == 1
    assert any("only one tile" in w for w in result.warnings)
