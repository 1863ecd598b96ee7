"""Render a record as a photo-like image with its ground truth (test data for the scanner).

Representation: the *board plane* is ``Layout(1.0)`` of ``companion.rules.hexgrid``
(tile circumradius 1, ``Hex(0, 0)`` at the origin, flat-topped, y down). A photo is
made by drawing every tile (procedural art from ``render_art``, or any other
``TilePainter`` such as the real-tile crops of ``composite``) onto a flat canvas,
warping it with a perspective camera onto a table background, then lighting, cast
shadows, glare, blur, noise and a JPEG round trip. ``Rendered.homography`` maps
board-plane points ``(x, y, 1)`` to image pixels; each ``TileTruth`` gives a tile's
axial position, code as it lies, task type / marker value / flag, and its centre,
corners and six edge midpoints in image pixels (tile jitter included, so the truth
is where the tile really lies, not the ideal lattice point).

``python -m companion.vision.synth.render --samples DIR`` (re)writes the sample photos:
``NAME.jpg``, ``NAME.dorf``, ``NAME.truth.json``. An existing ``NAME.dorf`` is reused,
so the images are regenerated exactly from the committed records.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.rules import Hex, Layout
from companion.vision.synth.render_art import CARDBOARD_SIDE, TileArt, draw_tile, hexagon
from companion.vision.synth.render_records import LaidTile, laid_tiles, random_record, with_holes
from companion.vision.synth.render_scene import (
    BACKGROUNDS,
    apply_light,
    camera_homography,
    fit_to_image,
    gain_field,
    local_scale,
    project,
    sensor,
)
from companion.vision.synth.render_scene import (
    background as table_background,
)
from companion.vision.synth.render_table import (
    BACKGROUNDS as TABLES,
)
from companion.vision.synth.render_table import (
    background as real_background,
)
from companion.vision.synth.render_table import (
    barrel,
    barrel_points,
    draw_clutter,
    light_colour,
    table_params,
    vignette_and_band,
)

TilePainter = Callable[[LaidTile, float, np.random.Generator], tuple[np.ndarray, np.ndarray]]
"""Draws one tile flat-topped, edges as it lies: ``(tile, radius_px, rng) -> (bgr, alpha)``,
square canvases with the tile centre at the canvas centre."""

BOARD = Layout(1.0, (0.0, 0.0))
GAP = 0.965
"""Tiles are drawn this much smaller than their lattice cell: a thin gap between them."""
MAX_CANVAS = 7000
"""Longest side of the flat board canvas in pixels (caps memory on huge photos)."""


@dataclass(frozen=True)
class TileTruth:
    at: Hex
    code: str
    task_type: str | None
    marker: int | None
    flag: str | None
    centre: tuple[float, float]
    edge_midpoints: tuple[tuple[float, float], ...]
    corners: tuple[tuple[float, float], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "at": [self.at.q, self.at.r],
            "code": self.code,
            "task": self.task_type,
            "marker": self.marker,
            "flag": self.flag,
            "centre": [round(v, 2) for v in self.centre],
            "edge_midpoints": [[round(v, 2) for v in p] for p in self.edge_midpoints],
            "corners": [[round(v, 2) for v in p] for p in self.corners],
        }


@dataclass
class Rendered:
    """A rendered photo (BGR uint8) and what it shows."""

    image: np.ndarray
    tiles: list[TileTruth]
    homography: np.ndarray
    record: str
    tile_radius_px: float
    """Median image distance from a tile centre to its corners."""
    params: dict[str, Any] = field(default_factory=dict)
    kind: str = "assembled"

    def truth_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "size": [int(self.image.shape[1]), int(self.image.shape[0])],
            "homography": [[float(v) for v in row] for row in self.homography],
            "tile_radius_px": round(self.tile_radius_px, 2),
            "params": self.params,
            "tiles": [t.to_json() for t in self.tiles],
        }


@dataclass(frozen=True)
class PhotoParams:
    size_px: tuple[int, int]
    tilt_deg: float
    yaw_deg: float
    background: str
    lighting: float
    shadow: float
    glare: float
    blur: float
    noise: float
    jpeg_quality: int | None
    fill: float

    def to_json(self) -> dict[str, Any]:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.__dict__.items()}


def photo_params(rng: np.random.Generator, *, size_px: tuple[int, int],
                 tilt_deg: float | None, yaw_deg: float | None, background: str | None,
                 lighting: float | None, shadow: float | None, glare: float | None,
                 blur: float | None, noise: float | None, jpeg_quality: int | None | str,
                 fill: float | None) -> PhotoParams:
    """Fill every option left ``None`` with a draw from ``rng`` (always the same draws)."""
    draws = {
        "tilt": rng.uniform(0, 35), "yaw": rng.uniform(-12, 12),
        "bg": BACKGROUNDS[int(rng.integers(0, len(BACKGROUNDS)))],
        "lighting": rng.uniform(0.0, 0.18), "shadow": rng.choice([0.0, rng.uniform(0.1, 0.35)]),
        "glare": rng.choice([0.0, rng.uniform(0.2, 0.6)]), "blur": rng.uniform(0.3, 1.2),
        "noise": rng.uniform(1.5, 5.0), "jpeg": int(rng.integers(80, 96)),
        "fill": rng.uniform(0.7, 0.88),
    }
    if not 0 <= (tilt_deg if tilt_deg is not None else 0) <= 60:
        raise ValueError("tilt_deg must be within 0..60 degrees")
    if background is not None and background not in BACKGROUNDS:
        raise ValueError(f"unknown background {background!r} (one of {', '.join(BACKGROUNDS)})")
    return PhotoParams(
        size_px=(int(size_px[0]), int(size_px[1])),
        tilt_deg=float(draws["tilt"] if tilt_deg is None else tilt_deg),
        yaw_deg=float(draws["yaw"] if yaw_deg is None else yaw_deg),
        background=str(draws["bg"] if background is None else background),
        lighting=float(draws["lighting"] if lighting is None else lighting),
        shadow=float(draws["shadow"] if shadow is None else shadow),
        glare=float(draws["glare"] if glare is None else glare),
        blur=float(draws["blur"] if blur is None else blur),
        noise=float(draws["noise"] if noise is None else noise),
        jpeg_quality=int(draws["jpeg"]) if jpeg_quality == "random" else
        (None if jpeg_quality is None else int(jpeg_quality)),
        fill=float(draws["fill"] if fill is None else fill),
    )


def procedural_painter(tile: LaidTile, radius: float,
                       rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    return draw_tile(TileArt(tile.code, tile.task_type, tile.marker, tile.flag), radius, rng)


def render_record(record_text: str, *, seed: int, size_px: tuple[int, int] = (4000, 3000),
                  tilt_deg: float | None = None, yaw_deg: float | None = None,
                  background: str | None = None, lighting: float | None = None,
                  shadow: float | None = None, glare: float | None = None,
                  blur: float | None = None, noise: float | None = None,
                  jpeg_quality: int | None | str = "random",
                  fill: float | None = None, real_table: bool = False,
                  table: str | None = None, ev: float | None = None,
                  clutter: bool = True, holes: float = 0.0) -> Rendered:
    """Draw the record's landscape as a photo; options left ``None`` are drawn from ``seed``.

    ``tilt_deg``: camera pitch from straight down (0..35 typical); ``yaw_deg``: turn of the
    board in the photo; ``background``: wood, cloth or mat; ``lighting``: strength of the
    light gradient (0..0.2); ``shadow``: darkness of a soft cast shadow (0..0.4); ``glare``:
    strength of a glare patch (0..0.7); ``blur``: Gaussian sigma in pixels; ``noise``: sensor
    noise sigma; ``jpeg_quality``: 1..100, ``None`` for no JPEG, ``"random"`` (80..95);
    ``fill``: fraction of the photo the board spans; ``real_table``: add what a real
    table shows (``render_table``: tiles laid by hand, cardboard walls, light colour and
    exposure, vignetting, barrel distortion, play mats, clutter, a shadow band);
    ``table``: with ``real_table``, the table it shows (one of
    ``render_table.BACKGROUNDS``) instead of one drawn from ``seed``; ``ev``: with
    ``real_table``, the exposure in EV instead of the one drawn (an overexposed photo:
    about +0.7 and up clips the pale art); ``clutter`` false: with ``real_table``, nothing
    beside the map (the photo otherwise the same); ``holes``: the share of the tiles
    inside the map left out (``render_records.with_holes``).
    """
    return render_tiles(with_holes(laid_tiles(record_text), holes, seed), procedural_painter,
                        seed=seed, record=record_text, size_px=size_px, tilt_deg=tilt_deg,
                        yaw_deg=yaw_deg, background=background, lighting=lighting,
                        shadow=shadow, glare=glare, blur=blur, noise=noise,
                        jpeg_quality=jpeg_quality, fill=fill, real_table=real_table,
                        table=table, ev=ev, clutter=clutter)


def render_tiles(tiles: Sequence[LaidTile], painter: TilePainter, *, seed: int, record: str,
                 size_px: tuple[int, int] = (4000, 3000), tilt_deg: float | None = None,
                 yaw_deg: float | None = None, background: str | None = None,
                 lighting: float | None = None, shadow: float | None = None,
                 glare: float | None = None, blur: float | None = None,
                 noise: float | None = None, jpeg_quality: int | None | str = "random",
                 fill: float | None = None, real_table: bool = False,
                 table: str | None = None, ev: float | None = None,
                 spread: float = 1.0, clutter: bool = True) -> Rendered:
    """The whole pipeline for any ``painter`` (see ``render_record`` for the options).

    ``real_table`` draws its conditions from a generator of its own, so the photo is
    otherwise the same as without it. ``spread`` multiplies the distances between the
    tiles' centres (above 1: tiles lying apart, not yet laid into a map)."""
    if not tiles:
        raise ValueError("the record places no tiles")
    rng = np.random.default_rng(seed)
    params = photo_params(rng, size_px=size_px, tilt_deg=tilt_deg, yaw_deg=yaw_deg,
                          background=background, lighting=lighting, shadow=shadow, glare=glare,
                          blur=blur, noise=noise, jpeg_quality=jpeg_quality, fill=fill)
    w, h = params.size_px

    # 1. where each tile really lies on the board plane (lattice + jitter)
    centres = np.array([BOARD.to_pixel(t.at) for t in tiles]) * spread
    jitter = rng.uniform(-0.025, 0.025, (len(tiles), 2))
    turns = rng.uniform(-2.0, 2.0, len(tiles))
    centres = centres + jitter
    table_rng = np.random.default_rng([seed, 14])
    real = table_params(table_rng) if real_table else None
    if real is not None and table is not None:
        if table not in TABLES:
            raise ValueError(f"unknown table {table!r}: one of {', '.join(TABLES)}")
        real = dataclasses.replace(real, background=table)
    if real is not None and ev is not None:
        real = dataclasses.replace(real, ev=float(ev))
    if real is not None and not clutter:
        real = dataclasses.replace(real, clutter=())
    if real is not None:  # laid by hand: shifted and turned a little more
        centres = centres + table_rng.uniform(-real.shift, real.shift, centres.shape)
        turns = turns + table_rng.uniform(-real.turn_deg, real.turn_deg, len(tiles))

    # 2. camera: board -> image
    mid = tuple(centres.mean(axis=0))
    extent = float(np.ptp(centres, axis=0).max()) + 2.0
    h_cam = camera_homography(params.tilt_deg, params.yaw_deg, (mid[0], mid[1]),
                              distance=extent * 1.6)
    outline = np.concatenate([hexagon(1.0, (float(c[0]), float(c[1]))) for c in centres])
    h_img = fit_to_image(h_cam, outline, (w, h), params.fill, rng)

    # 3. flat canvas at the resolution of the nearest tile
    k = max(local_scale(h_img, (float(c[0]), float(c[1]))) for c in centres)
    lo = outline.min(axis=0) - 0.3
    hi = outline.max(axis=0) + 0.3
    k = min(k, MAX_CANVAS / float((hi - lo).max()))
    cw, ch = int(math.ceil((hi[0] - lo[0]) * k)), int(math.ceil((hi[1] - lo[1]) * k))
    to_canvas = np.array([[k, 0, -lo[0] * k], [0, k, -lo[1] * k], [0, 0, 1.0]])
    canvas = np.zeros((ch, cw, 4), np.uint8)

    # cardboard sides: seen on the side facing the camera, longer when tilted
    toward = np.array([math.sin(math.radians(params.yaw_deg)),
                       math.cos(math.radians(params.yaw_deg))])
    side = toward * (0.015 + 0.07 * math.tan(math.radians(params.tilt_deg)))
    if real is not None:
        side = side * real.wall
    for c in centres:
        poly = hexagon(GAP * k, (float((c[0] + side[0] - lo[0]) * k),
                                 float((c[1] + side[1] - lo[1]) * k)))
        cv2.fillPoly(canvas, [np.round(poly * 16).astype(np.int32)],
                     (*CARDBOARD_SIDE, 255), cv2.LINE_AA, shift=4)
    for t, c, turn in zip(tiles, centres, turns, strict=True):
        bgr, alpha = painter(t, GAP * k, rng)
        _paste(canvas, bgr, alpha, ((c[0] - lo[0]) * k, (c[1] - lo[1]) * k), float(turn))

    # 4. photo: table, cast shadows, tiles, light, sensor
    h_canvas = h_img @ np.linalg.inv(to_canvas)
    warped = cv2.warpPerspective(canvas, h_canvas, (w, h), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    table = table_background(params.background, (w, h), rng)
    if real is not None and real.background != params.background:
        table = real_background(real.background, (w, h), table_rng)
    alpha = warped[..., 3]
    radius_px = float(np.median([local_scale(h_img, (float(c[0]), float(c[1])))
                                 for c in centres]))
    small = cv2.resize(alpha, (max(1, w // 4), max(1, h // 4)), interpolation=cv2.INTER_AREA)
    shift = radius_px * 0.05 / 4
    m = np.array([[1, 0, shift * 0.6], [0, 1, shift]], np.float32)
    cast = cv2.warpAffine(small, m, (small.shape[1], small.shape[0]))
    cast = cv2.GaussianBlur(cast, (0, 0), max(1.0, radius_px * 0.04 / 4))
    cast_full = cv2.resize(cast, (w, h), interpolation=cv2.INTER_LINEAR)
    lit = cv2.convertScaleAbs(cast_full, alpha=-0.45, beta=255.0)  # 255 * (1 - 0.45 * cast)
    table = cv2.multiply(table, cv2.merge([lit, lit, lit]), scale=1.0 / 255.0)
    a = alpha.astype(np.float32) * (1.0 / 255.0)
    img8 = cv2.blendLinear(cv2.cvtColor(warped, cv2.COLOR_BGRA2BGR), table, a, 1.0 - a)
    if real is not None:
        img8 = draw_clutter(img8, alpha, radius_px, real.clutter, table_rng)
    gain, glare_map = gain_field((w, h), params.lighting, params.shadow, params.glare, rng)
    if real is not None:
        gain = gain * vignette_and_band((w, h), real.vignette, real.band_depth,
                                        real.band_angle, real.band_offset)
    balance = tuple(float(v) for v in 1.0 + rng.uniform(-0.04, 0.04, 3))
    img8 = apply_light(img8, gain, glare_map, (balance[0], balance[1], balance[2]))
    if real is not None:
        img8 = barrel(light_colour(img8, real.kelvin, real.correction, real.ev), real.k1)
    img8 = sensor(img8, params.blur, params.noise, params.jpeg_quality, rng)

    # 5. ground truth
    truths = []
    for t, c, turn in zip(tiles, centres, turns, strict=True):
        truths.append(_truth(t, c, float(turn), h_img,
                             real.k1 if real is not None else 0.0, (w, h)))
    photo = params.to_json()
    if real is not None:
        photo["real_table"] = real.to_json()
    return Rendered(image=img8, tiles=truths, homography=h_img, record=record,
                    tile_radius_px=radius_px, params=photo)


def _truth(t: LaidTile, centre: np.ndarray, turn_deg: float, h_img: np.ndarray,
           k1: float = 0.0, size: tuple[int, int] = (0, 0)) -> TileTruth:
    a = math.radians(turn_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    apothem = GAP * math.sqrt(3) / 2
    mids = [rot @ np.array([math.cos(math.radians(-90 + 60 * e)),
                            math.sin(math.radians(-90 + 60 * e))]) * apothem for e in range(6)]
    corners = [rot @ np.array([math.cos(math.radians(60 * i)),
                               math.sin(math.radians(60 * i))]) * GAP for i in range(6)]
    pts = np.array([centre] + [centre + m for m in mids] + [centre + c for c in corners])
    img_pts = barrel_points(project(h_img, pts), size, k1)
    as_tuple = [(float(p[0]), float(p[1])) for p in img_pts]
    return TileTruth(at=t.at, code=t.code, task_type=t.task_type, marker=t.marker, flag=t.flag,
                     centre=as_tuple[0], edge_midpoints=tuple(as_tuple[1:7]),
                     corners=tuple(as_tuple[7:13]))


def _paste(canvas: np.ndarray, bgr: np.ndarray, alpha: np.ndarray,
           centre: tuple[float, float], turn_deg: float) -> None:
    """Alpha-blend a tile canvas onto the board canvas, centred at ``centre``, turned."""
    side = bgr.shape[0]
    x0, y0 = int(math.floor(centre[0] - side / 2)), int(math.floor(centre[1] - side / 2))
    m = cv2.getRotationMatrix2D((side / 2, side / 2), -turn_deg, 1.0)
    m[0, 2] += centre[0] - side / 2 - x0
    m[1, 2] += centre[1] - side / 2 - y0
    tile = cv2.warpAffine(np.dstack([bgr, alpha]), m, (side + 1, side + 1),
                          flags=cv2.INTER_LINEAR)
    H, W = canvas.shape[:2]
    xa, ya = max(0, x0), max(0, y0)
    xb, yb = min(W, x0 + side + 1), min(H, y0 + side + 1)
    if xa >= xb or ya >= yb:
        return
    part = tile[ya - y0:yb - y0, xa - x0:xb - x0]
    a = part[..., 3].astype(np.float32) * (1.0 / 255.0)
    roi = canvas[ya:yb, xa:xb]
    rgb = cv2.blendLinear(np.ascontiguousarray(part[..., :3]), np.ascontiguousarray(roi[..., :3]),
                          a, 1.0 - a)
    canvas[ya:yb, xa:xb, :3] = rgb
    canvas[ya:yb, xa:xb, 3] = np.maximum(roi[..., 3], part[..., 3])


# --- sample photos -----------------------------------------------------------------------

SAMPLES: tuple[dict[str, Any], ...] = (
    {"name": "wood-from-above", "seed": 101, "tiles": 19, "size_px": (2000, 1500),
     "tilt_deg": 4.0, "background": "wood", "glare": 0.0, "jpeg_quality": 88},
    {"name": "cloth-tilted-30", "seed": 202, "tiles": 30, "size_px": (2000, 1500),
     "tilt_deg": 30.0, "background": "cloth", "jpeg_quality": 88},
    {"name": "mat-glare-shadow", "seed": 303, "tiles": 25, "size_px": (2000, 1500),
     "tilt_deg": 18.0, "background": "mat", "glare": 0.5, "shadow": 0.3, "jpeg_quality": 88},
    {"name": "wood-12mp-tilted-25", "seed": 404, "tiles": 45, "size_px": (4000, 3000),
     "tilt_deg": 25.0, "background": "wood", "jpeg_quality": 82},
)


def write_samples(directory: Path) -> list[Path]:
    """Render every entry of ``SAMPLES`` into ``directory``; return the JPEG paths."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for spec in SAMPLES:
        name = spec["name"]
        dorf = directory / f"{name}.dorf"
        if dorf.exists():
            text = dorf.read_text("utf-8")
        else:
            text = f"# rendered sample photo {name}.jpg (seed {spec['seed']})\n"
            text += random_record(spec["seed"], spec["tiles"])
            dorf.write_text(text, "utf-8")
        options = {k: v for k, v in spec.items() if k not in ("name", "seed", "tiles")}
        rendered = render_record(text, seed=spec["seed"], **options)
        jpg = directory / f"{name}.jpg"
        quality = int(spec.get("jpeg_quality", 90))
        cv2.imwrite(str(jpg), rendered.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        truth = rendered.truth_json()
        (directory / f"{name}.truth.json").write_text(json.dumps(truth, indent=1) + "\n", "utf-8")
        written.append(jpg)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion.vision.synth.render",
                                     description="Render records as photo-like test images.")
    parser.add_argument("--samples", metavar="DIR", help="(re)write the sample photos into DIR")
    parser.add_argument("--record", help="render this record file ...")
    parser.add_argument("--out", help="... into this image file (with OUT.truth.json)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tilt", type=float, default=None)
    parser.add_argument("--size", default="4000x3000", help="WIDTHxHEIGHT")
    parser.add_argument("--background", choices=BACKGROUNDS, default=None)
    parser.add_argument("--bench", type=int, metavar="N", help="time N random 12 MP renders")
    args = parser.parse_args(argv)
    try:
        if args.samples:
            for path in write_samples(Path(args.samples)):
                print(path)
            return 0
        if args.bench:
            times = []
            for i in range(args.bench):
                text = random_record(args.seed + i, 45)
                t0 = time.perf_counter()
                render_record(text, seed=args.seed + i)
                times.append(time.perf_counter() - t0)
            print(f"renders: {len(times)}  median {np.median(times):.2f} s  "
                  f"max {max(times):.2f} s per 12 MP photo")
            return 0
        if args.record and args.out:
            w, h = (int(v) for v in args.size.lower().split("x"))
            text = Path(args.record).read_text("utf-8")
            rendered = render_record(text, seed=args.seed, size_px=(w, h), tilt_deg=args.tilt,
                                     background=args.background)
            cv2.imwrite(args.out, rendered.image)
            Path(args.out + ".truth.json").write_text(json.dumps(rendered.truth_json()), "utf-8")
            return 0
    except (OSError, ValueError) as err:
        print(f"render: {err}", file=sys.stderr)
        return 1
    parser.print_usage(sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
