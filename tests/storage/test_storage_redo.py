"""The recorder's redo stack: saved with the record in one transaction, valid only for the
game version it was written for."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.storage import StaleEditError, open_db
from companion.storage.games import create_game, get_game, update_game
from companion.storage.redo import redo_stack, save_with_redo

RECORD = "game: board-game\n0 0 GGGGGG task=grain/4\n"


def test_the_stack_belongs_to_the_version_it_was_saved_with(tmp_path: Path) -> None:
    db = open_db(tmp_path / "r.db")
    gid = create_game(db, RECORD + "0 -1 MMMGMM\n")
    v2 = save_with_redo(db, gid, 1, RECORD, {"total": 0}, [(None, "0 -1 MMMGMM")])
    assert v2 == 2 and get_game(db, gid)["record"] == RECORD
    assert redo_stack(db, gid, v2) == [(None, "0 -1 MMMGMM")]
    assert redo_stack(db, gid, 1) == []
    v3 = update_game(db, gid, v2, record=RECORD + "1 -1 MGGMGG\n")  # a new placement
    assert redo_stack(db, gid, v3) == []


def test_a_stale_save_writes_neither_record_nor_stack(tmp_path: Path) -> None:
    db = open_db(tmp_path / "r.db")
    gid = create_game(db, RECORD)
    update_game(db, gid, 1, record=RECORD + "0 -1 MMMGMM\n")
    with pytest.raises(StaleEditError):
        save_with_redo(db, gid, 1, RECORD, None, [("red", "0 -1 MMMGMM")])
    game = get_game(db, gid)
    assert game["version"] == 2 and game["record"].endswith("0 -1 MMMGMM\n")
    assert redo_stack(db, gid, 1) == [] and redo_stack(db, gid, 2) == []


def test_no_stack_leaves_the_old_one_stale(tmp_path: Path) -> None:
    db = open_db(tmp_path / "r.db")
    gid = create_game(db, RECORD)
    v2 = save_with_redo(db, gid, 1, RECORD, None, [("red", "1 0 MMMMMG")])
    v3 = save_with_redo(db, gid, v2, RECORD, None, None)
    assert redo_stack(db, gid, v2) == [("red", "1 0 MMMMMG")]
    assert redo_stack(db, gid, v3) == []
