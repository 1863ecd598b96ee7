"""A value computed in a thread of its own while the caller goes on.

Representation: ``Background(compute)`` starts a daemon thread that calls ``compute()``
once; ``result()`` waits for it and returns the value, or raises what it raised (each
time it is asked). ``Background.ready(value)`` holds a value already at hand, with no
thread. Worth it for work that is mostly OpenCV and numpy calls on large arrays, which
release the GIL: the photo's detail copy downscaled while the tiles are located, the
table's autocorrelation measured while the lattice is fitted. ``settle()`` waits for
every such thread still running: a fork copies only the calling thread, and a lock
another thread holds at that moment stays held in the copy.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

_T = TypeVar("_T")

_running: set[threading.Thread] = set()
_lock = threading.Lock()


def _fresh_start() -> None:
    """In a forked child: no thread of the parent runs there, and its lock is new."""
    global _lock
    _lock = threading.Lock()
    _running.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_start)


def settle() -> None:
    """Wait for every ``Background`` thread running now (of any caller)."""
    with _lock:
        threads = list(_running)
    for thread in threads:
        thread.join()


class Background(Generic[_T]):
    """``compute()`` running in a thread; ``result`` waits for it."""

    def __init__(self, compute: Callable[[], _T], name: str = "background") -> None:
        self._out: list[tuple[_T | None, BaseException | None]] = []
        thread = threading.Thread(target=self._run, args=(compute,), daemon=True, name=name)
        self._thread: threading.Thread | None = thread
        with _lock:
            _running.add(thread)
        thread.start()

    @classmethod
    def ready(cls, value: _T) -> Background[_T]:
        done: Background[_T] = cls.__new__(cls)
        done._out, done._thread = [(value, None)], None
        return done

    def _run(self, compute: Callable[[], _T]) -> None:
        try:
            self._out.append((compute(), None))
        except BaseException as err:  # noqa: BLE001 - handed to the reader
            self._out.append((None, err))
        finally:
            with _lock:
                _running.discard(threading.current_thread())

    def result(self) -> _T:
        if self._thread is not None:
            self._thread.join()
        value, err = self._out[0]
        if err is not None:
            raise err
        return value  # type: ignore[return-value]
