"""Tiles are read among the catalogue sections the game plays with (``decode.sections``,
``scan.in_play``): a tile of a box the campaign has not unlocked is not on its map."""

from __future__ import annotations

import importlib

import numpy as np

from companion.rules import canonical, catalogue
from companion.vision import ScanConfig
from companion.vision.edges import LETTERS
from companion.vision.inventory import assign
from companion.vision.prior import decode
from companion.vision.synth.evaluate import scan_config

scan_mod = importlib.import_module("companion.vision.scan")
BASE = ScanConfig().tuned(sections=("landscape", "task"))


def _section_of(code: str) -> str:
    return next(t.section for t in catalogue() if canonical(t.code) == canonical(code))


def test_the_sections_of_each_kind_the_game_plays_with() -> None:
    assert scan_mod.in_play(scan_mod.TASK_SECTIONS, BASE) == ("task",)
    assert scan_mod.in_play(scan_mod.LANDSCAPE_SECTIONS, BASE) == ("landscape",)
    box1 = ScanConfig().tuned(sections=("landscape", "task", "box-1-task"))
    assert scan_mod.in_play(scan_mod.TASK_SECTIONS, box1) == ("task", "box-1-task")
    assert scan_mod.in_play(scan_mod.LANDSCAPE_SECTIONS, box1) == ("landscape",)
    # a game not known: every section
    assert scan_mod.in_play(scan_mod.TASK_SECTIONS, ScanConfig()) == scan_mod.TASK_SECTIONS


def test_a_misreading_as_a_locked_box_tile_goes_to_the_base_tile() -> None:
    """The real task tile GMMMMM (a grain field at one edge, a hay bale beside it), read
    by a model that never saw it, leans to Box 1's GGMMVM: a second grain edge and the
    bale taken for a village. In a game without Box 1 the base tile is read."""
    assert _section_of("GGMMVM") == "box-1-task" and _section_of("GMMMMM") == "task"
    p = np.full((6, 6), 0.01)
    for e, letter in enumerate("GMMMMM"):
        p[e, LETTERS.index(letter)] = 0.95
    p[1, LETTERS.index("G")], p[1, LETTERS.index("M")] = 0.55, 0.41
    p[4, LETTERS.index("V")], p[4, LETTERS.index("M")] = 0.52, 0.44
    p /= p.sum(axis=1, keepdims=True)
    every = decode(p, 0.02, scan_mod.in_play(scan_mod.TASK_SECTIONS, ScanConfig()))[0]
    base = decode(p, 0.02, scan_mod.in_play(scan_mod.TASK_SECTIONS, BASE))[0]
    assert canonical(every) == canonical("GGMMVM")
    assert canonical(base) == canonical("GMMMMM")
    # jointly too: the inventory offers only the sections in play
    [j] = assign([p], [scan_mod.in_play(scan_mod.TASK_SECTIONS, BASE)], 0.02)
    assert j is not None and catalogue()[j].section == "task"


def test_the_evaluation_takes_sections_as_a_comma_separated_setting() -> None:
    assert scan_config(["sections=landscape,task"]).decode.sections == ("landscape", "task")
    assert scan_config([]).decode.sections == ()


def test_a_locked_box_tile_the_photo_shows_plainly_is_still_read() -> None:
    """Sections move the prior, they hide nothing: a Box 1 tile read surely in a base
    game stays what the photo shows, off the catalogue (and the rules flag it), as any
    off-catalogue reading does only on overwhelming evidence."""
    p = np.full((6, 6), 0.01 / 5)
    for e, letter in enumerate("GGMMVM"):
        p[e, LETTERS.index(letter)] = 0.99
    tasks = scan_mod.in_play(scan_mod.TASK_SECTIONS, BASE)
    assert decode(p, 0.02, tasks)[0] == "GGMMVM"
    assert assign([p], [tasks], 0.02) == [None]
