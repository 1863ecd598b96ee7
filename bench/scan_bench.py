"""Seconds per 12 MP photo of the scanner, loading included (issue 14's speed figure).

    python bench/scan_bench.py [--set rendered|composite] [--count N] [--seed S]
                               [--repeat R] [--tiles DIR]

Builds real-table photos as the evaluation does (``synth.evaluate``: rendered ones need
nothing, composites need ``../shared/tiles``), scans each ``--repeat`` times from its
JPEG bytes and prints the median over photos of each photo's fastest scan, the median
of all scans, and where the time goes (decoding, locating, reading; wall clock, the
median over photos). A 2-core machine shared with others drifts by a quarter from one
minute to the next: ``reference`` is the time of a fixed pure-Python and numpy workload
measured beside the scans, so two runs can be compared by their ratio to it. On a
virtual machine the host may also take the cores away (``steal`` in ``/proc/stat``):
the share of the cores' time stolen while the scans ran is printed (Linux), and a run
with much of it stolen measures the host, not the scanner.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.vision import scan as scan_mod  # noqa: E402
from companion.vision.synth import evaluate  # noqa: E402

# Each stage printed, and the function of ``companion.vision.scan`` that ``scan`` calls
# for it (``_run`` calls ``_locate``, not the public ``locate``).
STAGES = {"load_photo": "load_photo", "locate": "_locate", "read_tiles": "read_tiles"}


def reference_seconds() -> float:
    """A fixed workload: interpreter loop plus array arithmetic, best of three."""
    best = float("inf")
    a = np.random.default_rng(0).random(1_000_000)
    for _ in range(3):
        start = time.perf_counter()
        total = 0
        for i in range(300_000):
            total += i & 7
        for _ in range(20):
            a = np.sqrt(a * a + 1.0) - 0.5
        best = min(best, time.perf_counter() - start)
    return best


def cpu_times() -> list[int] | None:
    """The machine's cumulative CPU times (``/proc/stat``'s first line: user, nice,
    system, idle, iowait, irq, softirq, steal, ...), or None where there is none."""
    try:
        with open("/proc/stat") as f:
            return [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None


def stolen_share(before: list[int] | None, after: list[int] | None) -> float | None:
    """The share of the cores' time between two ``cpu_times`` the host stole."""
    if before is None or after is None or len(before) < 8 or len(after) < 8:
        return None
    spent = [b - a for a, b in zip(before[:8], after[:8], strict=True)]
    return spent[7] / sum(spent) if sum(spent) > 0 else None


@contextlib.contextmanager
def timed_stages(module: Any, spent: dict[str, list[float]]) -> Iterator[None]:
    """Within the block, each call of the scanner's stages appends its wall time to
    ``spent[stage]``; the module's own functions are put back after it."""
    originals = {name: getattr(module, name) for name in STAGES.values()}

    def timed(stage: str, inner: Any) -> Any:
        def wrapper(*args: Any, **kw: Any) -> Any:
            start = time.perf_counter()
            try:
                return inner(*args, **kw)
            finally:
                spent[stage].append(time.perf_counter() - start)
        return wrapper

    try:
        for stage, name in STAGES.items():
            setattr(module, name, timed(stage, originals[name]))
        yield
    finally:
        for name, inner in originals.items():
            setattr(module, name, inner)


def median_or_dash(values: list[float]) -> str:
    """``0.42 s``, or ``–`` for a stage no scan reached."""
    return f"{statistics.median(values):.2f} s" if values else "–"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=("rendered", "composite"), default="rendered")
    ap.add_argument("--count", type=int, default=6)
    ap.add_argument("--seed", type=int, default=8000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--tiles", type=Path, default=None)
    args = ap.parse_args(argv)
    size = (4000, 3000)
    if args.set == "rendered":
        cases = list(evaluate.rendered_cases(args.count, args.seed, size, True))
    else:
        cases = list(evaluate.composite_cases(args.count, args.seed, size, args.tiles, True))
    module = sys.modules["companion.vision.scan"]
    spent: dict[str, list[float]] = defaultdict(list)
    scan_mod(cases[0].photo)  # models loaded once, as in a running app
    before = reference_seconds()
    times_before = cpu_times()
    fastest = [float("inf")] * len(cases)
    every: list[float] = []
    with timed_stages(module, spent):
        for _ in range(args.repeat):
            for i, case in enumerate(cases):
                start = time.perf_counter()
                scan_mod(case.photo)
                took = time.perf_counter() - start
                fastest[i] = min(fastest[i], took)
                every.append(took)
    stolen = stolen_share(times_before, cpu_times())
    after = reference_seconds()
    print(f"{args.set} seed {args.seed} x{len(cases)}, {size[0]}x{size[1]}, "
          f"{args.repeat} scans each")
    print(f"median of each photo's fastest scan: {statistics.median(fastest):.2f} s")
    print(f"median of all scans: {statistics.median(every):.2f} s "
          f"(fastest {min(every):.2f}, slowest {max(every):.2f})")
    print("median per stage: " + ", ".join(f"{name} {median_or_dash(spent[name])}"
                                          for name in STAGES))
    print(f"reference workload: {before:.3f} s before, {after:.3f} s after")
    if stolen is not None:
        print(f"cores' time stolen by the host while scanning: {100 * stolen:.0f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
