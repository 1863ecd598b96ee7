"""Keeping freed memory in the process for the next array (glibc only).

A scan allocates and frees a few hundred arrays of 0.1-30 MB (rectified tiles, masks,
gradient maps, the photo at two sizes). By default glibc hands every block over
128 kB straight back to the kernel (``mmap``/``munmap``, trimming the heap top), so
the next array of that size faults each of its pages in again: on the 2-core
machine about 33,000 page faults and 0.2-0.4 s of a 12 MP photo's 2 s. Raising the
mmap threshold to glibc's maximum (32 MiB) and the trim threshold keeps freed memory
for reuse; what is kept is bounded by ``TRIM_THRESHOLD`` per heap.

``keep_freed_memory()`` applies the settings once per process and says whether it
did (False off glibc, or when ``COMPANION_MALLOC=default`` asks to leave malloc
alone). It changes no result, only where memory comes from.
"""

from __future__ import annotations

import ctypes
import os
import platform
from functools import lru_cache

M_TRIM_THRESHOLD = -1
M_TOP_PAD = -2
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 * 1024 * 1024
"""Blocks below this come from the heap (glibc's largest allowed value on 64 bits)."""
TRIM_THRESHOLD = 256 * 1024 * 1024
"""Free memory at a heap's top is kept up to this much."""
TOP_PAD = 16 * 1024 * 1024
"""The heap grows by at least this much at a time."""


@lru_cache(maxsize=1)
def keep_freed_memory() -> bool:
    """Apply the settings (see the module docstring); True when glibc accepted them."""
    if os.environ.get("COMPANION_MALLOC") == "default":
        return False
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return False
    done = [libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD),
            libc.mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD),
            libc.mallopt(M_TOP_PAD, TOP_PAD)]
    return all(v == 1 for v in done)
