"""Games: records and sheets on a real file, versions, stale edits."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.storage import NotFoundError, StaleEditError, StorageError, open_db
from companion.storage.games import create_game, finish_game, get_game, list_games, update_game

RECORD = "game: board-game\n0 0 GGGGGG task=grain/4\n1 -1 MFFMGG flag=forest\n"


def test_game_round_trip_on_a_real_file(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    db = open_db(path)
    gid = create_game(db, RECORD, sheet={"total": 0})
    db.close()
    game = get_game(open_db(path), gid)
    assert game["record"] == RECORD and game["sheet"] == {"total": 0}
    assert game["status"] == "in_progress" and game["version"] == 1
    assert game["campaign_id"] is None and game["created"] == game["updated"]


def test_update_and_finish_move_the_version(tmp_path: Path) -> None:
    db = open_db(tmp_path / "g.db")
    gid = create_game(db, RECORD)
    v2 = update_game(db, gid, 1, record=RECORD + "1 0 SMFSMM\n")
    assert v2 == 2 and get_game(db, gid)["record"].endswith("1 0 SMFSMM\n")
    v3 = finish_game(db, gid, v2, 47, sheet={"total": 47})
    game = get_game(db, gid)
    assert (game["version"], game["status"], game["score"], game["sheet"]) == (
        v3, "finished", 47, {"total": 47})
    assert game["number"] is None  # not a campaign game
    with pytest.raises(StorageError, match="already finished"):
        finish_game(db, gid, v3, 50)
    assert [g["id"] for g in list_games(db)] == [gid]


def test_stale_edit_between_two_connections(tmp_path: Path) -> None:
    path = tmp_path / "shared.db"
    alice, bob = open_db(path), open_db(path)
    gid = create_game(alice, RECORD)
    seen_by_alice = get_game(alice, gid)["version"]
    seen_by_bob = get_game(bob, gid)["version"]
    update_game(alice, gid, seen_by_alice, record=RECORD + "1 0 SMFSMM\n")
    with pytest.raises(StaleEditError) as err:
        update_game(bob, gid, seen_by_bob, record=RECORD + "0 1 VVMTTM\n")
    assert "game 1 was changed by someone else (you edited version 1, it is now version 2)" \
        in str(err.value)
    assert get_game(open_db(path), gid)["record"].endswith("1 0 SMFSMM\n")  # Alice's kept


def test_unknown_game_and_negative_score() -> None:
    db = open_db(":memory:")
    with pytest.raises(NotFoundError, match="no game 9"):
        update_game(db, 9, 1, record=RECORD)
    gid = create_game(db, RECORD)
    with pytest.raises(ValueError, match="negative"):
        finish_game(db, gid, 1, -3)
    assert get_game(db, gid)["status"] == "in_progress"
