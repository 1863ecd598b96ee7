"""Records for the renderer: reading placements and drawing maps from a pool of tiles."""

from __future__ import annotations

from companion.rules import DIRECTIONS, Hex, canonical, opposite, replay_text
from companion.vision.synth.render import render_record
from companion.vision.synth.render_records import (
    HOLE_NEIGHBOURS_MIN,
    LaidTile,
    _in_one_piece,
    laid_tiles,
    legal_random_record,
    pool_record,
    with_holes,
)


def test_laid_tiles_reads_task_marker_and_flag():
    tiles = laid_tiles("game: board-game\n0 0 GGGGGG task=grain/4\n1 -1 MFFMGG flag=forest\n")
    assert tiles[0].at == Hex(0, 0) and tiles[0].task_type == "grain" and tiles[0].marker == 4
    assert tiles[1].flag == "forest" and tiles[1].code == "MFFMGG"


def test_pool_generator_lays_connected_matching_maps_from_its_pool():
    pool = [("landscape", c, None) for c in ("GGMTTM", "SVMSFM", "MFFFFF", "VVVVSS", "GGMVMM",
                                             "MFMFMF", "GTVMTM")] + [("task", "FFFFSS", "stream")]
    text = pool_record(4, landscape=8, pool=pool)
    tiles = laid_tiles(text)
    board = {t.at: t.code for t in tiles}
    assert len(board) == len(tiles) >= 6
    assert sorted(canonical(c) for c in board.values()) <= sorted(canonical(c) for _, c, _ in pool)
    assert [t.task_type for t in tiles if t.task_type] == ["stream"]  # the pool's own type
    for at, code in board.items():
        neighbours = 0
        for e, d in enumerate(DIRECTIONS):
            other = board.get(Hex(at.q + d.q, at.r + d.r))
            if other is None:
                continue
            neighbours += 1
            a, b = code[e], other[opposite(e)]
            assert not ((a in "TS" or b in "TS") and a != b)
        assert neighbours or len(board) == 1
    assert pool_record(4, 8, pool) == text


def test_legal_records_replay_in_the_rules_engine():
    for seed in range(3):
        text = legal_random_record(seed, landscape=20)
        assert len(replay_text(text).board) == len(laid_tiles(text)) >= 15


def _disc(rings: int) -> list[LaidTile]:
    cells = [Hex(q, r) for q in range(-rings, rings + 1) for r in range(-rings, rings + 1)
             if abs(q + r) <= rings]
    return [LaidTile(c, "GGGGGG", None, None, None) for c in cells]


def test_holes_leave_out_tiles_deep_inside_the_map_and_nothing_else():
    tiles = _disc(2)  # 19 tiles: 7 with six neighbours, 6 more with four
    cells = {t.at for t in tiles}
    inner = [t for t in tiles if sum(n in cells for n in t.at.neighbors()) >= HOLE_NEIGHBOURS_MIN]
    kept = with_holes(tiles, 0.25, seed=3)
    gone = [t for t in tiles if t not in kept]
    assert len(inner) == 13 and len(gone) == round(0.25 * len(inner)) == 3
    assert all(t in inner for t in gone) and all(t in tiles for t in kept)
    assert with_holes(tiles, 0.25, seed=3) == kept  # drawn from the seed
    assert with_holes(tiles, 0.0, seed=3) == tiles


def test_holes_never_cut_the_map_in_two():
    # (0, 0) has four neighbours and is the only way between the two pairs beside it.
    cells = [Hex(0, 0), Hex(-1, 0), Hex(-1, 1), Hex(1, 0), Hex(1, -1)]
    bridge = [LaidTile(c, "GGGGGG", None, None, None) for c in cells]
    assert sum(n in set(cells) for n in Hex(0, 0).neighbors()) == HOLE_NEIGHBOURS_MIN
    assert with_holes(bridge, 0.99, seed=2) == bridge
    assert _in_one_piece(set(cells)) and not _in_one_piece(set(cells) - {Hex(0, 0)})
    assert _in_one_piece({t.at for t in _disc(2)} - {Hex(0, 0)})  # a ring round a hole
    for seed in range(5):  # a bigger map: whatever is left out, the rest is one piece
        kept = {t.at for t in with_holes(_disc(3), 0.99, seed)}
        assert len(kept) < 37 and _in_one_piece(kept)


def test_a_map_with_no_tile_that_far_inside_keeps_every_tile():
    row = [LaidTile(Hex(q, 0), "GGGGGG", None, None, None) for q in range(6)]
    assert with_holes(row, 0.5, seed=1) == row
    assert len(with_holes(_disc(1), 0.01, seed=1)) == 6  # at least one hole when asked


def test_a_render_with_holes_shows_and_knows_fewer_tiles():
    text = "game: board-game\n" + "".join(f"{t.at.q} {t.at.r} GGGGGG\n" for t in _disc(1))
    whole = render_record(text, seed=5, size_px=(800, 600), jpeg_quality=None)
    holed = render_record(text, seed=5, size_px=(800, 600), jpeg_quality=None, holes=0.5)
    assert len(whole.tiles) == 7 and len(holed.tiles) == 6
    assert (0, 0) not in {tuple(t.at) for t in holed.tiles}  # the centre, the only inner tile
    assert not (holed.image == whole.image).all()
