"""The scanner's entry point: a photo in, a ``Scan`` (tiles + record) out.

Representation: ``Scan.tiles`` is a list of ``ScannedTile``, each a rules
``Placement`` (axial ``at`` relative to the first tile found, or ``(index, 0)`` for
loose tiles; the code as it lies; task and flag) with what the photo adds: six
``confidence`` values 0..1, the centre in original image pixels, the ``mismatch``
edges flagged by neighbour consistency. ``Scan.to_record()`` is the rules ``Record``
with the tiles in breadth-first order from the first tile (every line touches an
earlier one); ``Scan.record`` is its text, written by ``companion.rules.write_record``.

Stages, each a pure function of its inputs: ``io.load_photo`` -> ``io.brought_up``
-> ``background.foreground_and_table`` (loose tiles a pool of glare joined parted:
``seen_foreground``) -> ``find_tiles.blobs`` (loose tiles, and those whose
foreground broke: ``broken_tiles``; those it missed: ``rim_search``) or ``lattice``
(assembled map; the table each cell shows: ``with_table_seen``) -> ``rectify`` ->
``cell_art`` (which cells hold a tile)
-> ``terrain_model`` (edges) -> ``tasks`` -> ``prior`` and ``inventory`` (each physical
tile once, decoded jointly) -> ``consistency`` -> ``doubt`` (which edges to check).
A map whose cells show too little of the game's colours is looked for once more without
the components those cells lie on (``_beside_clutter``) before the photo is refused.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from typing import Any, NamedTuple, TypeVar

import numpy as np

from companion.rules import (
    DIRECTIONS,
    LETTER_OF,
    Hex,
    Placement,
    Record,
    Section,
    format_placement,
    opposite,
    parse_task,
    write_record,
)
from companion.vision import broken_tiles, cell_art, forked, rim_search
from companion.vision import doubt as doubt_mod
from companion.vision import edges as edges_mod
from companion.vision import lattice as lattice_mod
from companion.vision.background import (
    ColourOdds,
    fill_holes,
    foreground_and_table,
    table_in_glare,
    tidied,
)
from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.consistency import OPTIONS as CONSISTENT_OPTIONS
from companion.vision.consistency import EdgePair, mismatches, resolve
from companion.vision.errors import ScanError
from companion.vision.find_tiles import Blob, blobs, notched, reading_order
from companion.vision.find_tiles import LooseTile as _LooseTile
from companion.vision.flag_reading import read_flag
from companion.vision.flags import candidates as flag_candidates
from companion.vision.flags import lit as flag_light
from companion.vision.flags import outranks_bubble, unveiled
from companion.vision.in_background import Background
from companion.vision.inventory import assign, free_candidates
from companion.vision.io import ImageInput, Photo, brightest_grey, brought_up, load_photo
from companion.vision.lab import keeping
from companion.vision.memory import keep_freed_memory
from companion.vision.prior import decode
from companion.vision.rectify import rectify, within_image
from companion.vision.tasks import read_task, reconcile_task
from companion.vision.terrain_model import edge_log_likelihoods

Reading = tuple[str, tuple[float, ...], dict[str, object]]
"""A tile's code, six confidences and attributes, as read."""

LOOSE_SPACING = 1.2
"""Lone hexagons whose median distance to the nearest other is this many tile widths or
more lie apart as loose tiles do (a map's lie one width apart)."""
TABLE_SEEN_INSIDE = 0.8
"""How far towards its corners a cell's inside reaches when the table it shows is
measured (``with_table_seen``): clear of the seams and the neighbours' rims."""
TASK_SECTIONS = ("task", "box-1-task")
LANDSCAPE_SECTIONS = ("landscape", "box-2-landscape")


def in_play(sections: tuple[str, ...], config: ScanConfig) -> tuple[str, ...]:
    """Those of ``sections`` (``TASK_SECTIONS`` or ``LANDSCAPE_SECTIONS``) the game plays
    with (``decode.sections``); all of them when it does not say (empty, or none of
    these)."""
    playing = tuple(s for s in sections if s in config.decode.sections)
    return playing or sections


@dataclass(frozen=True)
class ScannedTile:
    """One tile as read: its ``placement`` and what the photo says about it."""

    placement: Placement
    confidence: tuple[float, ...]
    center_px: tuple[float, float] = (0.0, 0.0)
    mismatch: tuple[int, ...] = ()
    doubtful: tuple[int, ...] = ()
    """Edges a person should check: those the doubt calibrator (``doubt``) finds likely
    wrong, and every track/stream ``mismatch``; all six on a map that fits poorly
    (``Scan.poor_fit``) and on a loose tile found by its rim alone
    (``LocatedTile.by_rim``)."""
    flag_doubtful: bool = False
    """The flag (or a flag seen where the code shows no such terrain) needs checking."""
    evidence: np.ndarray | None = field(default=None, compare=False, repr=False)
    """6 x ``doubt.FEATURES``: what the doubt calibrator judged each edge by."""

    @property
    def at(self) -> Hex:
        return self.placement.at

    @property
    def code(self) -> str:
        return self.placement.code

    @property
    def attributes(self) -> dict[str, object]:
        """The placement's notation attributes, ``{"task": "grain/4", "heart": True}``."""
        return attributes_of(self.placement)

    def line(self) -> str:
        """The placement line of the record, e.g. ``1 -1 GGMTTM task=grain``."""
        return format_placement(self.placement)


def attributes_of(placement: Placement) -> dict[str, object]:
    """A placement's attributes as the notation writes them (key to value, ``True``
    for a bare word), in the writer's order."""
    words = format_placement(placement).split()[3:]
    return {key: value if sep else True
            for key, sep, value in (w.partition("=") for w in words)}


@dataclass(frozen=True)
class Scan:
    tiles: list[ScannedTile]
    kind: str
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    fit: float | None = None
    """How well the map's tiles fit their own outlines where the lattice puts them (the
    median ``LocatedTile.agreement``, about -1..1); None for loose tiles. Below
    ``lattice.period_weak_agreement`` the tile size may be misread (``poor_fit``)."""
    poor_fit: bool = False
    """The map is placed so poorly (``fit``) or holds so many tiles
    (``find.max_map_tiles``) that it may be wrong as a whole: every edge is doubtful and
    a warning says why."""

    def to_record(self) -> Record:
        """The board-game record of the tiles, in the order of ``tiles``."""
        return Record(game="board-game",
                      sections=[Section(None, [t.placement for t in self.tiles])])

    @property
    def record(self) -> str:
        """``to_record()`` in the notation (notation.md section 3)."""
        return write_record(self.to_record())

    def to_json(self) -> dict[str, object]:
        return {
            "tiles": [
                {"at": [t.at.q, t.at.r], "code": t.code,
                 "confidence": [round(c, 3) for c in t.confidence],
                 "attributes": dict(t.attributes),
                 "center_px": [round(t.center_px[0], 1), round(t.center_px[1], 1)],
                 "mismatch": list(t.mismatch), "doubtful": list(t.doubtful),
                 "flag_doubtful": t.flag_doubtful}
                for t in self.tiles
            ],
            "record": self.record,
            "kind": self.kind,
            "warnings": list(self.warnings),
            "mismatches": sum(len(t.mismatch) for t in self.tiles),
            "seconds": round(self.seconds, 3),
            "fit": None if self.fit is None else round(self.fit, 3),
            "poor_fit": self.poor_fit,
        }


@dataclass(frozen=True)
class LocatedTile:
    """A tile located in the working image, before reading its art: its lattice
    ``cell`` (None for a loose tile), six image ``corners`` (working pixels) and the
    ``rectified`` standard tile (``rectify.rectify``)."""

    cell: tuple[int, int] | None
    corners: np.ndarray
    rectified: np.ndarray
    agreement: float | None = None
    """How well the outline at ``corners`` agrees with the seams
    (``lattice.CellFits.agreement``); None for a loose tile."""
    beside: bool = False
    """A free neighbour of the map located only to fit the cell model
    (``find.ring_cells``): never judged as one of the map's cells."""
    edged: bool = False
    """Every side the cell shows to the table (at least ``find.keep_edged_sides_min``)
    is a tile's edge (``_edged_all_round``): a tile, whatever its art shows."""
    table_seen: tuple[float, float] = (0.0, 0.0)
    """For a cell of an assembled map, the shares of its inside that the table model
    and the glare judgement take for table (``with_table_seen``)."""
    by_rim: bool = False
    """A loose tile the foreground missed, found by its rim alone (``rim_search``): in
    a shadow or of the table's colours, it is read in doubt on every edge."""


class Deadline:
    """The time a scan may take (``io.time_limit_s``): ``check()`` raises ``ScanError``
    once it is over."""

    def __init__(self, limit: float) -> None:
        self.start = time.perf_counter()
        self.limit = limit

    def check(self) -> None:
        if time.perf_counter() - self.start > self.limit:
            raise ScanError(f"time limit exceeded: the photo took over {self.limit:g} s")

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.start


def scan(image: ImageInput, config: ScanConfig | None = None) -> Scan:
    """Read a photo of an assembled landscape or of loose tiles."""
    return _run(image, config or DEFAULT_CONFIG)[0]


def scan_with_debug(image: ImageInput, folder: str, config: ScanConfig | None = None
                    ) -> tuple[Scan, list[str]]:
    """``scan`` and write debug drawings to ``folder``; returns the scan and the files."""
    from companion.vision.debug import contact_sheet, draw_tiles, write_debug

    result, found, photo, mask = _run(image, config or DEFAULT_CONFIG)
    order = _tile_order(result, found, photo)
    labels = [f"{t.at[0]},{t.at[1]}\n{t.code}" for t in result.tiles]
    overlay = draw_tiles(photo.image, [found[i].corners for i in order], labels,
                         [t.confidence for t in result.tiles],
                         [t.mismatch for t in result.tiles], mask)
    sheet = contact_sheet([found[i].rectified for i in order],
                          [lab.replace("\n", " ") for lab in labels])
    paths = write_debug(folder, {"scan-overlay": overlay, "scan-tiles": sheet,
                                 "scan-mask": mask})
    return result, [str(p) for p in paths]


def _tile_order(result: Scan, found: list[LocatedTile], photo: Photo) -> list[int]:
    """Index into ``found`` of each tile of ``result`` (matched by centre)."""
    centres = np.array([photo.to_original(tuple(f.corners.mean(axis=0))) for f in found])
    out = []
    for t in result.tiles:
        d = np.hypot(*(centres - np.array(t.center_px)).T)
        out.append(int(np.argmin(d)))
    return out


def _run(image: ImageInput, config: ScanConfig
         ) -> tuple[Scan, list[LocatedTile], Photo, np.ndarray]:
    keep_freed_memory()
    clock = Deadline(config.io.time_limit_s)
    loaded = load_photo(image, config)
    photo = brought_up(loaded, config)
    clock.check()
    try:
        found, kind, seen = _locate(photo, config, clock)
        mask = seen.mask
        clock.check()
        try:
            return read_tiles(photo, found, kind, config, clock), found, photo, mask
        except ScanError as err:
            again = (_beside_clutter(photo, found, seen, config, clock)
                     if err.code.startswith("no-tiles") and kind == "assembled" else None)
            if again is None:
                raise
            found, kind, mask = again
            try:
                return read_tiles(photo, found, kind, config, clock), found, photo, mask
            except ScanError:
                raise err from None
    except ScanError as err:
        if err.code.startswith("no-tiles") and _too_dark(loaded.image, config):
            raise ScanError("no tiles recognised: the photo is too dark to tell the tiles' "
                            "colours; photograph the map in more light") from None
        raise


def _too_dark(image: np.ndarray, config: ScanConfig) -> bool:
    """99 % of the photo darker than ``io.too_dark_grey`` (``io.brightest_grey``)."""
    return brightest_grey(image) < config.io.too_dark_grey


def locate(photo: Photo, config: ScanConfig, clock: Deadline | None = None
           ) -> tuple[list[LocatedTile], str, np.ndarray]:
    """The tiles of a loaded photo (``locate_tiles``), their kind and the foreground
    mask (holes filled) they were found in."""
    found, kind, seen = _locate(photo, config, clock)
    return found, kind, seen.mask


def _locate(photo: Photo, config: ScanConfig, clock: Deadline | None
            ) -> tuple[list[LocatedTile], str, Foreground]:
    """``locate`` and everything the foreground stage saw; an assembled map's cells
    carry how much of them the table shows (``with_table_seen``)."""
    with keeping(photo.image):
        seen = seen_foreground(photo.image, config)
        found, kind = locate_tiles(photo.image, config, clock, seen.mask, seen.raw)
    return with_table_seen(found, kind, seen), kind, seen


class Foreground(NamedTuple):
    """The foreground stage's masks (working pixels): ``mask`` with holes filled,
    ``raw`` before, ``table`` the pixels the table model takes for table before specks
    are removed and gaps closed (``background.foreground_and_table``), and ``glare`` the
    table in glare (``background.table_in_glare``) being judged in a thread, None when
    ``find.glare_parts`` is off."""

    mask: np.ndarray
    raw: np.ndarray
    table: np.ndarray
    glare: Background[np.ndarray] | None


def foreground(image: np.ndarray, config: ScanConfig) -> tuple[np.ndarray, np.ndarray]:
    """The foreground masks the tiles are located in: with holes filled and before
    (``background.foreground_mask``), loose tiles joined by glare parted
    (``_parted_by_glare``)."""
    seen = seen_foreground(image, config)
    return seen.mask, seen.raw


def seen_foreground(image: np.ndarray, config: ScanConfig) -> Foreground:
    """``foreground`` and the table it saw. The table in glare that the parting needs is
    judged in a thread while the foreground is (most photos hold a cluster it looks
    into, and an assembled map's cells are measured against it)."""
    glare = (Background(partial(table_in_glare, image, config), "parting-glare")
             if config.find.glare_parts else None)
    raw, table = foreground_and_table(image, config)
    mask, raw = _parted_by_glare(image, fill_holes(raw), raw, config, glare)
    return Foreground(mask, raw, table, glare)


