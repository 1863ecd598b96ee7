"""Owners and share links of games and campaigns, and what one browser sees."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.storage import campaigns as camp
from companion.storage import open_db
from companion.storage.games import create_game, get_game
from companion.storage.sharing import find_token, games_for, give_to, reissue

RECORD = "game: board-game\n0 0 GGGGGG task=grain/4\n"


def test_a_game_created_for_an_owner_gets_two_distinct_tokens(tmp_path: Path) -> None:
    db = open_db(tmp_path / "s.db")
    gid = create_game(db, RECORD, owner="ana")
    game = get_game(db, gid)
    assert game["owner"] == "ana"
    assert game["view_token"] and game["edit_token"] and game["view_token"] != game["edit_token"]
    assert find_token(db, "games", game["view_token"]) == (gid, "view", 0)
    assert find_token(db, "games", game["edit_token"]) == (gid, "edit", 0)
    assert find_token(db, "games", "no-such-token") is None
    assert find_token(db, "campaigns", game["edit_token"]) is None


def test_games_for_lists_owned_and_shared_games_only(tmp_path: Path) -> None:
    db = open_db(tmp_path / "s.db")
    mine = create_game(db, RECORD, owner="ana")
    shared = create_game(db, RECORD, owner="rui")
    create_game(db, RECORD, owner="rui")
    assert {g["id"] for g in games_for(db, "ana", [])} == {mine}
    assert {g["id"] for g in games_for(db, "ana", [shared])} == {mine, shared}


def test_campaigns_get_owner_and_tokens_and_are_listed_per_browser(tmp_path: Path) -> None:
    db = open_db(tmp_path / "s.db")
    cid = camp.create_campaign(db, "Ours", ["Ana", "Rui"], owner="ana")
    other = camp.create_campaign(db, "Theirs", ["Bo"])
    row = camp.get_campaign(db, cid)
    assert find_token(db, "campaigns", row["edit_token"]) == (cid, "edit", 0)
    listed = camp.campaigns_for(db, "ana", [])
    assert [c["id"] for c in listed] == [cid] and listed[0]["players"] == ["Ana", "Rui"]
    assert listed[0]["games"] == 0 and listed[0]["playing"] == 0
    give_to(db, "campaigns", other, "ana")
    assert {c["id"] for c in camp.campaigns_for(db, "ana", [])} == {cid, other}


def test_only_the_two_shared_tables_take_tokens(tmp_path: Path) -> None:
    db = open_db(tmp_path / "s.db")
    with pytest.raises(ValueError, match="no share links"):
        find_token(db, "players", "x")  # type: ignore[arg-type]


def test_reissue_gives_new_tokens_and_a_new_epoch(tmp_path: Path) -> None:
    db = open_db(tmp_path / "s.sqlite")
    gid = create_game(db, "game: board-game\n", owner="ana")
    old = get_game(db, gid)
    reissue(db, "games", gid)
    new = get_game(db, gid)
    assert find_token(db, "games", old["view_token"]) is None
    assert find_token(db, "games", old["edit_token"]) is None
    assert find_token(db, "games", new["edit_token"]) == (gid, "edit", 1)
    assert new["owner"] == "ana"
