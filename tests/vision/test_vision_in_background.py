"""in_background.Background: a value computed in a thread, its error raised where it is read."""

from __future__ import annotations

import threading
from functools import partial

import pytest

from companion.vision.in_background import Background, settle


def test_the_value_is_computed_in_another_thread_and_waited_for() -> None:
    release = threading.Event()
    ran_in: list[str] = []

    def compute() -> int:
        ran_in.append(threading.current_thread().name)
        release.wait(5)
        return 42

    job = Background(compute, "the-job")
    release.set()
    assert job.result() == 42
    assert job.result() == 42
    assert ran_in == ["the-job"]


def test_an_error_in_the_thread_is_raised_by_every_read() -> None:
    def compute() -> int:
        raise ValueError("broken")

    job = Background(compute)
    for _ in range(2):
        with pytest.raises(ValueError, match="broken"):
            job.result()


def test_a_ready_value_needs_no_thread() -> None:
    before = threading.active_count()
    job = Background.ready([1, 2])
    assert threading.active_count() == before
    assert job.result() == [1, 2]


def test_none_is_a_value_like_any_other() -> None:
    assert Background(lambda: None).result() is None


def test_settle_waits_for_every_running_thread() -> None:
    release = threading.Event()
    done: list[int] = []

    def slow(i: int) -> int:
        release.wait(5)
        done.append(i)
        return i

    jobs = [Background(partial(slow, i)) for i in range(3)]
    waiter = threading.Thread(target=settle)
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive()  # the three are still running
    release.set()
    waiter.join(5)
    assert not waiter.is_alive() and sorted(done) == [0, 1, 2]
    assert [j.result() for j in jobs] == [0, 1, 2]
    settle()  # nothing running: returns at once
