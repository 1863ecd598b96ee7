"""Fit the cell model (``companion.vision.cell_art``, ``models/cells.json``) from located maps.

Representation: a *row* is one cell the lattice located in a photo with known truth
(``scan.locate`` with ``find.ring_cells``, then ``scan.prepare``), a cell of the
map or one of its free neighbours (the table, a mat or clutter a silhouette could take
in, judged as if it had): its ``cell_art.FEATURES``, whether a
tile lies there (its centre within ``TILE_WITHIN`` of the tile spacing from a truth
tile's: 1; farther than ``NO_TILE_BEYOND``: 0; rows between, a cell half over a tile,
are left out) and its *group* (the photo set). The photos are generated here from seeds
no evaluation uses (``FIT_SEEDS``): composites of the real crops and procedural renders,
most of them with what a real table shows (``--real-table``: score pads, cards, lids,
markers, mats, grain the background model misses), some of maps with holes.

The model is an L2-regularised logistic regression (``fit_doubt.fit_logistic``) on the
standardised rows and their hinges (``cell_art.design``), each group weighing alike and,
within a group, cells with and without a tile alike (``weights``), fitted again with
each column capped where the tiles' own values end on the side it counts for a tile
(``cell_art.tile_caps``, ``CAP_SHARE``). The threshold is chosen on
*out-of-fold* probabilities (each photo judged by a model fitted without its fold): the highest
at which ``KEEP`` of the tiles are kept, so it is the threshold a new photo needs. The
report compares it, on the same cells, with the hand-set rules
(``find.learned_cells=false``), held out by photo and by set (fitted on composites,
judged on renders, and the other way round).

    python -m companion.vision.synth.fit_cells [--tiles DIR] [--out PATH]
        [--rows NPZ] [--reuse-rows] [--workers 2]

(``make fit-cells``: about 12-15 minutes on the shared 2-core machine.)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np

from companion.vision import cell_art
from companion.vision.synth import evaluate as ev
from companion.vision.synth.fit_doubt import fit_logistic, photo_folds
from companion.vision.synth.fit_doubt import probability as logistic_probability

SEED = 20261203
FIT_SEEDS: dict[str, range] = {
    "composite-table": range(7600, 7700), "rendered-table": range(7700, 7760),
    "composite": range(7800, 7812), "rendered": range(7850, 7862),
    "composite-holes": range(7900, 7930), "rendered-holes": range(7950, 7980)}
"""Photo seeds per set: each photo is drawn alone from its seed (``evaluate``). The
``-holes`` sets are real-table photos of maps with ``HOLES`` of their inner tiles left
out: cells inside a map that show the table."""
HOLES = 0.4
TILE_WITHIN = 0.3
NO_TILE_BEYOND = 0.55
KEEP = 0.999
"""Share of the tiles (out of fold, pooled) the threshold keeps: at 0.999 the model loses
fewer tiles than the hand-set rules and keeps under half the cells without one they keep
(at 0.997 it lost three times the tiles for a quarter fewer such cells)."""
BESIDE_SHARE = 0.5
"""The weight of a group's free neighbours among its cells without a tile (``weights``):
the same as the map's own such cells."""
L2 = 30.0
"""Chosen by cross-validation by photo (3 ... 300)."""
FOLDS = 5
CAP_SHARE = 0.001
"""The tiles' quantile (each side) that caps a column's evidence for a tile
(``cell_art.tile_caps``)."""


def _case(job: tuple[str, int, str | None]) -> ev.Case:
    group, seed, folder = job
    size = (4000, 3000)
    holes = HOLES if group.endswith("-holes") else 0.0
    real_table = group.endswith("-table") or holes > 0
    if group.startswith("composite"):
        return next(ev.composite_cases(1, seed, size, folder, real_table, holes=holes))
    return next(ev.rendered_cases(1, seed, size, real_table, holes=holes))


