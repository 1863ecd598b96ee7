"""The photo's CIE Lab (OpenCV's 8-bit encoding), converted once per photo.

Representation: ``lab_of(image)`` returns ``cv2.cvtColor(image, cv2.COLOR_BGR2Lab)``
(uint8, H x W x 3) for a BGR image. Locating the tiles needs it several times (the
lattice's boundary maps, one per tile size tried; the seams' autocorrelation; the
table model): inside ``with keeping(image):`` the conversion of that very array
(recognised by identity, so never a crop or a copy) is made once and kept, read-only,
until the block ends. Outside such a block, or for another array, it is converted
anew, so an image changed in place between two blocks is never read stale. The
conversion is per pixel: a crop of the kept array equals the conversion of the crop.
Blocks of several threads (two scans at once) keep their own images; a forked child
makes its lock anew (another thread may have held it at the fork).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import cv2
import numpy as np

_lock = threading.Lock()
_kept: dict[int, tuple[np.ndarray, list[np.ndarray]]] = {}
"""id(image) -> (the image, its conversion once made); entries live while a block runs."""


def _fresh_lock() -> None:
    """In a forked child: a new lock (another thread of the parent may have held the
    old one at the fork, and no thread of the child would ever release it)."""
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_fresh_lock)


@contextmanager
def keeping(image: np.ndarray) -> Iterator[None]:
    """Keep ``image``'s conversion for the block's duration (nested blocks share it)."""
    key = id(image)
    with _lock:
        owner = key not in _kept
        if owner:
            _kept[key] = (image, [])
    try:
        yield
    finally:
        if owner:
            with _lock:
                _kept.pop(key, None)


def lab_of(image: np.ndarray) -> np.ndarray:
    """``image`` (BGR, uint8) in Lab; kept inside a ``keeping`` block of that array."""
    with _lock:
        entry = _kept.get(id(image))
        if entry is not None and entry[0] is image and entry[1]:
            return entry[1][0]
    lab: np.ndarray = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    if entry is not None and entry[0] is image:
        lab.setflags(write=False)
        with _lock:
            if not entry[1]:
                entry[1].append(lab)
            return entry[1][0]
    return lab


def lightness_of(image: np.ndarray) -> np.ndarray:
    """The L channel of ``lab_of`` as float32 (a fresh array the caller may change)."""
    return lab_of(image)[:, :, 0].astype(np.float32)
