"""Accuracy and speed of ``companion.vision.scan`` on photos with known truth.

Representation: a ``Case`` is one photo (encoded bytes, so decoding is timed like a
real upload) with its ``Truth`` tiles (axial position, code as it lies, task type,
marker value, flag, pixel centre) and a kind: ``assembled`` maps are compared after
aligning the scan's map onto the truth with the engine's map alignment
(``companion.rules.best_alignment``: the rigid hex motion, one of six rotations plus a
translation, under which most tiles agree; codes turn with the lattice); ``loose`` tiles are
matched by pixel centre and their codes compared modulo rotation. A scan that raises
counts as an error and all its tiles as misses. ``Tally`` adds cases up.

    python -m companion.vision.synth.evaluate
                                        [--set rendered|composite|loose|loose-composite|samples]
                                        [--count N] [--seed S] [--size WxH]
                                        [--tiles DIR] [--samples-dir DIR]
                                        [--config NAME=VALUE ...] [--per-photo]

Folders default to the current directory's ``../shared/tiles`` and ``sample_photos``
(run it from the repository's root).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import cv2
import numpy as np

from companion.rules import DIRECTIONS, Hex, best_alignment, opposite, rotate

SETS = ("rendered", "composite", "loose", "loose-composite", "samples")


class Truth(NamedTuple):
    at: tuple[int, int]
    code: str
    task_type: str | None
    marker: int | None
    flag: str | None
    centre: tuple[float, float]


@dataclass
class Case:
    name: str
    photo: bytes
    truth: list[Truth]
    kind: str  # "assembled" or "loose"


@dataclass
class Tally:
    photos: int = 0
    errors: int = 0
    error_reasons: list[str] = field(default_factory=list)
    truth_tiles: int = 0
    found: int = 0
    placed_right: int = 0
    extra: int = 0
    edges: int = 0
    edges_right: int = 0
    tiles_right: int = 0
    mismatches_present: int = 0
    mismatches_flagged: int = 0
    markers: int = 0
    markers_right: int = 0
    tasks: int = 0
    tasks_right: int = 0
    tasks_extra: int = 0
    """Tiles read as task tiles where the truth has a landscape tile."""
    flags: int = 0
    flags_right: int = 0
    flags_extra: int = 0
    flags_doubtful: int = 0
    """Flags missed or misread that the scan marked doubtful (``flag_doubtful``)."""
    collapsed: int = 0
    """Photos of an assembled map read as fewer than half its tiles (or refused)."""
    poor_fit: int = 0
    """Photos the scan said it fitted poorly (``Scan.poor_fit``)."""
    poor_fit_extra: int = 0
    """Phantom tiles of those photos (said, so a person looks)."""
    wrong_doubtful: int = 0
    """Wrong edges (of tiles at the right position) the scan marked doubtful."""
    edges_doubtful: int = 0
    """Edges (of tiles at the right position) the scan marked doubtful."""
    wrong_undoubted: list[int] = field(default_factory=list)
    """Per photo: wrong edges the scan did not mark doubtful."""
    edge_confidence: list[tuple[float, bool]] = field(default_factory=list)
    """Per compared edge: the scan's confidence and whether the edge is right."""
    edge_doubt: list[tuple[float, bool]] = field(default_factory=list)
    """Per compared edge: the doubt calibrator's P(wrong) and whether the edge is right
    (tiles that carry their ``evidence``)."""
    seconds: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        for name, value in other.__dict__.items():
            if isinstance(value, list):
                getattr(self, name).extend(value)
            else:
                setattr(self, name, getattr(self, name) + value)

    @property
    def placed_edges_wrong(self) -> int:
        return 6 * self.placed_right - self.edges_right

    def doubt_curve(self, thresholds: Iterable[float]) -> list[str]:
        """For each confidence threshold: the share of wrong edges below it and the
        share of all edges below it (to choose ``decode.doubt_below``)."""
        conf = np.array([c for c, _ in self.edge_confidence])
        wrong = np.array([not ok for _, ok in self.edge_confidence])
        out = []
        for t in thresholds:
            below = conf < t
            caught = int((below & wrong).sum())
            out.append(f"  below {t:.3f}: {caught}/{int(wrong.sum())} wrong edges, "
                       f"{100.0 * below.mean() if len(conf) else 0.0:.1f} % of edges")
        return out

    def calibrated_curve(self, thresholds: Iterable[float]) -> list[str]:
        """For each P(wrong) threshold of the doubt calibrator: the share of wrong edges
        at or above it and the share of all edges (mismatches aside)."""
        p = np.array([c for c, _ in self.edge_doubt])
        wrong = np.array([not ok for _, ok in self.edge_doubt])
        out = []
        for t in thresholds:
            above = p >= t
            out.append(f"  P(wrong) >= {t:.4f}: {int((above & wrong).sum())}/{int(wrong.sum())} "
                       f"wrong edges, {100.0 * above.mean() if len(p) else 0.0:.1f} % of edges")
        return out

    def lines(self) -> list[str]:
        def pct(a: int, b: int) -> str:
            return f"{a}/{b} ({100.0 * a / b:.1f} %)" if b else f"{a}/0 (n/a)"

        med = statistics.median(self.seconds) if self.seconds else 0.0
        out = [
            f"photos:                 {self.photos} ({self.errors} failed to scan)",
            f"tiles found:            {pct(self.found, self.truth_tiles)} "
            f"(+{self.extra} found where no tile lies)",
            f"tiles at right position: {pct(self.placed_right, self.truth_tiles)}",
            f"edges right:            {pct(self.edges_right, self.edges)}",
            f"tiles fully right:      {pct(self.tiles_right, self.truth_tiles)}",
            f"track/stream mismatches: {self.mismatches_flagged} flagged of "
            f"{self.mismatches_present} present",
            f"task types right:       {pct(self.tasks_right, self.tasks)} "
            f"(+{self.tasks_extra} read on landscape tiles)",
            f"marker digits right:    {pct(self.markers_right, self.markers)}",
            f"flags right:            {pct(self.flags_right, self.flags)} "
            f"(+{self.flags_extra} seen where no flag is; {self.flags_doubtful} of "
            f"{self.flags - self.flags_right} misses marked doubtful)",
            f"photos collapsed:       {self.collapsed} of {self.photos}",
            f"photos said to fit poorly: {self.poor_fit} "
            f"({self.poor_fit_extra} of the phantoms below)",
            f"phantom tiles:          {self.extra} "
            f"({self.extra / max(self.photos, 1):.2f} per photo)",
            f"wrong edges doubtful:   {pct(self.wrong_doubtful, self.placed_edges_wrong)}",
            f"wrong edges undoubted:  {sum(self.wrong_undoubted)} "
            f"(per photo: max {max(self.wrong_undoubted, default=0)}, "
            f"median {statistics.median(self.wrong_undoubted) if self.wrong_undoubted else 0})",
            f"edges flagged doubtful: {pct(self.edges_doubtful, 6 * self.placed_right)}",
            f"seconds per photo:      median {med:.2f}, max "
            f"{max(self.seconds) if self.seconds else 0.0:.2f}",
        ]
        out += [f"  error: {r}" for r in self.error_reasons[:5]]
        return out

    def photo_line(self, name: str) -> str:
        """One photo's tally in a line (``--per-photo``): what to look into first."""
        flags = f"flags {self.flags_right}/{self.flags}" + (
            f" +{self.flags_extra}" if self.flags_extra else "")
        return (f"{name}: tiles {self.placed_right}/{self.truth_tiles} +{self.extra}, "
                f"edges {self.edges_right}/{self.edges}, "
                f"undoubted {sum(self.wrong_undoubted)}, {flags}"
                + (", collapsed" if self.collapsed else "")
                + (", said to fit poorly" if self.poor_fit else "")
                + (", failed" if self.errors else "")
                + f", {self.seconds[0] if self.seconds else 0.0:.2f} s")


