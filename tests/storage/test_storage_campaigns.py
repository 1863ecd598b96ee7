"""Campaigns in the database: spending checked by the engine, stale edits, history, zip."""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest
import sqlite_utils

from companion.rules import CampaignError, load_campaign
from companion.storage import StaleEditError, StorageError, open_db
from companion.storage import campaigns as camp
from companion.storage.archive import export_campaign_zip, import_campaign_zip
from companion.storage.games import finish_game, get_game

DATA = Path(__file__).resolve().parents[1] / "data"
LONG = (DATA / "campaign_long.txt").read_text(encoding="utf-8")
GAME_RECORD = "game: board-game\n0 0 GGGGGG task=grain/4\n1 -1 MFFMGG flag=forest\n"


def version(db: sqlite_utils.Database, cid: int) -> int:
    return int(camp.get_campaign(db, cid)["version"])


def test_play_a_campaign_through_storage(tmp_path: Path) -> None:
    path = tmp_path / "c.db"
    db = open_db(path)
    cid = camp.create_campaign(db, "Sunday table", ["Ana", "Rui"])
    gid = camp.start_campaign_game(db, cid)
    assert get_game(db, gid)["record"] == "game: board-game\nplayers: Ana, Rui\n"
    finish_game(db, gid, 1, 400, record=GAME_RECORD, sheet={"total": 400})
    for path_id, n in (("start-box1", 2), ("box1-box2", 5), ("box2-circus", 4)):
        camp.spend(db, cid, path_id, n, expected_version=version(db, cid))
    camp.achieve(db, cid, "red-hearts", expected_version=version(db, cid))
    db.close()

    db = open_db(path)
    state = camp.load_state(db, cid)
    assert state.reached == ["box1", "box2", "circus"] and state.crosses_available == 4
    gid2 = camp.start_campaign_game(db, cid)
    assert get_game(db, gid2)["record"] == (
        "game: board-game\nplayers: Ana, Rui\nunlocked: box1, box2, circus, red-hearts\n")
    assert camp.campaign_record_text(db, cid) == (
        "campaign: Sunday table\nplayers: Ana, Rui\ngame: 400\n"
        "spend: start-box1 2, box1-box2 5, box2-circus 4\nachieved: red-hearts\n")
    finish_game(db, gid2, 1, 62)
    state = camp.load_state(db, cid)
    assert (state.crosses_lost, state.crosses_available) == (4, 1)
    history = camp.campaign_history(db, cid)
    assert [g["score"] for g in history["games"]] == [400, 62]
    json.dumps(history)


def test_refused_spend_writes_nothing() -> None:
    db = open_db(":memory:")
    cid = camp.create_campaign(db, None)
    camp.record_score(db, cid, 105, expected_version=1)
    camp.spend(db, cid, "start-box1", 2, expected_version=2)
    before = (version(db, cid), camp.campaign_record_text(db, cid))
    with pytest.raises(CampaignError, match="spending 1 cross but only 0"):
        camp.spend(db, cid, "box1-box2", 1, expected_version=version(db, cid))
    with pytest.raises(CampaignError, match="box2-circus cannot be crossed yet"):
        camp.spend(db, cid, "box2-circus", 1, expected_version=version(db, cid))
    with pytest.raises(CampaignError, match="unknown achievement"):
        camp.achieve(db, cid, "nope", expected_version=version(db, cid))
    assert (version(db, cid), camp.campaign_record_text(db, cid)) == before


