"""Train the learned flag decision of ``companion.vision.flag_reading`` (``models/flags.json``).

Representation: a *sample* is one landscape tile as the scanner reads it: its
``flag_reading.kind_features`` (3 kinds x ``N_FEATURES``), computed on the rectified detail
tile, meadow value, strict candidates and code that the scan passes to ``read_flag``,
captured by wrapping ``read_flag`` while real-table photos are scanned (composites of the
development crops and procedural renders at 12 MP, and renders at 3 MP, ``SMALL_SIZE``;
``render_table`` light: 2700-7500 K, exposure, blur, JPEG), labelled by the truth tile
whose centre lies nearest (within 45 % of the spacing): 0 no flag, 1..3 its kind.
The records are drawn with more flags than a game has (``FLAG_SHARE``) so there are
enough pennants to learn from. Seeds ``SEEDS`` only: never an evaluation seed of the
README nor ``sample_photos``. The photos are read at training time only; nothing of them
is written but the model's weights.

The model (``flag_reading.FlagModel``): a multinomial logistic regression whose weights the
three kinds share, a bias each (numpy, Adam, L2; flag tiles weigh as much as flagless
ones). Its thresholds are chosen on predictions out of fold (5 folds by photo):
``found_above`` the least probability that reports at most ``--false-rate`` flags per 100
flagless tiles, ``sure_above`` the least below which ``--doubt-share`` of the wrong
reports fall, ``maybe_above`` the least summed flag probability that marks at most
``--maybe-rate`` flagless tiles per 100 (the review asks).

    python -m companion.vision.synth.train_flags [--count N] [--small N] [--out PATH]
                                                 [--cache NPZ]

(``make train-flags``; about 8 minutes.)
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from companion.vision import flag_reading

SEEDS = (3400, 3500, 3600)
"""First seed of the composites, of the renders and of the small renders."""
SIZE = (4000, 3000)
SMALL_SIZE = (2000, 1500)
"""The small renders' size: tiles half as many pixels across (a 3 MP photo, or a table
photographed from farther), whose pennants blur."""
FLAG_SHARE = 0.3
LABELS = {"forest": 1, "grain": 2, "village": 3}
OUT = Path(__file__).resolve().parents[1] / "models" / "flags.json"


def _more_flags() -> None:
    """Let records carry a flag on ``FLAG_SHARE`` of the landscape tiles that can."""
    from companion.rules import Placement
    from companion.vision.synth import render_records as rr

    original = rr._placement

    def placement(at, section, laid, task, rng, marker):  # type: ignore[no-untyped-def]
        p = original(at, section, laid, task, rng, marker)
        if section != "task" and p.flag is None and rng.random() < FLAG_SHARE:
            kinds = [k for k, letter in (("forest", "F"), ("grain", "G"), ("village", "V"))
                     if letter in laid]
            if kinds:
                return Placement(at, laid, flag=kinds[int(rng.integers(0, len(kinds)))])
        return p

    rr._placement = placement


def harvest(count: int, small: int) -> dict[str, np.ndarray]:
    """Scan ``count`` composites, ``count`` renders and ``small`` small renders (real
    table); every landscape tile's features, label, the hand-set decision's label
    (``hand``), photo (``group``) and kind of photo (0, 1, 2 in that order).

    The tiles are read by threads, not a forked process (``io.fork_reading`` off): a
    child's calls of ``read_flag`` would be recorded in its own memory and lost. Each
    photo's rows are sorted by centre, so the threads' order does not move the fit."""
    import importlib

    scan_mod = importlib.import_module("companion.vision.scan")
    from companion.vision import flags as flags_mod
    from companion.vision.config import DEFAULT_CONFIG
    from companion.vision.synth import evaluate as ev

    _more_flags()
    rows: list[dict[str, Any]] = []
    original = scan_mod.read_flag

    def wrapped(detail, code, config, meadow, seen, strict):  # type: ignore[no-untyped-def]
        frame = sys._getframe(1)
        f, photo = frame.f_locals["f"], frame.f_locals["photo"]
        hand = flags_mod.find_flag(detail, code, config, meadow, strict)
        rows.append({"centre": photo.to_original(tuple(f.corners.mean(axis=0))),
                     "x": flag_reading.kind_features(detail, code, config, meadow, seen,
                                                     strict),
                     "hand": LABELS[hand.kind] if hand is not None else 0})
        return original(detail, code, config, meadow, seen, strict)

    scan_mod.read_flag = wrapped
    config = DEFAULT_CONFIG.tuned(fork_reading=False)
    xs, ys, hands, groups, kinds = [], [], [], [], []
    start = time.perf_counter()
    try:
        for gi, case in enumerate(_cases(ev, count, small)):
            rows.clear()
            try:
                scan_mod.scan(case.photo, config)
            except Exception as err:  # noqa: BLE001
                print(f"{case.name}: {err}", file=sys.stderr)
                continue
            spacing = ev._typical_spacing(case.truth)
            for r in sorted(rows, key=lambda r: r["centre"]):
                t = min(case.truth, key=lambda t: ev._dist(t.centre, r["centre"]))
                if ev._dist(t.centre, r["centre"]) > 0.45 * spacing:
                    continue
                xs.append(r["x"])
                ys.append(LABELS.get(t.flag or "", 0))
                hands.append(r["hand"])
                groups.append(gi)
                kinds.append(0 if gi < count else 1 if gi < 2 * count else 2)
            print(f"{case.name}: {len(xs)} tiles, {sum(y > 0 for y in ys)} flags "
                  f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    finally:
        scan_mod.read_flag = original
    return {"x": np.array(xs, np.float64).reshape(-1, 3, flag_reading.N_FEATURES),
            "y": np.array(ys, np.int64), "hand": np.array(hands, np.int64),
            "group": np.array(groups, np.int64), "kind": np.array(kinds, np.int64)}


def _cases(ev, count: int, small: int):  # type: ignore[no-untyped-def]
    yield from ev.composite_cases(count, SEEDS[0], SIZE, real_table=True)
    yield from ev.rendered_cases(count, SEEDS[1], SIZE, real_table=True)
    yield from ev.rendered_cases(small, SEEDS[2], SMALL_SIZE, real_table=True)


Params = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""mean, scale, weights, biases (as ``flag_reading.FlagModel``)."""


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 2000,
        lr: float = 0.05) -> Params:
    """The shared-weight multinomial model of ``x`` (n, 3, F) and labels ``y`` (0..3),
    flag tiles weighing as much as flagless ones."""
    n, kinds, width = x.shape
    mean = x.reshape(-1, width).mean(axis=0)
    scale = x.reshape(-1, width).std(axis=0) + 1e-6
    z = (x - mean) / scale
    pos = max(int((y > 0).sum()), 1)
    sample_w = np.where(y > 0, 0.5 / pos, 0.5 / max(n - pos, 1))
    onehot = np.zeros((n, kinds + 1))
    onehot[np.arange(n), y] = 1.0
    w, b = np.zeros(width), np.zeros(kinds)
    moments = [np.zeros(width), np.zeros(kinds)], [np.zeros(width), np.zeros(kinds)]
    for t in range(1, steps + 1):
        p = flag_reading.probabilities(x, mean, scale, w, b)
        g = (p - onehot)[:, 1:] * sample_w[:, None]
        grads = (np.einsum("nk,nkf->f", g, z) + l2 * w, g.sum(axis=0))
        for param, grad, m, v in zip((w, b), grads, *moments, strict=True):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad ** 2
            param -= lr * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return mean, scale, w, b


