"""The scan benchmark's reading of the host's stolen time (``bench/scan_bench.py``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench" / "scan_bench.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("scan_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_stolen_share_is_steal_over_all_the_cores_time() -> None:
    bench = _bench()
    before = [100, 0, 50, 800, 0, 0, 0, 10, 0, 0]
    after = [400, 0, 150, 1000, 0, 0, 0, 110, 0, 0]  # 300 user, 100 system, 200 idle, 100 steal
    assert bench.stolen_share(before, after) == 100 / 700
    assert bench.stolen_share(None, after) is None
    assert bench.stolen_share(before[:4], after[:4]) is None
    assert bench.stolen_share(before, before) is None


def test_this_machines_times_are_read_where_linux_shows_them() -> None:
    bench = _bench()
    times = bench.cpu_times()
    if not Path("/proc/stat").exists():
        assert times is None
        return
    assert times is not None and len(times) >= 8 and all(t >= 0 for t in times)
