"""Every threshold of the scanner, one frozen sub-config per stage.

Representation: ``ScanConfig`` holds one frozen dataclass per stage (``io``,
``background``, ``find``, ``lattice``, ``rectify``, ``terrain``, ``decode``, ``tasks``,
``markers``, ``flags``); a stage reads ``config.<stage>.<name>``. Lengths marked
``*_frac`` are fractions of a tile's circumradius (centre-to-corner distance) unless
said otherwise; colours are OpenCV HSV (hue 0..180, saturation and value 0..255) or Lab
(0..255 each, a/b centred at 128).

Pass a modified copy with ``DEFAULT_CONFIG.tuned(time_limit_s=5.0)`` (each name is
unique across the stages) or ``dataclasses.replace`` on the stage:

>>> DEFAULT_CONFIG.tuned(time_limit_s=5.0).io.time_limit_s
5.0
>>> DEFAULT_CONFIG.tuned(radius=80).rectify.radius
80
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class IoConfig:
    """Reading the photo (``io``)."""

    max_pixels: int = 50_000_000
    """Refuse photos larger than this many pixels (also guards decompression bombs)."""
    max_bytes: int = 200_000_000
    """Refuse encoded files larger than this."""
    working_long_side: int = 1600
    """The photo is downscaled so that its long side is at most this (pixels)."""
    time_limit_s: float = 20.0
    """Give up on a photo after this many seconds."""
    too_dark_grey: float = 30.0
    """A photo in which no tiles are recognised is said to be too dark when 99 % of its
    pixels are darker than this grey (about 2.5 EV under a well exposed photo, whose
    white art and clutter are near 200)."""
    exposure_floor_grey: float = 100.0
    """A photo whose brightest 1 % is darker than this grey (over 1 EV under a well exposed
    photo's near 200) is brightened until it is not, as a camera's own exposure would
    have (``io.brought_up``); 0: never."""
    photo_gain_max: float = 2.5
    """The most it is brightened (its noise and JPEG blocks grow with it)."""
    threads: int = 0
    """Threads working at once (``scan._in_parallel``: the lattice's starts refined and
    its layouts placed when ``fork_locating`` is off, the tiles read when
    ``fork_reading`` is); 0: one per core, at most four."""
    fork_reading: bool = True
    """The tiles are read by two processes, the scan's and a forked copy of it
    (``forked.in_two``: threads hardly share the reading, which holds the GIL between
    many small calls); only on Linux with two cores or more. Off: by ``threads``."""
    fork_locating: bool = True
    """The lattice's starts are refined, and its layouts placed, by two processes
    likewise (``scan._shared``); off: by ``threads``."""


@dataclass(frozen=True)
class BackgroundConfig:
    """Telling tiles from the table (``background``)."""

    border_frac: float = 0.03
    """Width of the image border sampled as background, fraction of the short side."""
    border_segments: int = 4
    """Pieces each side of the border is cut into; a piece whose median colour is
    foreground by ``distance_min`` (a map or a pad cut by the frame) is not table
    (``background.table_segments``); 0: the whole border is."""
    distance_min: float = 18.0
    """Minimum Lab distance from the background model that counts as foreground."""
    distance_factor: float = 1.6
    """Foreground threshold = max(min, factor * 98th percentile of border distances)."""
    lightness_weight: float = 0.35
    """Weight of L in the Lab distance (shadows change L more than a and b)."""
    shading_spread: float = 1.6
    """A table whose border's lightness spreads wider than this (90th over 10th
    percentile of L* + 16) is compared at its own lightness (``background_distance``)."""
    table_noise_floor: float = 6.0
    """Lab spread (standard deviation) every table is given on top of its measured
    covariance (``background.table_model``): distances along the colours the table
    itself shows shrink by its spread over this."""
    bright_table_light: float = 55.0
    """A table this light (median L* + 16 of the border) or lighter is well lit; the
    distance floors (``distance_min``, ``table_noise_floor``) of a dimmer one scale with
    its lightness,..."""
    dim_scale_min: float = 0.3
    """...down to this fraction."""
    tile_saturation_min: int = 70
    """Pixels this saturated are tile art whatever the background model says."""
    shadow_as_table: bool = True
    """Table under a cast shadow is table (``background.table_in_shadow``):..."""
    shadow_chroma_max: float = 6.0
    """...its chromaticity (Lab a*, b* rescaled to the table's lightness) lies this
    close to the table's,..."""
    shadow_depth_max: float = 0.45
    """...its L* + 16 is at least this fraction of the table's,..."""
    shadow_texture_frac: float = 0.012
    """...and its lightness spread over a window this wide (fraction of the short side)
    stays below the table's own (90th percentile of the border x ``bg_distance_factor``,
    at least ``shadow_spread_min``)."""
    shadow_spread_min: float = 4.0
    glare_as_table: bool = False
    """Table in a pool of light or under glare is table everywhere
    (``background.table_in_glare``; off: it takes fields on wood for table too, and two
    photos of loose tiles were then read as maps, 26802 and 26815; ``find.glare_parts``
    uses it inside clusters only): its colour lies in the plane of the table's colour
    and white,..."""
    glare_off_min: float = 8.0
    """...within the border's own distance from that plane (90th percentile x
    ``distance_factor``, at least this, in 8-bit BGR),..."""
    glare_share_min: float = 0.1
    """...white makes at least this share of it or..."""
    glare_light_min: float = 1.1
    """...it is this many times as bright (a lamp's pool of light), and it is as smooth
    as the table's border (its mean difference from the lightness blurred by half of
    ``shadow_texture_frac``, 90th percentile x ``distance_factor``, at least
    ``glare_rough_min``)."""
    glare_rough_min: float = 2.0
    glare_table_angle_min: float = 8.0
    """A table whose colour lies closer to grey than this (degrees, in BGR) spans no
    plane with white: its light and glare are the greys at least ``glare_light_min``
    times as bright."""
    checks_as_table: bool = True
    """A checked or gingham cloth is table wherever it shows (``background.table_checks``),
    also where a lamp lights it brighter than the border the table's colours are
    measured on (its light checks washed out, taken for tile art): a window whose
    gradients run two ways at right angles (``checks_crossing_min``) and not one way
    (``checks_coherence_max``) is no tile art. Tile art mixes every direction; a grain
    field's stripes or a track's rails run one way."""
    checks_window_frac: float = 0.035
    """Side of the window the gradients are pooled over, fraction of the short side
    (43 px of a 1600 x 1200 working image: a few checks of a tablecloth)."""
    checks_large_window_frac: float = 0.07
    """A second window, for checks larger than the first one (a gingham's 2-3 cm
    squares; the renderer draws checks up to 48 px of the working image), pooled at a
    quarter of the resolution (0: none)."""
    checks_crossing_min: float = 0.7
    checks_coherence_max: float = 0.2
    checks_min_area_frac: float = 0.02
    """Only checks spreading over this share of the image are a cloth: the corner of a
    card, a lid or a score pad is one crossing of two edges, and reads as checks over a
    window or two."""


@dataclass(frozen=True)
class FindConfig:
    """Loose tiles: which foreground components are one hexagon (``find_tiles``)."""

    min_tile_area_frac: float = 0.0008
    """Components smaller than this fraction of the image are noise."""
    hexagon_fill_min: float = 0.80
    """A component is one loose tile when its area fills this much of its fitted hexagon."""
    hexagon_fill_max: float = 1.12
    hexagon_solidity_min: float = 0.87
    """...and its area fills this much of its convex hull (a cluster has notches)."""
    thin_part_frac: float = 0.01
    """A foreground component that is no hexagon, or a notched one, is tried again opened
    by this share of the square root of its area, the thin parts removed at most a twentieth of it
    (``find_tiles.blobs``): a lone tile close up on wood, the planks' gaps joined to its
    mask, was no hexagon and was read as a map of 4-6 cells (lone renders of seed 400).
    0: off."""
    notched_agree_min: int = 3
    """Where fewer than two hexagons are clear of notches, a notched one is a tile when
    at least this many notched hexagons have hulls of about one size (0.75-1.3 times
    their median, as the clear ones size them otherwise): loose tiles in dim light on
    dark wood lose their dark art (forest, track) at the rim from the foreground, and
    none stays a whole hexagon (loose composite 27002). 0: off."""
    notched_ring_max: float = 0.05
    """...counting only notched hexagons with at most this share of foreground in the
    ring from 1.05 to 2 times their hexagon: loose tiles lie on bare table (27002: 0-2
    %), the pieces of a map in dim light among other pieces (composite 22657: 8-26 %;
    three field pieces a third of a tile sized the tiles, and the map read as 31 loose
    tiles, 10 of them phantoms)."""
    apart_min: float = 1.25
    """Lone hexagons, three or more, whose median nearest neighbour lies this many tile
    widths (``sqrt(3)`` radii) away or more lie apart: loose tiles. A map located beside
    them with fewer tiles than they are, or fitting its outlines poorly
    (``lattice.period_weak_agreement``), was clutter beside loose tiles (a box lid or a
    score pad larger than half of them), and the tiles are read loose
    (``scan._loose_tiles_and_clutter``). 0: off."""
    apart_gap: float = 0.25
    """...and most of them have no other foreground within this share of their radius
    (loose tiles lie apart from the clutter too; a map's lone hexagons touch its pieces:
    composite 20250, its lattice fitted poorly, was read as its 5 lone tiles without
    this)."""
    apart_isolated_min: float = 0.9
    """...and when this share of them or more have none (``apart_gap``), they lie apart
    however close their centres: a map's tiles, even laid by hand, touch their
    neighbours (loose composite 27311: 19 tiles 1.16 widths apart beside a box lid
    were read as a map of 49 cells). 0: off."""
    apart_cells_min: float = 1.15
    """...or, most of them so apart from everything else, the map's cells are this many
    times their size or more (its lattice spans the gaps between loose tiles: a map's
    cells are its tiles, whatever its fit). 0: off."""
    apart_cells_small_max: float = 0.7
    """...or this many times their size or less (a score pad's ruled lines sized the
    lattice: loose composite 26817, 0.36; cardboard walls under tilt widen a lone
    hexagon, so cells of the tiles' own lattice measure down to 0.86 of it: 26904)."""
    apart_lone_share_min: float = 0.2
    """...where they are at least this share of the foreground's area (a map sized
    wrong, its silhouette in clusters and 3 lone tiles of its own, 6 % of it: held-out
    render 11426 without ``lattice.period_rival_peaks``)."""
    split_open_frac: float = 0.2
    """A map located among clusters that fits poorly (``lattice.period_weak_agreement``),
    or whose cells are ``apart_cells_min`` times larger than the lone hexagons or
    ``apart_cells_small_max`` times smaller, has the foreground's shapeless parts opened
    by a disc of this share of the hexagons' radius, and is read loose when the hexagons
    then lie apart (``scan._loose_tiles_and_clutter``): loose tiles joined by wood grain,
    glare or a cloth's checks. 0: off."""
    glare_parts: bool = True
    """A shapeless cluster larger than the lone hexagons is parted where a pool of light
    or glare on the table joins loose tiles (``scan._parted_by_glare``): the table in
    glare (``background.table_in_glare``) is removed inside it, and kept removed when
    it then falls into parts, most of the tile-sized ones hexagons lying apart..."""
    glare_cluster_min: float = 1.2
    """...(a cluster: larger than this many lone hexagons; a tile in a pool of light
    measures 1.3)..."""
    glare_parts_min: int = 1
    """...when it falls into this many parts of half a tile or more (one: a lone tile
    in a pool of light that joined the table round it; two at least where no lone
    hexagon gives a tile's size)..."""
    glare_apart_gap: float = 0.1
    """...most with no other part within this share of their radius (loose tiles lie a
    few millimetres apart or more; a map's tiles touch)."""
    glare_solid_parts: bool = True
    """Only tile-sized parts as solid as a tile (``hexagon_solidity_min``) count there:
    a ragged remnant of glare's fringe is neither a tile nor evidence against one."""
    broken_close_frac: float = 0.3
    """Loose tiles whose foreground broke (``broken_tiles``): the rest of the foreground
    is closed across gaps this share of a whole tile's radius (0: off)..."""
    broken_area: tuple[float, float] = (0.3, 1.6)
    """...its parts between these multiples of a whole tile's area are candidates..."""
    broken_peak_frac: float = 0.6
    """...and a part larger than that gives a candidate at each point this share of a
    radius or more inside it, 1.5 radii apart (tiles joined by glare; the deepest first,
    as many as tiles would fill it). 0: off."""
    broken_joined_beyond_max: float = 0.4
    """...kept only when at most this share of the ring just outside its outline is
    foreground (a tile beside glare, not a place inside a box lid)..."""
    broken_joined_fill_min: float = 0.8
    """...and this share of its inside is foreground (a tile joined to others is whole,
    not broken)."""
    broken_turn_deg: float = 15.0
    """...each placed where the nearest whole tile's outline, turned by at most this,
    lies on the strongest edges..."""
    broken_edge_share: float = 0.6
    """...and kept when those edges are at least this share as strong as the whole
    tiles' own..."""
    broken_log_edges: bool = True
    """...on the grey image or on its logarithm (the outline placed on the grey): a tile
    in dim light or a shadow has a rim fainter by the light's ratio, its contrast with
    the table the same (loose composites 26704, 27168, 27205: 0.26-0.53 of the whole
    tiles' strength, 0.63-0.83 on the logarithm)..."""
    broken_fill_min: float = 0.35
    """...and this share of the outline's inside is foreground."""
    rim_score_min: float = 0.45
    """Loose tiles the foreground missed, found by their rim (``rim_search``): a place
    is kept when its outline's second weakest side is at least this share as strong as
    the tiles' found (0: off)..."""
    rim_fill_max: float = 0.5
    """...at most this share of its inside is foreground..."""
    rim_unlike_min: float = 0.25
    """...and at least this share of its inside is unlike the table just outside it
    in colour (``rim_search._unlike_around``)."""
    huge_tile_factor: float = 3.0
    """A hexagon more than this many times the median hexagon's area is a cluster of
    tiles, never one tile."""
    art_texture_min: float = 0.45
    """A located tile counts only when its texture (mean |Laplacian|) is at least this
    fraction of the median tile's,..."""
    art_texture_by_lightness: bool = True
    """...the texture judged also over the cell's mean grey (``scan._shows_tile_art``:
    a tile in a dim corner of the photo, its Laplacian weaker with its light)..."""
    art_share_min: float = 0.15
    """...its share of game colours (meadow, forest, grain) at least this fraction of
    the median's or..."""
    art_colour_min: float = 0.18
    """...its share of art colours (those, roofs, water, cobbles) this fraction,..."""
    art_weak_share: float = 0.35
    """...and, with a game-colour share below this fraction of the median, at least the
    median texture (``scan._shows_tile_art``; chosen on real-table composites of seed
    1300 and rendered 300; the texture level lowered from 0.5 after a plain tile of
    composite 900 fell at 0.48)."""
    island_gap: int = 2
    """Cells of an assembled map within this many steps of each other belong together
    (``scan._one_landscape``; one missing tile leaves a gap of two)..."""
    island_min_cells: int = 4
    """...and a group apart from the largest one is kept only with this many cells."""
    blank_share_max: float = 0.8
    """A cell this much of whose inside is flat (grey spread below 4 over 7 pixels) is
    not a tile (glare over the table, a plain lid; tiles measured at most 0.64)..."""
    paper_share_max: float = 0.2
    """...nor one this much of whose inside is flat, bright and grey paper (a score pad,
    cards; tiles measured at most 0.11)..."""
    grey_flat_max: float = 0.15
    """...nor, loose (``scan._shows_tile_art``), one this much of whose inside is flat
    and grey at any lightness (``cell_art.flat_paper_and_grey``: cards or a pad in dim or
    warm light, darker than paper; 0 turns it off; loose tiles measured at most 0.04,
    cards 0.25-0.33, so the margin below decides)..."""
    blank_margin: float = 0.3
    """...unless the map's median tile is within this margin of it (flat-coloured art)."""
    tile_like_share_min: float = 0.2
    """The photo shows tiles when at least this share of the located cells shows the
    game's colours (``terrain.min_terrain_fraction``); the others are judged against
    those cells (``scan._shows_tile_art``)."""
    clutter_retry: bool = True
    """When the photo would be refused so (an assembled map whose cells show too little
    of the game's colours), the foreground components whose cells fall short of that
    share are left out and the map is looked for again among the rest
    (``scan._beside_clutter``): a score pad's ruled lines or a box lid larger than a
    small map sized the lattice, and the map itself was not covered."""
    houses_min: int = 2
    """A loose cell with too little of the game's colours still shows tile art when it
    shows this many houses (``cell_art.houses``): a lone village tile (its cobbles are
    grey beside its own bright meadow: VVVVSS, TTVVVV, VVVVVV and VVVVVM alone were
    refused in 23 of 24 renders, seeds 309-311). 0: off."""
    house_share: tuple[float, float] = (0.004, 0.06)
    """The size of a house's roof, a share of the hexagon (renders 0.5-1.2 %, the real
    tiles of ../shared/tiles 0.6-4.8 %)."""
    art_bare_share: float = 0.1
    """A cell with a game-colour share below this fraction of the median tile's needs
    three passing neighbours, however busy (a patterned cloth; a village-only tile lies
    inside the map)."""
    map_min_cells: int = 3
    """A lone hexagonal outline is a map when a lattice inside it finds this many cells
    with tile art; else it is one loose tile (and the scan warns)."""
    pieces_area_frac: float = 0.5
    """Outlines that look like loose tiles, beside more foreground than this share of
    theirs that is no hexagon, may be the whole tiles of a map whose silhouette broke
    (dark art on a dark table): a map is then tried (``scan._map_in_pieces``)..."""
    pieces_on_lattice_max: float = 0.15
    """...and kept when it has more tiles than there are outlines, fits them no worse
    than ``lattice.period_weak_agreement`` and the median outline's centre lies within
    this many tile radii of one of its cells (tiles of one map lie on one lattice; loose
    tiles laid by hand fall anywhere in a cell: 0.22-0.27 in the two loose photos)..."""
    pieces_neighboured_min: float = 0.5
    """...and at least this share of its tiles has a neighbour among them (a map grows
    tile by tile beside the others; loose tiles two widths apart lie on every other
    cell of a lattice, none beside another: loose composite 26861). 0: off."""
    max_map_tiles: int = 100
    """No game's map holds more tiles: the board game plays 45 of its 48 landscape tiles
    and 25 task tiles, and the boxes of the campaign add a few dozen at most (5 task and
    5 landscape tiles in Boxes 1 and 2); a Duel landscape holds at most 73. A map read
    with more took in the table (a cloth whose pattern the silhouette could not tell
    from tiles) or is placed at the wrong size: the scan says it fits poorly
    (``Scan.poor_fit``)."""
    ring_cells: bool = False
    """Training only (``synth.fit_cells``): also locate every free neighbour of the map
    (``LocatedTile.beside``), the table, mats and clutter a silhouette could take in."""
    learned_cells: bool = True
    """Whether the cells of an assembled map hold tiles is judged by the learned model
    (``cell_art``, ``models/cells.json``, ``make fit-cells``); false: by the hand-set
    ``art_*``, ``blank_*`` and ``paper_*`` rules above (``scan._shows_tile_art``), which
    loose tiles always use."""
    shade_gain_max: float = 2.5
    """The cell model judges each cell as if lit like the map's median tile
    (``cell_art.features``): a cell whose local meadow (``edges.local_meadows``) is darker
    than the median cell's is brightened by the ratio, at most this much; 1: off. A cast
    shadow halves the art's texture, spread and seam contrast, and the model took two
    tiles of a shadowed arm of the map for table (render 24901, a shadow of about 0.6;
    the arm's third tile, in a deeper shadow, is not located at all). The meadow is the
    same green on every tile, so its brightness measures the light and not the art;
    table or clutter beside lit tiles takes their light and is not brightened."""
    keep_edged_cells: bool = True
    """A located cell of an assembled map whose every side shown to the table (at least
    ``keep_edged_sides_min``) is a tile's edge (``lattice.grow_seam_min``,
    ``scan._edged_all_round``) holds a tile whatever the cell model says: an
    all-village tile of pale cobbles in bright light looks like blank paper to the
    model (renders 22017, 22021: 0.19 and 0.16 against its 0.35), but a tile has its
    own cardboard edge all round, and the table or a hole in the map does not (the
    cells the model refused in composites 21900 x60 and renders 22000 x30: at most 0.12
    against the bar's 0.2)."""
    keep_edged_sides_min: int = 3
    """...showing at least this many sides to the table. Two sides can each lie along
    a straight edge of clutter (a stack of cards beside the map in composite 22245:
    0.30 on both); three run round half the hexagon, which a card's or a pad's right
    angles do not."""
    apart_sure_min: float = 0.8
    """A group of cells not edge to edge with the map's largest group is kept only when
    the cell model is this sure (P(tile)) of one of its cells, or one is edged
    (``scan._sure_groups``). Cells the model passes near its threshold, apart from the
    map, are a play mat under glare or clutter, whose neighbours the model refused
    (composite 22443: three at 0.38-0.51 beside a mat's square). In the cell model's own
    fitting photos (composites 7600 x100, renders 7700 x60: 5044 tiles kept), the 15
    tiles kept apart from the map scored 0.96 or more, the 4 cells kept apart without a
    tile 0.40-0.64. 0: off."""
    judge_lifted_cells: bool = False
    """Judge the cells of a dim photo as lifted for reading (``terrain.exposure_floor``);
    false: as photographed, as the cell model was fitted (lifted, the table beside a dim
    map passes for tile art: composite 19355, 2 phantoms)."""


@dataclass(frozen=True)
class LatticeConfig:
    """Assembled maps: the hex lattice and which of its cells hold a tile (``lattice``,
    ``scan``)."""

    faint_map_inside: bool = True
    """A lone outline that may be a whole map (``scan._a_map_inside``) holds one when
    the seams inside repeat too faintly to size the map (``period_weak_contrast`` ..
    ``period_min_contrast``) at the size of the lattice fitted inside it, and that
    lattice's cells meet along seams and explain the photo better than one tile: a
    steep view of a compact map on a mat of its meadow's colour (composite 22418,
    contrast 0.038) came back as one loose tile. False: only a period that sizes the
    map counts."""
    size_tolerance: float = 1.3
    """With three or more tiles lying apart (their hexagons give the tile size), a
    lattice whose cells are more than this factor larger or smaller is a last resort."""
    hole_min_frac: float = 0.6
    """Holes in a map larger than this fraction of a tile's area are empty cells."""
    bare_texture_max: float = 3.8
    bare_std_max: float = 16.0
    bare_flat_min: float = 0.7
    """A cell whose rectified image has less mean |Laplacian| and grey spread than these,
    and at least this share of flat pixels (``cell_art.flat_and_paper``), is table (a hole
    in the map), not a tile (all scaled to a standard exposure:)."""
    exposure_grey: float = 110.0
    """...the median grey of the map's cells is brought to this,..."""
    exposure_gain_max: float = 3.0
    """...by a gain of at most this (``scan._exposure_gain``)."""
    gap_close_frac: float = 0.3
    """Gaps in the map's silhouette narrower than this (fraction of radius) are closed
    before the lattice is fitted (and between the tiles placed before it is refitted to
    them): between tiles laid by hand, and inside tiles whose meadows or forests are the
    table's colour (composite 12728 on dark green felt: 37 of 40 tiles and 19 phantoms
    at 0.15, whole at 0.3). At 0.45, as good on the held-out sets, composite 2605 of
    dim wood with wide gaps loses a tile and a small map gains a phantom."""
    inlier_frac: float = 0.22
    """A centre fits a lattice cell when it lies within this fraction of the radius."""
    ransac_iterations: int = 300
    hexagon_starts: bool = True
    """With three or more lone hexagons and no period in the seams, the lattice their own
    corners span is a start too (``lattice.hexagon_start``)."""
    outline_aspects: tuple[float, ...] = (1.0, 0.86, 0.72)
    """Vertical squash factors tried (a camera tilted up to ~45 degrees)."""
    outline_angles: tuple[float, ...] = (-3.0, 0.0, 3.0)
    """Rotations (degrees) tried around the silhouette's estimated rotation."""
    outline_scales: tuple[float, ...] = (0.86, 1.0, 1.14)
    """Tile sizes tried, as factors of the silhouette's estimated radius."""
    outline_grid_steps: int = 8
    local_angle_step: float = 5.0
    """Rotation step (degrees) of the local lattice search near the map's middle."""
    local_scales: tuple[float, ...] = (0.5, 0.6, 0.72, 0.84, 0.96, 1.1, 1.25)
    """Tile sizes tried near the middle, as factors of the silhouette's estimate."""
    local_offset_steps: int = 6
    """Offsets tried per lattice axis when aligning the lattice to the silhouette."""
    outline_starts: int = 2
    """How many of the best distinct alignments of each search are refined."""
    snap_search_frac: float = 0.35
    """Each cell's outline is searched this far (fraction of radius) around its guess."""
    snap_search_wide: float = 0.5
    """The best lattice's start is grown again searching this far (0: not at all): tiles
    laid by hand drift from one homography more than ``snap_search_frac`` allows. Of
    the lattices placed (``placed_candidates``, this one), the one whose tiles' own
    outlines agree best with the seams wins (the median ``lattice.CellFits.agreement``
    of its tiles)."""
    wide_candidates: int = 2
    """How many of the placed lattices (best ``fit_quality`` first) have their starts
    grown again with ``snap_search_wide``: where the silhouette is broken (glare, a
    shadow) or the map tilts steeply, the best by the silhouette may stop half a cell
    off in the far part of the map while a runner-up grows onto every tile."""
    finer_below_cells: int = 10
    """A map read as fewer cells than this, or whose period is ``lattice.Period.coarse``,
    tries the finer lattices whose coarser sublattice its period may be
    (``scan._finer``); 0: never."""
    refit_placed: bool = True
    """The chosen layout's lattice is refitted to the seams over every tile placed and
    the map placed again; the tiles' outlines judge which placement stands
    (``scan._refitted``). Off: never."""
    refit_poor_more: int = 2
    """When the chosen placement, refitted, still fits poorly (its median agreement under
    ``period_weak_agreement``), or a lattice grown coarser was placed (``coarser_rival``),
    this many more placements (the best fitting first) are refitted, and the tiles'
    outlines judge among them all. 0: none."""
    fuller_min_extra: int = 3
    """A placement of the map with at least this many more tiles than the one whose
    tiles fit best wins when it fits within ``fuller_margin`` of it (the median tile's
    agreement) and its further tiles fit at least ``fuller_extra_share`` of that
    (``scan._best_placed``): a part of the map in shadow or drifted from one homography
    is placed by some lattices only. 0: the best fit always wins."""
    fuller_margin: float = 0.1
    fuller_extra_share: float = 0.6
    placed_candidates: int = 2
    """How many of the lattices grown from the starts, best ``fit_quality`` first, have
    their cells placed and judged by their tiles' own outlines (with the wider growth
    of the best ``wide_candidates``): the silhouette's fit errs where it is broken or
    takes in clutter."""
    snap_steps: int = 9
    snap_reach: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 99, 99, 99)
    """Lattice distance from the middle cell of the cells used in each growth round."""
    snap_scales: tuple[float, ...] = (0.94, 1.0, 1.06)
    """Scales tried for each cell's outline around the lattice's (``lattice.snap_cells``)."""
    snap_min_gain: float = 0.04
    """A cell's outline moves onto its own tile only when the boundary score gains this
    much (``lattice.snap_cells``)."""
    snap_ransac_frac: float = 0.12
    """RANSAC reprojection threshold of the refined homography, fraction of radius."""
    occupancy_min: float = 0.6
    """A lattice cell holds a tile when the foreground covers this much of its hexagon."""
    occupancy_rescue_min: float = 0.3
    """A cell covered less than ``occupancy_min`` but this much still holds a tile when it
    touches an occupied cell and its art is not bare table (a tile in shadow)."""
    rescue_texture_frac: float = 0.5
    """...its art as busy (mean |Laplacian|) as this fraction of the map's median tile."""
    grow_by_art: bool = True
    """Free cells next to the map join it when they show a tile, whatever the
    silhouette (``scan._grown_cells``): texture at least ``grow_texture_frac`` of the
    map's median cell's, neither flat nor paper-white, a share of game colours at least
    ``grow_share_frac`` of the median cell's, and colours whose mean log odds of tile
    over table (``background.ColourOdds``) reach ``grow_log_odds_min``; at most
    ``grow_max_frac`` times as many cells as the silhouette gave."""
    grow_dim_log_odds_min: float = 1.5
    """A cell flat as photographed but not as if the photo had the standard exposure
    (``scan._exposure_gain``; dim light flattens tiles and table alike) joins only when
    its colours are clearly the tiles': mean log odds at least this (the table cells so
    flat near 200 maps measured 0-1.5 but for two, the tiles 0.3-6.8). Above 100: never."""
    grow_shaded_log_odds_min: float = 2.5
    """A cell below ``grow_texture_frac`` of the map's texture may still join when its
    texture scaled by the map's median lightness over its own reaches it (a shadow
    across part of the map dims a tile's texture with its light), and then only with
    mean log odds of at least this: the table cells that pass so measured 0.3-2.0
    (composite 9034's, taken at 1.5, moved the lattice its tiles refit), the tiles
    2.7-6.1. Above 100: never."""
    grow_village_log_odds_min: float = 2.5
    """A cell with less than ``grow_share_frac`` of the game's colours may still join
    when it shows roofs (``grow_village_roof_min``) and its colours are clearly the
    tiles': mean log odds at least this (the shaded cells' bar). A tile all village
    (cobbles and houses: VVVVVV, TTVVVV, VVVVSS in the catalogue) shows no meadow,
    forest or grain. Without the roofs, plain wood beside a map measured up to 3.0 and
    the dark squares of a gingham cloth the silhouette took in up to 5.6, the village
    tile of render 10715 in dim light 4.4. Above 100: never."""
    grow_village_roof_min: float = 0.05
    """...and roofs (pixel class ``roof``) over at least this share of the cell: an
    all-village tile shows several houses (10 % of render 10715's in dim light)."""
    grow_seam_min: float = 0.2
    """A cell beside the map that fails the colour tests may still join when every side
    it shows to the table (at least ``grow_seam_sides_min``) is a tile's edge: the
    boundary map's oriented score (``lattice.oriented_score``, beyond the silhouette
    too, scaled as inside it) averaged along each such side reaches this on all of
    them. A tile has its own cardboard edge all round; table beside a map, a cloth's
    checks or a pad's straight edge line up with one side at most. Measured on 6892
    judgements of the free neighbours of 80 photos (wood, a gingham cloth, a play
    mat's edge, a score pad among them): table at most 0.16 (wood, two sides; the
    gingham 0.12); the grey village tiles the colour tests refused 0.15-0.47. 0: never."""
    grow_seam_sides_min: int = 2
    """...showing at least this many sides to the table (a free cell the map
    surrounds on five sides shows its one side as any cell would)."""
    grow_share_frac: float = 0.15
    grow_texture_frac: float = 0.6
    grow_log_odds_min: float = 0.0
    grow_max_frac: float = 3.0
    cell_shift_frac: float = 0.05
    """Each tile's own shift from the lattice's local drift is searched this far
    (fraction of its radius; ``lattice.fit_cells``)..."""
    cell_turns: tuple[float, ...] = (-4.0, -2.0, 0.0, 2.0, 4.0)
    """...with these turns (degrees)..."""
    cell_scales: tuple[float, ...] = (0.94, 0.97, 1.0, 1.03, 1.06)
    """...scored at these scales of the lattice's cell (the outline may fit a rim's
    inner or outer edge; the cell keeps the lattice's size)."""
    apart_seam_frac: float = 0.3
    """A group apart from the map shows a seam when it is at least this fraction of the
    map's own median seam (or ``inner_seam_min``; ``scan._seamless_groups``)."""
    rescue_coarser: bool = True
    """When every lattice found is a whole factor finer than the lone hexagons show,
    grow one of their size from it (``scan._coarser``) before settling for the finer."""
    coarser_rival: bool = True
    """When a lattice a whole factor finer than the lone hexagons show outscores the best
    of their size, one of their size grown from it (``scan._coarser``) is placed too."""
    lone_rival_min: float = 0.15
    """When three or more lone hexagons show a tile size this much (a factor either way)
    from the seams' period's, and not as a sublattice's, the map is also fitted as if the
    seams showed no period and the tiles' outlines choose (``scan._period_disowned``: wood
    grain or a patterned cloth may repeat more strongly than the seams). 0: never."""
    period_cells_max: float = 2.0
    """The lattice at the seams' period covering more than this many times
    ``find.max_map_tiles`` cells is a texture's (a cloth's fine pattern): the map is
    fitted without the period alone (``period_retry_without``), its placements skipped
    (render 22118: 547-557 cells at the period, a fifth of the tiles' size, placed four
    times and refitted, took the photo past the time limit)."""
    period_weak_agreement: float = 0.25
    """When the tiles placed at the seams' period fit their own outlines this poorly
    (``scan._Placed.agreement``, the median tile's), the period may be a texture's that
    repeats finer than the tiles: the map is also fitted as if the seams showed none,
    and the outlines choose. Maps read right measured 0.41-0.95 (60 photos); composite
    15521, read at a period four times finer than its tiles, 0.11. A map still placed
    below it is said to fit poorly (``Scan.poor_fit``, a warning the review shows).
    0: never."""
    period_retry_without: bool = True
    """When no lattice of the seams' period covers a cell, the period was the table's
    (a checkerboard cloth the glare lightens into the silhouette): the map is fitted
    again as if the seams showed none."""
    period_table_share: float = 2.0
    """The seams' period may be the table's (a checkerboard or gingham cloth, part of it
    lightened into the silhouette by glare) when a band of the table around the map
    repeats it with at least this share of its contrast inside the map
    (``lattice.table_repeats``): the map is also fitted as if the seams showed none,
    and the tiles' outlines choose (``scan._Placed.agreement``). Over 348 photos plain
    tables measured up to 1.0; cloths 1.3-6.5 where the period was the tiles' (the
    checks score at any lattice whose points fall near theirs), 3.8-6.8 where it was
    the cloth's. 0: never."""
    period_table_band: tuple[float, float] = (0.3, 4.0)
    """The table around the map, for ``period_table_share``: from this many tile radii
    (the period's) outside the silhouette to that many..."""
    period_table_radius_px: float = 24.0
    """...measured at the scale (at most ``period_scale``) that makes the period's tile
    radius this many pixels: the band is wider than the map."""
    period_from_whole: bool = True
    """When the seams inside the map's tile-sized pieces show no period, look for it in
    the whole foreground (dim light breaks a map into pieces smaller than a tile)."""
    period_skips_outline: bool = True
    """With the seams' period known and lattices fitted from it, the silhouette's outline
    search (``lattice.fit_outline``) is not tried as another start."""
    inner_seam_min: float = 0.1
    """A lone hexagonal outline is a map only when the sides its lattice's cells share
    show seams this strong (median ``lattice.side_evidence``; maps measured 0.2-0.5,
    the art inside one tile about 0)."""
    period_scale: float = 0.5
    """The seams' periodicity (``lattice.seam_period``) is measured at this fraction of
    the working resolution."""
    period_saturation: float = 60.0
    """Edges count fully where their surroundings are at least this saturated (HSV),
    less on grey: tile art is coloured, a patterned cloth in the silhouette is not."""
    period_radius_range: tuple[float, float] = (0.009, 0.16)
    """Tile radii it considers, as fractions of the working image's long side."""
    period_peaks: int = 30
    """Autocorrelation peaks paired into candidate lattices."""
    period_rival_peaks: int = 80
    """The strongest peaks paired again for a rival period (of the same
    autocorrelation): on a sparse map or a patterned cloth the tiles' own neighbour
    vectors may rank below ``period_peaks`` (57th-62nd measured) and every candidate
    lattice is a multiple of the tiles' size. At most ``period_peaks``: no rival."""
    period_rival_finer: float = 1.3
    """The rival period's map is placed (and the tiles' outlines judge,
    ``scan._Placed.agreement``) when its cells' radius is this many times smaller than
    the period's."""
    period_min_contrast: float = 0.04
    """Below this contrast nothing repeats: the tile size comes from the outline."""
    period_weak_contrast: float = 0.02
    """Below ``period_min_contrast`` but above this, the seams' periods (dim light, a dark
    table; ``lattice.faint_periods``) are more candidates: lattices fitted from each are
    placed beside the others and the tiles' own outlines judge
    (``scan._Placed.agreement``). 1 or more: never."""
    period_faint_count: int = 2
    """At most this many faint periods of distinct sizes are tried..."""
    period_faint_share: float = 0.6
    """...each scoring at least ``period_weak_contrast`` or this share of the best."""
    period_local_scales: tuple[float, ...] = (0.92, 1.0, 1.08)
    """With the period known, the local search near the middle tries only these sizes."""
    period_fine_share: float = 0.8
    """A finer lattice holding the best one's translations wins when it scores at least
    this share of the best."""
    period_derived_finer: bool = True
    """The finer lattices of which the chosen period is a coarser sublattice (sqrt 3, 2,
    sqrt 7 or 3 times finer), at their exact fractions of its vectors: the finest whose
    own points repeat the seams (``period_derived_share``) wins
    (``lattice._finest_derived``). Off: only the peaks' own pairs compete."""
    period_derived_share: float = 0.5
    """A finer lattice's own points (not the period's translations) repeat the seams when
    their mean autocorrelation reaches this share of the mean at the period's."""
    period_holds_slack: float = 0.06
    """A finer lattice holds a coarser one's translations when their coordinates in it
    lie within this many units per unit of the largest coordinate (at least 0.12) of
    whole numbers: the peaks' error grows with the coordinates (the sqrt-7 sublattice's
    vectors are 1-3 fine ones in each direction)."""


