"""The scan pool: bounded running scans, a bounded queue, a pixel budget, busy beyond."""

from __future__ import annotations

import threading
import time

import pytest

from companion.web.scan_pool import ScanBusy, ScanPool


def _burst(pool: ScanPool, n: int, hold_s: float, memory: int = 0
           ) -> tuple[list[str], int]:
    """``n`` threads each run one held job; the outcomes and the most jobs seen at once."""
    outcomes: list[str] = []
    now = [0, 0]  # current, peak
    lock = threading.Lock()

    def job() -> str:
        with lock:
            now[0] += 1
            now[1] = max(now[1], now[0])
        time.sleep(hold_s)
        with lock:
            now[0] -= 1
        return "done"

    def client() -> None:
        try:
            result = pool.run(job, memory)
        except ScanBusy as err:
            result = f"busy {err.retry_after}"
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=client) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    return outcomes, now[1]


def test_beyond_workers_and_queue_the_answer_is_busy() -> None:
    pool = ScanPool(workers=2, queue=2, memory_budget=10**9, retry_after_s=7)
    outcomes, peak = _burst(pool, 8, 0.3)
    assert peak == 2
    assert outcomes.count("done") == 4 and outcomes.count("busy 7") == 4
    assert (pool.running, pool.waiting, pool.memory) == (0, 0, 0)


def test_a_waiting_scan_gives_up_after_the_longest_wait() -> None:
    pool = ScanPool(workers=1, queue=5, memory_budget=10**9, max_wait_s=0.1)
    outcomes, _ = _burst(pool, 3, 0.5)
    assert outcomes.count("done") == 1 and outcomes.count("busy 10") == 2


def test_the_memory_budget_holds_big_photos_back_but_never_refuses_one_alone() -> None:
    pool = ScanPool(workers=4, queue=4, memory_budget=100)
    outcomes, peak = _burst(pool, 3, 0.2, memory=60)
    assert peak == 1 and outcomes == ["done"] * 3
    assert pool.run(lambda: "alone", memory=1000) == "alone"


def test_the_work_starts_only_when_admitted() -> None:
    pool = ScanPool(workers=1, queue=1, memory_budget=10**9)
    started: list[float] = []
    t0 = time.monotonic()

    def timed() -> None:
        started.append(time.monotonic() - t0)
        time.sleep(0.3)

    threads = [threading.Thread(target=pool.run, args=(timed,)) for _ in range(2)]
    for t in threads:
        t.start()
        time.sleep(0.05)
    for t in threads:
        t.join(5)
    assert started[0] < 0.1 and started[1] >= 0.29


def test_an_error_in_the_work_frees_its_worker() -> None:
    pool = ScanPool(workers=1, queue=0, memory_budget=10)

    def fail() -> None:
        raise RuntimeError("scan crashed")

    with pytest.raises(RuntimeError):
        pool.run(fail, memory=5)
    assert pool.run(lambda: 3) == 3


def test_a_pool_needs_sane_bounds() -> None:
    with pytest.raises(ValueError):
        ScanPool(workers=0, queue=1, memory_budget=1)
