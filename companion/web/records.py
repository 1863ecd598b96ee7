"""A game's record as the web app keeps it: scored by the engine, written by storage.

Representation: a game row is the storage's ``games`` dict (``record`` text in the
notation, ``sheet`` decoded JSON, ``status`` ``in_progress``/``finished``, ``score``,
``version``, ``owner``, ``view_token``, ``edit_token``). Whenever a record is saved its
score sheet is saved with it: ``sheet_for(text)`` asks the engine (``score_text``; None
when the record does not replay), ``total_of(sheet)`` is the number stored as ``score``
(a duel's best total). ``summary(record)`` is what lists show (kind, players, tiles,
date). Every write is one storage transaction; edits name the version they were made
from and raise ``StaleEditError`` when someone else saved first.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import sqlite_utils

from companion.rules import Game, RulesError, parse_record, score, score_text
from companion.storage import games as storage_games
from companion.storage import sharing
from companion.storage.errors import StaleEditError

__all__ = ["create_game", "finish", "games_for", "save_record", "sheet_for", "sheet_of",
           "summary", "total_of"]


def sheet_of(game: Game) -> dict[str, Any]:
    """The score sheet JSON of a replayed game (the board game's or the duel's)."""
    result: dict[str, Any] = score(game).to_json()
    return result


def sheet_for(text: str) -> dict[str, Any] | None:
    """The score sheet JSON of a record, or None when the record does not replay."""
    try:
        return score_text(text)
    except RulesError:
        return None


def total_of(sheet: dict[str, Any] | None) -> int:
    """The number stored as ``score``: the total, or the best total of a duel."""
    if not sheet:
        return 0
    if "total" in sheet:
        return int(sheet["total"])
    totals = [int(p.get("total", 0)) for p in sheet.get("players", {}).values()]
    return max(totals, default=0)


def create_game(db: sqlite_utils.Database, record: str, owner: str,
                finished: bool = False) -> int:
    """Store a new game (validated record text) with fresh share tokens; return its id."""
    sheet = sheet_for(record)
    return storage_games.create_game(
        db, record, sheet=sheet, owner=owner, status="finished" if finished else "in_progress",
        score=total_of(sheet) if finished else None)


def save_record(db: sqlite_utils.Database, game_id: int, version: int, record: str) -> int:
    """Replace the record (made from ``version``) and its sheet; return the new version."""
    sheet = sheet_for(record)
    return storage_games.update_game(db, game_id, version, record=record,
                                     sheet=sheet if sheet is not None else {})


def finish(db: sqlite_utils.Database, game_id: int, version: int) -> int:
    """Mark the game finished with its current total; return the new version."""
    game = storage_games.get_game(db, game_id)
    if game["version"] != version:
        raise StaleEditError(f"game {game_id}", version, game["version"])
    sheet = sheet_for(game["record"])
    return storage_games.finish_game(db, game_id, version, total_of(sheet), sheet=sheet)


def games_for(db: sqlite_utils.Database, owner: str, shared: list[int]) -> list[dict[str, Any]]:
    """The games this browser owns or was given a link to, newest first, with a summary."""
    return [dict(row, **summary(row["record"])) for row in sharing.games_for(db, owner, shared)]


def campaign_names(db: sqlite_utils.Database, ids: Any) -> dict[int, dict[str, Any]]:
    """``{id: {"id", "name"}}`` of the campaigns the given games belong to."""
    from companion.storage import campaigns as campaign_store
    from companion.storage.errors import NotFoundError

    out: dict[int, dict[str, Any]] = {}
    for cid in ids:
        if cid is None:
            continue
        try:
            row = campaign_store.get_campaign(db, int(cid))
        except NotFoundError:
            continue
        out[int(cid)] = {"id": int(cid), "name": row.get("name") or ""}
    return out


@lru_cache(maxsize=1024)
def summary(record: str) -> dict[str, Any]:
    """Game kind, players and number of placements of a record, for lists (cached by
    the record text; callers copy, never change, the dict)."""
    try:
        rec = parse_record(record)
    except RulesError:
        return {"kind": "?", "players": [], "tiles": 0}
    players = rec.players or [s.player for s in rec.sections if s.player]
    return {"kind": rec.game, "players": players,
            "tiles": sum(len(s.placements) for s in rec.sections), "date": rec.date}