@dataclass(frozen=True)
class RectifyConfig:
    """The standard tile images cells are warped to (``rectify``)."""

    radius: int = 64
    """Circumradius in pixels of the standard flat-topped hexagon tiles are warped to."""
    detail_radius: int = 128
    """Task tiles are rectified again at this radius to read marker digits."""


@dataclass(frozen=True)
class TerrainConfig:
    """Reading each edge's terrain from the rectified tile (``edges``)."""

    band_inner_frac: float = 0.10
    """Edge band starts this far inside the edge (skips the cardboard rim), fraction of R."""
    band_outer_frac: float = 0.34
    """Edge band ends this far inside the edge."""
    band_length_frac: float = 0.80
    """Central part of the edge length that the band covers."""
    band_midpoint_weight: float = 0.7
    """Colour fractions weigh a band's pixels less towards its ends by this much
    (``edges.band_weights``): a neighbouring edge's field reaches in at the corners."""
    band_rim_weight: float = 0.3
    """...and more towards the rim (``1 +`` this) than inside (``1 -`` this)."""
    learned: bool = True
    """Edges are read by the learned model (``terrain_model``, trained by
    ``synth/train_terrain``); off: by the colour thresholds below (``edges``)."""
    colour_weight: float = 0.5
    """With ``learned``, the colour thresholds' reading joins the model's as a second
    expert: an edge's log probabilities are the model's plus this times the colour
    reading's (``scan._edge_probabilities``; 0: the model alone). Held out by tile, the
    model alone reads fewer edges of a tile it never saw than the thresholds do (93.7
    against 97.0 % clean), the thresholds fail under glare (61 %) where the model does
    not (91 %); the two together read 95.9 % over every condition and the renders of
    seeds held out (0.25: 95.7, 1.0: 94.6; the model alone 95.0)."""
    remove_glare: bool = True
    """Divide the white veil of glare out of each tile before reading it
    (``edges.veils``)."""
    exposure_floor: float = 60.0
    """Cells whose median grey is below this are brightened to it before anything is
    read (``scan.prepare``; 0: never): in a photo this dim the colours' hue and
    saturation drown in the sensor's and the JPEG's noise. 60 is about the grey of the
    real tile photos the terrain model learned from (77-88) 1 EV darker; its training
    went down to 1.5 EV darker."""
    exposure_lift_max: float = 3.0
    """...by a gain of at most this."""
    balance_on_tiles: bool = True
    """White balance, glare and meadow measured again on the cells that hold tiles once
    the others are dropped (``scan.read_tiles``): a bright mat or cloth the lattice
    reached tinted every tile's reading."""
    track_min_frac: float = 0.30
    """Crossing strength of dark track pixels at which an edge is typically a track."""
    stream_min_frac: float = 0.28
    """Crossing strength of blue pixels at which an edge is typically a stream."""
    village_min_frac: float = 0.22
    """Fraction of roof red (+0.6 x pale cobbles) typical of a village edge band."""
    forest_min_frac: float = 0.30
    grain_min_frac: float = 0.30
    meadow_min_frac: float = 0.55
    sharpness: float = 3.0
    """Letter probabilities are proportional to (evidence + 0.08) ** sharpness."""
    min_terrain_fraction: float = 0.35
    """Below this median share of game colours on the found tiles, refuse the photo."""


