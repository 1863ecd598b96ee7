"""Score sheets: ``score(game)`` is the one entry point for both games.

Representation: ``score(game)`` takes a replayed ``Game`` and returns its sheet, a
``Sheet`` for the board game (``board_game``: pad fields B1..H, rules.md section 5) or
a ``DuelSheet`` for the Duel (``duel_sheet``: one column per player, Modules 1 and 2,
section 7); ``sheet.to_json()`` is the object of ``companion score --json``
(notation.md section 6). Rows both games share are in ``fields``; the unlocked
components of the campaign (rows E) in ``components``. ``score_text`` parses, replays
and scores a record text in one call.

>>> score_text("game: board-game\\n0 0 GGGGGG task=grain/4\\n")["tasks_total"]
0
"""

from __future__ import annotations

from typing import Any

from companion.rules.game import Game, replay
from companion.rules.notation import parse_record
from companion.rules.scoring.board_game import Sheet, explain_lines, score_game
from companion.rules.scoring.duel_sheet import DuelSheet, score_duel


def score(game: Game) -> Sheet | DuelSheet:
    """The score sheet of a replayed game of either kind."""
    return score_duel(game) if game.record.is_duel else score_game(game)


def score_text(text: str) -> dict[str, Any]:
    """Parse, replay and score a record of either game; the JSON of ``score --json``."""
    return score(replay(parse_record(text))).to_json()


__all__ = ["DuelSheet", "Sheet", "explain_lines", "score", "score_text"]