# --- comparing one scan with its truth ------------------------------------------------------

def _task_of(attributes: dict[str, object]) -> tuple[str | None, int | None]:
    value = attributes.get("task")
    if not isinstance(value, str):
        return None, None
    head, _, num = value.partition("/")
    return head, int(num) if num.isdigit() else None


def compare(scan: Any, truth: list[Truth], kind: str) -> Tally:
    """Score one scan result against its truth (see the module docstring)."""
    tally = Tally(photos=1, truth_tiles=len(truth), edges=6 * len(truth),
                  markers=sum(t.marker is not None for t in truth),
                  tasks=sum(t.task_type is not None for t in truth),
                  flags=sum(t.flag is not None for t in truth))
    tiles = list(scan.tiles)
    tally.found, tally.extra = _found_by_pixels(tiles, truth)
    if getattr(scan, "poor_fit", False):
        tally.poor_fit, tally.poor_fit_extra = 1, tally.extra
    pairs = matched_pairs(scan, truth, kind)
    if kind != "loose":
        present, flagged = _mismatches(tiles)
        tally.mismatches_present, tally.mismatches_flagged = present, flagged
        tally.collapsed = int(tally.found < len(truth) / 2)
    tally.placed_right = len(pairs)
    undoubted = 0
    for t, s, k in pairs:
        code, attrs = rotate(s.code, k), dict(s.attributes)
        doubtful = {(e + k) % 6 for e in getattr(s, "doubtful", ())}
        conf = [float(c) for c in s.confidence]
        right = _same(code, t.code)
        evidence = getattr(s, "evidence", None)
        p_wrong = None
        if evidence is not None:
            from companion.vision.doubt import load_calibrator

            p_wrong = load_calibrator().probability(evidence)
        for e in range(6):
            ok = code[e] == t.code[e]
            tally.edge_confidence.append((conf[(e - k) % 6], ok))
            if p_wrong is not None:
                tally.edge_doubt.append((float(p_wrong[(e - k) % 6]), ok))
            tally.edges_doubtful += e in doubtful
            tally.wrong_doubtful += (not ok) and e in doubtful
            undoubted += (not ok) and e not in doubtful
        tally.edges_right += right
        tally.tiles_right += right == 6
        kind_seen, value = _task_of(attrs)
        if t.task_type is not None and kind_seen == t.task_type:
            tally.tasks_right += 1
        tally.tasks_extra += t.task_type is None and kind_seen is not None
        if t.marker is not None and value == t.marker:
            tally.markers_right += 1
        flag = attrs.get("flag")
        if flag is not None and flag == t.flag:
            tally.flags_right += 1
        elif flag is not None:
            tally.flags_extra += 1
        if t.flag is not None and flag != t.flag and getattr(s, "flag_doubtful", False):
            tally.flags_doubtful += 1
    tally.wrong_undoubted.append(undoubted)
    return tally


