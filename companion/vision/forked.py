"""Independent jobs shared with a forked copy of this process (the tiles' reading).

Representation: ``in_two(work, items)`` forks once. The child computes ``work`` on the
items at odd positions, writes ``(results, error)`` pickled to a pipe (``error``: the
index and exception of the first item that raised, else None) and leaves with
``os._exit``; the parent computes the items at even positions, then reads the pipe.
The first error in the items' order is raised, as a loop would raise it.

Why a process: reading a tile is many small numpy and OpenCV calls that hold the GIL
between them, so two threads read hardly faster than one; a forked child shares the
photo and the loaded models without copying them. Nothing is lost when the child
fails: when it dies, sends nothing readable or is still silent ``wait_factor`` times
the parent's own time after the parent is done (at least ``wait_min_s``), the parent
kills it and computes its share itself. Only on Linux with two cores or more (fork
is unsafe on macOS and absent on Windows); elsewhere the items are computed in a loop.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import time
from collections.abc import Callable
from typing import TypeVar

_T = TypeVar("_T")
_R = TypeVar("_R")

WAIT_FACTOR = 4.0
WAIT_MIN_S = 10.0


def available() -> bool:
    """Whether ``in_two`` forks here (Linux, two cores or more)."""
    return sys.platform.startswith("linux") and hasattr(os, "fork") and (os.cpu_count() or 1) >= 2


def in_two(work: Callable[[_T], _R], items: list[_T], wait_factor: float = WAIT_FACTOR,
           wait_min_s: float = WAIT_MIN_S) -> list[_R]:
    """``[work(x) for x in items]``, the odd positions computed in a forked child (see
    the module docstring)."""
    if len(items) < 2 or not available():
        return [work(x) for x in items]
    theirs = list(range(1, len(items), 2))
    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return [work(x) for x in items]
    if pid == 0:
        _child(work, items, theirs, read_end, write_end)  # never returns
    os.close(write_end)
    start = time.perf_counter()
    try:
        mine, mine_error = _run(work, items, list(range(0, len(items), 2)))
        patience = max(wait_min_s, wait_factor * (time.perf_counter() - start))
        data = _read_until(read_end, time.perf_counter() + patience)
    finally:
        os.close(read_end)
        _reap(pid)
    got = _unpickled(data)
    if got is None:  # the child failed: its share (up to the parent's error) is computed here
        stop = len(items) if mine_error is None else mine_error[0]
        got = _run(work, items, [i for i in theirs if i < stop])
    done = {**mine, **got[0]}
    errors = [e for e in (mine_error, got[1]) if e is not None]
    if errors:
        raise min(errors, key=lambda e: e[0])[1]
    return [done[i] for i in range(len(items))]


def _run(work: Callable[[_T], _R], items: list[_T], positions: list[int]
         ) -> tuple[dict[int, _R], tuple[int, BaseException] | None]:
    """The results at ``positions`` up to the first that raises, and that error."""
    out: dict[int, _R] = {}
    for i in positions:
        try:
            out[i] = work(items[i])
        except Exception as exc:  # noqa: BLE001 - handed to the caller in order
            return out, (i, exc)
    return out, None


def _child(work: Callable[[_T], _R], items: list[_T], theirs: list[int], read_end: int,
           write_end: int) -> None:
    """The forked child: compute, send, leave without running the parent's clean-up."""
    try:
        os.close(read_end)
        payload = _run(work, items, theirs)
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
