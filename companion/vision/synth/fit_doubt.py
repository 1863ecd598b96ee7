"""Fit the doubt calibrator (``companion.vision.doubt``, ``models/doubt.json``) from scans.

Representation: a *row* is one edge of one scanned tile at its right position: its
``doubt.FEATURES`` evidence (``ScannedTile.evidence``), whether the scan read it wrong,
and the *group* of photos it comes from. The photos are generated here from seeds that
no evaluation uses (``FIT_SEEDS``; the README's sets use 700, 800, 900, 2000 and 2100):

- ``composite-unseen``, ``composite-table-unseen``: composites of the real crops (plain
  and ``--real-table``), each scanned once per fold of the terrain training
  (``train_terrain.fold_model``: a model never trained on that fold's tiles), keeping
  the rows of that fold's tiles only. The scanner will meet tiles nobody trained on,
  so these rows show how it errs on unseen art.
- ``composite-seen``, ``composite-table-seen``: the same photos scanned with the shipped
  model (every tile), as the evaluation's composites are.
- ``rendered``, ``rendered-table``: procedural renders (never training seeds), the
  shipped model.

The calibrator is an L2-regularised logistic regression on the standardised evidence,
every group weighted alike. The threshold is chosen on *out-of-fold* probabilities (each
photo judged by a calibrator fitted without it, ``out_of_fold``): the highest one at
which ``--recall`` of the wrong edges of every group (pooled) are at or above it,
so it is the threshold a new photo needs, not the one that fits these photos best.

    python -m companion.vision.synth.fit_doubt [--tiles DIR] [--out PATH]
        [--rows NPZ] [--reuse-rows] [--recall 0.98]

(``make fit-doubt``: about 22 minutes on the shared 2-core machine; ``--rows`` keeps
the scanned rows so ``--reuse-rows`` refits in seconds.)
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
from scipy.optimize import minimize

from companion.rules import rotate
from companion.vision import doubt
from companion.vision import terrain_model as tm
from companion.vision.synth import evaluate as ev

SEED = 20261202
FIT_SEEDS = {"composite": range(3000, 3024), "composite-table": range(3100, 3140),
             "rendered": range(3200, 3224), "rendered-table": range(3300, 3340)}
"""Photo seeds per set (``evaluate`` draws a photo's tile count from the first seed of
a run and each photo from its own seed)."""
LATTICE_FAILED = 0.8
"""A scan (one photo, one model) reading fewer of its edges right than this failed at
the lattice (tiles misplaced or mis-sized), not at reading edges: its rows are left out,
as they would teach that every edge is wrong."""
L2 = 300.0
"""Chosen by cross-validation by photo (10 ... 1000, with and without ``doubt.HINGES``):
weaker lets rare features (a correction, an off-catalogue code) take wild weights."""
RECALL = 0.98
"""At 0.98 every group's out-of-fold flag rate stays under the review's 10 % budget (at
most 9.4 %, composites scanned by fold models that never saw their tiles); at 0.99 those
reach 14 %."""


def composite_photos(seeds: range, real_table: bool, size: tuple[int, int],
                     folder: str | None) -> Iterator[tuple[ev.Case, dict[tuple[int, int], str]]]:
    """``evaluate.composite_cases`` photos, with the real crop (``section-NN``) at each
    cell (``composite.composite_record`` does the same, keeping its painter)."""
    from companion.vision.synth.composite import CropPainter, real_tiles, tile_pool
    from companion.vision.synth.render import render_tiles
    from companion.vision.synth.render_records import laid_tiles, legal_random_record

    tiles = real_tiles(folder)
    rng = np.random.default_rng(seeds[0])
    for s in seeds:
        record = legal_random_record(s, int(rng.integers(20, 41)), pool=tile_pool(tiles))
        painter = CropPainter(tiles)
        r = render_tiles(laid_tiles(record), painter, seed=s, record=record, size_px=size,
                         jpeg_quality=None, real_table=real_table)
        quality = int(r.params.get("jpeg_quality") or 90)
        names = {at: f"{crop.section}-{crop.number:02d}" for at, crop in painter.used.items()}
        yield (ev.Case(f"composite-{s}", ev._encode(r.image, quality),
                       ev.truth_of_rendered(r.tiles), "assembled"), names)


def rows_of(result: object, case: ev.Case, keep: set[str] | None = None,
            names: dict[tuple[int, int], str] | None = None
            ) -> tuple[list[np.ndarray], list[bool]]:
    """Evidence rows and wrongness of the edges of ``result``'s tiles at the right
    position (only truth tiles named in ``keep``, when given)."""
    xs: list[np.ndarray] = []
    ys: list[bool] = []
    for t, s, k in ev.matched_pairs(result, case.truth, case.kind):
        if keep is not None and (names or {}).get(t.at) not in keep:
            continue
        if s.evidence is None:
            continue
        code = rotate(s.code, k)
        for e in range(6):
            xs.append(np.asarray(s.evidence[(e - k) % 6], np.float64))
            ys.append(code[e] != t.code[e])
    return xs, ys


def collect(folder: str | None, size: tuple[int, int], log: bool = True
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Scan the fitting photos: evidence rows, wrongness, group and scan (photo and
    model) of each row."""
    from companion.vision import ScanConfig, scan
    from companion.vision.synth import train_terrain as tt

    # the evidence is what is fitted; no time limit, so a busy machine fits the same rows
    config = ScanConfig().tuned(calibrated_doubt=False, time_limit_s=1e6)

    t0 = time.perf_counter()
    shipped = tm.MODEL_PATH
    ts = tt.training_set(Path(folder or "../shared/tiles"), tt.SEED, log=log)
    names_of = {s.group: s.name for s in ts.real}
    folds = sorted(set(ts.fold_of.values()))
    tmp = Path(tempfile.mkdtemp(prefix="fit-doubt-"))
    paths = []
    for f in folds:
        path = tmp / f"fold{f}.npz"
        tt.fold_model(ts, f).save(path)
        paths.append((path, {names_of[g] for g, k in ts.fold_of.items() if k == f}))
    del ts
    if log:
        print(f"fold models ready ({time.perf_counter() - t0:.0f} s)", flush=True)
    xs: list[np.ndarray] = []
    ys: list[bool] = []
    gs: list[str] = []
    ss: list[str] = []

    def add(result: object, case: ev.Case, group: str, keep: set[str] | None = None,
            names: dict[tuple[int, int], str] | None = None, model: str = "shipped") -> None:
        x, y = rows_of(result, case, keep, names)
        xs.extend(x)
        ys.extend(y)
        gs.extend([group] * len(y))
        ss.extend([f"{case.name}/{group}/{model}"] * len(y))

    def scan_with(model: Path, photo: bytes) -> object | None:
        tm.MODEL_PATH = model
        try:
            return scan(photo, config)
        except Exception:  # noqa: BLE001 - a photo the scanner refuses has no edges
            return None
        finally:
            tm.MODEL_PATH = shipped

    try:
        for table in (False, True):
            group = "composite-table" if table else "composite"
            for case, names in composite_photos(FIT_SEEDS[group], table, size, folder):
                for path, keep in paths:
                    result = scan_with(path, case.photo)
                    if result is not None:
                        add(result, case, group + "-unseen", keep, names, path.stem)
                result = scan_with(shipped, case.photo)
                if result is not None:
                    add(result, case, group + "-seen")
                if log:
                    print(f"  {case.name}{' real table' if table else ''}: {len(ys)} rows, "
                          f"{sum(ys)} wrong ({time.perf_counter() - t0:.0f} s)", flush=True)
            group = "rendered-table" if table else "rendered"
            seeds = FIT_SEEDS[group]
            for case in ev.rendered_cases(len(seeds), seeds[0], size, table):
                result = scan_with(shipped, case.photo)
                if result is not None:
                    add(result, case, group)
                if log:
                    print(f"  {case.name}{' real table' if table else ''}: {len(ys)} rows, "
                          f"{sum(ys)} wrong ({time.perf_counter() - t0:.0f} s)", flush=True)
    finally:
        for path, _ in paths:
            path.unlink(missing_ok=True)
        tmp.rmdir()
    return np.array(xs), np.array(ys, bool), np.array(gs), np.array(ss)