def matched_pairs(scan: Any, truth: list[Truth], kind: str) -> list[tuple[Truth, Any, int]]:
    """(truth tile, scanned tile, the turn k taking the scanned code onto the truth's)
    for every scanned tile at the right position: loose tiles matched by pixel centre,
    a map aligned onto the truth by ``best_alignment``. Scanned edge ``e`` is truth
    edge ``(e + k) % 6``."""
    tiles = list(scan.tiles)
    pairs: list[tuple[Truth, Any, int]] = []
    if kind == "loose":
        for t, j in _match_by_pixels(tiles, truth):
            best = max(range(6), key=lambda k: _same(rotate(tiles[j].code, k), t.code))
            pairs.append((t, tiles[j], best))
        return pairs
    motion, _ = best_alignment({Hex(*t.at): t.code for t in truth},
                               {Hex(*s.at): s.code for s in tiles})
    by_cell = {Hex(*t.at): t for t in truth}
    for s in tiles:
        cell = motion.apply_hex(Hex(*s.at))
        if cell in by_cell:
            pairs.append((by_cell.pop(cell), s, motion.steps))
    return pairs


def _match_by_pixels(tiles: list[Any], truth: list[Truth]) -> list[tuple[Truth, int]]:
    """Each truth tile paired with the nearest unused scanned tile whose centre lies
    within 45 % of the tile spacing (greedy, in truth order)."""
    radius = _typical_spacing(truth) * 0.45
    free = list(range(len(tiles)))
    pairs: list[tuple[Truth, int]] = []
    for t in truth:
        if not free:
            break
        j = min(free, key=lambda i: _dist(tiles[i].center_px, t.centre))
        if _dist(tiles[j].center_px, t.centre) <= radius:
            free.remove(j)
            pairs.append((t, j))
    return pairs