@dataclass(frozen=True)
class DecodeConfig:
    """Decoding codes: the catalogue prior and neighbour consistency (``prior``,
    ``consistency``)."""

    use_catalogue: bool = True
    off_catalogue_prior: float = 0.02
    """Prior probability that a tile is not (a rotation of) any catalogue tile."""
    use_inventory: bool = True
    """Decode all tiles of a photo together, each physical tile of the catalogue used at
    most once (``inventory.assign``); off: each tile alone."""
    sections: tuple[str, ...] = ()
    """The catalogue sections the game plays with (``rules.box.in_play``: the base box's
    ``landscape`` and ``task``, and each box the campaign has unlocked): tiles are read
    among those only. Empty: the game is not known, every section may lie on the table."""
    resolve_mismatches: bool = True
    """Re-read both tiles of a track/stream mismatch under each consistent option and
    keep the best (``consistency.resolve``); off: only flag the mismatches."""
    resolve_max_cost: float = 4.0
    """...unless the consistent reading is this much less likely (natural log) than
    the two tiles' own readings: then the mismatch is real or unclear, and flagged."""
    calibrated_doubt: bool = True
    """Doubtful edges are those the fitted calibrator (``doubt``, ``models/doubt.json``)
    finds likely wrong; off: the hand-set ``doubt_below`` rule."""
    doubt_below: float = 0.95
    """With ``calibrated_doubt`` off: an edge read with less confidence than this (or
    overruled by the inventory) is ``doubtful`` (the review highlights it). Chosen
    with ``evaluate --doubt-curve`` on the tuning sets (composite seed 300 x3, rendered
    300 x2, loose real, composite 700 x3 with shadow 0.4 and lighting 0.18): the highest
    level flagging at most 10 % of edges on every one."""
    doubtful_correction: float = 0.9
    """An edge that neighbour consistency changed with less confidence than this stays
    in the tile's ``mismatch`` list (the photo showed a track/stream mismatch there)."""