def test_stale_campaign_edit(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    one, two = open_db(path), open_db(path)
    cid = camp.create_campaign(one, "race")
    camp.record_score(one, cid, 400, expected_version=1)
    seen = version(two, cid)
    camp.spend(one, cid, "start-box1", 1, expected_version=seen)
    with pytest.raises(StaleEditError, match="campaign 1 was changed by someone else"):
        camp.spend(two, cid, "start-box1", 1, expected_version=seen)
    assert camp.load_state(open_db(path), cid).crosses_spent == 1


def test_undo_last(tmp_path: Path) -> None:
    db = open_db(tmp_path / "u.db")
    cid = camp.create_campaign(db, None)
    camp.record_score(db, cid, 400, expected_version=None)
    camp.spend(db, cid, "start-box1", 2, expected_version=None)
    camp.achieve(db, cid, "great-mill", expected_version=None)
    state = camp.undo_last(db, cid, expected_version=version(db, cid))
    assert state.achieved == [] and state.reached == ["box1"]
    state = camp.undo_last(db, cid, expected_version=None)
    assert state.reached == [] and state.crosses_available == 15
    with pytest.raises(CampaignError, match="nothing to undo"):
        camp.undo_last(db, cid, expected_version=None)


def import_long(db: sqlite_utils.Database) -> int:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("campaign.txt", LONG)
        zf.writestr("games/001.dorf", GAME_RECORD)
        zf.writestr("games/001.json", json.dumps({"total": 62}))
        zf.writestr("games/014.dorf", GAME_RECORD.replace("grain/4", "grain/5"))
        zf.writestr("games/draft-001.dorf", "game: board-game\n")
    return import_campaign_zip(db, buffer.getvalue())


def test_zip_round_trip_of_the_long_campaign(tmp_path: Path) -> None:
    db = open_db(tmp_path / "first.db")
    cid = import_long(db)
    expected = load_campaign(LONG).to_json()
    assert camp.load_state(db, cid).to_json() == expected
    data = export_campaign_zip(db, cid)
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        assert sorted(zf.namelist()) == [
            "campaign.txt", "games/001.dorf", "games/001.json", "games/014.dorf",
            "games/draft-001.dorf"]
        assert load_campaign(zf.read("campaign.txt").decode()).to_json() == expected

    other = open_db(tmp_path / "second.db")
    cid2 = import_campaign_zip(other, data)
    assert camp.load_state(other, cid2).to_json() == expected
    assert export_campaign_zip(other, cid2) == data or _same_zip(export_campaign_zip(other, cid2),
                                                                 data)
    games = list(other.query("SELECT number, record, sheet, status FROM games ORDER BY id"))
    assert games[0]["record"] == GAME_RECORD and json.loads(games[0]["sheet"]) == {"total": 62}
    assert games[13]["record"].endswith("grain/5\n1 -1 MFFMGG flag=forest\n")
    assert games[-1]["status"] == "in_progress" and games[-1]["number"] is None


def _same_zip(a: bytes, b: bytes) -> bool:
    with zipfile.ZipFile(io.BytesIO(a)) as za, zipfile.ZipFile(io.BytesIO(b)) as zb:
        return {n: za.read(n) for n in za.namelist()} == {n: zb.read(n) for n in zb.namelist()}


@pytest.mark.parametrize(
    "files,message",
    [
        ({}, "the archive holds no campaign.txt"),
        ({"campaign.txt": "game: 78\nspend: start-box1 2\n"},
         "campaign.txt: line 2: spending 2 crosses but only 1"),
        ({"campaign.txt": "game: 78\n", "games/002.dorf": GAME_RECORD},
         "games/002.dorf: the campaign has no game 2"),
        ({"campaign.txt": "game: 78\n", "games/001.dorf": "game: board-game\n0 0 XX\n"},
         "games/001.dorf: line 2:"),
        ({"campaign.txt": "game: 78\n", "notes.txt": "hi"}, "notes.txt: unexpected file"),
    ],
)
def test_import_refusals_write_nothing(files: dict[str, str], message: str) -> None:
    db = open_db(":memory:")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, text in files.items():
            zf.writestr(name, text)
    with pytest.raises(StorageError) as err:
        import_campaign_zip(db, buffer.getvalue())
    assert str(err.value).startswith(message)
    assert db.execute("SELECT COUNT(*) FROM campaigns").fetchone()[0] == 0


def test_import_refuses_a_non_zip() -> None:
    with pytest.raises(StorageError, match="not a zip file"):
        import_campaign_zip(open_db(":memory:"), b"campaign: no")


@pytest.mark.parametrize("name,players,message", [
    ("Sunday #2", [], "campaign name 'Sunday #2' may not contain '#'"),
    ("ok", ["Ana, Rui"], "player name 'Ana, Rui' may not contain ','"),
    ("ok", ["  "], "a player needs a name"),
])
def test_names_that_would_not_round_trip_are_refused(
    name: str, players: list[str], message: str,
) -> None:
    db = open_db(":memory:")
    with pytest.raises(CampaignError, match=message):
        camp.create_campaign(db, name, players)
    assert db.execute("SELECT COUNT(*) FROM campaigns").fetchone()[0] == 0


def test_import_is_all_or_nothing_with_its_on_insert_step(tmp_path: Path) -> None:
    db = open_db(tmp_path / "one.db")
    data = export_campaign_zip(db, import_long(db))
    other = open_db(tmp_path / "two.db")

    def fail(_db: sqlite_utils.Database, _cid: int) -> None:
        raise RuntimeError("owner could not be set")

    with pytest.raises(RuntimeError):
        import_campaign_zip(other, data, on_insert=fail)
    assert other.execute("SELECT COUNT(*) FROM campaigns").fetchone()[0] == 0
    assert other.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 0
    seen: list[int] = []
    cid = import_campaign_zip(other, data, on_insert=lambda _db, new: seen.append(new))
    assert seen == [cid]