def _found_by_pixels(tiles: list[Any], truth: list[Truth]) -> tuple[int, int]:
    """Truth tiles with a scanned centre within 45 % of the tile spacing; scanned extras."""
    found = len(_match_by_pixels(tiles, truth))
    return found, len(tiles) - found


def _same(a: str, b: str) -> int:
    return sum(x == y for x, y in zip(a, b, strict=True))


def _dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    return float(np.hypot(a[0] - b[0], a[1] - b[1]))


def _typical_spacing(truth: list[Truth]) -> float:
    if len(truth) < 2:
        return 1e9
    pts = np.array([t.centre for t in truth])
    d = np.linalg.norm(pts[:, None] - pts[None], axis=2)
    d[d == 0] = np.inf
    return float(np.median(d.min(axis=1)))


def _mismatches(tiles: list[Any]) -> tuple[int, int]:
    """Adjacent scanned edges where a track or stream meets something else; how many flagged."""
    cells = {tuple(s.at): s for s in tiles}
    present = flagged = 0
    for at, s in cells.items():
        for e in range(3):  # each neighbour pair once
            d = DIRECTIONS[e]
            other = cells.get((at[0] + d.q, at[1] + d.r))
            if other is None:
                continue
            a, b = s.code[e], other.code[opposite(e)]
            if a != b and ("T" in (a, b) or "S" in (a, b)):
                present += 1
                marked_a = e in list(getattr(s, "mismatch", []) or [])
                marked_b = opposite(e) in list(getattr(other, "mismatch", []) or [])
                flagged += marked_a or marked_b
    return present, flagged


def run_case(case: Case, scan_fn: Callable[[bytes], Any]) -> Tally:
    """Scan one photo; an exception counts as an error with every tile missed."""
    start = time.perf_counter()
    try:
        result = scan_fn(case.photo)
    except Exception as err:  # noqa: BLE001 - any failure of the scanner is a miss here
        tally = Tally(photos=1, errors=1, truth_tiles=len(case.truth),
                      edges=6 * len(case.truth),
                      markers=sum(t.marker is not None for t in case.truth),
                      tasks=sum(t.task_type is not None for t in case.truth),
                      flags=sum(t.flag is not None for t in case.truth))
        tally.error_reasons.append(f"{case.name}: {type(err).__name__}: {err}")
        tally.collapsed = int(case.kind == "assembled")
        tally.seconds.append(time.perf_counter() - start)
        return tally
    elapsed = time.perf_counter() - start
    tally = compare(result, case.truth, case.kind)
    tally.seconds.append(elapsed)
    return tally


def evaluate(cases: Iterable[Case], scan_fn: Callable[[bytes], Any] | None = None,
             each: Callable[[str, Tally], None] | None = None) -> Tally:
    """The cases' tallies added up; ``each`` (if given) sees every photo's own first."""
    if scan_fn is None:
        from companion.vision import scan  # lazy: the scanner may be unfinished

        scan_fn = scan
    total = Tally()
    for case in cases:
        one = run_case(case, scan_fn)
        if each is not None:
            each(case.name, one)
        total.add(one)
    return total


# --- the photo sets -------------------------------------------------------------------------

def _encode(image: np.ndarray, quality: int = 92) -> bytes:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()


def truth_of_rendered(tiles: Iterable[Any]) -> list[Truth]:
    return [Truth((t.at[0], t.at[1]), t.code, t.task_type, t.marker, t.flag,
                  (float(t.centre[0]), float(t.centre[1]))) for t in tiles]


