"""Train the per-tile "has a flag" model of ``companion.vision.flags`` (``flag_model``).

Representation: a *sample* is one landscape tile as the scanner reads it: the rectified
detail tile, the meadow value and the code the scan passes to ``find_flag``, captured by
wrapping ``find_flag`` while real-table photos are scanned (composites of the development
crops and procedural renders at 12 MP, and renders at 3 MP, ``SMALL_SIZE``; ``render_table``
light: 2700-7500 K, exposure, blur, JPEG), labelled by the truth tile whose centre lies
nearest (within 45 % of the spacing).
The records are drawn with more flags than a game has (``FLAG_SHARE``) so there are
enough pennants to learn from. Seeds ``SEEDS`` only: never the README evaluation seeds
(700, 800, 900, 2000, 2100) nor ``sample_photos``. The photos are read at training time
only; nothing of them is written but the model's weights.

The model is a logistic regression over ``flags.flag_features`` (hand-written numpy
gradient descent, L2, class-balanced), shipped with its standardisation and the
probability above which a tile without a found flag is marked doubtful, chosen for
``--false-rate`` (1) false marks per 100 flagless training tiles of each kind of photo.

    python -m companion.vision.synth.train_flags [--count N] [--small N] [--out PATH]

(``make train-flags``; a few minutes.)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from companion.vision import flags as flags_mod

SEEDS = (3400, 3500, 3600)
"""First seed of the composites, of the renders and of the small renders."""
SIZE = (4000, 3000)
SMALL_SIZE = (2000, 1500)
"""The small renders' size: tiles half as many pixels across (a 3 MP photo, or a table
photographed from farther), whose pennants blur."""
FLAG_SHARE = 0.3
OUT = Path(__file__).resolve().parents[1] / "models" / "flags.json"
CACHE = Path("/tmp/flags2/samples.npz")


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
    table); every landscape tile's features, label (1: the truth tile has a flag) and
    kind of photo (0, 1, 2 in that order)."""
    import importlib

    scan_mod = importlib.import_module("companion.vision.scan")
    from companion.vision.synth import evaluate as ev

    _more_flags()
    rows: list[dict[str, object]] = []
    original = scan_mod.find_flag

    def wrapped(detail, code, config, meadow, pennants=None):  # type: ignore[no-untyped-def]
        frame = sys._getframe(1)
        f, photo = frame.f_locals["f"], frame.f_locals["photo"]
        found = original(detail, code, config, meadow, pennants)
        rows.append({"centre": photo.to_original(tuple(f.corners.mean(axis=0))),
                     "x": flags_mod.flag_features(detail, config, meadow, pennants),
                     "found": found is not None})
        return found

    scan_mod.find_flag = wrapped
    xs, ys, dets, groups, kinds = [], [], [], [], []
    start = time.perf_counter()
    cases = list(_cases(ev, count, small))
    for gi, case in enumerate(cases):
        rows.clear()
        try:
            scan_mod.scan(case.photo)
        except Exception as err:  # noqa: BLE001
            print(f"{case.name}: {err}", file=sys.stderr)
            continue
        spacing = ev._typical_spacing(case.truth)
        for r in rows:
            t = min(case.truth, key=lambda t: ev._dist(t.centre, r["centre"]))
            if ev._dist(t.centre, r["centre"]) > 0.45 * spacing:
                continue
            xs.append(r["x"])
            ys.append(int(t.flag is not None))
            dets.append(int(bool(r["found"])))
            groups.append(gi)
            kinds.append(0 if gi < count else 1 if gi < 2 * count else 2)
        print(f"{case.name}: {len(xs)} tiles, {sum(ys)} flags "
              f"({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    scan_mod.find_flag = original
    return {"x": np.array(xs, np.float64), "y": np.array(ys), "det": np.array(dets),
            "group": np.array(groups), "kind": np.array(kinds)}


def _cases(ev, count: int, small: int):  # type: ignore[no-untyped-def]
    yield from ev.composite_cases(count, SEEDS[0], SIZE, real_table=True)
    yield from ev.rendered_cases(count, SEEDS[1], SIZE, real_table=True)
    yield from ev.rendered_cases(small, SEEDS[2], SMALL_SIZE, real_table=True)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-2, steps: int = 3000
        ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Class-balanced logistic regression: (mean, scale, weights, bias)."""
    mean, scale = x.mean(axis=0), x.std(axis=0) + 1e-6
    z = (x - mean) / scale
    w = np.zeros(z.shape[1])
    b = 0.0
    pos = max(int(y.sum()), 1)
    sw = np.where(y == 1, 0.5 / pos, 0.5 / max(len(y) - pos, 1))
    lr = 0.5
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-(z @ w + b)))
        g = sw * (p - y)
        w -= lr * (z.T @ g + l2 * w)
        b -= lr * float(g.sum())
    return mean, scale, w, b


def predict(model: tuple[np.ndarray, np.ndarray, np.ndarray, float], x: np.ndarray
            ) -> np.ndarray:
    mean, scale, w, b = model
    return 1.0 / (1.0 + np.exp(-(((x - mean) / scale) @ w + b)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.synth.train_flags")
    parser.add_argument("--count", type=int, default=60,
                        help="composites, and renders, at 12 MP")
    parser.add_argument("--small", type=int, default=30, help="renders at 3 MP")
    parser.add_argument("--out", default=str(OUT))
    parser.add_argument("--false-rate", type=float, default=1.0,
                        help="false doubtful marks per 100 flagless tiles")
    parser.add_argument("--cache", default=None, help="keep the samples in this .npz")
    args = parser.parse_args(argv)
    if args.cache and Path(args.cache).exists():
        data = dict(np.load(args.cache))
    else:
        data = harvest(args.count, args.small)
        if args.cache:
            np.savez_compressed(args.cache, **data)
    x, y, det, group = data["x"], data["y"], data["det"], data["group"]
    kind = data["kind"] if "kind" in data else np.minimum(group // args.count, 2)
    print(f"{len(y)} tiles, {int(y.sum())} with a flag, detector finds "
          f"{int((det & y).sum())} of them (+{int((det & (1 - y)).sum())} where none is)")
    # held-out check: odd photos trained, even photos tested, then the other way round
    for k in (0, 1):
        tr, te = group % 2 == k, group % 2 != k
        model = fit(x[tr], y[tr])
        p_tr, p_te = predict(model, x[tr]), predict(model, x[te])
        neg_tr = p_tr[(y[tr] == 0) & (det[tr] == 0)]
        thr = float(np.quantile(neg_tr, 1 - args.false_rate / 100.0))
        miss = (y[te] == 1) & (det[te] == 0)
        neg = (y[te] == 0) & (det[te] == 0)
        print(f"fold {k}: threshold {thr:.3f}: misses marked {int((p_te[miss] > thr).sum())}"
              f" of {int(miss.sum())}; false marks {100 * float((p_te[neg] > thr).mean()):.1f}"
              " per 100 flagless tiles")
    model = fit(x, y)
    p = predict(model, x)
    # the strictest of the kinds of photo's thresholds (composites of real crops are the
    # harder: their art is more varied than the procedural renders')
    thr = max(float(np.quantile(p[(y == 0) & (det == 0) & (kind == k)],
                                1 - args.false_rate / 100.0))
              for k in np.unique(kind))
    miss = (y == 1) & (det == 0)
    print(f"all: threshold {thr:.3f}, misses marked {int((p[miss] > thr).sum())} of "
          f"{int(miss.sum())}")
    mean, scale, w, b = model
    flags_mod.FlagModel(tuple(mean), tuple(scale), tuple(w), float(b), thr).save(Path(args.out))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
