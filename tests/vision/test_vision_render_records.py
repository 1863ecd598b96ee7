"""Records for the renderer: reading placements and drawing maps from a pool of tiles."""

from __future__ import annotations

from companion.rules import DIRECTIONS, Hex, canonical, opposite, replay_text
from companion.vision.synth.render_records import (
    laid_tiles,
    legal_random_record,
    pool_record,
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
