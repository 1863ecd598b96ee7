"""A write that fails or is killed half-way leaves the previous state intact (real files)."""

from __future__ import annotations

import hashlib
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import sqlite_utils

from companion.storage import campaigns as camp
from companion.storage import games, open_db
from companion.storage.archive import export_campaign_zip, import_campaign_zip

DATA = Path(__file__).resolve().parents[1] / "data"
LONG = (DATA / "campaign_long.txt").read_text(encoding="utf-8")


def snapshot(path: Path) -> str:
    """A digest of every row of every table, read through a fresh connection."""
    db = sqlite_utils.Database(path)
    digest = hashlib.sha256()
    for table in sorted(db.table_names()):
        for row in db.execute(f"SELECT * FROM [{table}] ORDER BY rowid"):
            digest.update(repr((table, row)).encode())
    db.close()
    return digest.hexdigest()


def make_db(path: Path) -> bytes:
    """A database holding one campaign; return that campaign's zip."""
    db = open_db(path)
    cid = camp.create_campaign(db, "kept", ["Ana"])
    camp.record_score(db, cid, 400, expected_version=None)
    camp.spend(db, cid, "start-box1", 2, expected_version=None)
    data = export_campaign_zip(db, cid)
    db.close()
    return data


def test_exception_between_two_inserts_rolls_back(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "c.db"
    make_db(path)
    big = make_long_zip(tmp_path)
    before = snapshot(path)
    real = games.insert_game_row
    calls = []

    def failing(*args: object, **kwargs: object) -> int:
        calls.append(1)
        if len(calls) == 3:  # the campaign row and two games are written by now
            raise OSError("disk unplugged")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(games, "insert_game_row", failing)
    db = open_db(path)
    with pytest.raises(OSError, match="disk unplugged"):
        import_campaign_zip(db, big)
    db.close()
    assert len(calls) == 3
    assert snapshot(path) == before
    assert camp.load_state(open_db(path), 1).reached == ["box1"]


def test_failed_spend_after_the_version_bump_rolls_back(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "s.db"
    make_db(path)
    before = snapshot(path)

    def failing(*args: object, **kwargs: object) -> None:
        raise OSError("power cut")

    monkeypatch.setattr(camp, "insert_spend_row", failing)
    with pytest.raises(OSError):
        camp.spend(open_db(path), 1, "box1-box2", 1, expected_version=None)
    assert snapshot(path) == before


def make_long_zip(tmp_path: Path) -> bytes:
    db = open_db(tmp_path / "source.db")
    import io
    import zipfile
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        zf.writestr("campaign.txt", LONG)
    cid = import_campaign_zip(db, buffer.getvalue())
    data = export_campaign_zip(db, cid)
    db.close()
    return data


CHILD = textwrap.dedent(
    """
    import os, sys
    from companion.storage import games, open_db
    from companion.storage.archive import import_campaign_zip
    real = games.insert_game_row
    calls = []
    def dying(*args, **kwargs):
        calls.append(1)
        if len(calls) == 5:
            os._exit(9)  # the process dies mid-transaction: no rollback, no cleanup
        return real(*args, **kwargs)
    games.insert_game_row = dying
    db = open_db(sys.argv[1])
    import_campaign_zip(db, open(sys.argv[2], "rb").read())
    """
)


def test_process_killed_mid_write_leaves_previous_state(tmp_path: Path) -> None:
    path = tmp_path / "k.db"
    make_db(path)
    archive = tmp_path / "long.zip"
    archive.write_bytes(make_long_zip(tmp_path))
    before = snapshot(path)
    proc = subprocess.run([sys.executable, "-c", CHILD, str(path), str(archive)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 9, proc.stderr
    assert snapshot(path) == before
    db = open_db(path)
    assert db.execute("SELECT COUNT(*) FROM campaigns").fetchone()[0] == 1
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    # and the database still takes writes
    cid = import_campaign_zip(db, archive.read_bytes())
    assert "clouds" in camp.load_state(db, cid).reached
