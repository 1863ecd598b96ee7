"""Benchmark of the rules engine (issues 2 and 15): prints numbers, asserts nothing.

1. replay + score of random legal games of 45 landscape tiles and their task tiles
   (the record already parsed; parse time printed separately);
2. listing every legal (position, rotation) for a drawn tile on such a board.

Usage: python bench/rules_bench.py [--games N]
"""

from __future__ import annotations

import argparse
import statistics
import time

from companion.rules import (
    Placement,
    catalogue,
    parse_record,
    random_game,
    replay,
    score,
    write_record,
)


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    games = [random_game(seed, 45) for seed in range(args.games)]
    texts = [write_record(r) for r, _ in games]
    records = [parse_record(t) for t in texts]
    tiles = sum(len(r.placements) for r in records) / len(records)
    tasks = sum(sum(p.task is not None for p in r.placements) for r in records) / len(records)

    parse_t, score_t, full_t = [], [], []
    for text, record in zip(texts, records, strict=True):
        best_parse = best_score = best_full = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            parse_record(text)
            t1 = time.perf_counter()
            score(replay(record))
            t2 = time.perf_counter()
            score(replay(parse_record(text))).to_json()
            t3 = time.perf_counter()
            best_parse = min(best_parse, t1 - t0)
            best_score = min(best_score, t2 - t1)
            best_full = min(best_full, t3 - t2)
        parse_t.append(best_parse)
        score_t.append(best_score)
        full_t.append(best_full)

    drawn = [t.code for t in catalogue() if t.section == "landscape"]
    task_codes = [t.code for t in catalogue() if t.section == "task"]
    list_t, list_task_t, counts = [], [], []
    for i, (_, board) in enumerate(games):
        code = drawn[i % len(drawn)]
        t0 = time.perf_counter()
        options = list(board.legal_placements(Placement(board.history[0].at, code)))
        list_t.append(time.perf_counter() - t0)
        counts.append(len(options))
        tcode = task_codes[i % len(task_codes)]
        letter = next(c for c in tcode if c in "FGVTS")
        kind = {"F": "forest", "G": "grain", "V": "village", "T": "track", "S": "stream"}[letter]
        task = parse_record(f"0 0 {tcode} task={kind}/6").placements[0].task
        t0 = time.perf_counter()
        list(board.legal_placements(Placement(board.history[0].at, tcode, task=task)))
        list_task_t.append(time.perf_counter() - t0)

    print(f"games: {len(records)} random legal games, {tiles:.1f} tiles each "
          f"({tasks:.1f} task tiles)")
    print(f"parse record:            median {median_ms(parse_t):.3f} ms")
    print(f"replay + score:          median {median_ms(score_t):.3f} ms   (target <= 1 ms)")
    print(f"parse + replay + score + JSON: median {median_ms(full_t):.3f} ms")
    print(f"legal placements, landscape tile: median {median_ms(list_t):.3f} ms, "
          f"max {max(list_t) * 1000:.3f} ms, {statistics.median(counts):.0f} options "
          f"(target <= 10 ms)")
    print(f"legal placements, task tile:      median {median_ms(list_task_t):.3f} ms, "
          f"max {max(list_task_t) * 1000:.3f} ms (target <= 3 ms)")


if __name__ == "__main__":
    main()
