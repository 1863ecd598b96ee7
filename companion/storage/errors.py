"""Errors of the storage layer: one clear line each, never a traceback for the user."""

from __future__ import annotations


class StorageError(ValueError):
    """A stored object cannot be read or written as asked."""


class NotFoundError(StorageError):
    """No row with that id."""


class StaleEditError(StorageError):
    """Another writer changed the row since it was read (optimistic concurrency)."""

    def __init__(self, what: str, expected: int, current: int) -> None:
        super().__init__(
            f"{what} was changed by someone else (you edited version {expected}, it is now "
            f"version {current}); reload and try again"
        )
        self.what = what
        self.expected = expected
        self.current = current