@dataclass(frozen=True)
class TasksConfig:
    """Task tiles: the speech bubble and its icon (``tasks``)."""

    bubble_min_area_frac: float = 0.012
    """Speech bubble area, fraction of the rectified hexagon area (min and max)."""
    bubble_max_area_frac: float = 0.12
    bubble_white_value: int = 200
    """Pixels this bright (and unsaturated) are bubble white in any light..."""
    bubble_white_factor: float = 1.45
    """...and so are pixels this many times brighter than the tile's meadow."""
    bubble_white_saturation: int = 70
    bubble_cut_frac: float = 0.10
    """When no bubble stands alone, the white is opened with a disc this wide (fraction
    of the radius) to cut it from thin pale banks and rails it touches."""
    drop_max_saturation: int = 100
    """The stream task's pale blue drop (``tasks._find_water_drop``): pixels of blue hue
    less saturated than this..."""
    drop_value_frac: float = 0.75
    """...and at least this fraction as bright as bubble white."""
    drop_min_area_frac: float = 0.025
    """A drop bubble is at least this big (fraction of the hexagon; bubbles are about
    0.04), which leaves out pale water, flags and glints..."""
    drop_min_icon_frac: float = 0.15
    """...and its pale blue icon covers at least this fraction of its box."""
    drop_margin_frac: float = 0.12
    """...and its box keeps this far (fraction of the radius) from the tile's rim."""
    bubble_art_margin: float = 3.0
    """A speech bubble seen without a marker gives way when the tile's art is this much
    likelier (natural log, ``prior.decode``'s scores) as the best landscape tile than as
    the best task tile: the tile inventory says which (a pale patch of cobbles or a
    pennant's outline can pass for the bubble; most such tiles' codes are in no task
    section at all). Over renders 15400 and composites 15500 (x30 each) the bubbles read
    without a marker on task tiles measured -2.6 or less, those on landscape tiles 4.4 or
    more (8.9 where the code is no task tile's). inf: never."""
    task_type_trust: float = 3.0
    """A task tile whose code lacks its icon's terrain takes the best code with that
    terrain when this is at most this much less likely (natural log); otherwise the
    task type gives way (``tasks.reconcile_task``)."""