def lattice_failures(y: np.ndarray, scans: np.ndarray) -> set[str]:
    """The scans that read fewer than ``LATTICE_FAILED`` of their edges right."""
    return {str(s) for s in set(scans.tolist())
            if 1.0 - float(y[scans == s].mean()) < LATTICE_FAILED}


def fit_logistic(x: np.ndarray, y: np.ndarray, weight: np.ndarray, l2: float = L2
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Standardisation (mean, scale) and the weights and bias of the weighted logistic
    regression minimising log loss + ``l2`` / 2 |w|^2 (the bias unpenalised)."""
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-6] = 1.0
    z = (x - mean) / scale
    w_rows = weight / weight.sum()
    t = y.astype(np.float64)

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w, b = theta[:-1], theta[-1]
        a = z @ w + b
        # log(1 + e^a) - t a, stably
        ll = np.logaddexp(0.0, a) - t * a
        p = 1.0 / (1.0 + np.exp(-a))
        g = (p - t) * w_rows
        value = float((ll * w_rows).sum()) + 0.5 * l2 / len(y) * float(w @ w)
        grad = np.concatenate([z.T @ g + l2 / len(y) * w, [g.sum()]])
        return value, grad

    theta0 = np.zeros(x.shape[1] + 1)
    res = minimize(loss, theta0, jac=True, method="L-BFGS-B", options={"maxiter": 2000})
    return mean, scale, res.x[:-1], float(res.x[-1])


def threshold_for(p: np.ndarray, y: np.ndarray, groups: np.ndarray, recall: float,
                  recall_groups: tuple[str, ...] | None = None) -> float:
    """The highest threshold keeping ``recall`` of the wrong edges of ``recall_groups``
    (pooled; None: every group) at or above it."""
    held = np.isin(groups, recall_groups) if recall_groups is not None else True
    wrong = np.sort(p[held & y])
    if len(wrong) == 0:
        return 1.0
    miss = int(np.floor((1.0 - recall) * len(wrong)))  # may miss this many
    return float(wrong[miss])


def group_weights(groups: np.ndarray) -> np.ndarray:
    """Every group weighs alike; within a group every row alike."""
    weight = np.zeros(len(groups))
    for g in set(groups.tolist()):
        sel = groups == g
        weight[sel] = 1.0 / sel.sum()
    return weight


def probability(x: np.ndarray, fitted: tuple[np.ndarray, np.ndarray, np.ndarray, float]
                ) -> np.ndarray:
    mean, scale, coef, bias = fitted
    return 1.0 / (1.0 + np.exp(-np.clip(((x - mean) / scale) @ coef + bias, -50, 50)))


def out_of_fold(x: np.ndarray, y: np.ndarray, groups: np.ndarray, photos: np.ndarray,
                folds: int = 5, l2: float = L2, seed: int = SEED) -> np.ndarray:
    """P(wrong) of every row from a calibrator fitted without its photo's fold (the
    photos dealt to ``folds`` folds at random): what the calibrator says of photos it
    has not seen, to choose the threshold by."""
    fid = photo_folds(photos, folds, seed)
    out = np.zeros(len(y))
    for k in range(folds):
        tr, te = fid != k, fid == k
        if not te.any():
            continue
        out[te] = probability(x[te], fit_logistic(x[tr], y[tr], group_weights(groups[tr]), l2))
    return out


def photo_folds(photos: np.ndarray, folds: int, seed: int) -> np.ndarray:
    """The fold (0 .. ``folds`` - 1) of every row: the photos dealt to folds at random."""
    names = sorted(set(photos.tolist()))
    order = np.random.default_rng(seed).permutation(len(names))
    fold_of = {names[i]: k % folds for k, i in enumerate(order)}
    return np.array([fold_of[p] for p in photos.tolist()])


def report(p: np.ndarray, y: np.ndarray, groups: np.ndarray, threshold: float) -> list[str]:
    out = []
    for g in sorted(set(groups.tolist())):
        sel = groups == g
        flagged = p[sel] >= threshold
        wrong = y[sel]
        out.append(f"  {g:24s} wrong doubtful {int((flagged & wrong).sum())}/{int(wrong.sum())}"
                   f", edges flagged {100.0 * flagged.mean():.1f} % of {int(sel.sum())}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.synth.fit_doubt",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiles", default=None, help="the development tile photos")
    parser.add_argument("--out", default=str(doubt.CALIBRATOR_PATH))
    parser.add_argument("--rows", default=None, metavar="NPZ",
                        help="write the scanned rows there (or read them: --reuse-rows)")
    parser.add_argument("--reuse-rows", action="store_true")
    parser.add_argument("--recall", type=float, default=RECALL)
    parser.add_argument("--size", default="4000x3000")
    args = parser.parse_args(argv)
    w, h = (int(v) for v in args.size.lower().split("x"))
    if args.reuse_rows and args.rows:
        with np.load(args.rows) as data:
            x, y, groups = data["x"], data["y"], data["groups"].astype(str)
            scans = data["scans"].astype(str)
    else:
        x, y, groups, scans = collect(args.tiles, (w, h))
        if args.rows:
            np.savez(args.rows, x=x, y=y, groups=groups, scans=scans)
    failed = lattice_failures(y, scans)
    if failed:
        print(f"left out (lattice failed): {', '.join(sorted(failed))}")
        keep = ~np.isin(scans, sorted(failed))
        x, y, groups, scans = x[keep], y[keep], groups[keep], scans[keep]
    if x.shape[1] != len(doubt.FEATURES):
        print("fit_doubt: the rows hold other features; scan again", file=sys.stderr)
        return 1
    x = doubt.design(x)
    photos = np.array([s.split("/")[0] + ("/table" if "table" in s.split("/")[1] else "")
                       for s in scans.tolist()])
    mean, scale, coef, bias = fit_logistic(x, y, group_weights(groups))
    p = probability(x, (mean, scale, coef, bias))
    oof = out_of_fold(x, y, groups, photos)
    threshold = threshold_for(oof, y, groups, args.recall)
    meta = {"fitted_by": "companion.vision.synth.fit_doubt", "seed_sets": {
        k: [v.start, v.stop - 1] for k, v in FIT_SEEDS.items()},
        "recall_target": args.recall, "rows": int(len(y)), "wrong": int(y.sum()),
        "left_out": sorted(failed),
        "terrain_model": str(tm.load_model().meta.get("seed", "?"))}
    cal = doubt.Calibrator(doubt.COLUMNS, mean, scale, coef, bias, threshold, meta)
    cal.save(args.out)
    print(f"wrote {args.out}: threshold {threshold:.4f}")
    for name, c in sorted(zip(doubt.COLUMNS, coef, strict=True), key=lambda t: -abs(t[1])):
        print(f"  {name:14s} {c:+.3f}")
    print("out of fold (photos the calibrator was not fitted on):")
    print("\n".join(report(oof, y, groups, threshold)))
    print("in sample:")
    print("\n".join(report(p, y, groups, threshold)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
