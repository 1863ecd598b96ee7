"""The scan works in parallel: the lattice's starts refined and its layouts placed
(``scan._shared``), and the tiles read, are shared with a forked process
(``forked.in_two``; ``io.fork_locating``, ``io.fork_reading``), or without those by
threads (``scan._in_parallel``): the scan is the same with one thread, several or a
fork. A rendered photo with tasks, markers and flags, real OpenCV."""

from __future__ import annotations

import cv2
import pytest

from companion.vision import scan
from companion.vision.config import DEFAULT_CONFIG
from companion.vision.scan import _in_parallel
from companion.vision.synth.render import render_record
from companion.vision.synth.render_records import random_record


def test_one_thread_several_or_a_fork_read_the_same_map() -> None:
    r = render_record(random_record(41, 24), seed=41, size_px=(2400, 1800), real_table=True)
    photo = cv2.imencode(".jpg", r.image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
    one = scan(photo, DEFAULT_CONFIG.tuned(threads=1, fork_reading=False, fork_locating=False,
                                           time_limit_s=120.0))
    several = scan(photo, DEFAULT_CONFIG.tuned(threads=3, fork_reading=False,
                                               fork_locating=False, time_limit_s=120.0))
    fork = scan(photo, DEFAULT_CONFIG.tuned(fork_reading=True, fork_locating=True,
                                            time_limit_s=120.0))
    assert len(one.tiles) >= 20
    assert one.to_json()["tiles"] == several.to_json()["tiles"] == fork.to_json()["tiles"]


def test_parallel_work_keeps_the_order_of_its_items() -> None:
    config = DEFAULT_CONFIG.tuned(threads=2)
    assert _in_parallel(lambda x: x * x, list(range(20)), config) == [x * x for x in range(20)]
    assert _in_parallel(lambda x: x, [], config) == []


def test_parallel_work_raises_the_first_error_as_the_loop_would() -> None:
    def work(x: int) -> int:
        if x >= 3:
            raise ValueError(f"item {x}")
        return x

    for threads in (1, 2):
        with pytest.raises(ValueError, match="item 3"):
            _in_parallel(work, list(range(6)), DEFAULT_CONFIG.tuned(threads=threads))