def out_of_fold(x: np.ndarray, y: np.ndarray, group: np.ndarray, folds: int = 5
                ) -> np.ndarray:
    """Each tile's ``P`` from the model fitted on the other folds (by photo)."""
    p = np.zeros((len(y), 4))
    for k in range(folds):
        test = group % folds == k
        p[test] = flag_reading.probabilities(x[test], *fit(x[~test], y[~test]))
    return p


def thresholds(p: np.ndarray, y: np.ndarray, false_rate: float, doubt_share: float,
               maybe_rate: float) -> tuple[float, float, float]:
    """(found_above, sure_above, maybe_above) from predictions ``p`` (see the module
    docstring)."""
    kind = p[:, 1:].argmax(axis=1) + 1
    top = p[:, 1:].max(axis=1)
    flagless = max(int((y == 0).sum()), 1)
    found = 0.99
    for t in np.arange(0.30, 0.99, 0.01):
        if 100.0 * float(((top > t) & (y == 0)).sum()) / flagless <= false_rate:
            found = float(t)
            break
    reported = top > found
    wrong = np.sort(top[reported & (kind != y)])
    sure = (float(min(0.999, wrong[int(np.ceil(doubt_share * len(wrong))) - 1] + 1e-3))
            if len(wrong) else found)
    quiet = (~reported) & (y == 0)
    summed = p[:, 1:].sum(axis=1)[quiet]
    maybe = float(np.quantile(summed, 1 - maybe_rate / 100.0)) if len(summed) else 0.5
    def up(t: float) -> float:  # three decimals, rounded the way that keeps the rates
        return float(np.ceil(t * 1000.0 - 1e-9) / 1000.0)

    return up(found), up(max(sure, found)), up(maybe)