def truth_of_json(data: dict[str, Any]) -> list[Truth]:
    return [Truth((int(t["at"][0]), int(t["at"][1])), t["code"], t.get("task"), t.get("marker"),
                  t.get("flag"), (float(t["centre"][0]), float(t["centre"][1])))
            for t in data["tiles"]]


def rendered_cases(count: int, seed: int, size: tuple[int, int],
                   real_table: bool = False, skip: int = 0, table: str | None = None,
                   clutter: bool = True, holes: float = 0.0, **light: float
                   ) -> Iterator[Case]:
    """``light``: ``shadow``, ``lighting``, ``glare`` or (with ``real_table``) ``ev``
    fixed for every photo (else drawn at random, as ``render.render_record`` does);
    ``table``: with ``real_table``, the table every photo shows
    (``render_table.BACKGROUNDS``; else drawn); ``holes``: the share of the tiles inside
    each map left out (``render_records.with_holes``). The first ``skip`` of the
    ``count`` photos are not drawn (the rest are the same as without skipping)."""
    from companion.vision.synth.render import render_record
    from companion.vision.synth.render_records import random_record

    rng = np.random.default_rng(seed)
    for i in range(count):
        s = seed + i
        tiles = int(rng.integers(15, 46))
        if i < skip:
            continue
        text = random_record(s, tiles)
        r = render_record(text, seed=s, size_px=size, jpeg_quality=None,
                          real_table=real_table, table=table, clutter=clutter, holes=holes,
                          **light)
        quality = int(r.params.get("jpeg_quality") or 90)
        yield Case(f"rendered-{s}", _encode(r.image, quality), truth_of_rendered(r.tiles),
                   "assembled")


def composite_cases(count: int, seed: int, size: tuple[int, int],
                    tiles: str | Path | None = None, real_table: bool = False,
                    skip: int = 0, table: str | None = None, clutter: bool = True,
                    holes: float = 0.0, **light: float) -> Iterator[Case]:
    """Composites of the crops from the tiles folder ``tiles`` (see
    ``composite.shared_tiles_dir``); ``light``, ``table``, ``clutter``, ``holes`` and
    ``skip`` as for ``rendered_cases``."""
    from companion.vision.synth.composite import composite_record

    rng = np.random.default_rng(seed)
    for i in range(count):
        s = seed + i
        landscape = int(rng.integers(20, 41))
        if i < skip:
            continue
        r = composite_record(seed=s, landscape=landscape, size_px=size,
                             folder=tiles, jpeg_quality=None, real_table=real_table,
                             table=table, clutter=clutter, holes=holes, **light)
        quality = int(r.params.get("jpeg_quality") or 90)
        yield Case(f"composite-{s}", _encode(r.image, quality), truth_of_rendered(r.tiles),
                   "assembled")


def loose_composite_cases(count: int, seed: int, size: tuple[int, int],
                          tiles: str | Path | None = None, real_table: bool = False,
                          table: str | None = None, clutter: bool = True,
                          **light: float) -> Iterator[Case]:
    """Photos of 6 to 25 real tile crops lying apart (``composite.loose_composite_record``)
    under the camera, light and table of the other sets; ``light``, ``table`` and
    ``clutter`` as for ``rendered_cases``."""
    from companion.vision.synth.composite import loose_composite_record

    rng = np.random.default_rng([seed, 7])
    for i in range(count):
        s = seed + i
        r = loose_composite_record(seed=s, count=int(rng.integers(6, 26)), folder=tiles,
                                   size_px=size, jpeg_quality=None, real_table=real_table,
                                   table=table, clutter=clutter, **light)
        quality = int(r.params.get("jpeg_quality") or 90)
        yield Case(f"loose-composite-{s}", _encode(r.image, quality),
                   truth_of_rendered(r.tiles), "loose")


