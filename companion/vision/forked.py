"""Independent jobs shared with a forked copy of this process (the tiles' reading).

Representation: ``in_two(work, items)`` writes every position, in order, to a pipe both
processes read (``_Queue``: a read of one position is atomic, so each is taken once)
and forks once. Parent and child each take the next position until the pipe is empty
(or their own item raised): a process that runs slower (the child faulting in the
pages it shares, a tile with much art) takes fewer. The child writes ``(results,
error)`` pickled to a second pipe (``error``: the index and exception of the first
item that raised, else None) and leaves with ``os._exit``; the parent then reads it.
The first error in the items' order is raised, as a loop would raise it. The scan's
own threads (``in_background``: the photo's detail copy, the table's autocorrelation)
are waited for before the fork, and OpenCV's pool of worker threads is stopped
(``_opencv_single``) until both processes are done: a worker still holding the pool's
lock at the fork left the child waiting on it for ever (under load about 1 scan in 30
lost ``wait_min_s`` so), and with two processes on two cores each works best alone.

Why a process: reading a tile is many small numpy and OpenCV calls that hold the GIL
between them, so two threads read hardly faster than one; a forked child shares the
photo and the loaded models without copying them. Nothing is lost when the child
fails: when it dies, sends nothing readable or is still silent ``wait_factor`` times
the parent's own time after the parent is done (at least ``wait_min_s``), the parent
kills it and computes what it took itself. Only on Linux with two cores or more (fork
is unsafe on macOS and absent on Windows); elsewhere the items are computed in a loop.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar, cast

import cv2

from companion.vision.in_background import settle

_T = TypeVar("_T")
_R = TypeVar("_R")

WAIT_FACTOR = 4.0
WAIT_MIN_S = 10.0


def available() -> bool:
    """Whether ``in_two`` forks here (Linux, two cores or more)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and (os.cpu_count() or 1) >= 2


def in_two(work: Callable[[_T], _R], items: list[_T], wait_factor: float = WAIT_FACTOR,
           wait_min_s: float = WAIT_MIN_S) -> list[_R]:
    """``[work(x) for x in items]``, shared with a forked child (see the module
    docstring)."""
    if len(items) < 2 or not available():
        return [work(x) for x in items]
    settle()  # a fork copies only this thread: a lock another one holds stays held
    with _opencv_single():
        queue = _Queue(len(items))
        read_end, write_end = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            queue.close()
            os.close(read_end)
            os.close(write_end)
            return [work(x) for x in items]
        if pid == 0:
            _child(work, items, queue, read_end, write_end)  # never returns
        os.close(write_end)
        start = time.perf_counter()
        try:
            mine, mine_error = _run(work, items, queue)
            patience = max(wait_min_s, wait_factor * (time.perf_counter() - start))
            data = _read_until(read_end, time.perf_counter() + patience)
        finally:
            queue.close()
            os.close(read_end)
            _reap(pid)
    got = _unpickled(data)
    if got is None:  # the child failed: what it took (up to the parent's error) is computed here
        stop = len(items) if mine_error is None else mine_error[0]
        got = _run(work, items, [i for i in range(stop) if i not in mine])
    done: dict[int, _R] = {**mine, **cast("dict[int, _R]", got[0])}
    errors = [e for e in (mine_error, got[1]) if e is not None]
    if errors:
        raise min(errors, key=lambda e: e[0])[1]
    return [done[i] for i in range(len(items))]


@contextmanager
def _opencv_single() -> Iterator[None]:
    """OpenCV's worker threads stopped (one thread: its calls run in the caller) for
    the block, then as many as before."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        yield
    finally:
        cv2.setNumThreads(threads)


class _Queue:
    """The positions ``0 .. n - 1`` in a pipe, 4 bytes each, all written before the
    fork (a pipe holds 64 KiB: 16,384 positions; more are refused). Reading one is a
    single ``read`` of 4 bytes, which the kernel serves whole to one reader at a
    time; an empty pipe whose writing end is closed reads as its end."""

    SIZE = 4
    MOST = 16_384

    def __init__(self, n: int) -> None:
        if n > self.MOST:
            raise ValueError(f"at most {self.MOST} items (got {n})")
        self._read, write = os.pipe()
        try:
            os.write(write, b"".join(i.to_bytes(self.SIZE, "little") for i in range(n)))
        finally:
            os.close(write)

    def __iter__(self) -> _Queue:
        return self

    def __next__(self) -> int:
        data = os.read(self._read, self.SIZE)
        if len(data) < self.SIZE:
            raise StopIteration
        return int.from_bytes(data, "little")

    def close(self) -> None:
        os.close(self._read)


def _run(work: Callable[[_T], _R], items: list[_T], positions: Iterable[int]
         ) -> tuple[dict[int, _R], tuple[int, BaseException] | None]:
    """The results at the positions taken from ``positions`` up to the first that
    raises, and that error."""
    out: dict[int, _R] = {}
    for i in positions:
        try:
            out[i] = work(items[i])
        except Exception as exc:  # noqa: BLE001 - handed to the caller in order
            return out, (i, exc)
    return out, None


def _child(work: Callable[[_T], _R], items: list[_T], queue: _Queue, read_end: int,
           write_end: int) -> None:
    """The forked child: compute, send, leave without running the parent's clean-up."""
    try:
        os.close(read_end)
        payload = _run(work, items, queue)
        try:
            data = pickle.dumps(payload, pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - an unpicklable result: the parent computes it
            data = b""
        with os.fdopen(write_end, "wb") as out:
            out.write(data)
    finally:
        os._exit(0)


def _read_until(fd: int, deadline: float) -> bytes | None:
    """Everything written to ``fd`` until its end, or None at ``deadline``."""
    chunks: list[bytes] = []
    poller = select.poll()  # no limit on the descriptor's number, unlike select()
    poller.register(fd, select.POLLIN | select.POLLHUP)
    while True:
        left = deadline - time.perf_counter()
        if left <= 0 or not poller.poll(max(1, int(left * 1000))):
            return None
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _reap(pid: int) -> None:
    """Wait for the child, killing it first when it has not finished."""
    done, _ = os.waitpid(pid, os.WNOHANG)
    if done == 0:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)


def _unpickled(data: bytes | None) -> tuple[dict[int, object], tuple[int, BaseException] | None
                                            ] | None:
    """The child's payload, or None when it sent nothing readable."""
    if not data:
        return None
    try:
        got = pickle.loads(data)
    except Exception:  # noqa: BLE001 - a truncated payload: the parent computes it
        return None
    return got  # type: ignore[no-any-return]