@dataclass(frozen=True)
class MarkersConfig:
    """Task markers and their digits (``markers``)."""

    use_tesseract: bool = True
    face_contrast_min: float = 25.0
    """A token's light face must stand out from the ring around it by this much (HSV
    value minus 0.8 x saturation; its middle, where the digit is, does not count)."""
    ink_chroma_max: float = 8.0
    """A digit's ink is grey-black: a median Lab chroma above this is a coloured icon."""
    digit_min: float = 0.86
    """Least correlation of the ink with its best digit template (at any turn)."""
    prefilter_min: float = 60.0
    """A tile without a visible speech bubble is searched for a marker only when a
    coarse look finds a face this clear (see ``marker_face_contrast_min``)..."""
    alone_min: float = 0.92
    """...and the marker is kept only with a digit correlation this high."""
    margin_min: float = 0.01
    """A digit whose template beats every other digit by less asks tesseract too."""


@dataclass(frozen=True)
class FlagsConfig:
    """Flags (pennants) on landscape tiles (``flags``)."""

    saturation_min: int = 120
    """Pennant pixels are at least this saturated (HSV)."""
    value_min: int = 150
    """Red and yellow pennants are at least this bright (median HSV value)."""
    min_area_frac: float = 0.004
    """Pennant area, fraction of the rectified hexagon's area (min and max)."""
    max_area_frac: float = 0.012
    outline_tophat: float = 40.0
    """Outline pixels are this much lighter (HSV value minus saturation) than a 5 x 5
    opening of the tile leaves: a thin light line."""
    cut_tophat: float = 30.0
    """Pixels this much lighter than the opening are outline, not pennant."""
    outline_min: float = 0.5
    """Least share of a pennant's surrounding ring that is pale outline."""
    fill_max: float = 0.8
    """A pennant (a triangle) fills at most this share of its least bounding rectangle..."""
    fill_soft: float = 0.72
    """...and one filling more than this (blurred round) has its confidence scaled by
    ``full_factor``."""
    full_factor: float = 0.7
    flag_doubt_below: float = 0.75
    """Hand-set decision (``learned_flags`` off): a flag found with less confidence than
    this (``Flag.confidence``) is shown as doubtful (``ScannedTile.flag_doubtful``)."""
    confidence_min: float = 0.45
    """Candidates with less confidence are no flag at all (between this and
    ``flag_doubt_below``: a doubtful flag)."""
    learned_flags: bool = True
    """The learned decision (``flag_reading``, ``models/flags.json``) says which flag a
    tile carries and which need checking; off: the hand-set ``confidence`` with the
    thresholds above (``flags.find_flag``)."""
    triangle_low: float = 0.7
    """Shape evidence: the blob's area over its least enclosing triangle's, 0 at this..."""
    triangle_high: float = 0.9
    """...1 at this (a drawn pennant: about 1; roofs, fields, tree clumps: 0.5..0.7)."""
    outline_full: float = 0.7
    """Outline evidence is full when this share of the ring is a light outline."""
    shape_weight: float = 0.6
    """Weight of the shape evidence in the confidence (the outline has the rest)."""
    dull_factor: float = 0.8
    """Confidence factor of a red or yellow blob duller than ``value_min``."""
    split_factor: float = 0.85
    """Confidence factor of a blob freed from art of its colour by erosion."""
    split_steps: int = 4
    """Erosions (3 x 3 cross) tried to free a pennant from art of its colour."""


