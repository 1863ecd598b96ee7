"""Benchmark of campaign replay: prints seconds and peak memory per size, asserts nothing.

A campaign record of N games (each spends its crosses where it can) is parsed and
replayed; replay is linear in the number of events (undo keeps a journal of calls, not a
copy of the sheet per event), so 20,000 games take well under a second.

Usage: python bench/campaign_bench.py [--games 1000 5000 20000]
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from companion.rules import load_campaign


def campaign_text(games: int) -> str:
    lines = ["campaign: benchmark", "players: Ana, Rui"]
    for i in range(games):
        lines.append(f"game: {100 + (i * 37) % 300}")
        if i < 3:
            lines.append("spend: start-box1 1" if i < 2 else "spend: box1-box2 1")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[1000, 5000, 20000])
    args = parser.parse_args()
    print(f"{'games':>7} {'replay s':>9} {'peak MB':>8} {'to_json s':>10}")
    for n in args.games:
        text = campaign_text(n)
        started = time.perf_counter()
        state = load_campaign(text)
        replay_s = time.perf_counter() - started
        tracemalloc.start()
        load_campaign(text)
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        started = time.perf_counter()
        state.to_json()
        print(f"{n:>7} {replay_s:>9.3f} {peak:>8.1f} {time.perf_counter() - started:>10.3f}")


if __name__ == "__main__":
    main()
