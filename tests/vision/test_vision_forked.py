"""The tiles' reading shared with a forked copy of the process (``forked.in_two``): the
results are the loop's, in order, the first error in order is raised, and a child that
dies, hangs or sends what cannot be pickled costs time, never results."""

from __future__ import annotations

import os
import time

import pytest

from companion.vision import forked
from companion.vision.forked import in_two

needs_fork = pytest.mark.skipif(not forked.available(), reason="forks only on Linux, 2+ cores")


def test_results_come_back_in_order() -> None:
    for n in (0, 1, 2, 7):
        assert in_two(lambda x: x * x, list(range(n))) == [x * x for x in range(n)]


@needs_fork
def test_the_odd_items_are_computed_in_another_process() -> None:
    parent = os.getpid()
    pids = in_two(lambda _: os.getpid(), list(range(6)))
    assert pids[0::2] == [parent] * 3
    assert all(p != parent for p in pids[1::2])


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
