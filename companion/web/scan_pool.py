"""A bounded pool for photo scans, so a burst of uploads cannot starve the tables.

Representation: one ``ScanPool`` per app (``app.extensions["scan_pool"]``) with three
bounds: ``workers`` scans run at once (sized to the machine: one core is left for the
tables' requests), at most ``queue`` more wait for a worker, and the decoded pixels of the
running scans stay under ``pixel_budget`` (a scan's memory grows with its pixels x
channels). ``run(work, pixels)`` runs ``work()`` in the calling thread once admitted, so
the scan's own time limit starts when it starts, never while it waits. A request beyond
the queue, or one that waited ``max_wait_s`` in vain, gets ``ScanBusy`` (the app answers
503 with ``Retry-After``).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import TypeVar

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

    def __init__(self, workers: int, queue: int, pixel_budget: int,
                 max_wait_s: float = 30.0, retry_after_s: int = 10) -> None:
        if workers < 1 or queue < 0 or pixel_budget < 1:
            raise ValueError("a scan pool needs a worker, a queue >= 0 and a pixel budget")
        self.workers, self.queue, self.pixel_budget = workers, queue, pixel_budget
        self.max_wait_s, self.retry_after_s = max_wait_s, retry_after_s
        self._cond = threading.Condition()
        self.running = 0
        self.waiting = 0
        self.pixels = 0

    def _fits(self, pixels: int) -> bool:
        if self.running >= self.workers:
            return False
        # one scan alone always fits, so a photo under the per-scan limit is never refused
        return self.running == 0 or self.pixels + pixels <= self.pixel_budget

    def run(self, work: Callable[[], T], pixels: int = 0) -> T:
        """``work()`` once a worker and the pixels are free; ``ScanBusy`` when full."""
        deadline = time.monotonic() + self.max_wait_s
        with self._cond:
            if not self._fits(pixels):
                if self.waiting >= self.queue:
                    raise ScanBusy(self.retry_after_s)
                self.waiting += 1
                try:
                    while not self._fits(pixels):
                        left = deadline - time.monotonic()
                        if left <= 0:
                            raise ScanBusy(self.retry_after_s)
                        self._cond.wait(left)
                finally:
                    self.waiting -= 1
            self.running += 1
            self.pixels += pixels
        try:
            return work()
        finally:
            with self._cond:
                self.running -= 1
                self.pixels -= pixels
                self._cond.notify_all()
