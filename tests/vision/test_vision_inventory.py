"""Joint decoding over the tile inventory: each physical tile at most once."""

from __future__ import annotations

import numpy as np

from companion.rules import canonical, catalogue
from companion.vision.edges import LETTERS
from companion.vision.inventory import assign, free_candidates
from companion.vision.prior import decode

LAND = ("landscape", "box-2-landscape")


def _probs(code: str, p: float = 0.9) -> np.ndarray:
    out = np.full((6, 6), (1.0 - p) / 5)
    for e, letter in enumerate(code):
        out[e, LETTERS.index(letter)] = p
    return out


def _code_of(j: int | None) -> str | None:
    return None if j is None else canonical(catalogue()[j].code)


def test_the_catalogue_has_the_tiles_these_tests_use_once() -> None:
    count = {c: sum(canonical(t.code) == c for t in catalogue())
             for c in map(canonical, ("SVMSFM", "MSFMSG"))}
    assert set(count.values()) == {1}


def test_two_readings_of_one_physical_tile_share_it_out() -> None:
    """Both tiles look most like SVMSFM, which the box holds once; the second reads
    almost as well as MSFMSG (one edge: V or G) and takes that one instead."""
    first = _probs("SVMSFM", 0.95)
    second = _probs("SVMSFM", 0.7)
    second[1, LETTERS.index("G")] = 0.25  # edge 1: V or G
    alone = [decode(p, 0.02, LAND)[0] for p in (first, second)]
    assert [canonical(c) for c in alone] == [canonical("SVMSFM")] * 2  # each tile alone
    got = assign([first, second], [LAND, LAND], 0.02)
    assert [_code_of(j) for j in got] == [canonical("SVMSFM"), canonical("MSFMSG")]
    free = free_candidates(got, [LAND, LAND])
    codes = [decode(p, 0.02, LAND, cand=c)[0] for p, c in zip((first, second), free,
                                                              strict=True)]
    assert codes == ["SVMSFM", "SGMSFM"]


def test_an_off_catalogue_reading_needs_overwhelming_evidence() -> None:
    odd = "TTTTTT"  # no such tile
    assert all(canonical(t.code) != odd for t in catalogue())
    assert assign([_probs(odd, 0.999)], [LAND], 0.02) == [None]
    weak = assign([_probs(odd, 0.5)], [LAND], 0.02)
    assert weak[0] is not None  # a catalogue tile explains a weak reading better


def test_a_task_tile_comes_from_the_task_sections_only() -> None:
    task_codes = {canonical(t.code) for t in catalogue() if "task" in t.section}
    land_only = next(t.code for t in catalogue() if t.section == "landscape"
                     and canonical(t.code) not in task_codes)
    got = assign([_probs(land_only, 0.8)], [("task", "box-1-task")], 0.02)
    assert got[0] is None or "task" in catalogue()[got[0]].section


def test_edges_the_inventory_overruled_are_doubtful() -> None:
    import sys

    import companion.vision  # noqa: F401  (the module, not the scan function)
    from companion.rules import Hex
    from companion.vision.config import DEFAULT_CONFIG

    scan_module = sys.modules["companion.vision.scan"]
    sure = (0.99,) * 6
    plain = scan_module._scanned(Hex(0, 0), "SGMSFM", sure, {}, (0.0, 0.0), (), DEFAULT_CONFIG)
    assert plain.doubtful == ()
    moved = scan_module._scanned(Hex(0, 0), "SGMSFM", sure, {"overruled": (1,)}, (0.0, 0.0),
                                 (), DEFAULT_CONFIG)
    assert moved.doubtful == (1,)
