"""Scoring a record for display: the sheet, its pad layout and the map drawings.

Representation: ``score_view(text)`` parses, replays and scores a record once and
returns a ``ScoreView`` (the sheet JSON, the pad rows of a board game or the
duel rows and player names, one ``MapDrawing`` per landscape and the warnings);
it raises ``RulesError`` (``"line N: ..."``) for a bad record and ``ScoringUnavailable``
when the duel scorer is not installed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules import Game, RulesError, parse_record, replay
from companion.web.mapsvg import MapDrawing, draw
from companion.web.sheet_view import DuelRow, Row, duel_rows, pad_rows, warnings_of


class ScoringUnavailable(RulesError):
    """The record is valid but its game cannot be scored by this installation."""


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
    if game.record.is_duel:
        try:
            from companion.rules import score_duel
        except ImportError as err:
            raise ScoringUnavailable("duel scoring is not available yet") from err
        result: dict[str, Any] = score_duel(game).to_json()
        return result
    from companion.rules import score_game

    return score_game(game).to_json()


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
