"""A bounded pool for photo scans, so a burst of uploads cannot starve the tables.

Representation: one ``ScanPool`` per app (``app.extensions["scan_pool"]``) with three
bounds: ``workers`` scans run at once (sized to the machine: one core is left for the
tables' requests), at most ``queue`` more wait for a worker, and the decoded pixels of the
running scans stay under ``memory_budget`` (a scan's memory grows with its pixels x
channels). ``run(work, memory)`` runs ``work()`` in the calling thread once admitted, so
the scan's own time limit starts when it starts, never while it waits. A request beyond
the queue, or one that waited ``max_wait_s`` in vain, gets ``ScanBusy`` (the app answers
503 with ``Retry-After``).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


class ScanBusy(Exception):
    """Every scan worker is busy and the queue is full; try again after ``retry_after`` s."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"busy: retry after {retry_after} s")
        self.retry_after = retry_after


def default_workers() -> int:
    """Scans at once: every core but one (at least one)."""
    return max(1, (os.cpu_count() or 1) - 1)


class ScanPool:
    """Admission control for scans: ``workers`` running, ``queue`` waiting, a pixel budget."""

    def __init__(self, workers: int, queue: int, memory_budget: int,
                 max_wait_s: float = 30.0, retry_after_s: int = 10) -> None:
        if workers < 1 or queue < 0 or memory_budget < 1:
            raise ValueError("a scan pool needs a worker, a queue >= 0 and a pixel budget")
        self.workers, self.queue, self.memory_budget = workers, queue, memory_budget
        self.max_wait_s, self.retry_after_s = max_wait_s, retry_after_s
        self._cond = threading.Condition()
        self.running = 0
        self.waiting = 0
        self.memory = 0

    def _fits(self, memory: int) -> bool:
        if self.running >= self.workers:
            return False
        # one scan alone always fits, so a photo under the per-scan limit is never refused
        return self.running == 0 or self.memory + memory <= self.memory_budget

    def run(self, work: Callable[[], T], memory: int = 0) -> T:
        """``work()`` once a worker and the memory are free; ``ScanBusy`` when full."""
        deadline = time.monotonic() + self.max_wait_s
        with self._cond:
            if not self._fits(memory):
                if self.waiting >= self.queue:
                    raise ScanBusy(self.retry_after_s)
                self.waiting += 1
                try:
                    while not self._fits(memory):
                        left = deadline - time.monotonic()
                        if left <= 0:
                            raise ScanBusy(self.retry_after_s)
                        self._cond.wait(left)
                finally:
                    self.waiting -= 1
            self.running += 1
            self.memory += memory
        try:
            return work()
        finally:
            with self._cond:
                self.running -= 1
                self.memory -= memory
                self._cond.notify_all()


def init_app(app: Any) -> None:
    """One pool per app, from ``SCAN_WORKERS`` (default: every core but one),
    ``SCAN_QUEUE`` (4), ``SCAN_MEMORY_BYTES`` (decoded pixels x channels of the scans at
    once, 512 MB), ``SCAN_MAX_WAIT_S`` (30) and ``SCAN_RETRY_AFTER_S`` (10)."""
    cfg = app.config
    app.extensions["scan_pool"] = ScanPool(
        workers=int(cfg.get("SCAN_WORKERS") or default_workers()),
        queue=int(cfg.get("SCAN_QUEUE", 4)),
        memory_budget=int(cfg.get("SCAN_MEMORY_BYTES", 512 * 1024 * 1024)),
        max_wait_s=float(cfg.get("SCAN_MAX_WAIT_S", 30.0)),
        retry_after_s=int(cfg.get("SCAN_RETRY_AFTER_S", 10)))


def of(app: Any) -> ScanPool:
    """The app's scan pool."""
    pool: ScanPool = app.extensions["scan_pool"]
    return pool
