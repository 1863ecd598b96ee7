"""What the game pages show: the score sheet laid out like the pads, maps, share links.

Representation: ``score_view(text)`` parses, replays and scores a record once
(``records.sheet_of``) and returns a ``ScoreView`` (the sheet JSON, the pad rows of a
board game or the duel rows and player names, one map per landscape and the warnings);
it raises ``RulesError`` (``"line N: ..."``) for a bad record. ``game_context(game,
level)`` is the template variables of ``games/_game.html``: the game row, this browser's
access level, its ``ScoreView`` (or the reason it has none), the record's summary and,
for the owner, the two share links.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask import url_for

from companion.rules import RulesError, parse_record, replay
from companion.web import access, records
from companion.web.games.sheet import DuelRow, Row, duel_rows, pad_rows, warnings_of
from companion.web.hexmap import SMALL, MapView, map_view
from companion.web.reasons import say_error
from companion.web.settings import public_url


@dataclass
class ScoreView:
    kind: str
    sheet: dict[str, Any]
    rows: list[Row] = field(default_factory=list)
    duel: list[DuelRow] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    winner: str | None = None
    maps: list[tuple[str | None, MapView]] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)


def score_view(text: str) -> ScoreView:
    game = replay(parse_record(text))
    sheet = records.sheet_of(game)
    maps = [(player, map_view(board, slots=False, size=SMALL))
            for player, board in game.boards.items()]
    if game.record.is_duel:
        players = list(sheet.get("players", {}))
        return ScoreView("duel", sheet, duel=duel_rows(sheet), players=players,
                         winner=sheet.get("winner"), maps=maps, warnings=warnings_of(sheet))
    return ScoreView("board-game", sheet, rows=pad_rows(sheet), maps=maps,
                     warnings=warnings_of(sheet))


def view_of(record: str) -> tuple[ScoreView | None, str | None]:
    try:
        return score_view(record), None
    except RulesError as err:
        return None, say_error(err)


def game_context(game: dict[str, Any], level: str, **extra: Any) -> dict[str, Any]:
    view, error = view_of(game["record"])
    share = None
    if level == "owner":
        share = {
            "view": public_url(url_for("games.shared", token=game["view_token"])),
            "edit": public_url(url_for("games.shared", token=game["edit_token"])),
        }
    from companion.web.db import get_db

    campaign = records.campaign_names(get_db(), [game.get("campaign_id")]).get(
        game.get("campaign_id") or 0)
    return dict(game=game, level=level, view=view, view_error=error, campaign=campaign,
                summary=records.summary(game["record"]), share=share,
                can_edit=access.can_edit(level), **extra)


__all__ = ["ScoreView", "game_context", "score_view", "view_of"]