def rows_of_photo(job: tuple[str, int, str | None]
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One photo's rows, labels (1 tile, 0 none, -1 left out), the hand-set rules'
    verdict on the same cells and which cells are free neighbours of the map
    (``find.ring_cells``)."""
    import importlib

    from companion.vision.config import DEFAULT_CONFIG
    from companion.vision.io import load_photo

    # companion.vision.scan is the function; the module by name:
    scan_mod = importlib.import_module("companion.vision.scan")
    config = DEFAULT_CONFIG.tuned(ring_cells=True)
    case = _case(job)
    photo = load_photo(case.photo, config)
    try:
        found, kind, _ = scan_mod.locate(photo, config)
    except Exception:  # noqa: BLE001 - a photo the lattice refuses gives no rows
        found, kind = [], "none"
    if kind != "assembled" or len(found) < 3:
        return (np.zeros((0, len(cell_art.FEATURES))), np.zeros(0), np.zeros(0),
                np.zeros(0, bool))
    ready = scan_mod.prepared_for_judging(found, config)
    x = scan_mod.cell_rows(ready, config)
    beside = np.array([f.beside for f in ready.found])
    # The rules judge every cell, the free neighbours as if a silhouette took them in.
    judged = ready._replace(found=[replace(f, beside=False) for f in ready.found])
    rules = np.array(scan_mod.holds_tiles(judged, kind, config.tuned(learned_cells=False)))
    truth = np.array([t.centre for t in case.truth])
    spacing = ev._typical_spacing(case.truth)
    centres = np.array([photo.to_original(tuple(f.corners.mean(axis=0)))
                        for f in ready.found])
    d = np.linalg.norm(centres[:, None] - truth[None], axis=2).min(axis=1) / spacing
    y = np.where(d <= TILE_WITHIN, 1, np.where(d >= NO_TILE_BEYOND, 0, -1))
    return x, y, rules, beside


def collect(folder: str | None, workers: int, log: bool = True
            ) -> dict[str, np.ndarray]:
    jobs = [(g, s, folder) for g, seeds in FIT_SEEDS.items() for s in seeds]
    xs, ys, rules, besides, groups, photos = [], [], [], [], [], []
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for (g, s, _), (x, y, r, b) in zip(jobs, pool.map(rows_of_photo, jobs), strict=True):
            xs.append(x)
            ys.append(y)
            rules.append(r)
            besides.append(b)
            groups += [g] * len(y)
            photos += [f"{g}-{s}"] * len(y)
            if log:
                print(f"  {g} {s}: {int((y == 1).sum())} tiles, {int((y == 0).sum())} "
                      f"without ({time.perf_counter() - start:.0f} s)", file=sys.stderr)
    return {"x": np.vstack(xs), "y": np.concatenate(ys), "rules": np.concatenate(rules),
            "beside": np.concatenate(besides), "groups": np.array(groups),
            "photos": np.array(photos)}


def weights(y: np.ndarray, groups: np.ndarray, beside: np.ndarray | None = None
            ) -> np.ndarray:
    """Every group alike; within a group, cells with and without a tile alike, and
    among those without, the map's own cells and its free neighbours (``beside``) each
    ``BESIDE_SHARE``: the many plain neighbours must not drown the few cells over
    clutter that a silhouette took in."""
    side = np.zeros(len(y), bool) if beside is None else beside
    w = np.zeros(len(y))
    for g in set(groups.tolist()):
        tiles, own, near = ((groups == g) & (y == 1), (groups == g) & (y == 0) & ~side,
                            (groups == g) & (y == 0) & side)
        shares = ((tiles, 1.0), (own, 1.0 - BESIDE_SHARE if near.any() else 1.0),
                  (near, BESIDE_SHARE if own.any() else 1.0))
        for sel, share in shares:
            if sel.any():
                w[sel] = share / sel.sum()
    return w


Fitted = tuple[np.ndarray, np.ndarray, np.ndarray, float, np.ndarray, np.ndarray]
"""Mean, scale, weights, bias and the columns' caps (``cell_art.tile_caps``)."""


def fit(x: np.ndarray, y: np.ndarray, groups: np.ndarray, beside: np.ndarray | None = None,
        l2: float = L2) -> Fitted:
    """The logistic model of ``design`` columns ``x``, fitted again on the columns
    clipped to the caps the first fit's weights give (``cell_art.tile_caps``)."""
    w = weights(y, groups, beside)
    first = fit_logistic(x, y, w, l2)
    low, high = cell_art.tile_caps(x, y == 1, first[2], CAP_SHARE)
    return (*fit_logistic(np.clip(x, low, high), y, w, l2), low, high)


def probability(x: np.ndarray, fitted: Fitted) -> np.ndarray:
    """P(tile) of ``design`` rows ``x`` under ``fitted`` (clipped to its caps)."""
    mean, scale, coef, bias, low, high = fitted
    return logistic_probability(np.clip(x, low, high), (mean, scale, coef, bias))


def out_of_fold(x: np.ndarray, y: np.ndarray, groups: np.ndarray, photos: np.ndarray,
                beside: np.ndarray | None = None, l2: float = L2, folds: int = FOLDS,
                seed: int = SEED) -> np.ndarray:
    """P(tile) of every row from a model fitted without its photo's fold."""
    fid = photo_folds(photos, folds, seed)
    side = np.zeros(len(y), bool) if beside is None else beside
    out = np.zeros(len(y))
    for k in range(folds):
        tr, te = fid != k, fid == k
        if te.any():
            out[te] = probability(x[te], fit(x[tr], y[tr], groups[tr], side[tr], l2))
    return out


def threshold_for(p: np.ndarray, y: np.ndarray, keep: float = KEEP) -> float:
    """The highest threshold keeping ``keep`` of the tiles (``y == 1``) at or above it."""
    tiles = np.sort(p[y == 1])
    if len(tiles) == 0:
        return 0.5
    return float(tiles[int(np.floor((1.0 - keep) * len(tiles)))])


def tally(kept: np.ndarray, y: np.ndarray) -> str:
    lost = int(((y == 1) & ~kept).sum())
    extra = int(((y == 0) & kept).sum())
    return (f"tiles lost {lost}/{int((y == 1).sum())}, cells without a tile kept "
            f"{extra}/{int((y == 0).sum())}")


def report(p: np.ndarray, y: np.ndarray, rules: np.ndarray, beside: np.ndarray,
           groups: np.ndarray, photos: np.ndarray, threshold: float, sets: Iterable[str]
           ) -> list[str]:
    """Per set: on the map's cells (those a scan judges), the tiles lost and cells
    without a tile kept, learned and by the hand-set rules; and how many of the free
    neighbours without a tile each would take in."""
    lines = []
    for g in sets:
        sel, out = (groups == g) & ~beside, (groups == g) & beside & (y == 0)
        n = len(set(photos[groups == g].tolist()))
        lines.append(f"  {g} ({n} photos): learned {tally(p[sel] >= threshold, y[sel])}; "
                     f"hand-set rules {tally(rules[sel].astype(bool), y[sel])}; free "
                     f"neighbours without a tile taken in: learned "
                     f"{int((p[out] >= threshold).sum())}, rules {int(rules[out].sum())} "
                     f"of {int(out.sum())}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.synth.fit_cells",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--tiles", default=None, metavar="DIR")
    parser.add_argument("--out", default=str(cell_art.MODEL_PATH))
    parser.add_argument("--rows", default=None, metavar="NPZ",
                        help="keep the located cells' rows in this file")
    parser.add_argument("--reuse-rows", action="store_true",
                        help="refit from the rows in --rows instead of locating again")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    from companion.vision.synth.composite import shared_tiles_dir

    if shared_tiles_dir(args.tiles) is None:
        print(f"fit_cells: {args.tiles or '../shared/tiles'} lacks the tile photos",
              file=sys.stderr)
        return 1
    if args.reuse_rows and args.rows and Path(args.rows).exists():
        data = dict(np.load(args.rows))
        names = [str(n) for n in data["features"]]
        missing = [n for n in cell_art.FEATURES if n not in names]
        if missing:
            print(f"fit_cells: {args.rows} lacks {', '.join(missing)}: locate again",
                  file=sys.stderr)
            return 1
        data["x"] = data["x"][:, [names.index(n) for n in cell_art.FEATURES]]
    else:
        data = collect(args.tiles, args.workers)
        if args.rows:
            np.savez_compressed(args.rows, x=data["x"], y=data["y"], rules=data["rules"],
                                beside=data["beside"], groups=data["groups"],
                                photos=data["photos"],
                                features=np.array(cell_art.FEATURES))
    keep = data["y"] >= 0
    x, y = cell_art.design(data["x"][keep]), data["y"][keep].astype(int)
    rules, groups, photos = data["rules"][keep], data["groups"][keep], data["photos"][keep]
    beside = data["beside"][keep].astype(bool)
    oof = out_of_fold(x, y, groups, photos, beside)
    threshold = threshold_for(oof, y)
    sets = list(FIT_SEEDS)
    lines = [f"rows: {len(y)} cells ({int(y.sum())} tiles) from "
             f"{len(set(photos.tolist()))} photos; threshold {threshold:.4f} "
             f"(keeps {KEEP:.1%} of the tiles out of fold)",
             "held out by photo (out of fold):"]
    lines += report(oof, y, rules, beside, groups, photos, threshold, sets)
    lines.append("held out by set (fitted on the other kind of photo, same threshold rule):")
    for held in ("composite", "rendered"):
        te = np.char.startswith(groups.astype(str), held)
        fitted = fit(x[~te], y[~te], groups[~te], beside[~te])
        p_tr = probability(x[~te], fitted)
        t_held = threshold_for(p_tr, y[~te])
        lines += report(probability(x[te], fitted), y[te], rules[te], beside[te],
                        groups[te], photos[te], t_held, [g for g in sets if g.startswith(held)])
    mean, scale, coef, bias, low, high = fit(x, y, groups, beside)
    model = cell_art.CellModel(
        cell_art.COLUMNS, mean, scale, coef, bias, threshold,
        {"seeds": {g: [r.start, r.stop] for g, r in FIT_SEEDS.items()}, "l2": L2,
         "keep": KEEP, "beside_share": BESIDE_SHARE, "caps": CAP_SHARE,
         "rows": int(len(y)), "tiles": int(y.sum()), "report": lines}, low, high)
    model.save(args.out)
    for line in lines:
        print(line)
    print("weights: " + ", ".join(f"{n} {w:+.2f}" for n, w in
                                  sorted(zip(cell_art.COLUMNS, coef, strict=True),
                                         key=lambda t: -abs(t[1]))[:12]))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