def loose_cases(tiles: str | Path | None = None) -> Iterator[Case]:
    """The two development photos of loose tiles in the tiles folder (see
    ``composite.shared_tiles_dir``), truth from the hand-checked annotations."""
    from companion.vision.synth.composite import PHOTOS, load_annotations, shared_tiles_dir

    folder = shared_tiles_dir(tiles)
    if folder is None:
        return
    notes = load_annotations()
    for name in PHOTOS:
        truth = [Truth((t["number"], 0), rotate(t["code"], t["rotation"]),
                       t.get("task"), None, None, (float(t["centre"][0]), float(t["centre"][1])))
                 for t in notes[name]["tiles"]]
        yield Case(name, (folder / name).read_bytes(), truth, "loose")


def sample_cases(folder: Path) -> Iterator[Case]:
    for jpg in sorted(folder.glob("*.jpg")):
        truth_file = jpg.with_name(jpg.stem + ".truth.json")
        if not truth_file.exists():
            continue
        data = json.loads(truth_file.read_text("utf-8"))
        yield Case(jpg.name, jpg.read_bytes(), truth_of_json(data), "assembled")


def scan_config(settings: Iterable[str]) -> Any:
    """``DEFAULT_CONFIG`` with ``NAME=VALUE`` settings, each value read as the type of
    the default it replaces (``true``/``false`` for switches)."""
    from companion.vision.config import DEFAULT_CONFIG

    changes: dict[str, object] = {}
    for item in settings:
        name, sep, text = item.partition("=")
        if not sep:
            raise ValueError(f"{item!r} is not NAME=VALUE")
        stage = next((getattr(DEFAULT_CONFIG, s) for s in vars(DEFAULT_CONFIG)
                      if hasattr(getattr(DEFAULT_CONFIG, s), name)), None)
        if stage is None:
            raise TypeError(f"ScanConfig has no setting {name!r}")
        default = getattr(stage, name)
        if isinstance(default, bool):
            if text.lower() not in ("true", "false"):
                raise ValueError(f"{name} takes true or false, not {text!r}")
            changes[name] = text.lower() == "true"
        elif isinstance(default, tuple):  # comma-separated, typed as the default's items
            kind = type(default[0]) if default else str
            changes[name] = tuple(kind(part) for part in text.split(",") if part)
        else:
            changes[name] = type(default)(text)
    return DEFAULT_CONFIG.tuned(**changes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.synth.evaluate",
                                     description="Scanner accuracy and speed on known photos.")
    parser.add_argument("--set", choices=SETS, default="rendered")
    parser.add_argument("--count", type=int, default=10,
                        help="photos (rendered, composite, loose-composite)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--size", default="4000x3000",
                        help="WIDTHxHEIGHT (rendered, composite, loose-composite)")
    parser.add_argument("--samples-dir", default="sample_photos",
                        help="photos with .truth.json beside them (default: sample_photos)")
    parser.add_argument("--tiles", default=None, metavar="DIR",
                        help="the development tile photos (default: ../shared/tiles)")
    for name, what in (("shadow", "darkness of a cast shadow, 0..0.5"),
                       ("lighting", "strength of the light gradient, 0..0.3"),
                       ("glare", "strength of a glare patch, 0..0.7"),
                       ("ev", "(with --real-table) exposure in EV; drawn from -1.0..0.8"),
                       ("fill", "share of the photo the tiles span; drawn from 0.7..0.88")):
        parser.add_argument(f"--{name}", type=float, default=None,
                            help=f"(generated sets) {what}, the same in every photo")
    parser.add_argument("--config", action="append", default=[], metavar="NAME=VALUE",
                        help="a scanner setting (ScanConfig.tuned), e.g. learned=false")
    parser.add_argument("--real-table", action="store_true",
                        help="(rendered, composite) photos with what a real table shows: "
                             "hand-laid tiles, light colour, lens, mats, clutter, shadow")
    from companion.vision.synth.render_table import BACKGROUNDS

    parser.add_argument("--table", default=None, choices=BACKGROUNDS,
                        help="(with --real-table) the table every photo shows, e.g. "
                             "pattern (a checked cloth); default: drawn per photo")
    parser.add_argument("--no-clutter", action="store_true",
                        help="(with --real-table) nothing beside the tiles: no score pad, "
                             "cards, box lid or markers")
    parser.add_argument("--holes", type=float, default=0.0, metavar="SHARE",
                        help="(rendered, composite) leave out this share (0..1) of the tiles "
                             "inside each map: the table shows through holes, as in real "
                             "maps (render_records.with_holes)")
    parser.add_argument("--model", default=None, metavar="NPZ",
                        help="read edges with this terrain model instead of the shipped one")
    parser.add_argument("--per-photo", action="store_true",
                        help="also print one line per photo as it is scanned")
    parser.add_argument("--doubt-curve", action="store_true",
                        help="also print how many wrong edges each confidence level catches")
    args = parser.parse_args(argv)
    light = {k: float(getattr(args, k)) for k in ("shadow", "lighting", "glare", "ev", "fill")
             if getattr(args, k) is not None}
    try:
        w, h = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        print(f"evaluate: --size {args.size!r} is not WIDTHxHEIGHT", file=sys.stderr)
        return 1
    if not 0.0 <= args.holes < 1.0 or (args.holes and args.set not in ("rendered",
                                                                       "composite")):
        print("evaluate: --holes takes a share from 0 to 1, for --set rendered or composite",
              file=sys.stderr)
        return 1
    cases: Iterable[Case]
    if args.set == "rendered":
        cases = rendered_cases(args.count, args.seed, (w, h), args.real_table,
                               table=args.table, clutter=not args.no_clutter,
                               holes=args.holes, **light)
    elif args.set in ("composite", "loose-composite"):
        from companion.vision.synth.composite import shared_tiles_dir

        if shared_tiles_dir(args.tiles) is None:
            print(f"{args.set}: {args.tiles or '../shared/tiles'} lacks the tile photos; "
                  "nothing to evaluate")
            return 0
        made = composite_cases if args.set == "composite" else loose_composite_cases
        holes = {"holes": args.holes} if args.set == "composite" else {}
        cases = made(args.count, args.seed, (w, h), args.tiles, args.real_table,
                     table=args.table, clutter=not args.no_clutter, **holes, **light)
    elif args.set == "loose":
        cases = list(loose_cases(args.tiles))
        if not cases:
            print(f"loose: {args.tiles or '../shared/tiles'} lacks the tile photos; "
                  "nothing to evaluate")
            return 0
    else:
        cases = sample_cases(Path(args.samples_dir))
    print(f"set: {args.set}" + "".join(f", {k} {v}" for k, v in light.items())
          + (", real table" if args.real_table else "")
          + (f", table {args.table}" if args.table and args.real_table else "")
          + (", no clutter" if args.no_clutter and args.real_table else "")
          + (f", holes {args.holes:g}" if args.holes else ""))
    try:
        config = scan_config(args.config)
    except (TypeError, ValueError) as err:
        print(f"evaluate: --config: {err}", file=sys.stderr)
        return 1
    from companion.vision import scan

    if args.model:
        from companion.vision import terrain_model

        terrain_model.MODEL_PATH = Path(args.model)
    def print_photo(name: str, one: Tally) -> None:
        print(one.photo_line(name), flush=True)

    tally = evaluate(cases, lambda photo: scan(photo, config),
                     print_photo if args.per_photo else None)
    for line in tally.lines():
        print(line)
    if args.doubt_curve:
        print("doubt curve (edge confidence below a threshold):")
        for line in tally.doubt_curve((0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97,
                                       0.98, 0.99, 0.995, 0.999)):
            print(line)
        if tally.edge_doubt:
            from companion.vision.doubt import load_calibrator

            t0 = load_calibrator().threshold
            print(f"doubt calibrator (shipped threshold {t0:.4f}):")
            for line in tally.calibrated_curve(sorted({t0, 0.001, 0.002, 0.003, 0.005, 0.007,
                                                       0.01, 0.02, 0.03, 0.05, 0.1})):
                print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
