"""The tiles' reading shared with a forked copy of the process (``forked.in_two``): the
results are the loop's, in order, each item taken once by whichever process is free
(``forked._Queue``), the first error in order is raised, and a child that dies, hangs
or sends what cannot be pickled costs time, never results."""

from __future__ import annotations

import os
import select
import threading
import time
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
import pytest

from companion.vision import forked, in_background, lab
from companion.vision.forked import in_two
from companion.vision.in_background import Background

needs_fork = pytest.mark.skipif(not forked.available(), reason="forks only on Linux, 2+ cores")


def test_results_come_back_in_order() -> None:
    for n in (0, 1, 2, 7):
        assert in_two(lambda x: x * x, list(range(n))) == [x * x for x in range(n)]


@needs_fork
def test_both_processes_take_items_and_a_slower_one_takes_fewer() -> None:
    parent = os.getpid()

    def work(_: int) -> int:
        time.sleep(0.02 if os.getpid() == parent else 0.08)
        return os.getpid()

    pids = in_two(work, list(range(20)))
    theirs = [p for p in pids if p != parent]
    assert theirs and len(set(theirs)) == 1  # one forked child
    assert 0 < len(theirs) < 20 - len(theirs)  # it runs 4 times slower: it takes fewer


def test_each_position_is_taken_once_by_one_of_two_readers() -> None:
    queue = forked._Queue(3000)
    taken: list[list[int]] = [[], []]
    for turn in range(3000):
        taken[turn % 2].append(next(queue))
    with pytest.raises(StopIteration):
        next(queue)
    queue.close()
    assert sorted(taken[0] + taken[1]) == list(range(3000))
    with pytest.raises(ValueError, match="at most"):
        forked._Queue(forked._Queue.MOST + 1)


@needs_fork
def test_a_queue_read_by_two_processes_gives_each_position_once() -> None:
    queue = forked._Queue(5000)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child takes what it can and sends it back
        os.close(read_end)
        mine = b"".join(i.to_bytes(4, "little") for i in queue)
        with os.fdopen(write_end, "wb") as out:
            out.write(mine)
        os._exit(0)
    os.close(write_end)
    ours = list(queue)
    with os.fdopen(read_end, "rb") as got:
        data = got.read()
    os.waitpid(pid, 0)
    queue.close()
    theirs = [int.from_bytes(data[i:i + 4], "little") for i in range(0, len(data), 4)]
    assert sorted(ours + theirs) == list(range(5000))
    assert ours == sorted(ours) and theirs == sorted(theirs)


@pytest.mark.parametrize(("bad", "first"), [((3, 4), 3), ((2, 5), 2), ((5,), 5), ((0, 1), 0)])
def test_the_first_error_in_order_is_raised(bad: tuple[int, ...], first: int) -> None:
    def work(x: int) -> int:
        if x in bad:
            raise ValueError(f"item {x}")
        return x

    with pytest.raises(ValueError, match=f"item {first}$"):
        in_two(work, list(range(8)))


@needs_fork
def test_a_child_that_dies_costs_no_result() -> None:
    parent = os.getpid()

    def work(x: int) -> int:
        if os.getpid() != parent:
            os._exit(3)
        return x + 1

    assert in_two(work, list(range(9))) == list(range(1, 10))


@needs_fork
def test_a_child_that_hangs_is_killed_and_its_share_computed_here() -> None:
    parent = os.getpid()

    def work(x: int) -> int:
        if os.getpid() != parent:
            time.sleep(600)
        return -x

    assert in_two(work, list(range(5)), wait_min_s=0.5) == [0, -1, -2, -3, -4]


@needs_fork
def test_results_that_cannot_be_pickled_are_computed_here() -> None:
    made = in_two(lambda x: (lambda: x), list(range(4)))
    assert [f() for f in made] == [0, 1, 2, 3]


@needs_fork
def test_the_scans_threads_end_before_the_fork() -> None:
    finished = threading.Event()

    def slow() -> None:
        time.sleep(0.3)
        finished.set()

    Background(slow)
    # in the child as in the parent, the thread's work is done
    assert in_two(lambda _: finished.is_set(), list(range(4))) == [True] * 4


def _in_child_despite_held_lock(lock: Any, job: Callable[[], bool]) -> bool:
    """Whether ``job`` returns True in a child forked while another thread holds
    ``lock`` (False when the child hangs: it is killed after 5 s)."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with lock:
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(5)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        try:
            os.write(write_end, b"1" if job() else b"0")
        finally:
            os._exit(0)
    os.close(write_end)
    ready, _, _ = select.select([read_end], [], [], 5)
    answer = os.read(read_end, 1) if ready else b""
    if not ready:
        os.kill(pid, 9)
    os.waitpid(pid, 0)
    os.close(read_end)
    release.set()
    holder.join()
    return answer == b"1"


@needs_fork
def test_opencvs_worker_threads_are_stopped_while_both_processes_work() -> None:
    # A worker of OpenCV's pool still holding the pool's lock at the fork left the child
    # waiting on it for ever (under load, about 1 scan in 30); stopped, none holds it.
    before = cv2.getNumThreads()
    cv2.setNumThreads(2)
    try:
        image = np.random.default_rng(1).integers(0, 255, (600, 800, 3), np.uint8)
        cv2.GaussianBlur(image, (0, 0), 3)  # the pool is started

        def work(_: int) -> tuple[int, int]:
            cv2.GaussianBlur(image, (0, 0), 3)
            time.sleep(0.02)  # long enough for the child to take some
            return os.getpid(), cv2.getNumThreads()

        seen = in_two(work, list(range(12)))
        assert {threads for _, threads in seen} == {1}  # in the child too, when it took some
        assert cv2.getNumThreads() == 2  # as many as before, once both are done
    finally:
        cv2.setNumThreads(before)


@needs_fork
def test_a_child_forked_while_a_thread_holds_the_scans_locks_does_not_hang() -> None:
    image = np.zeros((4, 5, 3), np.uint8)
    assert _in_child_despite_held_lock(lab._lock,
                                       lambda: lab.lab_of(image).shape == (4, 5, 3))
    assert _in_child_despite_held_lock(in_background._lock,
                                       lambda: Background(lambda: 7).result() == 7)
