"""The scan benchmark (``bench/scan_bench.py``): the stages it times and its reading of the
host's stolen time."""

from __future__ import annotations

import importlib
import importlib.util
from collections import defaultdict
from pathlib import Path
from types import ModuleType

from companion.vision import scan

SAMPLE = Path(__file__).resolve().parents[2] / "sample_photos" / "cloth-tilted-30.jpg"

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


def test_every_stage_a_scan_runs_is_timed_and_the_scanner_is_put_back() -> None:
    bench = _bench()
    module = importlib.import_module("companion.vision.scan")
    own = {name: getattr(module, name) for name in bench.STAGES.values()}
    spent: dict[str, list[float]] = defaultdict(list)
    with bench.timed_stages(module, spent):
        scan(SAMPLE.read_bytes())
    assert set(spent) == set(bench.STAGES)
    assert all(len(times) >= 1 and all(t > 0 for t in times) for times in spent.values())
    assert {name: getattr(module, name) for name in bench.STAGES.values()} == own


def test_a_stage_no_scan_reached_prints_a_dash() -> None:
    bench = _bench()
    assert bench.median_or_dash([]) == "–"
    assert bench.median_or_dash([0.5, 0.25, 1.0]) == "0.50 s"
