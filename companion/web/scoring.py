"""Scoring a record for display: the sheet, its pad layout and the map drawings.

Representation: ``score_view(text)`` parses, replays and scores a record once and
returns a ``ScoreView`` (the sheet JSON, the pad rows of a board game or the
duel rows and player names, one ``MapDrawing`` per landscape and the warnings);
it raises ``RulesError`` (``"line N: ..."``) for a bad record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules import Game, parse_record, replay, score_duel, score_game
from companion.web.mapsvg import MapDrawing, draw
from companion.web.sheet_view import DuelRow, Row, duel_rows, pad_rows, warnings_of


@dataclass
class ScoreView:
    kind: str
    sheet: dict[str, Any]
    rows: list[Row] = field(default_factory=list)
    duel: list[DuelRow] = field(default_factory=list)
    players: list[str] = field(default_factory=list)
    winner: str | None = None
    maps: list[tuple[str | None, MapDrawing]] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)


def sheet_of(game: Game) -> dict[str, Any]:
    """The score sheet JSON of a replayed game (the board game's or the duel's)."""
    sheet = score_duel(game) if game.record.is_duel else score_game(game)
    result: dict[str, Any] = sheet.to_json()
    return result


def score_view(text: str) -> ScoreView:
    game = replay(parse_record(text))
    sheet = sheet_of(game)
    maps = [(player, draw(board.tiles)) for player, board in game.boards.items()]
    if game.record.is_duel:
        players = list(sheet.get("players", {}))
        return ScoreView("duel", sheet, duel=duel_rows(sheet), players=players,
                         winner=sheet.get("winner"), maps=maps, warnings=warnings_of(sheet))
    return ScoreView("board-game", sheet, rows=pad_rows(sheet), maps=maps,
                     warnings=warnings_of(sheet))
