"""A small map beside clutter larger than itself: when the lattice the clutter sized
shows none of the game's colours, the map is looked for again without it
(``find.clutter_retry``, ``scan._beside_clutter``). Held-out real-table renders and
drawn clutter, read with real OpenCV."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.vision import ScanError, scan
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.synth.evaluate import Case, run_case, truth_of_rendered
from companion.vision.synth.render import render_record
from companion.vision.synth.render_records import random_record


@pytest.mark.slow
def test_a_small_map_beside_a_score_pad_is_read_not_refused() -> None:
    """Render 26002 (5 tiles, held out: found by the small-map probe, not tuned on): a
    score pad's ruled lines set the lattice, none of its 35 cells on the map, and the
    photo was refused as "not Dorfromantik tiles"."""
    rendered = render_record(random_record(26002, 2), seed=26002, size_px=(3200, 2400),
                             real_table=True)
    assert "score pad" in rendered.params["real_table"]["clutter"]
    with pytest.raises(ScanError, match="colours are not those"):
        scan(rendered.image, DEFAULT_CONFIG.tuned(clutter_retry=False))
    ok, photo = cv2.imencode(".jpg", rendered.image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert ok
    case = Case("rendered-26002", photo.tobytes(), truth_of_rendered(rendered.tiles),
                "assembled")
    tally = run_case(case, scan)
    assert tally.errors == 0 and tally.extra == 0
    assert tally.placed_right >= len(case.truth) - 1


def test_clutter_alone_is_still_refused() -> None:
    """A ruled score pad and a card on a table, no tile: looked for again without
    them (the pad's cells fall short), nothing shows the game's colours, and the
    refusal stands."""
    rng = np.random.default_rng(3)
    image = np.clip(rng.normal((70, 90, 110), 4, (900, 1200, 3)), 0, 255).astype(np.uint8)
    cv2.rectangle(image, (80, 100), (480, 700), (225, 228, 230), -1)
    for y in range(140, 700, 40):
        cv2.line(image, (80, y), (480, y), (90, 60, 40), 2)
    cv2.rectangle(image, (620, 200), (900, 600), (235, 235, 235), -1)
    cv2.rectangle(image, (650, 240), (870, 420), (120, 40, 150), -1)
    for retry in (True, False):
        with pytest.raises(ScanError, match="colours are not those"):
            scan(image, DEFAULT_CONFIG.tuned(clutter_retry=retry))