def tally(p: np.ndarray, y: np.ndarray, model: flag_reading.FlagModel) -> dict[str, int]:
    """Flags right, reported where none or another is, doubtful, and misses marked."""
    out = {"flags": int((y > 0).sum()), "right": 0, "wrong": 0, "wrong_doubtful": 0,
           "right_doubtful": 0, "misses_marked": 0, "flagless_marked": 0}
    for row, label in zip(p, y, strict=True):
        kind, _, doubtful = model.decide(row)
        got = 0 if kind is None else LABELS[kind]
        if got and got == label:
            out["right"] += 1
            out["right_doubtful"] += doubtful
        elif got:
            out["wrong"] += 1
            out["wrong_doubtful"] += doubtful
        elif label:
            out["misses_marked"] += doubtful
        else:
            out["flagless_marked"] += doubtful
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.synth.train_flags")
    parser.add_argument("--count", type=int, default=60,
                        help="composites, and renders, at 12 MP")
    parser.add_argument("--small", type=int, default=30, help="renders at 3 MP")
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--false-rate", type=float, default=0.5,
                        help="flags reported per 100 flagless tiles (out of fold)")
    parser.add_argument("--doubt-share", type=float, default=0.8,
                        help="share of the wrong reports marked doubtful (out of fold)")
    parser.add_argument("--maybe-rate", type=float, default=1.5,
                        help="flagless tiles marked doubtful per 100 (out of fold)")
    parser.add_argument("--cache", default=None, help="keep the samples in this .npz")
    args = parser.parse_args(argv)
    if args.cache and Path(args.cache).exists():
        data = dict(np.load(args.cache))
    else:
        data = harvest(args.count, args.small)
        if args.cache:
            np.savez_compressed(args.cache, **data)
    x, y, hand, group = data["x"], data["y"], data["hand"], data["group"]
    print(f"{len(y)} tiles, {int((y > 0).sum())} with a flag; the hand-set decision finds "
          f"{int(((hand == y) & (y > 0)).sum())} of them, "
          f"+{int(((hand > 0) & (hand != y)).sum())} where none or another is")
    p = out_of_fold(x, y, group)
    found, sure, maybe = thresholds(p, y, args.false_rate, args.doubt_share, args.maybe_rate)
    mean, scale, w, b = fit(x, y)
    model = flag_reading.FlagModel(mean, scale, w, b, found, sure, maybe)
    print(f"thresholds: found {found:.2f}, sure {sure:.3f}, maybe {maybe:.3f}")
    for name, sel in (("all", np.ones(len(y), bool)), ("composites", data["kind"] == 0),
                      ("renders", data["kind"] == 1), ("small renders", data["kind"] == 2)):
        print(f"out of fold, {name}: {tally(p[sel], y[sel], model)}")
    Path(args.out).write_text(json.dumps(model.to_json(), indent=1) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
