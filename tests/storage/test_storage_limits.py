"""The documented limits (storage/limits.py): games per campaign, drafts per import, files
and damaged entries of a campaign archive; each refused with one clear line, nothing
written."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
import sqlite_utils

from companion.storage import StorageError, open_db
from companion.storage import campaigns as camp
from companion.storage.archive import import_campaign_zip
from companion.storage.limits import DRAFTS_PER_IMPORT, GAMES_PER_CAMPAIGN, LimitError


@pytest.fixture()
def db(tmp_path: Path) -> sqlite_utils.Database:
    return open_db(tmp_path / "limits.sqlite")


def _zip(entries: dict[str, bytes], method: int = zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as z:
        for name, data in entries.items():
            z.writestr(name, data)
    return buf.getvalue()


def _campaigns(db: sqlite_utils.Database) -> int:
    return int(db.execute("SELECT count(*) FROM campaigns").fetchone()[0])


def test_an_archive_with_too_many_games_is_refused(db: sqlite_utils.Database) -> None:
    games = "".join("game: 120\n" for _ in range(GAMES_PER_CAMPAIGN + 1))
    with pytest.raises(LimitError, match=f"at most {GAMES_PER_CAMPAIGN}"):
        import_campaign_zip(db, _zip({"campaign.txt": f"campaign: big\n{games}".encode()}))
    assert _campaigns(db) == 0


def test_an_archive_with_too_many_drafts_is_refused(db: sqlite_utils.Database) -> None:
    entries = {"campaign.txt": b"campaign: x\ngame: 120\n"}
    entries.update({f"games/draft-{i:03d}.dorf": b"game: board-game\n"
                    for i in range(1, DRAFTS_PER_IMPORT + 2)})
    with pytest.raises(LimitError, match="in progress"):
        import_campaign_zip(db, _zip(entries))
    assert _campaigns(db) == 0


def test_a_campaign_takes_no_game_past_the_limit(db: sqlite_utils.Database) -> None:
    cid = camp.create_campaign(db, "full", ["Ana"])
    for _ in range(GAMES_PER_CAMPAIGN):
        camp.record_score(db, cid, 120, expected_version=None)
    with pytest.raises(LimitError):
        camp.record_score(db, cid, 120, expected_version=None)
    assert len(camp.finished_games(db, cid)) == GAMES_PER_CAMPAIGN


def _damaged(kind: str) -> bytes:
    data = bytearray(_zip({"campaign.txt": b"campaign: x\ngame: 120\n"}, zipfile.ZIP_STORED))
    central = data.find(b"PK\x01\x02")
    if kind == "crc":
        data[data.find(b"game: 120")] ^= 0x20
    elif kind == "compression":
        data[8:10] = data[central + 10:central + 12] = (97).to_bytes(2, "little")
    elif kind == "encrypted":
        data[6] |= 1
        data[central + 8] |= 1
    return bytes(data)


@pytest.mark.parametrize(("kind", "says"), [("crc", "damaged"), ("compression", "packed"),
                                            ("encrypted", "encrypted")])
def test_a_damaged_entry_is_refused_in_one_line(db: sqlite_utils.Database, kind: str,
                                                says: str) -> None:
    with pytest.raises(StorageError, match=says) as err:
        import_campaign_zip(db, _damaged(kind))
    assert "\n" not in str(err.value)
    assert _campaigns(db) == 0