def with_table_seen(found: list[LocatedTile], kind: str, seen: Foreground
                    ) -> list[LocatedTile]:
    """An assembled map's cells with the shares of their inside (``TABLE_SEEN_INSIDE``
    of the way to their corners) that the table model and the glare judgement take for
    table (``LocatedTile.table_seen``): a hole in the map shows the table, a tile's art
    seldom does. A cell wholly off the photo is left as it is."""
    if kind != "assembled" or not found:
        return found
    glare = seen.glare.result() if seen.glare is not None else None
    out = []
    for f in found:
        shares = _shares_inside(f.corners, seen.table, glare)
        out.append(f if shares is None else replace(f, table_seen=shares))
    return out


def _shares_inside(corners: np.ndarray, table: np.ndarray, glare: np.ndarray | None
                   ) -> tuple[float, float] | None:
    """The shares of the cell's inside where ``table`` and ``glare`` (boolean masks;
    none: 0) hold, or None when no pixel of it lies in the photo."""
    import cv2

    h, w = table.shape[:2]
    centre = corners.mean(axis=0)
    poly = centre + TABLE_SEEN_INSIDE * (corners - centre)
    x0, y0 = np.maximum(np.floor(poly.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(poly.max(axis=0)).astype(int) + 1, (w, h))
    if x1 <= x0 or y1 <= y0:
        return None
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(inside, np.round(poly - (x0, y0)).astype(np.int32), 1)
    sel = inside > 0
    if not sel.any():
        return None
    lit = float(glare[y0:y1, x0:x1][sel].mean()) if glare is not None else 0.0
    return float(table[y0:y1, x0:x1][sel].mean()), lit


def _parted_by_glare(image: np.ndarray, mask: np.ndarray, raw: np.ndarray,
                     config: ScanConfig, glare_judged: Background[np.ndarray] | None = None
                     ) -> tuple[np.ndarray, np.ndarray]:
    """``mask`` and ``raw`` with the clusters that loose tiles joined by a pool of light
    or glare make parted (``find.glare_parts``).

    A cluster is a shapeless component larger than ``find.glare_cluster_min`` lone
    hexagons. Inside it the table in glare (``background.table_in_glare``) is removed,
    and the result kept when:

    - it falls into ``find.glare_parts_min`` or more parts of half a tile or more (a
      tile: the lone hexagons' median area, or the parts' hexagons' when there are
      none, and then two parts at least: one hexagon left of a map under glare is no
      lone tile);
    - most of those parts up to 1.6 tiles are hexagons (where glare's fringe stays
      round around a tile, it is not), counting only parts as solid as a tile
      (``find.glare_solid_parts``: a ragged remnant of the fringe is neither);
    - those hexagons lie apart as loose tiles do: their median distance to the nearest
      hexagon is ``LOOSE_SPACING`` tile widths or more, and most have no other part of
      half a tile or more within ``find.glare_apart_gap`` of their radius (a map's tile
      cut off by the removal touches the rest of it; glare's fringe leaves specks).

    Elsewhere the foreground is left as it is: tile art in the colours of the table and
    white (fields on wood) stays tile art. ``glare_judged``: ``table_in_glare`` of the
    image, when already under way.
    """
    import cv2

    if not config.find.glare_parts:
        return mask, raw
    comps = blobs(mask, config)
    hexes = [b for b in comps if b.hexagon is not None]
    typical = float(np.median([b.area for b in hexes])) if hexes else 0.0
    clusters = [b for b in comps
                if b.hexagon is None and b.area > config.find.glare_cluster_min * typical]
    if not clusters:
        return mask, raw
    glare = glare_judged.result() if glare_judged is not None else table_in_glare(image, config)
    parted_raw = tidied(np.where(glare, 0, raw).astype(np.uint8))
    parted_mask = fill_holes(parted_raw)
    labels = np.zeros(mask.shape[:2], np.int32)
    for i, b in enumerate(clusters):
        cv2.drawContours(labels, [b.contour], -1, i + 1, -1)
    parted = blobs(parted_mask, config)
    pieces: dict[int, list[Blob]] = {}
    for b in parted:
        x, y = np.clip(b.contour.reshape(-1, 2).mean(axis=0).round().astype(int), 0,
                       [mask.shape[1] - 1, mask.shape[0] - 1])
        if labels[y, x]:
            pieces.setdefault(int(labels[y, x]), []).append(b)
    mask, raw = mask.copy(), raw.copy()
    for i, inside in pieces.items():
        if _parts_lie_apart(inside, parted, hexes, typical, mask.shape, config):
            here = labels == i
            mask[here] = parted_mask[here]
            raw[here] = parted_raw[here]
    return mask, raw


def _parts_lie_apart(inside: list[Blob], parted: list[Blob], hexes: list[Blob],
                     typical: float, shape: tuple[int, ...], config: ScanConfig) -> bool:
    """The parts ``inside`` a cluster parted by glare are loose tiles
    (``_parted_by_glare``): ``parted`` are all the parts of the foreground (an image of
    ``shape``), ``hexes`` the lone hexagons before and ``typical`` their median area
    (0: none)."""
    outlines = [b.area for b in inside if b.hexagon is not None]
    size = typical or (float(np.median(outlines)) if outlines else 0.0)
    large = [b for b in inside if b.area >= 0.5 * size]
    tile_sized = [b for b in large if b.area <= 1.6 * size
                  and (b.hexagon is not None or _solid(b, config))]
    tiles = [b for b in tile_sized if b.hexagon is not None]
    least = config.find.glare_parts_min if typical else max(2, config.find.glare_parts_min)
    if (len(large) < least or 2 * len(tiles) <= len(tile_sized)
            or _spacing(tiles, hexes) < LOOSE_SPACING):
        return False
    others = [b for b in parted if b.area >= 0.5 * size]
    return _isolated_share(tiles, others, shape, config.find.glare_apart_gap) > 0.5


def _solid(blob: Blob, config: ScanConfig) -> bool:
    """The blob fills its convex hull as a tile does (``find_tiles.notched``;
    ``find.glare_solid_parts`` off: every blob does)."""
    import cv2

    if not config.find.glare_solid_parts:
        return True
    return not notched(blob.area, float(cv2.contourArea(cv2.convexHull(blob.contour))),
                       config)


def _beside_clutter(photo: Photo, found: list[LocatedTile], seen: Foreground,
                    config: ScanConfig, clock: Deadline | None
                    ) -> tuple[list[LocatedTile], str, np.ndarray] | None:
    """The map located again (tiles, kind, mask) without the foreground components
    whose located cells show the game's colours (``_tile_like``) in fewer than
    ``find.tile_like_share_min`` of them, or None when no component falls short or
    nothing is found among the rest (``find.clutter_retry``). A score pad, a box lid or
    a mat larger than a small map can size the lattice by themselves, and the map is
    then no cell of it."""
    import cv2

    if not config.find.clutter_retry or not found:
        return None
    mask, raw = seen.mask, seen.raw
    tile_like = _tile_like(prepare(found, config), "assembled", config)
    _, labels = cv2.connectedComponents(mask)
    h, w = mask.shape
    centres = np.array([f.corners.mean(axis=0) for f in found])
    xs = np.clip(np.round(centres[:, 0]).astype(int), 0, w - 1)
    ys = np.clip(np.round(centres[:, 1]).astype(int), 0, h - 1)
    of_cell = labels[ys, xs]
    clutter = [int(c) for c in np.unique(of_cell) if c > 0 and np.mean(
        [t for t, at in zip(tile_like, of_cell, strict=True) if at == c])
        < config.find.tile_like_share_min]
    if not clutter:
        return None
    drop = np.isin(labels, clutter)
    raw, mask = raw.copy(), mask.copy()
    raw[drop] = 0
    mask[drop] = 0
    if not mask.any():
        return None
    try:
        with keeping(photo.image):
            again, kind = locate_tiles(photo.image, config, clock, mask, raw)
    except ScanError:
        return None
    return (with_table_seen(again, kind, seen), kind, mask) if again else None


def locate_tiles(image: np.ndarray, config: ScanConfig, clock: Deadline | None = None,
                 mask: np.ndarray | None = None, raw: np.ndarray | None = None
                 ) -> tuple[list[LocatedTile], str]:
    """Find the tiles: loose hexagons, or the cells of a fitted lattice.

    ``mask`` is the foreground with holes filled, ``raw`` the same before filling.
    """
    if raw is None:
        mask, raw = foreground(image, config)
    if mask is None:
        mask = fill_holes(raw)
    comps = _never_one_huge_tile(blobs(mask, config), config)
    if not comps:
        raise ScanError("no tiles found: the table looks empty")
    hexes = [b for b in comps if b.hexagon is not None]
    tile_area = float(np.median([b.area for b in hexes])) if hexes else 0.0
    clusters = [b for b in comps if b.hexagon is None
                and (tile_area == 0.0 or b.area > 1.6 * tile_area)]
    if clock:
        clock.check()
    beside_clutter = False
    if _looks_assembled(hexes, clusters):
        cells = _locate_assembled(image, comps, raw, config, clock)
        beside_clutter = _loose_tiles_and_clutter(hexes, comps, cells, mask.shape, config)
        if (not beside_clutter and clusters and config.find.split_open_frac > 0
                and _doubtful_map(hexes, cells, config)):
            # Loose tiles joined by thin streaks (wood grain, a cloth's checks in glare)
            # look like a map: opened apart, they lie apart.
            shapeless = [b for b in comps if b.hexagon is None]
            split = _never_one_huge_tile(_opened_apart(mask, hexes, shapeless, config),
                                         config)
            split_hexes = [b for b in split if b.hexagon is not None]
            if _loose_tiles_and_clutter(split_hexes, split, cells, mask.shape, config):
                comps, hexes, beside_clutter = split, split_hexes, True
        if not beside_clutter:
            return cells, "assembled"
    big = _outline_maybe_a_map(hexes, config)
    if big is not None:
        # A lone tile, or a compact map whose outline looks like one big hexagon (beside
        # cards or a marker, too few outlines for a median). The seams inside decide: a
        # lattice of several cells with art.
        as_map = [Blob(contour=b.contour, area=b.area, hexagon=None) for b in comps]
        try:
            cells = _locate_assembled(image, as_map, raw, config, clock, big.hexagon)
        except ScanError:
            cells = []
        if len(cells) >= config.find.map_min_cells:
            return cells, "assembled"
    if not hexes:
        raise ScanError("no tiles recognised: this does not look like a photo of "
                        "Dorfromantik tiles")
    if not beside_clutter and _map_in_pieces(hexes, comps, config):
        try:
            cells = _locate_assembled(image, comps, raw, config, clock)
        except ScanError:
            cells = []
        if _outlines_on_the_map(hexes, cells, config):
            return cells, "assembled"
    outlines = [b.hexagon for b in hexes if b.hexagon is not None]
    outlines += broken_tiles.recover(image, mask, outlines, config)
    by_rim = rim_search.search(image, mask, outlines, config)
    loose = [_LooseTile(center=(float(h[:, 0].mean()), float(h[:, 1].mean())),
                        corners=h, rectified=np.zeros((1, 1, 3), np.uint8))
             for h in outlines + by_rim]
    ordered = reading_order(loose)
    return [LocatedTile(None, t.corners, rectify(image, t.corners, config.rectify.radius),
                        by_rim=any(t.corners is h for h in by_rim))
            for t in ordered], "loose"


def _loose_tiles_and_clutter(hexes: list[Blob], comps: list[Blob], cells: list[LocatedTile],
                             shape: tuple[int, ...], config: ScanConfig) -> bool:
    """Three or more lone hexagons lie apart from everything else, most of them
    (``find.apart_gap``), and either from each other too (``find.apart_min``, or
    nearly all of them from everything, ``find.apart_isolated_min``) while the
    map located in ``cells`` has fewer tiles than they are or fits its outlines poorly
    (``lattice.period_weak_agreement``): loose tiles beside clutter that made the photo
    look assembled; or the map's cells are of another size than they are
    (``find.apart_cells_min``: a lattice spanning the gaps between loose tiles, or sized
    by a score pad's lines), where they are at least ``find.apart_lone_share_min`` of the
    foreground. (A map's lone hexagons touch its pieces, and its cells are its tiles.)"""
    if len(hexes) < 3 or (config.find.apart_min <= 0 and config.find.apart_cells_min <= 0):
        return False
    tiles = [c for c in cells if not c.beside]
    poor = config.find.apart_min > 0 and (
        len(tiles) < len(hexes) or _agreement(cells) < config.lattice.period_weak_agreement)
    resized = (bool(tiles) and _cells_sized_otherwise(tiles, hexes, config)
               and sum(b.area for b in hexes)
               >= config.find.apart_lone_share_min * sum(b.area for b in comps))
    if not (poor or resized):
        return False
    isolated = _isolated_share(hexes, comps, shape, config.find.apart_gap)
    apart = poor and (_spacing(hexes) >= config.find.apart_min
                      or 0 < config.find.apart_isolated_min <= isolated)
    return (apart or resized) and isolated > 0.5


def _doubtful_map(hexes: list[Blob], cells: list[LocatedTile], config: ScanConfig
                  ) -> bool:
    """The map located in ``cells`` fits its outlines poorly
    (``lattice.period_weak_agreement``) or its cells are of another size than the lone
    ``hexes`` (``find.apart_cells_min``)."""
    tiles = [c for c in cells if not c.beside]
    if not hexes or not tiles:
        return False
    return (_agreement(cells) < config.lattice.period_weak_agreement
            or _cells_sized_otherwise(tiles, hexes, config))


def _cells_sized_otherwise(tiles: list[LocatedTile], hexes: list[Blob], config: ScanConfig
                           ) -> bool:
    """The located tiles' median outline radius is ``find.apart_cells_min`` times the
    lone hexagons' or more, or ``find.apart_cells_small_max`` times or less."""
    if config.find.apart_cells_min <= 0:
        return False
    cells = float(np.median([lattice_mod.outline_radius(c.corners) for c in tiles]))
    ratio = cells / max(float(np.median([_hex_radius(b) for b in hexes])), 1e-6)
    return ratio >= config.find.apart_cells_min or ratio <= config.find.apart_cells_small_max


def _opened_apart(mask: np.ndarray, hexes: list[Blob], shapeless: list[Blob],
                  config: ScanConfig) -> list[Blob]:
    """The components of ``mask`` with each of ``shapeless`` (no hexagon) opened by a disc
    of ``find.split_open_frac`` (above 0) of the lone ``hexes``' median radius (the streaks joining
    loose tiles removed; tiles of a map touch along whole sides and stay joined)."""
    import cv2

    reach = config.find.split_open_frac * float(np.median([_hex_radius(b) for b in hexes]))
    k = max(3, int(round(2 * reach)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    out = mask.copy()
    for b in shapeless:
        local, (x0, y0, x1, y1) = _drawn_around(b.contour, k, mask.shape)
        opened = cv2.morphologyEx(local, cv2.MORPH_OPEN, kernel)
        window = out[y0:y1, x0:x1]
        window[(local > 0) & (opened == 0)] = 0
    return blobs(out, config)


def _drawn_around(contour: np.ndarray, pad: int, shape: tuple[int, ...]
                  ) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """``contour`` filled (255) in its bounding box grown by ``pad`` and clipped to an
    image of ``shape``, and that window (x0, y0, x1, y1)."""
    import cv2

    x, y, w, h = cv2.boundingRect(contour)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(shape[1], x + w + pad), min(shape[0], y + h + pad)
    local = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(local, [contour - np.array([x0, y0])], -1, 255, -1)
    return local, (x0, y0, x1, y1)


def _isolated_share(hexes: list[Blob], comps: list[Blob], shape: tuple[int, ...],
                    gap: float) -> float:
    """The share of the lone hexagons with no other component within ``gap`` of their
    median radius of their outline."""
    import cv2

    labels = np.zeros(shape[:2], np.int32)
    label_of: dict[int, int] = {}
    for i, b in enumerate(comps):
        cv2.drawContours(labels, [b.contour], -1, i + 1, -1)
        label_of[id(b)] = i + 1
    reach = max(1, int(round(gap * float(np.median([_hex_radius(b) for b in hexes])))))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    alone = 0
    for b in hexes:
        own = label_of[id(b)]
        here, (x0, y0, x1, y1) = _drawn_around(b.contour, reach, shape)
        near = cv2.dilate(here, kernel) > 0
        window = labels[y0:y1, x0:x1]
        alone += not np.any(near & (window != 0) & (window != own))
    return alone / len(hexes)


def _spacing(hexes: list[Blob], others: list[Blob] | None = None) -> float:
    """The median distance from a lone hexagon to the nearest other (of ``hexes`` and
    ``others``), in tile widths (``sqrt(3)`` times their median radius)."""
    every = hexes + (others or [])
    centres = np.array([b.hexagon.mean(axis=0) for b in every if b.hexagon is not None])
    radius = float(np.median([_hex_radius(b) for b in hexes]))
    d = np.linalg.norm(centres[:len(hexes), None, :] - centres[None, :, :], axis=2)
    np.fill_diagonal(d, np.inf)
    return float(np.median(d.min(axis=1))) / (lattice_mod.SQRT3 * radius)


def _map_in_pieces(hexes: list[Blob], comps: list[Blob], config: ScanConfig) -> bool:
    """More foreground lies outside the lone hexagons than ``find.pieces_area_frac`` of
    theirs: the hexagons may be the whole tiles of a map whose silhouette broke."""
    lone = sum(b.area for b in hexes)
    rest = sum(b.area for b in comps if b.hexagon is None)
    return lone > 0 and rest >= config.find.pieces_area_frac * lone


def _outlines_on_the_map(hexes: list[Blob], cells: list[LocatedTile], config: ScanConfig
                         ) -> bool:
    """The map located in ``cells`` explains the lone hexagons: it has more tiles than
    they are, fits them no worse than ``lattice.period_weak_agreement``, most of its
    tiles lie beside another (``find.pieces_neighboured_min``), and the median hexagon's
    centre lies within ``find.pieces_on_lattice_max`` tile radii of a cell's."""
    tiles = [c for c in cells if not c.beside]
    if (len(tiles) <= len(hexes)
            or _agreement(tiles) < config.lattice.period_weak_agreement
            or _neighboured_share(tiles) < config.find.pieces_neighboured_min):
        return False
    centres = np.array([c.corners.mean(axis=0) for c in tiles])
    radius = float(np.median([lattice_mod.outline_radius(c.corners) for c in tiles]))
    offsets = [float(np.min(np.linalg.norm(centres - b.hexagon.mean(axis=0), axis=1)))
               for b in hexes if b.hexagon is not None]
    return float(np.median(offsets)) <= config.find.pieces_on_lattice_max * radius


def _neighboured_share(tiles: list[LocatedTile]) -> float:
    """The share of ``tiles`` with another of them in a neighbouring cell."""
    at = {t.cell for t in tiles}
    return sum(any((c[0] + d.q, c[1] + d.r) in at for d in DIRECTIONS)
               for c in at if c is not None) / max(len(at), 1)


def _never_one_huge_tile(comps: list[Blob], config: ScanConfig) -> list[Blob]:
    """``comps`` with every hexagon far larger than the median hexagon taken as a
    cluster of tiles (a compact map's outline can look like one big hexagon)."""
    areas = [b.area for b in comps if b.hexagon is not None]
    if len(areas) < 2:
        return comps
    typical = float(np.median(areas))
    return [Blob(contour=b.contour, area=b.area, hexagon=None)
            if b.hexagon is not None and b.area > config.find.huge_tile_factor * typical
            else b for b in comps]


def _outline_maybe_a_map(hexes: list[Blob], config: ScanConfig) -> Blob | None:
    """The hexagonal outline that may be a whole map: the only one, or one more than
    ``find.huge_tile_factor`` times the area of every other (loose tiles are all of a
    size; cards or a marker taken for a hexagon are far smaller than a map)."""
    if not hexes:
        return None
    big = max(hexes, key=lambda b: b.area)
    others = [b.area for b in hexes if b is not big]
    if not others or big.area > config.find.huge_tile_factor * max(others):
        return big
    return None


def _hex_radius(blob: Blob) -> float:
    assert blob.hexagon is not None
    return lattice_mod.outline_radius(blob.hexagon)


def _looks_assembled(hexes: list[Blob], clusters: list[Blob]) -> bool:
    """Tiles touch (clusters of them: one as large as half the lone hexagons, or more of
    the foreground in clusters than in lone hexagons) or lie about one tile width apart
    on a lattice."""
    lone = sum(b.area for b in hexes)
    if clusters and (clusters[0].area > 0.5 * lone or sum(b.area for b in clusters) > lone):
        return True
    if len(hexes) < 2:
        return False
    return _spacing(hexes) < LOOSE_SPACING


class _Candidate(NamedTuple):
    """A lattice grown from ``start`` on ``view``, the cells its silhouette covers, and
    its ``lattice.fit_quality`` (``score``)."""

    score: float
    lattice: lattice_mod.Lattice
    cells: list[tuple[int, int]]
    start: lattice_mod.Lattice
    view: lattice_mod.MapView


@dataclass
class _Placed:
    tiles: list[tuple[tuple[int, int], np.ndarray]]
    """Each tile's cell and image corners on its own outline."""
    agreements: list[float]
    """Each tile's ``lattice.CellFits.agreement``."""
    beside: set[tuple[int, int]] = field(default_factory=set)
    """The free neighbours among ``tiles`` (``find.ring_cells``)."""
    edged: set[tuple[int, int]] = field(default_factory=set)
    """The cells among ``tiles`` that are ``_edged_all_round``."""

    @property
    def agreement(self) -> float:
        """The typical tile's agreement: the median (-inf without tiles). A lattice half
        a cell off the map places more cells than there are tiles, each straddling two,
        and a few good fits among many poor ones; cells grown onto the table beside the
        map fit a little worse than tiles: the median follows neither."""
        return float(np.median(self.agreements)) if self.agreements else -np.inf


def _locate_assembled(image: np.ndarray, comps: list[Blob], raw: np.ndarray,
                      config: ScanConfig, clock: Deadline | None = None,
                      one_tile: np.ndarray | None = None, by_seams: bool = True,
                      given: lattice_mod.Period | None = None) -> list[LocatedTile]:
    """Fit one lattice to all tiles on the table (touching or with small gaps).

    ``one_tile`` (six corners, standard order) is the rival reading of a lone hexagonal
    outline as one tile: unless the evidence inside shows a map (``_a_map_inside``:
    repeating seams at a smaller cell size, seams between the cells, a better fit than
    the one tile), no map is returned (an empty list). ``by_seams`` false sizes the
    lattice without the seams' period (see ``lattice.period_retry_without``); a period
    the lone hexagons disown (``_period_disowned``) or the table around the map repeats
    (``lattice.table_repeats``) competes with the fit without it. ``given`` sizes it by
    that period instead of the seams' own: a period much finer than the seams' that
    more of their autocorrelation's peaks show (``lattice.period_rival_peaks``)
    competes so. Where the seams show no period, three or more lone hexagons seed a
    start of their own (``lattice.hexagon_start``); a lattice a whole factor finer that
    outscores every one of the tiles' size is grown to it and placed too
    (``lattice.coarser_rival``); a placement that still fits poorly has the others
    refitted beside it (``lattice.refit_poor_more``).
    """
    import cv2

    map_mask: np.ndarray = np.zeros(image.shape[:2], np.uint8)
    cv2.drawContours(map_mask, [b.contour for b in comps], -1, 255, -1)
    hexes = [b for b in comps if b.hexagon is not None]
    # The tile size: the seams' periodicity inside the map when they repeat (outlines
    # mislead: cardboard walls widen a lone hexagon, a table the colour of the art cuts
    # the silhouette), else the lone hexagons', else the outline's.
    period, more = given, None
    if by_seams and given is None:
        period, more = _periods(image, map_mask, config)
    seams_in = map_mask
    if period is None and by_seams and given is None and config.lattice.period_from_whole:
        # Dim light or a table the colour of the art breaks the silhouette into pieces
        # too small to count as tiles; the seams between them still repeat.
        whole = cv2.bitwise_or(map_mask, fill_holes(raw))
        if cv2.countNonZero(whole) > cv2.countNonZero(map_mask):
            seams_in = whole
            period, more = _periods(image, whole, config)
    faint: list[lattice_mod.Period] = []
    if (period is None and by_seams
            and config.lattice.period_weak_contrast < config.lattice.period_min_contrast):
        # Seams too faint to decide the size (a dark table in dim light, wood grain
        # outscoring them) still propose sizes: their lattices are placed beside the
        # others and the tiles' outlines judge.
        faint = lattice_mod.faint_periods(image, seams_in, config)
    # Wood grain or a patterned cloth may repeat more strongly than the seams: the map
    # fitted without the period competes, and the tiles' outlines judge. Whether the
    # table repeats the period is measured in a thread while the lattice is fitted.
    disowned = given is None and _period_disowned(period, hexes, config)
    repeats: Background[bool] = Background.ready(False)
    if given is None and not disowned and period is not None:
        repeats = Background(partial(lattice_mod.table_repeats, image, seams_in, period,
                                     config), "table-repeats")

    def rival_map(weak: bool = False) -> list[LocatedTile]:
        if not (disowned or weak or repeats.result()):
            return []
        try:
            return _locate_assembled(image, comps, raw, config, clock, one_tile,
                                     by_seams=False)
        except ScanError:
            return []

    if period is not None:
        radius = period.radius
    elif len(hexes) >= 3:
        radius = float(np.median([_hex_radius(b) for b in hexes]))
    else:
        radius = lattice_mod.estimate_radius(map_mask)
    sized = period is not None or len(hexes) >= 3
    if radius <= 4:
        raise ScanError("no tiles recognised: the shapes on the table are not hexagons")
    # Holes as big as a tile are empty cells inside the map: keep them open.
    holes = cv2.bitwise_and(map_mask, cv2.bitwise_not(raw))
    n, labels, stats, _ = cv2.connectedComponentsWithStats(holes)
    for i in range(1, n):
        if stats[i, cv2.CC_STAT_AREA] > config.lattice.hole_min_frac * 2.6 * radius * radius:
            map_mask[labels == i] = 0
    # Bridge the gaps between tiles that do not quite touch, and within tiles whose
    # meadows or forests are the table's colour (a green cloth): a silhouette in pieces
    # covers too little of most cells for the lattice searches.
    k = max(3, int(round(config.lattice.gap_close_frac * radius)) | 1)
    map_mask = cv2.morphologyEx(map_mask, cv2.MORPH_CLOSE,
                                cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    view = lattice_mod.map_view(image, map_mask, radius)
    views = [view]
    if period is not None:
        local = lattice_mod.fit_period(view, period, config) + lattice_mod.fit_local(
            view, config, config.lattice.period_local_scales)
    else:
        local = lattice_mod.fit_local(view, config)
    if local and not sized:
        # The silhouette only hints at the tile size; the seams near the middle may
        # tell it better: try that size too and let the fit quality decide.
        size = float(np.sqrt(abs(np.linalg.det(local[0].homography[:2, :2]))))
        if abs(size / radius - 1.0) > 0.12:
            views.append(lattice_mod.map_view(image, map_mask, size))
    faint_views: dict[int, tuple[lattice_mod.MapView, lattice_mod.Period]] = {}
    for p in faint:
        faint_view = lattice_mod.map_view(image, map_mask, p.radius)
        faint_views[id(faint_view)] = (faint_view, p)
        views.append(faint_view)
    best: _Candidate | None = None
    best_faint: dict[int, _Candidate] = {}
    other: _Candidate | None = None
    fitting: list[_Candidate] = []  # every candidate of the right size
    # The lone hexagons' own lattices start every view but the faint periods' (RANSAC
    # over neighbouring hexagons; where the seams show no period, the lattice most lone
    # hexagons lie on: where they do, it places the map no better and may miss a rim tile).
    hexagon_starts: list[lattice_mod.Lattice] = []
    if len(hexes) >= 3:
        shapes = [b.hexagon for b in hexes if b.hexagon is not None]
        ransac = lattice_mod.fit_lattice(np.array([h.mean(axis=0) for h in shapes]),
                                         radius, config)
        seeded = (lattice_mod.hexagon_start(shapes, config)
                  if config.lattice.hexagon_starts and period is None else None)
        hexagon_starts = [lat for lat in (seeded, ransac) if lat is not None]
    for v in views:
        if v is view:
            # The silhouette's outline is a start of its own only when the seams did not
            # show the period (it misleads where they do: cardboard walls, hand-laid gaps).
            skip = period is not None and local and config.lattice.period_skips_outline
            starts = local + ([] if skip else lattice_mod.fit_outline(v, config)[:1])
        elif id(v) in faint_views:
            starts = lattice_mod.fit_period(v, faint_views[id(v)][1], config)
        else:
            starts = lattice_mod.fit_local(v, config)
        if id(v) not in faint_views:
            starts = hexagon_starts + starts
        def refined(start: lattice_mod.Lattice, v: lattice_mod.MapView = v
                    ) -> tuple[lattice_mod.Lattice, list[tuple[int, int]], float]:
            if clock:
                clock.check()
            lat = lattice_mod.refine_by_seams(start, v, config)
            # Judge every candidate on the same view (the silhouette's size).
            score, judged = lattice_mod.quality_and_cells(lat, view, config)
            cells = judged if v is view else lattice_mod.occupied(lat, v, config)
            return lat, cells, score if cells else -np.inf

        fitted = _shared(refined, starts, config, config.io.fork_locating)
        for start, (lat, cells, score) in zip(starts, fitted, strict=True):
            if not cells:
                continue
            if sized and not _size_agrees(lat, cells, radius, config):
                # The seams' period or tiles lying apart show the tile size: a lattice
                # of another size only wins when nothing of the right size fits at all.
                if other is None or score > other.score:
                    other = _Candidate(score, lat, cells, start, v)
                continue
            fitting.append(_Candidate(score, lat, cells, start, v))
            if best is None or score > best.score:
                best = fitting[-1]
            if id(v) in faint_views and (id(v) not in best_faint
                                         or score > best_faint[id(v)].score):
                best_faint[id(v)] = fitting[-1]
    if best is None and other is not None and sized and config.lattice.rescue_coarser:
        best = _coarser(other, view, radius, config, clock)
    grown: _Candidate | None = None
    if (best is not None and other is not None and sized and config.lattice.coarser_rival
            and other.score > best.score):
        # A lattice a whole factor finer outscores every one of the tiles' size: the one
        # grown from it to their size is placed too (the searches from the starts may
        # all have settled off the tiles).
        grown = _coarser(other, view, radius, config, clock)
    best = best or other
    if best is None and period is not None and config.lattice.period_retry_without:
        without = rival_map() or _locate_assembled(image, comps, raw, config, clock,
                                                   one_tile, by_seams=False)
        return _or_finer(image, comps, raw, config, clock, one_tile, period, more, without)
    if best is None:
        raise ScanError("no tiles recognised: could not fit a hex lattice to the map")
    if (given is None and period is not None and config.lattice.period_retry_without
            and len(best.cells) > config.lattice.period_cells_max * config.find.max_map_tiles):
        # More cells than any map holds: the period is a texture's (a cloth's fine
        # pattern), and placing them all is slow: the fit without it decides alone.
        without = rival_map(weak=True)
        if without:
            return _or_finer(image, comps, raw, config, clock, one_tile, period, more,
                             without)
    if one_tile is not None and not _a_map_inside(
            one_tile, period or _faint_support(best, faint, config), best, view, config):
        return []
    # The silhouette's judgement (``fit_quality``) errs where the silhouette is broken
    # or takes in clutter: the runners-up are placed too, and the tiles' own outlines
    # judge (``_Placed.agreement``).
    runners_up = sorted((c for c in fitting if c is not best), key=lambda c: -c.score)
    placing = [best, *runners_up][:max(1, config.lattice.placed_candidates)]
    placing += [c for c in best_faint.values() if c not in placing]
    placing += [grown] if grown is not None else []
    plain = _distinct([(c.lattice, c.cells) for c in placing], radius)
    # Hand-laid tiles drift further from one homography than the search reaches: the
    # starts of the best (``lattice.wide_candidates``) are grown again with a wider
    # search. The silhouette misjudges a drifting lattice (and one half a cell off where
    # it is broken), so the best by it may not be the one that grows right; each tile's
    # own outline judges (``_Placed.agreement``). A wider growth is a job of its own,
    # shared out beside the placements.
    wide = (placing[:max(1, config.lattice.wide_candidates)]
            if config.lattice.snap_search_wide > 0 else [])
    jobs: list[_Layout | _Candidate] = [*plain, *wide]

    # What the map's tiles look like is measured once, on the best's cells, for every
    # placement of the tiles' size (a lattice of another size rectifies parts of tiles).
    best_radius = _cell_radius(best.lattice, best.cells)
    reference = _reference_of(
        image, best.cells,
        lambda c: rectify(image, best.lattice.cell_corners(c), config.rectify.radius), config)

    def reference_for(layout: _Layout) -> _ArtReference | None:
        alike = abs(_cell_radius(*layout) / max(best_radius, 1e-6) - 1.0) <= 0.1
        return reference if alike else None

    def placement(job: _Layout | _Candidate) -> tuple[_Layout, _Placed] | None:
        if isinstance(job, _Candidate):
            wider = lattice_mod.refine_by_seams(job.start, job.view, config,
                                                config.lattice.snap_search_wide)
            job = (wider, lattice_mod.occupied(wider, job.view, config))
            if not job[1] or not _is_new(job, plain, radius):
                return None
        return job, _place_cells(image, view, *job, config, clock,
                                 reference=reference_for(job))

    distinct: list[_Layout] = []
    placed: list[_Placed] = []
    for done in _shared(placement, jobs, config, config.io.fork_locating):
        if done is not None and _is_new(done[0], distinct, radius):
            distinct.append(done[0])
            placed.append(done[1])
    at = _best_placed(placed, radius, config)
    chosen = _refitted(image, distinct[at], placed[at], config, clock,
                       reference_for(distinct[at]))
    if chosen.agreement < config.lattice.period_weak_agreement or grown is not None:
        # A poor fit, or lattices of two sizes placed: the other placements, refitted
        # too, may fit better (a refit corrects a size or a phase the silhouette misled).
        others = sorted((i for i in range(len(placed)) if i != at),
                        key=lambda i: -placed[i].agreement)[:config.lattice.refit_poor_more]
        tries = [(at, chosen)] + [(i, _refitted(image, distinct[i], placed[i], config, clock,
                                                reference_for(distinct[i])))
                                  for i in others]
        at, chosen = tries[_best_placed([t for _, t in tries], radius, config)]
    chosen = _finer(image, map_mask, distinct[at][0], chosen, config, clock,
                    period is not None and period.coarse)
    # Tiles that fit their outlines this poorly were placed at a size the seams' period
    # misread (a texture repeating finer than the tiles): the fit without it competes.
    rival = rival_map(weak=given is None and period is not None
                      and chosen.agreement < config.lattice.period_weak_agreement)
    if rival and _agreement(rival) > chosen.agreement:
        located = rival
    else:
        located = [LocatedTile(cell, corners, rectify(image, corners, config.rectify.radius),
                               fit, cell in chosen.beside, cell in chosen.edged)
                   for (cell, corners), fit in zip(chosen.tiles, chosen.agreements,
                                                   strict=True)]
    return _or_finer(image, comps, raw, config, clock, one_tile, period, more, located)


def _or_finer(image: np.ndarray, comps: list[Blob], raw: np.ndarray, config: ScanConfig,
              clock: Deadline | None, one_tile: np.ndarray | None,
              period: lattice_mod.Period | None, more: lattice_mod.Period | None,
              located: list[LocatedTile]) -> list[LocatedTile]:
    """``located``, or the map sized by the rival period ``more`` when that is finer
    than ``period`` (by ``lattice.period_rival_finer``) and its tiles' outlines agree
    better (``_agreement``). The tiles' own period may rank below the peaks paired (a
    sparse map, a patterned cloth), and a coarser sublattice's period fits no lattice of
    its size at all."""
    if (period is None or more is None
            or more.radius * config.lattice.period_rival_finer >= period.radius):
        return located
    try:
        finer = _locate_assembled(image, comps, raw, config, clock, one_tile, given=more)
    except ScanError:
        return located
    return finer if finer and _agreement(finer) > _agreement(located) else located


def _periods(image: np.ndarray, mask: np.ndarray, config: ScanConfig
             ) -> tuple[lattice_mod.Period | None, lattice_mod.Period | None]:
    """The seams' period inside ``mask`` and the rival paired from more of the same
    peaks (``lattice.period_rival_peaks``; None when that is no more than
    ``period_peaks``)."""
    lat_cfg = config.lattice
    if lat_cfg.period_rival_peaks <= lat_cfg.period_peaks:
        return lattice_mod.seam_period(image, mask, config), None
    period, more = lattice_mod.seam_periods(
        image, mask, config, (lat_cfg.period_peaks, lat_cfg.period_rival_peaks))
    return period, more


def _agreement(found: list[LocatedTile]) -> float:
    """The median seam agreement of located tiles (as ``_Placed.agreement``)."""
    fits = [f.agreement for f in found if f.agreement is not None]
    return float(np.median(fits)) if fits else -np.inf


_Layout = tuple[lattice_mod.Lattice, list[tuple[int, int]]]
"""A lattice and the cells its silhouette covers."""


FINER_FACTORS = (math.sqrt(7.0), math.sqrt(3.0), 2.0, 3.0)
"""The hex lattice's coarser sublattices a seams' period may lock onto: each holds every
k-th translation of the tiles' lattice (k^2 = 7, 3, 4, 9)."""


def _finer(image: np.ndarray, map_mask: np.ndarray, lat: lattice_mod.Lattice,
           placed: _Placed, config: ScanConfig, clock: Deadline | None,
           coarse: bool = False) -> _Placed:
    """``placed``, or a finer lattice's placement when ``placed`` reads the map as a
    handful of cells (fewer than ``lattice.finer_below_cells``) or its period is
    ``coarse`` (``lattice.Period.coarse``): a period of a coarser sublattice
    (``FINER_FACTORS``) covers a map with a few cells, each over several tiles.
    Lattices of each finer size are grown from the seams near the middle; one whose
    outlines lie on the seams better than the coarse one's (``lattice.seam_score``, the
    cheap test) is placed, and the tiles' outlines judge (``_Placed.agreement``)."""
    tiles = [cell for cell, _ in placed.tiles if cell not in placed.beside]
    below = config.lattice.finer_below_cells
    if not tiles or below <= 0 or (len(tiles) >= below and not coarse):
        return placed
    radius = _cell_radius(lat, tiles)
    best = placed
    for factor in FINER_FACTORS:
        if clock:
            clock.check()
        view = lattice_mod.map_view(image, map_mask, radius / factor)
        grown = [lattice_mod.refine_by_seams(s, view, config)
                 for s in lattice_mod.fit_local(view, config)]
        scored = [(*lattice_mod.quality_and_cells(g, view, config), g) for g in grown]
        judged = [(q, cells, g) for q, cells, g in scored if cells]
        if not judged:
            continue
        _, cells, fine = max(judged, key=lambda t: t[0])
        if len(cells) <= len(tiles) or (lattice_mod.seam_score(fine, cells, view.grad)
                                        <= lattice_mod.seam_score(lat, tiles, view.grad)):
            continue
        again = _place_cells(image, view, fine, cells, config, clock)
        if again.agreement > best.agreement:
            best = again
    return best


def _refitted(image: np.ndarray, layout: _Layout, placed: _Placed, config: ScanConfig,
              clock: Deadline | None, reference: _ArtReference | None = None) -> _Placed:
    """``placed``, or the same map placed again on a lattice refitted to its tiles: the
    seams over every tile placed (each on its own outline) refine the lattice, and the
    tiles' outlines judge (``_Placed.agreement``). The lattice was fitted where the
    silhouette showed the map, and drifts off the tiles further out: a dim photo's
    silhouette holds a few cells and the rest are grown by their art; tiles laid by
    hand drift from one homography. ``reference``: what the map's tiles look like, as
    measured for its first placement (``_reference_of``), else measured again here."""
    import cv2

    lat, _ = layout
    tiles = [(cell, corners) for cell, corners in placed.tiles if cell not in placed.beside]
    if not config.lattice.refit_placed or not tiles:
        return placed
    if clock:
        clock.check()
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(c).astype(np.int32) for _, c in tiles], 255)
    radius = _cell_radius(lat, [cell for cell, _ in tiles])
    k = max(3, int(round(config.lattice.gap_close_frac * radius)) | 1)
    closed = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    view = lattice_mod.map_view(image, closed, radius)
    refit = lattice_mod.refine_by_seams(lat, view, config)
    # The closed mask covers much of a free cell where several tiles meet around it,
    # and its coverage says nothing of shadows: only cells centred on a placed tile are
    # the map's; the rest must show tile art (``_grown_cells``).
    cells = [c for c in lattice_mod.occupied(refit, view, config)
             if _inside(mask, refit.cell_center(c))]
    if not cells:
        return placed
    again = _place_cells(image, view, refit, cells, config, clock, shadows=False,
                         reference=reference)
    return [placed, again][_best_placed([placed, again], radius, config)]


def _best_placed(placed: list[_Placed], radius: float, config: ScanConfig) -> int:
    """Which placement of the map stands: the one whose tiles fit their outlines best
    (``_Placed.agreement``), unless another places at least ``lattice.fuller_min_extra``
    more tiles, fits within ``lattice.fuller_margin`` of it, and its tiles lying
    elsewhere (centres farther than half a tile ``radius`` from the best's) fit at
    least ``lattice.fuller_extra_share`` of the best's agreement. A part of the map in
    shadow, or drifted from one homography, is placed by some lattices only; the median
    of the smaller map is the higher, though the tiles it leaves out are tiles. The
    fullest such placement wins, but only one that fits well itself (its median at least
    ``lattice.period_weak_agreement``): among poor fits more cells are no better map (a
    lattice twice too fine places four cells a tile)."""
    at = int(np.argmax([p.agreement for p in placed]))
    best = placed[at]
    lat_cfg = config.lattice
    if lat_cfg.fuller_min_extra <= 0 or not best.tiles:
        return at
    own = np.array([corners.mean(axis=0) for _, corners in best.tiles])

    def fuller(other: _Placed) -> bool:
        if (len(other.tiles) < len(best.tiles) + lat_cfg.fuller_min_extra
                or other.agreement < best.agreement - lat_cfg.fuller_margin
                or other.agreement < lat_cfg.period_weak_agreement):
            return False
        extra = [fit for (_, corners), fit in zip(other.tiles, other.agreements, strict=True)
                 if np.linalg.norm(own - corners.mean(axis=0), axis=1).min() > 0.5 * radius]
        return (len(extra) >= lat_cfg.fuller_min_extra
                and float(np.median(extra)) >= lat_cfg.fuller_extra_share * best.agreement)

    return max((i for i, other in enumerate(placed) if fuller(other)),
               key=lambda i: len(placed[i].tiles), default=at)


def _distinct(layouts: list[_Layout], radius: float) -> list[_Layout]:
    """``layouts`` without those that are not ``_is_new`` beside the earlier ones
    kept: placing the same map twice tells nothing."""
    out: list[_Layout] = []
    for layout in layouts:
        if _is_new(layout, out, radius):
            out.append(layout)
    return out


def _is_new(layout: _Layout, earlier: list[_Layout], radius: float) -> bool:
    """Whether some of ``layout``'s cells lie away from where each of the ``earlier``
    lattices puts them (farther than a quarter of the tile radius, which
    ``lattice.fit_cells`` snaps alike)."""
    lat, cells = layout
    pts = np.array([lattice_mod.UNIT.to_pixel(c) for c in cells], np.float64)
    here = lat.to_image(pts)
    return not any(np.abs(here - o.to_image(pts)).max() < 0.25 * radius for o, _ in earlier)


def _reference_of(image: np.ndarray, cells: list[tuple[int, int]],
                  cell_image: Callable[[tuple[int, int]], np.ndarray], config: ScanConfig
                  ) -> _ArtReference | None:
    """The ``_ArtReference`` of a sample of ``cells``, each rectified by ``cell_image``
    (None when cells beside the map are not judged by their art)."""
    if not config.lattice.grow_by_art or len(cells) < 3:
        return None
    return _art_reference([cell_image(c) for c in cells[:: max(1, len(cells) // 24)]],
                          image, config)


def _place_cells(image: np.ndarray, view: lattice_mod.MapView, lat: lattice_mod.Lattice,
                 cells: list[tuple[int, int]], config: ScanConfig,
                 clock: Deadline | None, shadows: bool = True,
                 reference: _ArtReference | None = None) -> _Placed:
    """The tiles of a lattice: the cells the silhouette covers, those in shadow (unless
    ``shadows`` is off: the view is not the photo's silhouette) and those grown by their
    art, less groups apart without seams and cells of bare table, each with the corners
    of its own outline (``lattice.fit_cells``); those ``_edged_all_round`` among the
    cells placed are marked (``find.keep_edged_cells``). Cells beside the map are judged
    against ``reference`` when given (what the map's tiles look like, measured once
    for all its placements: ``_reference_of``), else against its cells here
    (``_art_reference``)."""
    seen: dict[tuple[int, int], np.ndarray] = {}

    def at_lattice(cell: tuple[int, int]) -> np.ndarray:
        """The cell rectified where the lattice puts it (once per cell)."""
        if cell not in seen:
            seen[cell] = rectify(image, lat.cell_corners(cell), config.rectify.radius)
        return seen[cell]

    exposure = _exposure_gain([at_lattice(c) for c in cells[:: max(1, len(cells) // 24)]],
                              config)
    if shadows:
        cells = cells + _shadowed_cells(at_lattice, lat, view, cells, config, exposure)
    if reference is None:
        reference = _reference_of(image, cells, at_lattice, config)
    if reference is not None:
        cells = cells + _grown_cells(at_lattice, lat, image, reference, cells, config, clock,
                                     exposure, view)
    apart = _seamless_groups(lat, view, cells, config)
    cells = [c for c in cells if c not in apart]
    beside: list[tuple[int, int]] = []
    if config.find.ring_cells:
        taken = set(cells)
        beside = sorted({(c[0] + d.q, c[1] + d.r) for c in cells for d in DIRECTIONS} - taken)
        beside = [c for c in beside if within_image(lat.cell_corners(c), image.shape)]
    fits = lattice_mod.fit_cells(lat, view, cells + beside, config)
    out, agree = [], []
    for i, cell in enumerate(cells + beside):
        # Whether the cell holds a tile is judged where the lattice puts it; the art
        # is read where the tile's own outline lies.
        if _is_bare_table(at_lattice(cell), config, exposure):
            continue
        out.append((cell, fits.corners[cell]))
        agree.append(float(fits.agreement[i]))
    taken = {cell for cell, _ in out} - set(beside)
    least = config.find.keep_edged_sides_min
    edged = ({cell for cell in taken
              if _edged_all_round(lat, view, cell, taken, config, least)}
             if config.find.keep_edged_cells else set())
    return _Placed(out, agree, set(beside), edged)


def _faint_support(best: _Candidate, faint: list[lattice_mod.Period], config: ScanConfig
                   ) -> lattice_mod.Period | None:
    """The strongest of the ``faint`` periods whose size the ``best`` lattice shares
    (within ``lattice.size_tolerance``): seams that repeat, if too faintly to size the
    map alone (a steep view of a map on a mat of its meadow's colour)."""
    if not config.lattice.faint_map_inside:
        return None
    size = _cell_radius(best.lattice, best.cells)
    tol = config.lattice.size_tolerance
    return next((p for p in faint if 1.0 / tol <= p.radius / max(size, 1e-6) <= tol), None)


def _a_map_inside(one_tile: np.ndarray, period: lattice_mod.Period | None,
                  best: _Candidate, view: lattice_mod.MapView, config: ScanConfig) -> bool:
    """Whether a lone hexagonal outline (``one_tile``, its six corners) holds a map:
    the seams inside repeat (``period``), at a cell size at most half the outline's
    (a hexagon of cells has at least seven), the ``best`` lattice's cells meet along
    seams that show (median ``lattice.side_evidence`` of the sides two cells share at
    least ``lattice.inner_seam_min``; inside one tile the art's edges run every way),
    and that lattice explains the photo better than the one tile (``fit_quality``)."""
    import cv2

    corners = np.asarray(one_tile, np.float64)
    outline_radius = lattice_mod.outline_radius(corners)
    if period is None or period.radius > 0.5 * outline_radius:
        return False
    inner = lattice_mod.inner_seams(best.lattice, view, best.cells)
    if len(inner) == 0 or float(np.median(inner)) < config.lattice.inner_seam_min:
        return False
    unit = np.array(lattice_mod.UNIT.corners((0, 0)), np.float64)
    hom, _ = cv2.findHomography(unit, corners)
    return hom is not None and lattice_mod.fit_quality(lattice_mod.Lattice(hom, 0), view,
                                                      config) < best.score


def _coarser(fine: _Candidate, view: lattice_mod.MapView, radius: float,
             config: ScanConfig, clock: Deadline | None) -> _Candidate | None:
    """A lattice of the tile size the lone hexagons show, grown from ``fine``, one
    whose cells are a whole factor k (2 or 3) smaller: a lattice k times finer holds
    every centre of the map's, so the searches may settle on it. Each of the k x k
    cosets of the coarser lattice in the finer is tried; the best ``fit_quality`` of
    those of the right size wins (None when none is)."""
    k = int(round(radius / max(_cell_radius(fine.lattice, fine.cells), 1e-6)))
    if k not in (2, 3):
        return None
    best: _Candidate | None = None
    for dq, dr in itertools.product(range(k), range(k)):
        if clock:
            clock.check()
        ox, oy = lattice_mod.UNIT.to_pixel((dq, dr))
        scale = np.array([[k, 0.0, ox], [0.0, k, oy], [0.0, 0.0, 1.0]])
        start = lattice_mod.Lattice(fine.lattice.homography @ scale, 0)
        lat = lattice_mod.refine_by_seams(start, view, config)
        score, cells = lattice_mod.quality_and_cells(lat, view, config)
        if not cells or not _size_agrees(lat, cells, radius, config):
            continue
        if best is None or score > best.score:
            best = _Candidate(score, lat, cells, start, view)
    return best


def _period_disowned(period: lattice_mod.Period | None, hexes: list[Blob],
                     config: ScanConfig) -> bool:
    """Whether at least three lone hexagons show a tile size (their median radius) other
    than the seams' ``period``'s, by more than ``lattice.lone_rival_min`` (a factor
    either way) and not as one of its finer or coarser sublattices (``FINER_FACTORS``,
    within 3 %): the period may be the table's."""
    if period is None or len(hexes) < 3 or config.lattice.lone_rival_min <= 0:
        return False
    lone = float(np.median([_hex_radius(b) for b in hexes]))
    ratio = max(lone, period.radius) / max(min(lone, period.radius), 1e-6)
    return ratio >= 1.0 + config.lattice.lone_rival_min and all(
        abs(ratio / f - 1.0) >= 0.03 for f in FINER_FACTORS)


def _size_agrees(lat: lattice_mod.Lattice, cells: list[tuple[int, int]], radius: float,
                 config: ScanConfig) -> bool:
    """Whether the lattice's median cell radius lies within ``lattice.size_tolerance``
    (a factor either way) of ``radius``, the tile size the lone hexagons show."""
    ratio = _cell_radius(lat, cells) / max(radius, 1e-6)
    return 1.0 / config.lattice.size_tolerance <= ratio <= config.lattice.size_tolerance


def _cell_radius(lat: lattice_mod.Lattice, cells: list[tuple[int, int]]) -> float:
    """The median image circumradius of (a dozen of) the lattice's ``cells``."""
    sizes = []
    for cell in cells[:: max(1, len(cells) // 12)]:
        sizes.append(lattice_mod.outline_radius(lat.cell_corners(cell)))
    return float(np.median(sizes))


ART_CLASSES = np.array([edges_mod.MEADOW, edges_mod.FOREST, edges_mod.GRAIN, edges_mod.ROOF,
                        edges_mod.BLUE, edges_mod.PALE])
"""The colours of tile art: the game's fields plus roofs, water and pale cobbles."""


def _shows_tile_art(found: list[LocatedTile], terrain_like: list[float],
                    colourful: list[float], config: ScanConfig,
                    tile_like: list[bool] | None = None) -> list[bool]:
    """The hand-set rules (loose tiles, or ``find.learned_cells`` false; else
    ``cell_art`` decides): whether each located cell shows tile art like the photo's
    other tiles, judged relative to the median tile by its share of game colours
    (meadow, forest, grain), of art colours (those plus roofs, water and cobbles) and its
    texture (mean |Laplacian|; with ``find.art_texture_by_lightness`` the greater of that
    and the same over its mean grey, each relative to the median tile's, so that a tile
    in a dim corner is judged for its light): texture at least ``find.art_texture_min``;
    few game colours (below
    ``find.art_share_min``) need art colours (``find.art_colour_min``); a weak share
    (below ``find.art_weak_share``) needs the median texture, or two neighbours in the
    lattice that pass (a village tile inside the map), and almost none (below
    ``find.art_bare_share``: a patterned cloth) three, whatever its texture; never
    much flatter than the tiles (``find.blank_share_max``: glare over the table, a
    plain lid) nor showing blank paper (``find.paper_share_max``: a score pad, cards;
    ``cell_art.flat_paper_and_grey``; ``find.grey_flat_max``: paper too dim to be
    bright). A score pad, cards, a box lid, markers or a play mat taken
    into the map's lattice fall short. The medians are
    those of the ``tile_like`` cells (enough of the game's colours) when there are
    three of them: cells over cloth may outnumber the tiles."""
    if len(found) < 3:
        return [True] * len(found)
    texture = np.array([cell_art.texture(f.rectified, config)[0] for f in found])
    ref = [i for i, ok in enumerate(tile_like or []) if ok]
    if len(ref) < 3:
        ref = list(range(len(found)))
    share_mid = max(float(np.median([terrain_like[i] for i in ref])), 1e-6)
    colour_mid = max(float(np.median([colourful[i] for i in ref])), 1e-6)
    busyness = texture / max(float(np.median(texture[ref])), 1e-6)
    if config.find.art_texture_by_lightness:
        # A tile in a shadow or a dim corner is as busy as the others for its light.
        lit = texture / np.maximum([_lightness(f.rectified, config) for f in found], 1.0)
        busyness = np.maximum(busyness, lit / max(float(np.median(lit[ref])), 1e-6))
    flat_paper = np.array([cell_art.flat_paper_and_grey(f.rectified, config) for f in found])
    flat_mid, paper_mid, grey_mid = np.median(flat_paper[ref], axis=0)
    grey_max = config.find.grey_flat_max
    blank = [f >= max(config.find.blank_share_max, flat_mid + config.find.blank_margin)
             or p >= max(config.find.paper_share_max, paper_mid + config.find.blank_margin)
             or (0 < grey_max <= g and g >= grey_mid + config.find.blank_margin)
             for f, p, g in flat_paper]
    strong, weak, need = [], [], []
    for s, c, busy, b in zip(terrain_like, colourful, busyness, blank, strict=True):
        share, colour = s / share_mid, c / colour_mid
        art = not b and busy >= config.find.art_texture_min and (
            share >= config.find.art_share_min or colour >= config.find.art_colour_min)
        bare = share < config.find.art_bare_share
        weak.append(art and share < config.find.art_weak_share and (busy < 1.0 or bare))
        need.append(3 if bare else 2)
        strong.append(art and not weak[-1])
    passing = {f.cell for f, ok in zip(found, strong, strict=True) if ok and f.cell}
    out = []
    for f, ok, unsure, n in zip(found, strong, weak, need, strict=True):
        if unsure and f.cell is not None:
            ok = sum((f.cell[0] + d.q, f.cell[1] + d.r) in passing for d in DIRECTIONS) >= n
        out.append(ok)
    return out


def _groups(cells: list[tuple[int, int]], gap: int) -> list[list[tuple[int, int]]]:
    """``cells`` in groups whose members lie within ``gap`` steps of another member,
    largest first."""
    index = {c: i for i, c in enumerate(cells)}
    parent = list(range(len(cells)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, (q, r) in enumerate(cells):
        for dq in range(-gap, gap + 1):
            for dr in range(max(-gap, -dq - gap), min(gap, -dq + gap) + 1):
                j = index.get((q + dq, r + dr))
                if j is not None:
                    parent[root(i)] = root(j)
    groups: dict[int, list[tuple[int, int]]] = {}
    for i, c in enumerate(cells):
        groups.setdefault(root(i), []).append(c)
    return sorted(groups.values(), key=len, reverse=True)


def _one_landscape(found: list[LocatedTile], keep: list[bool], config: ScanConfig
                   ) -> list[bool]:
    """``keep`` without the groups of cells lying apart from the map: every tile of a
    landscape touches another, so cells at more than ``find.island_gap`` steps from the
    largest group (one missing tile leaves a gap of two) are something beside the map
    (a score pad, cards, a box lid), unless the group holds ``find.island_min_cells``."""
    cells = [f.cell for f, k in zip(found, keep, strict=True) if k and f.cell is not None]
    if len(cells) < 2:
        return keep
    groups = _groups(cells, config.find.island_gap)
    apart = {c for g in groups[1:] if len(g) < config.find.island_min_cells for c in g}
    return [k and f.cell not in apart for f, k in zip(found, keep, strict=True)]


def _sure_groups(found: list[LocatedTile], keep: list[bool], p: np.ndarray,
                 config: ScanConfig) -> list[bool]:
    """``keep`` without the groups of kept cells not edge to edge with the largest
    (``_groups`` at one step) of which the cell model (``p``) is nowhere sure: none at
    ``find.apart_sure_min`` or edged. Where the model refused a mat's or a lid's cells,
    the few it passed near its threshold are left apart from the map."""
    sure_min = config.find.apart_sure_min
    cells = [f.cell for f, k in zip(found, keep, strict=True) if k and f.cell is not None]
    joined = _groups(cells, 1)
    if sure_min <= 0 or len(joined) < 2:
        return keep
    sure = {f.cell for f, v in zip(found, p, strict=True)
            if f.cell is not None and (v >= sure_min or f.edged)}
    unsure = {c for g in joined[1:] if not sure.intersection(g) for c in g}
    return [k and f.cell not in unsure for f, k in zip(found, keep, strict=True)]


def _seamless_groups(lat: lattice_mod.Lattice, view: lattice_mod.MapView,
                     cells: list[tuple[int, int]], config: ScanConfig
                     ) -> set[tuple[int, int]]:
    """The cells of groups apart from the map that do not show seams every way between
    their cells: a play mat, a box lid or a score pad's ruled lines the lattice covers,
    not tiles laid side by side. Per direction of side (``lattice.inner_seams_by_direction``)
    a seam is weak below ``lattice.inner_seam_min``, or below ``lattice.apart_seam_frac``
    of the map's own median seam in a photo whose seams are faint; a group is not tiles
    when at least half the directions its cells meet in are weak (one of two, two of
    three). Judged are the groups lying apart (``_groups``) with ``find.island_min_cells``
    cells, and the groups of three or more cells not edge to edge with the largest."""
    joined = _groups(cells, 1)
    if len(joined) < 2:
        return set()
    seams = lattice_mod.inner_seams(lat, view, joined[0])
    own = float(np.median(seams)) if seams.size else 0.0
    weak = min(config.lattice.inner_seam_min, config.lattice.apart_seam_frac * own)
    apart = [g for g in _groups(cells, config.find.island_gap)[1:]
             if len(g) >= config.find.island_min_cells]
    out: set[tuple[int, int]] = set()
    for group in apart + [g for g in joined[1:] if len(g) >= 3]:
        ways = [float(np.median(v))
                for v in lattice_mod.inner_seams_by_direction(lat, view, group) if v.size]
        if not ways or 2 * sum(m < weak for m in ways) >= len(ways):
            out |= set(group)
    return out


def _shadowed_cells(at_lattice: Callable[[tuple[int, int]], np.ndarray],
                    lat: lattice_mod.Lattice, view: lattice_mod.MapView,
                    cells: list[tuple[int, int]], config: ScanConfig, exposure: float = 1.0
                    ) -> list[tuple[int, int]]:
    """Partly covered cells next to the map whose art shows a tile (see
    ``lattice.partly_covered``); ``at_lattice`` rectifies a cell where the lattice
    puts it; ``exposure`` as for ``_is_bare_table``."""
    taken = set(cells)
    doubtful = [c for c in lattice_mod.partly_covered(lat, view, config)
                if any((c[0] + d.q, c[1] + d.r) in taken for d in DIRECTIONS)]
    if not doubtful:
        return []
    # Positive evidence only: the art's edges (not mere contrast, as a shadow's ramp
    # has), about as busy as the map's own tiles in this photo (blur lowers both).
    typical = float(np.median([cell_art.texture(at_lattice(c), config)[0] for c in cells]))
    need = max(config.lattice.bare_texture_max / exposure,
               config.lattice.rescue_texture_frac * typical)
    return [c for c in doubtful if cell_art.texture(at_lattice(c), config)[0] >= need]


def _art_measures(tile: np.ndarray, meadow: edges_mod.MeadowRef, config: ScanConfig
                  ) -> tuple[float, float, float]:
    """A rectified cell's share of game colours, its texture and its lightness."""
    return (_game_share(edges_mod.pixel_classes(tile, meadow), config),
            cell_art.texture(tile, config)[0], _lightness(tile, config))


def _lightness(tile: np.ndarray, config: ScanConfig) -> float:
    """The mean grey inside a rectified cell."""
    import cv2

    return float(cv2.cvtColor(tile, cv2.COLOR_BGR2GRAY)[_inner_mask(config.rectify.radius)]
                 .mean())


def _game_share(classes: np.ndarray, config: ScanConfig) -> float:
    """The share of a rectified cell's pixel classes inside the hexagon that are the
    game's colours (meadow, forest, grain)."""
    return _share_of(classes, edges_mod.GAME_CLASSES, config)


def _share_of(classes: np.ndarray, colours: np.ndarray | int, config: ScanConfig) -> float:
    """The share of a rectified cell's pixels inside the hexagon whose class is one of
    ``colours``."""
    inside = edges_mod.hexagon_mask(config.rectify.radius) > 0
    return float(np.mean(np.isin(classes[inside], colours)))


class _ArtReference(NamedTuple):
    """What this photo's tiles look like, for judging cells beside the map
    (``_grown_cells``): the white ``gains`` and ``meadow`` of a sample of the map's
    cells, the median cell's share of game colours (``share``), ``texture`` and
    ``lightness``, and the ``odds`` of a colour among those cells against the table's
    border."""

    gains: np.ndarray
    meadow: edges_mod.MeadowRef
    share: float
    texture: float
    lightness: float
    odds: ColourOdds


def _art_reference(tiles: list[np.ndarray], image: np.ndarray, config: ScanConfig
                   ) -> _ArtReference:
    """The ``_ArtReference`` of a sample of the map's rectified cells (``tiles``)."""
    gains = edges_mod.white_gains(tiles)
    meadow = edges_mod.meadow_reference([edges_mod.apply_gains(t, gains) for t in tiles])
    measures = np.array([_art_measures(edges_mod.apply_gains(t, gains), meadow, config)
                         for t in tiles])
    share, texture, lightness = np.maximum(np.median(measures, axis=0), 1e-6)
    inner = _inner_index(config.rectify.radius)
    odds = ColourOdds.of_photo(np.concatenate([np.take(t.reshape(-1, 3), inner, axis=0)
                                               for t in tiles]), image, config)
    return _ArtReference(gains, meadow, float(share), float(texture), float(lightness), odds)


@lru_cache(maxsize=4)
def _inner_mask(radius: int) -> np.ndarray:
    """The standard hexagon of ``radius`` less a rim of four pixels (boolean, read-only:
    shared by every call)."""
    import cv2

    inner: np.ndarray = cv2.erode(edges_mod.hexagon_mask(radius),
                                  np.ones((9, 9), np.uint8)) > 0
    inner.setflags(write=False)
    return inner


@lru_cache(maxsize=4)
def _inner_index(radius: int) -> np.ndarray:
    """Row-major flat indices of ``_inner_mask`` (read-only)."""
    idx = np.flatnonzero(_inner_mask(radius))
    idx.setflags(write=False)
    return idx


def _grown_cells(at_lattice: Callable[[tuple[int, int]], np.ndarray],
                 lat: lattice_mod.Lattice, image: np.ndarray, ref: _ArtReference,
                 cells: list[tuple[int, int]], config: ScanConfig,
                 clock: Deadline | None = None, exposure: float = 1.0,
                 view: lattice_mod.MapView | None = None) -> list[tuple[int, int]]:
    """Cells next to the map that the silhouette missed but that show a tile.

    The table model can lose whole tiles (dark wood in dim light looks like forest, a
    grey village tile like a grey cloth): once the lattice is known, each free
    neighbour of the map is judged where the lattice puts it, against this photo's
    own tiles and table (``ref``). It must be textured
    (``lattice.grow_texture_frac`` of the map's median cell), neither flat nor
    paper-white (``cell_art.flat_and_paper``), show some of the game's colours (meadow,
    forest, grain; ``lattice.grow_share_frac`` of the median cell's share), and its
    colours must be likelier among the map's cells than on the table's border
    (``background.ColourOdds``): wood grain passes the first tests, never the last. A
    cell without those colours may join when it shows roofs (a tile all village) and
    its colours are clearly the tiles' (``lattice.grow_village_roof_min``,
    ``lattice.grow_village_log_odds_min``). Dim light flattens tiles and table alike: a
    cell flat as photographed may still join when it is not flat as if the photo had
    the standard ``exposure`` (see ``_exposure_gain``) and its colours are clearly the
    tiles' (``lattice.grow_dim_log_odds_min``); so may a cell too smooth as photographed
    whose texture, scaled by the map's median lightness over its own, is not (a shadow
    across part of the map; ``lattice.grow_shaded_log_odds_min``). The tests are tried
    cheapest first. A cell that fails them may still join when every side it shows to
    the table is a tile's edge (``_edged_all_round``; the boundary map beyond the
    silhouette, ``MapView.beyond``): a grey village tile on a pale table. Accepted
    cells grow the map ring by ring; ``holds_tiles`` judges them again with the rest."""
    grow = config.lattice
    if not grow.grow_by_art or len(cells) < 3:
        return []
    inner = _inner_mask(config.rectify.radius)

    def shows_a_tile(n: tuple[int, int]) -> bool:
        tile = edges_mod.apply_gains(at_lattice(n), ref.gains)
        texture, need = cell_art.texture(tile, config)[0], grow.grow_texture_frac * ref.texture
        shaded = texture < need
        if shaded and texture * ref.lightness < need * _lightness(tile, config):
            return False
        flat, paper = cell_art.flat_and_paper(tile, config)
        if paper >= config.find.paper_share_max:
            return False
        dim = flat >= config.find.blank_share_max
        if dim and (exposure == 1.0 or _flat_share_lit(at_lattice(n), config, exposure)
                    >= config.find.blank_share_max):
            return False
        bar = grow.grow_dim_log_odds_min if dim else grow.grow_log_odds_min
        if shaded:
            bar = max(bar, grow.grow_shaded_log_odds_min)
        classes = edges_mod.pixel_classes(tile, ref.meadow)
        if _game_share(classes, config) < grow.grow_share_frac * ref.share:
            if _share_of(classes, edges_mod.ROOF, config) < grow.grow_village_roof_min:
                return False
            bar = max(bar, grow.grow_village_log_odds_min)
        return bar <= 100 and ref.odds.mean_log_odds(at_lattice(n)[inner]) >= bar

    taken = set(cells)

    rejected: set[tuple[int, int]] = set()
    out: list[tuple[int, int]] = []
    frontier = list(cells)
    while frontier and len(out) < grow.grow_max_frac * len(cells):
        candidates: list[tuple[int, int]] = []
        for c in frontier:
            for d in DIRECTIONS:
                n = (c[0] + d.q, c[1] + d.r)
                if n in taken or n in rejected or n in candidates:
                    continue
                if not within_image(lat.cell_corners(n), image.shape):
                    rejected.add(n)
                    continue
                candidates.append(n)
        frontier = []
        for n in candidates:
            if clock:
                clock.check()
            if shows_a_tile(n) or (view is not None
                                   and _edged_all_round(lat, view, n, taken, config)):
                taken.add(n)
                out.append(n)
                frontier.append(n)
            else:
                rejected.add(n)
    return out


def _edged_all_round(lat: lattice_mod.Lattice, view: lattice_mod.MapView,
                     cell: tuple[int, int], taken: set[tuple[int, int]],
                     config: ScanConfig, sides_min: int | None = None) -> bool:
    """Every side ``cell`` shows to the table (the sides facing cells not ``taken``, at
    least ``sides_min``, by default ``lattice.grow_seam_sides_min``) is a tile's edge
    (``lattice.grow_seam_min``, on ``MapView.beyond``)."""
    grow = config.lattice
    if grow.grow_seam_min <= 0:
        return False
    sides = _table_sides(lat, cell, taken)
    if len(sides) < (grow.grow_seam_sides_min if sides_min is None else sides_min):
        return False
    t = np.linspace(0.15, 0.85, 8)[None, :, None]
    a, b = sides[:, 0:1, :], sides[:, 1:2, :]
    score = lattice_mod.oriented_score(view.beyond, a + (b - a) * t, b - a).mean(axis=1)
    return bool(score.min() >= grow.grow_seam_min)


def _table_sides(lat: lattice_mod.Lattice, cell: tuple[int, int],
                 taken: set[tuple[int, int]]) -> np.ndarray:
    """S x 2 x 2: the image end points of the sides of ``cell`` whose neighbour across
    is not in ``taken``."""
    corners = np.array(lattice_mod.UNIT.corners(cell), np.float64)
    ends = []
    for d in DIRECTIONS:
        n = (cell[0] + d.q, cell[1] + d.r)
        if n in taken:
            continue
        across = np.array(lattice_mod.UNIT.to_pixel(n), np.float64)
        near = np.argsort(np.hypot(*(corners - across).T))[:2]
        ends.append(corners[near])
    if not ends:
        return np.zeros((0, 2, 2))
    return lat.to_image(np.array(ends).reshape(-1, 2)).reshape(-1, 2, 2)


def _inside(mask: np.ndarray, point: tuple[float, float]) -> bool:
    """Whether ``point`` (x, y) falls on a set pixel of ``mask``."""
    x, y = int(round(point[0])), int(round(point[1]))
    return bool(0 <= y < mask.shape[0] and 0 <= x < mask.shape[1] and mask[y, x])


def _exposure_gain(tiles: list[np.ndarray], config: ScanConfig) -> float:
    """How much brighter the map's cells would be in a well lit photo: the gain (1 to
    ``lattice.exposure_gain_max``) that brings their median grey to
    ``lattice.exposure_grey``. Texture and contrast shrink with the light."""
    if not tiles:
        return 1.0
    return float(np.clip(config.lattice.exposure_grey / max(_median_grey(tiles, config), 1.0),
                         1.0, config.lattice.exposure_gain_max))


def _median_grey(tiles: list[np.ndarray], config: ScanConfig) -> float:
    """The median over rectified cells of each one's median grey inside the hexagon."""
    import cv2

    inner = edges_mod.hexagon_mask(config.rectify.radius) > 0
    return float(np.median([np.median(cv2.cvtColor(t, cv2.COLOR_BGR2GRAY)[inner])
                            for t in tiles]))


def _exposure_lift(tiles: list[np.ndarray], config: ScanConfig) -> float:
    """The gain (1 to ``terrain.exposure_lift_max``) that brings the cells' median grey
    up to ``terrain.exposure_floor``: 1 for any photo lit well enough."""
    floor = config.terrain.exposure_floor
    if floor <= 0 or not tiles:
        return 1.0
    return float(np.clip(floor / max(_median_grey(tiles, config), 1.0), 1.0,
                         config.terrain.exposure_lift_max))


def _is_bare_table(tile: np.ndarray, config: ScanConfig, exposure: float = 1.0) -> bool:
    """A lattice cell over table seen through a hole in the map: smooth, plain and
    mostly flat, where every tile's art has edges and contrast, and even a field of
    grain in a shadow has fine detail over more than a third of it (all measured as if
    the photo had the standard exposure: times ``exposure``, see ``_exposure_gain``)."""
    texture, spread = cell_art.texture(tile, config)
    if (texture * exposure >= config.lattice.bare_texture_max
            or spread * exposure >= config.lattice.bare_std_max):
        return False
    return _flat_share_lit(tile, config, exposure) >= config.lattice.bare_flat_min


def _flat_share_lit(tile: np.ndarray, config: ScanConfig, exposure: float) -> float:
    """A rectified cell's flat share (``cell_art.flat_and_paper``) as if the photo had
    the standard exposure (times ``exposure``, see ``_exposure_gain``)."""
    import cv2

    lit = tile if exposure == 1.0 else cv2.convertScaleAbs(tile, alpha=exposure)
    return cell_art.flat_and_paper(lit, config)[0]


_T = TypeVar("_T")
_R = TypeVar("_R")


def _in_parallel(work: Callable[[_T], _R], items: list[_T], config: ScanConfig) -> list[_R]:
    """``[work(x) for x in items]``, up to ``_threads`` at once (OpenCV and numpy release
    the GIL); the first error is raised as in the loop."""
    if len(items) < 2 or _threads(config) < 2:
        return [work(x) for x in items]
    with ThreadPoolExecutor(max_workers=min(len(items), _threads(config))) as pool:
        return list(pool.map(work, items))


def _shared(work: Callable[[_T], _R], items: list[_T], config: ScanConfig, fork: bool
            ) -> list[_R]:
    """``[work(x) for x in items]`` shared with a forked copy of the process when
    ``fork`` (``io.fork_locating``, ``io.fork_reading``; ``forked.in_two``), else
    ``_in_parallel``."""
    if fork and forked.available():
        return forked.in_two(work, items)
    return _in_parallel(work, items, config)


def _threads(config: ScanConfig) -> int:
    """Threads reading tiles at once: ``io.threads``, or one per core (at most four)."""
    import os

    return config.io.threads or max(1, min(4, os.cpu_count() or 1))


def _read_tile(photo: Photo, f: LocatedTile, tile_meadow: edges_mod.MeadowRef,
               classes: np.ndarray, veil: np.ndarray | None, gains: np.ndarray, off: float,
               config: ScanConfig) -> tuple[np.ndarray, np.ndarray, tuple[str, ...], Reading]:
    """One located tile's edge probabilities, the hand-set colour reading (a second
    opinion for the doubt calibrator), the sections its code is decoded from and its
    reading alone (code, confidences, task, marker and flag attributes). Independent of
    the other tiles, so tiles are read in parallel (OpenCV and numpy release the GIL)."""
    opinion = edges_mod.letter_probabilities(edges_mod.band_fractions(classes, config), config)
    probs = _edge_probabilities(f.rectified, opinion, config)
    detail = edges_mod.apply_gains(
        rectify(photo.detail_image(), f.corners * photo.detail_factor,
                config.rectify.detail_radius), gains)
    kind_of_task, marker = read_task(detail, tile_meadow, photo.detail_image(),
                                     f.corners * photo.detail_factor, config, f.rectified)
    # Flags are looked for on the detail tile without the glare veil (it pales the
    # pennant's colour). A pennant's white outline can pass for a task's speech
    # bubble: a task read without a marker gives way to a sure pennant.
    if marker is None and veil is not None:
        detail = unveiled(detail, veil)
    seen = flag_light(detail, tile_meadow[2]) if marker is None else None
    pennants = flag_candidates(detail, config, tile_meadow[2], seen) if seen is not None else None
    decoded: dict[tuple[str, ...], tuple[str, tuple[float, ...], bool, float]] = {}
    tasks, landscapes = in_play(TASK_SECTIONS, config), in_play(LANDSCAPE_SECTIONS, config)

    def decoded_in(sections: tuple[str, ...]) -> tuple[str, tuple[float, ...], bool, float]:
        if sections not in decoded:
            decoded[sections] = decode(probs, off, sections)
        return decoded[sections]

    if (kind_of_task is not None and marker is None
            and decoded_in(landscapes)[3] - decoded_in(tasks)[3]
            >= config.tasks.bubble_art_margin):
        kind_of_task = None
    if kind_of_task is not None and pennants is not None:
        if outranks_bubble(pennants, config):
            kind_of_task = None
        else:
            pennants = None
    attrs: dict[str, object] = {}
    sections = tasks if kind_of_task is not None else landscapes
    if kind_of_task is not None:
        attrs["task"] = f"{kind_of_task}/{marker.value}" if marker else kind_of_task
    code, conf, _, _ = decoded_in(sections)
    if pennants is not None:
        reading = read_flag(detail, code, config, tile_meadow[2], seen, pennants)
        if reading.flag is not None:
            attrs["flag"] = reading.flag.kind
        if reading.doubtful:
            attrs["flag_doubtful"] = True  # an unsure flag, or none found where one is likely
    return probs, opinion, sections, (code, conf, attrs)


class Prepared(NamedTuple):
    """The located cells ready to read: lifted out of dim light and white-balanced
    (``gains``, see ``prepare``), the glare veil divided out (``veils``), each with its
    local meadow and pixel classes, and each cell's share of the game's colours
    (meadow, forest, grain)."""

    found: list[LocatedTile]
    gains: np.ndarray
    veils: list[np.ndarray | None]
    meadows: list[edges_mod.MeadowRef]
    classes: list[np.ndarray]
    game_share: list[float]
    lift: float = 1.0
    """The exposure lift in ``gains`` (``_exposure_lift``)."""

    def keeping(self, keep: list[bool]) -> Prepared:
        def kept(items: list[Any]) -> list[Any]:
            return [x for x, k in zip(items, keep, strict=True) if k]

        return Prepared(kept(self.found), self.gains, kept(self.veils), kept(self.meadows),
                        kept(self.classes), kept(self.game_share), self.lift)


def prepare(found: list[LocatedTile], config: ScanConfig) -> Prepared:
    """Exposure lift, white balance, glare removal, meadows and pixel classes of the
    located cells (``gains`` holds the lift and the white balance)."""
    lift = _exposure_lift([f.rectified for f in found], config)
    lifted = [f.rectified if lift == 1.0 else edges_mod.apply_gains(f.rectified, np.full(3, lift))
              for f in found]
    gains = lift * edges_mod.white_gains(lifted)
    found = [replace(f, rectified=edges_mod.apply_gains(f.rectified, gains))
             for f in found]
    veils: list[np.ndarray | None] = [None] * len(found)
    if config.terrain.remove_glare:
        lifted = edges_mod.veils([f.rectified for f in found])
        found = [replace(f, rectified=edges_mod.remove_veil(f.rectified, v))
                 for f, v in zip(found, lifted, strict=True)]
        veils = [*lifted]
    meadow = edges_mod.meadow_reference([f.rectified for f in found])
    meadows = edges_mod.local_meadows([f.rectified for f in found],
                                      [tuple(f.corners.mean(axis=0)) for f in found], meadow)
    classes = [edges_mod.pixel_classes(f.rectified, m)
               for f, m in zip(found, meadows, strict=True)]
    game = [_game_share(c, config) for c in classes]
    return Prepared(found, gains, veils, meadows, classes, game, lift)


def prepared_for_judging(found: list[LocatedTile], config: ScanConfig,
                         ready: Prepared | None = None) -> Prepared:
    """The cells prepared as the cell model judges them (and ``synth.fit_cells`` fits
    it): as photographed, without the exposure lift, unless ``find.judge_lifted_cells``
    (lifted, the table beside a dim map passes for tile art). ``ready`` is ``found``
    prepared for reading, reused when the two agree."""
    if config.find.judge_lifted_cells:
        return ready if ready is not None else prepare(found, config)
    if ready is not None and ready.lift == 1.0:
        return ready
    return prepare(found, config.tuned(exposure_floor=0.0))


def cell_rows(ready: Prepared, config: ScanConfig) -> np.ndarray:
    """The ``cell_art.FEATURES`` rows of the prepared cells of an assembled map."""
    return cell_art.features([f.rectified for f in ready.found], ready.classes,
                             [f.cell for f in ready.found],
                             [f.agreement for f in ready.found], config,
                             config.terrain.min_terrain_fraction,
                             [not f.beside for f in ready.found],
                             [m[2] for m in ready.meadows],
                             [f.table_seen for f in ready.found])


def holds_tiles(ready: Prepared, kind: str, config: ScanConfig) -> list[bool]:
    """Which prepared cells hold a tile: for an assembled map the learned judgement
    (``cell_art``, when ``find.learned_cells`` and the model is shipped) or a tile's
    edge all round (``LocatedTile.edged``), less groups apart of which the model is
    nowhere sure (``_sure_groups``), else the hand-set rules (``_shows_tile_art``);
    then only the map's own groups (``_one_landscape``)."""
    model = cell_art.load_model() if config.find.learned_cells else None
    if kind == "assembled" and model is not None and len(ready.found) >= 3:
        p = model.probability(cell_rows(ready, config))
        keep = [bool(v >= model.threshold) or f.edged for f, v in zip(ready.found, p,
                                                                      strict=True)]
        keep = _sure_groups(ready.found, keep, p, config)
    else:
        inside = edges_mod.hexagon_mask(config.rectify.radius) > 0
        tile_like = [t >= config.terrain.min_terrain_fraction for t in ready.game_share]
        colourful = [float(np.mean(np.isin(c[inside], ART_CLASSES))) for c in ready.classes]
        keep = _shows_tile_art(ready.found, ready.game_share, colourful, config, tile_like)
    keep = [k and not f.beside for f, k in zip(ready.found, keep, strict=True)]
    if kind == "assembled":
        keep = _one_landscape(ready.found, keep, config)
    return keep


def _tile_like(ready: Prepared, kind: str, config: ScanConfig) -> list[bool]:
    """Which prepared cells show enough of the game's colours
    (``terrain.min_terrain_fraction``), or, loose, ``find.houses_min`` houses."""
    tile_like = [t >= config.terrain.min_terrain_fraction for t in ready.game_share]
    if kind == "loose" and config.find.houses_min > 0:
        tile_like = [ok or cell_art.houses(c, config) >= config.find.houses_min
                     for ok, c in zip(tile_like, ready.classes, strict=True)]
    return tile_like


def read_tiles(photo: Photo, found: list[LocatedTile], kind: str, config: ScanConfig,
               clock: Deadline | None = None) -> Scan:
    """Read the art of every located tile and build the record."""
    photo.detail_image()  # made in a thread while locating: wait here, before any fork
    warnings: list[str] = []
    fit = _agreement(found) if kind == "assembled" and found else None
    poor_fit = fit is not None and fit < config.lattice.period_weak_agreement
    if poor_fit:
        warnings.append(f"the tiles fit the lattice poorly (outline agreement {fit:.2f}): "
                        "the tile size may be misread; compare the map with the photo, or "
                        "photograph it again from above on a plain surface")
    ready = prepare(found, config)
    # Cells over cloth or clutter the silhouette took in may outnumber the tiles: the
    # photo shows tiles when enough cells show the game's colours.
    tile_like = _tile_like(ready, kind, config)
    if sum(tile_like) < max(1.0, config.find.tile_like_share_min * len(ready.found)):
        raise ScanError("no tiles recognised: the colours are not those of Dorfromantik "
                        "tiles (a photo of something else?)")
    keep = holds_tiles(prepared_for_judging(found, config, ready), kind, config)
    clipped = [edges_mod.clipped_bands(f.rectified, config)
               for f, k in zip(found, keep, strict=True) if k]
    kept = sum(keep)
    if kind == "assembled" and kept > config.find.max_map_tiles:
        poor_fit = True
        warnings.append(f"{kept} tiles found, more than any game's map holds "
                        f"({config.find.max_map_tiles}): the table around the map was "
                        "probably taken for tiles; photograph the map on a plain surface, "
                        "or correct the map by hand")
    if config.terrain.balance_on_tiles and not all(keep):
        # The white patch, glare and meadow are the tiles' own: cells of table, mat or
        # clutter beside the map (their brightest pixels a pink mat's) tinted them.
        ready = prepare([f for f, k in zip(found, keep, strict=True) if k], config)
    else:
        ready = ready.keeping(keep)
    found, gains, veils, meadows, classes_of = (ready.found, ready.gains, ready.veils,
                                                ready.meadows, ready.classes)
    readings: list[Reading] = []
    tile_probs: list[tuple[np.ndarray, tuple[str, ...]]] = []
    second: list[np.ndarray] = []
    off = config.decode.off_catalogue_prior if config.decode.use_catalogue else 1.0

    def read_one(i: int) -> tuple[np.ndarray, np.ndarray, tuple[str, ...], Reading]:
        read = _read_tile(photo, found[i], meadows[i], classes_of[i], veils[i], gains, off,
                          config)
        if clock:
            clock.check()  # after every tile, as the time limit always was
        return read

    indices = list(range(len(found)))
    read_all = _shared(read_one, indices, config, config.io.fork_reading)
    for probs, opinion, tile_sections, reading in read_all:
        tile_probs.append((probs, tile_sections))
        second.append(opinion)
        readings.append(reading)
    free: list[np.ndarray | None] = [None] * len(found)
    if config.decode.use_catalogue and config.decode.use_inventory:
        # Each physical tile lies on the table at most once: decode all tiles together.
        sections = [s for _, s in tile_probs]
        assigned = assign([p for p, _ in tile_probs], sections, off)
        free = list(free_candidates(assigned, sections))
        alone = [r[0] for r in readings]
        readings = [(*decode(tile_probs[i][0], off, tile_probs[i][1], cand=free[i])[:2],
                     readings[i][2]) for i in range(len(readings))]
        for i, (code, _, attrs) in enumerate(readings):  # the inventory overruled the art
            attrs["overruled"] = tuple(e for e in range(6) if code[e] != alone[i][e])
    centres = [photo.to_original(tuple(f.corners.mean(axis=0))) for f in found]
    misfit = _misfits(found)
    if kind == "assembled":
        cells = [f.cell for f in found]
        assert all(c is not None for c in cells)
        order = _bfs_order([c for c in cells if c is not None], centres)
        origin = cells[order[0]]
        assert origin is not None

        def decoder(i: int, allowed: dict[int, str]) -> tuple[str, tuple[float, ...], float]:
            code, conf, _, score = decode(tile_probs[i][0], off, tile_probs[i][1], allowed,
                                          free[i])
            return code, conf, score

        corrected: list[EdgePair] = []
        if config.decode.resolve_mismatches:
            fixed, corrected = resolve([c for c in cells if c is not None],
                                       [(r[0], r[1]) for r in readings], decoder,
                                       config.decode.resolve_max_cost)
            readings = [(code, conf, readings[i][2]) for i, (code, conf) in enumerate(fixed)]
        readings = _tasks_agreeing(readings, cells, tile_probs, off, config)
        codes = {cells[i]: readings[i][0] for i in range(len(found))
                 if cells[i] is not None}
        flags = mismatches({c: k for c, k in codes.items() if c is not None})
        n_bad = sum(len(es) for es in flags.values()) // 2
        where = {c: i for i, c in enumerate(cells)}
        for pair in corrected:  # close calls stay marked for a person
            if min(readings[where[c]][1][e] for c, e in pair) < config.decode.doubtful_correction:
                for c, e in pair:
                    flags[c] = sorted(set(flags.get(c, [])) | {e})
        changed: dict[tuple[int, int], set[int]] = {}
        for pair in corrected:
            for c, e in pair:
                changed.setdefault(c, set()).add(e)
        evidence = _evidence(readings, cells, tile_probs, second,
                             [flags.get(c, []) if c is not None else [] for c in cells],
                             [sorted(changed.get(c, ())) if c is not None else [] for c in cells],
                             misfit, clipped)
        tiles = []
        for i in order:
            cell = cells[i]
            assert cell is not None
            code, conf, attrs = readings[i]
            at = Hex(cell[0] - origin[0], cell[1] - origin[1])
            mismatch = tuple(flags.get(cell, []))
            tiles.append(_scanned(at, code, conf, attrs, centres[i], mismatch, config,
                                  evidence[i]))
        if n_bad:
            warnings.append(f"{n_bad} track/stream edge(s) do not match their neighbour")
    else:
        readings = _tasks_agreeing(readings, [None] * len(readings), tile_probs, off, config)
        evidence = _evidence(readings, [None] * len(readings), tile_probs, second,
                             [[] for _ in readings], [[] for _ in readings], misfit, clipped)
        tiles = [_scanned(Hex(i, 0), code, conf, attrs, centres[i], (), config, evidence[i])
                 for i, (code, conf, attrs) in enumerate(readings)]
        tiles = [replace(t, doubtful=tuple(range(6))) if f.by_rim else t
                 for t, f in zip(tiles, found, strict=True)]
    if len(tiles) == 1:
        # Never a silent one-tile map: a map whose tiles were not found reads as one.
        warnings.append("only one tile found: if the photo shows a map, its tiles were "
                        "not told from the table (photograph it closer, from above or in "
                        "more light)")
    if poor_fit:
        # The map may be placed at the wrong size: every edge is in doubt.
        tiles = [replace(t, doubtful=tuple(range(6))) for t in tiles]
    return Scan(tiles=tiles, kind=kind, warnings=warnings,
                seconds=clock.elapsed if clock else 0.0, fit=fit, poor_fit=poor_fit)


def _misfits(found: list[LocatedTile]) -> list[float]:
    """How much worse each tile's outline agrees with the seams than the photo's median
    tile's (0 at or above it, 1 not at all; 0 for loose tiles): a tile the lattice put
    beside its own outline is read from the wrong pixels."""
    return lattice_mod.misfits([f.agreement for f in found])


def _evidence(readings: list[Reading], cells: list[tuple[int, int] | None],
              tile_probs: list[tuple[np.ndarray, tuple[str, ...]]], second: list[np.ndarray],
              mismatch: list[list[int]], corrected: list[list[int]], misfit: list[float],
              clipped: list[np.ndarray]) -> list[np.ndarray]:
    """The doubt evidence of every tile's edges (``doubt.map_evidence``); ``clipped``:
    each tile's ``edges.clipped_bands`` as photographed."""
    overruled = []
    for _, _, attrs in readings:
        o = attrs.get("overruled", ())
        overruled.append(tuple(o) if isinstance(o, tuple) else ())
    return doubt_mod.map_evidence(cells, [r[0] for r in readings], [r[1] for r in readings],
                                  tile_probs, overruled, mismatch, corrected, second, misfit,
                                  clipped)


def _doubtful(conf: tuple[float, ...], mismatch: tuple[int, ...], config: ScanConfig,
              evidence: np.ndarray | None = None, overruled: tuple[int, ...] = ()
              ) -> tuple[int, ...]:
    """The edges the review highlights: those the doubt calibrator finds likely wrong
    (``decode.calibrated_doubt``; off: confidence below ``decode.doubt_below`` or
    overruled by the inventory), and every track/stream mismatch."""
    if config.decode.calibrated_doubt and evidence is not None:
        return doubt_mod.doubtful(evidence, mismatch)
    low = {e for e, c in enumerate(conf) if c < config.decode.doubt_below}
    return tuple(sorted(low | set(mismatch) | set(overruled)))


def _scanned(at: Hex, code: str, conf: tuple[float, ...], attrs: dict[str, object],
             centre: tuple[float, float], mismatch: tuple[int, ...], config: ScanConfig,
             evidence: np.ndarray | None = None) -> ScannedTile:
    """The scanned tile of a final reading, its doubtful edges (``_doubtful``). A flag
    whose terrain the final code no longer shows (decoding changed the code after the
    flag was read) is left out, since the record would be refused, and the flag is
    marked doubtful like an unclear one."""
    flag = attrs.get("flag")
    flag_doubtful = bool(attrs.get("flag_doubtful", False))
    if isinstance(flag, str) and LETTER_OF[flag] not in code:
        attrs = {k: v for k, v in attrs.items() if k != "flag"}
        flag_doubtful = True
    overruled = attrs.get("overruled", ())
    doubtful = _doubtful(conf, mismatch, config, evidence,
                         overruled if isinstance(overruled, tuple) else ())
    return ScannedTile(_placement(at, code, attrs), conf, centre, mismatch, doubtful,
                       flag_doubtful, evidence)


def _placement(at: Hex, code: str, attrs: dict[str, object]) -> Placement:
    """The rules placement of a tile read with ``attrs`` (``task``, ``flag``)."""
    task = attrs.get("task")
    flag = attrs.get("flag")
    return Placement(at, code,
                     task=parse_task(task, "board-game") if isinstance(task, str) else None,
                     flag=flag if isinstance(flag, str) else None)


def _edge_probabilities(tile: np.ndarray, colours: np.ndarray, config: ScanConfig
                        ) -> np.ndarray:
    """6 x 6 letter probabilities of a tile's edges (rows edges, columns ``FGVTSM``):
    the learned model (``terrain_model``) or, with ``terrain.learned`` off, ``colours``,
    the hand-set colour thresholds' reading of its pixel classes (``edges``). With
    ``terrain.colour_weight``, the model's log probabilities plus that times the colour
    reading's, normalised per edge (``with_colours``)."""
    if not config.terrain.learned:
        return colours
    logp = edge_log_likelihoods(tile)
    weight = config.terrain.colour_weight
    if weight <= 0:
        return np.exp(logp)
    return with_colours(logp, colours, weight)


COLOUR_FLOOR = 1e-4
"""The least probability the colour reading gives a letter when it joins the model: a
reading of none at all vetoes no letter outright."""


def with_colours(logp: np.ndarray, colours: np.ndarray, weight: float) -> np.ndarray:
    """Each edge's probabilities (rows) from the model's log probabilities ``logp`` and
    the colour reading's probabilities ``colours`` to the power ``weight`` (at least
    ``COLOUR_FLOOR``), normalised."""
    both = logp + weight * np.log(np.clip(colours, COLOUR_FLOOR, 1.0))
    p = np.exp(both - both.max(axis=1, keepdims=True))
    out: np.ndarray = p / p.sum(axis=1, keepdims=True)
    return out


def _tasks_agreeing(readings: list[Reading], cells: list[tuple[int, int] | None],
                    tile_probs: list[tuple[np.ndarray, tuple[str, ...]]], off: float,
                    config: ScanConfig) -> list[Reading]:
    """Readings whose task tiles show their task's terrain (``tasks.reconcile_task``).

    A code changed here keeps every track and stream edge matched with its neighbours
    (the codes of ``cells``, None for loose tiles) as they are after ``resolve``.
    """
    codes = {c: r[0] for c, r in zip(cells, readings, strict=True) if c is not None}
    out = []
    for i, (code, conf, attrs) in enumerate(readings):
        task = attrs.get("task")
        if isinstance(task, str):
            kind, _, value = task.partition("/")
            cell = cells[i]
            allowed = {} if cell is None else _neighbour_letters(cell, codes)
            agreeing, code, conf = reconcile_task(kind, code, conf, tile_probs[i][0], off,
                                                  tile_probs[i][1], config.tasks.task_type_trust,
                                                  allowed)
            if agreeing != kind:
                attrs = {**attrs, "task": f"{agreeing}/{value}" if value else agreeing}
        out.append((code, conf, attrs))
    return out


def _neighbour_letters(cell: tuple[int, int], codes: dict[tuple[int, int], str]
                       ) -> dict[int, str]:
    """Letters each edge of ``cell`` may take next to its neighbours' edges
    (``consistency.OPTIONS``: a track or stream meets its like, anything else meets no
    track or stream)."""
    out = {}
    for e, (dq, dr) in enumerate(DIRECTIONS):
        other = codes.get((cell[0] + dq, cell[1] + dr))
        if other is not None:
            out[e] = next(o for o in CONSISTENT_OPTIONS if other[opposite(e)] in o)
    return out


def _bfs_order(cells: list[tuple[int, int]], centres: list[tuple[float, float]]) -> list[int]:
    """Indices of cells in breadth-first order from the first tile (top-most, then left).

    Cells not connected to it follow, each group again breadth-first.
    """
    index = {c: i for i, c in enumerate(cells)}
    remaining = sorted(range(len(cells)), key=lambda i: (round(centres[i][1]), centres[i][0]))
    seen: set[int] = set()
    order: list[int] = []
    for start in remaining:
        if start in seen:
            continue
        queue = deque([start])
        seen.add(start)
        while queue:
            i = queue.popleft()
            order.append(i)
            q, r = cells[i]
            for dq, dr in DIRECTIONS:
                j = index.get((q + dq, r + dr))
                if j is not None and j not in seen:
                    seen.add(j)
                    queue.append(j)
    return order
