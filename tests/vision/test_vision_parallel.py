"""Tiles are read in parallel (``scan.read_tiles``): the scan is the same with one thread
or several. A rendered photo with tasks, markers and flags, real OpenCV."""

from __future__ import annotations

import cv2

from companion.vision import scan
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.synth.render import render_record
from companion.vision.synth.render_records import random_record


def test_one_thread_or_several_read_the_same_map() -> None:
    r = render_record(random_record(41, 24), seed=41, size_px=(2400, 1800), real_table=True)
    photo = cv2.imencode(".jpg", r.image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
    one = scan(photo, DEFAULT_CONFIG.tuned(threads=1, time_limit_s=120.0))
    several = scan(photo, DEFAULT_CONFIG.tuned(threads=3, time_limit_s=120.0))
    assert len(one.tiles) >= 20
    assert one.to_json()["tiles"] == several.to_json()["tiles"]
