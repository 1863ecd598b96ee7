"""Freed memory is kept for the next array (``vision.memory``): after the scanner's
settings a block of a photo's size freed and allocated again faults no page in,
where glibc's defaults hand it back to the kernel and fault every page again. Each
case runs in a fresh interpreter (malloc settings are process-wide)."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(
    platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
    reason="the settings are glibc's")

PROBE = """
import resource
from companion.vision.memory import keep_freed_memory
applied = keep_freed_memory()
block = bytearray(20_000_000)  # a 20 MB array, every page written
del block
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
block = bytearray(20_000_000)
print(applied, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _probe(malloc: str | None) -> tuple[bool, int]:
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_MALLOC"}
    if malloc is not None:
        env["COMPANION_MALLOC"] = malloc
    out = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    return out[0] == "True", int(out[1])


def test_a_freed_block_is_reused_without_page_faults() -> None:
    applied, faults = _probe(None)
    assert applied
    assert faults < 100


def _huge_pages_always() -> bool:
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            return "[always]" in f.read()
    except OSError:
        return False


@pytest.mark.skipif(_huge_pages_always(), reason="huge pages fault 2 MB at a time")
def test_malloc_can_be_left_alone_and_then_every_page_faults_again() -> None:
    applied, faults = _probe("default")
    assert not applied
    assert faults > 2000  # 20 MB in 4 kB pages: about 4900