@dataclass(frozen=True)
class ScanConfig:
    """The scanner's settings: one sub-config per stage (see the module docstring)."""

    io: IoConfig = field(default_factory=IoConfig)
    background: BackgroundConfig = field(default_factory=BackgroundConfig)
    find: FindConfig = field(default_factory=FindConfig)
    lattice: LatticeConfig = field(default_factory=LatticeConfig)
    rectify: RectifyConfig = field(default_factory=RectifyConfig)
    terrain: TerrainConfig = field(default_factory=TerrainConfig)
    decode: DecodeConfig = field(default_factory=DecodeConfig)
    tasks: TasksConfig = field(default_factory=TasksConfig)
    markers: MarkersConfig = field(default_factory=MarkersConfig)
    flags: FlagsConfig = field(default_factory=FlagsConfig)

    def tuned(self, **changes: Any) -> ScanConfig:
        """A copy with the named settings changed, wherever their stage is.

        Raises ``TypeError`` naming a setting no stage has.
        """
        stages: dict[str, dict[str, Any]] = {}
        for name, value in changes.items():
            stage = _STAGE_OF.get(name)
            if stage is None:
                raise TypeError(f"ScanConfig has no setting {name!r}")
            stages.setdefault(stage, {})[name] = value
        return dataclasses.replace(self, **{
            stage: dataclasses.replace(getattr(self, stage), **values)
            for stage, values in stages.items()})


_STAGE_OF: dict[str, str] = {
    f.name: stage.name
    for stage in dataclasses.fields(ScanConfig)
    for f in dataclasses.fields(stage.default_factory())  # type: ignore[misc]
}
"""The stage holding each setting (names are unique across the stages)."""

DEFAULT_CONFIG = ScanConfig()
