"""Export and import of a whole campaign as a zip, so nothing is locked in.

Layout of the zip (plain UTF-8 text, readable and editable without the companion):

- ``campaign.txt``: the campaign record (notation.md §4), one ``game:`` line per
  finished game, in order;
- ``games/NNN.dorf``: the record (notation.md §3) of the NNN-th ``game:`` line (001, 002,
  ...), when the game was recorded tile by tile (a game known only by its total has none);
- ``games/NNN.json``: that game's stored score sheet, when there is one (optional);
- ``games/draft-NNN.dorf``: games of the campaign still in progress (optional).

``import_campaign_zip`` checks everything first (the campaign record is replayed by the
rules engine, every game record is parsed) and then writes the whole campaign in one
transaction: a refused or interrupted import leaves the database as it was.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
import zlib
from collections.abc import Callable
from typing import Any

import sqlite_utils

from companion.rules import GameEvent, RulesError, SpendEvent, parse_campaign, parse_record
from companion.rules import replay_campaign as replay
from companion.storage import campaigns, games
from companion.storage.database import transaction
from companion.storage.errors import StorageError
from companion.storage.limits import (
    DRAFTS_PER_IMPORT,
    GAMES_PER_CAMPAIGN,
    ZIP_ENTRIES,
    check,
)

CAMPAIGN_FILE = "campaign.txt"
_GAME = re.compile(r"^games/(\d{3,})\.(dorf|json)$")
_DRAFT = re.compile(r"^games/draft-(\d{3,})\.dorf$")
MAX_BYTES = 20_000_000


def export_campaign_zip(db: sqlite_utils.Database, campaign_id: int) -> bytes:
    """The campaign as zip bytes (layout in the module docstring)."""
    text = campaigns.campaign_record_text(db, campaign_id)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(CAMPAIGN_FILE, text)
        for game in campaigns.finished_games(db, campaign_id):
            if game["record"].strip():
                zf.writestr(f"games/{game['number']:03d}.dorf", game["record"])
            if game["sheet"]:
                zf.writestr(f"games/{game['number']:03d}.json", game["sheet"])
        drafts = db.query(
            "SELECT record FROM games WHERE campaign_id = ? AND status = 'in_progress' "
            "ORDER BY id", [campaign_id])
        for i, draft in enumerate(drafts, start=1):
            zf.writestr(f"games/draft-{i:03d}.dorf", draft["record"])
    return buffer.getvalue()


def _read(zf: zipfile.ZipFile, name: str) -> str:
    try:
        return zf.read(name).decode("utf-8")
    except UnicodeDecodeError:
        raise StorageError(f"{name}: not UTF-8 text") from None
    except NotImplementedError:  # before RuntimeError, its base class
        raise StorageError(f"{name}: packed in a way zip files of the companion never "
                           "are") from None
    except RuntimeError:  # zipfile's word for an encrypted entry
        raise StorageError(f"{name}: encrypted (export the campaign again)") from None
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError):
        raise StorageError(f"{name}: damaged (its check sum does not match)") from None


def import_campaign_zip(
    db: sqlite_utils.Database, data: bytes,
    on_insert: Callable[[sqlite_utils.Database, int], None] | None = None,
) -> int:
    """Import a campaign exported by ``export_campaign_zip``; return the new campaign id.
    ``on_insert(db, campaign_id)`` runs inside the same transaction (e.g. to set the
    owner), so the import is all or nothing."""
    if len(data) > MAX_BYTES:
        raise StorageError("the campaign archive is too large")
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise StorageError("not a zip file") from None
    with zf:
        names = zf.namelist()
        check(len(names), ZIP_ENTRIES, "files in a campaign archive")
        if sum(zf.getinfo(n).file_size for n in names) > MAX_BYTES:
            raise StorageError("the campaign archive unpacks too large")
        if CAMPAIGN_FILE not in names:
            raise StorageError(f"the archive holds no {CAMPAIGN_FILE}")
        try:
            record = parse_campaign(_read(zf, CAMPAIGN_FILE))
            replay(record)
        except RulesError as err:
            raise StorageError(f"{CAMPAIGN_FILE}: {err}") from None
        count = sum(isinstance(e, GameEvent) for e in record.events)
        check(count, GAMES_PER_CAMPAIGN, "games in a campaign")
        check(sum(bool(_DRAFT.match(n)) for n in names), DRAFTS_PER_IMPORT,
              "games in progress in a campaign archive")
        game_records: dict[int, str] = {}
        sheets: dict[int, Any] = {}
        drafts: list[str] = []
        for name in sorted(names):
            if name == CAMPAIGN_FILE or name.endswith("/"):
                continue
            m = _GAME.match(name)
            d = _DRAFT.match(name)
            if not m and not d:
                raise StorageError(f"{name}: unexpected file in a campaign archive")
            if m and not 1 <= int(m[1]) <= count:
                raise StorageError(f"{name}: the campaign has no game {int(m[1])}")
            text = _read(zf, name)
            if m and m[2] == "json":
                try:
                    sheets[int(m[1])] = json.loads(text)
                except json.JSONDecodeError as err:
                    raise StorageError(f"{name}: not JSON ({err.msg})") from None
                continue
            try:
                parse_record(text)
            except RulesError as err:
                raise StorageError(f"{name}: {err}") from None
            if m:
                game_records[int(m[1])] = text
            else:
                drafts.append(text)
    return _write(db, record, game_records, sheets, drafts, on_insert)


def _write(db: sqlite_utils.Database, record: Any, game_records: dict[int, str],
           sheets: dict[int, Any], drafts: list[str],
           on_insert: Callable[[sqlite_utils.Database, int], None] | None) -> int:
    with transaction(db):
        cid = campaigns.insert_campaign_row(db, record.name, record.players)
        if on_insert is not None:
            on_insert(db, cid)
        number = 0
        game_id = 0
        for event in record.events:
            if isinstance(event, GameEvent):
                number += 1
                game_id = games.insert_game_row(
                    db, game_records.get(number, ""), sheet=sheets.get(number),
                    status="finished", score=event.score, campaign_id=cid, number=number)
            elif isinstance(event, SpendEvent):
                for item in event.items:
                    campaigns.insert_spend_row(db, cid, game_id, item)
            else:
                for aid in event.ids:
                    campaigns.insert_achievement_row(db, cid, game_id, aid)
        for text in drafts:
            games.insert_game_row(db, text, campaign_id=cid)
    return cid


__all__ = ["CAMPAIGN_FILE", "export_campaign_zip", "import_campaign_zip"]
