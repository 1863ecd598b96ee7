"""The Duel score sheet (rules.md section 7) and the JSON of ``score --json`` for a duel.

Representation: ``score_duel(game)`` returns a ``DuelSheet``: one ``PlayerSheet``
per ``player:`` section (a player or a team; 3-4 players keep a section each),
in record order, and the winner. A ``PlayerSheet`` holds the pad's fields as
``Explanation`` values keyed by their JSON path (``tasks.wraparound``,
``flags.forest``, ``module1.large-forest``, ``module2.hearts``, ``total`` ...),
the player's markers and warnings. ``DuelSheet.to_json()`` is
``{"game": "duel", "players": {NAME: SHEET}, "winner": NAME or null,
"shared_winners": [...], "winner_explanation": {...}, "warnings": [...]}``
(top-level warnings concern no single player; each sheet lists its player's).
A tie for the highest total is a shared win (R-7): ``winner`` is null and
``shared_winners`` names the tied players (empty when one player wins).
Each sheet's ``subtotal`` is tasks plus ``bonus_total`` (flags and longest), as
on the Duel pad; ``total`` is subtotal + Module 1 + Module 2.

Shared with the board-game sheet (``scoring.fields``): ``task_fields``, ``flag_fields``,
``longest_fields``, ``landscape_of``, ``marker_json``. The Duel's own rules live in
``companion.rules.duel``: Module 1 and 2 in ``duel.module1`` and ``duel.module2``, the
reveal order in ``duel.turns``, the turn-by-turn comparisons in ``duel.warnings``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.rules.board import Board, Marker
from companion.rules.duel.module1 import cards_warnings, module1_fields
from companion.rules.duel.module2 import PointsOfInterest, camera_warnings, module2_scores
from companion.rules.duel.turns import reveal_warnings
from companion.rules.duel.warnings import merge, pool_by_player, tile_warnings
from companion.rules.explain import Explanation, total_of
from companion.rules.game import Game, Warning
from companion.rules.notation import DUEL_TASK_TYPES, FLAG_TYPES
from companion.rules.reasons import Reason
from companion.rules.scoring.fields import (
    flag_fields,
    landscape_of,
    longest_fields,
    marker_json,
    task_fields,
)


@dataclass
class PlayerSheet:
    """One player's (or team's) column of the Duel pad."""

    player: str
    fields: dict[str, Explanation]
    markers: list[Marker]
    module2: PointsOfInterest
    warnings: list[Warning] = field(default_factory=list)

    def value(self, path: str) -> int:
        return self.fields[path].value

    @property
    def total(self) -> int:
        return self.value("total")

    def to_json(self) -> dict[str, Any]:
        v = self.value
        module1 = {k.removeprefix("module1."): e.value for k, e in self.fields.items()
                   if k.startswith("module1.")}
        return {
            "tasks": {t: v(f"tasks.{t}") for t in DUEL_TASK_TYPES},
            "tasks_total": v("tasks_total"),
            "flags": {t: v(f"flags.{t}") for t in FLAG_TYPES},
            "longest": {"track": v("longest.track"), "stream": v("longest.stream")},
            "bonus_total": v("bonus_total"),
            "subtotal": v("subtotal"),
            "module1": module1,
            "module2": self.module2.to_json(),
            "total": v("total"),
            "markers": [marker_json(m) for m in self.markers],
            "explanations": {k: e.to_json() for k, e in self.fields.items()},
            "warnings": [w.to_json() for w in self.warnings],
        }


@dataclass
class DuelSheet:
    players: list[PlayerSheet]
    winner: Explanation
    warnings: list[Warning] = field(default_factory=list)

    @property
    def leaders(self) -> list[str]:
        best = max(p.total for p in self.players)
        return [p.player for p in self.players if p.total == best]

    def to_json(self) -> dict[str, Any]:
        leaders = self.leaders
        return {
            "game": "duel",
            "players": {p.player: p.to_json() for p in self.players},
            "winner": leaders[0] if len(leaders) == 1 else None,
            "shared_winners": leaders if len(leaders) > 1 else [],
            "winner_explanation": self.winner.to_json(),
            "warnings": [w.to_json() for w in self.warnings],
        }


def base_fields(game: Game, board: Board, index: int) -> dict[str, Explanation]:
    """Tasks (seven types), flags, longest track/stream and the subtotals S1, S2."""
    record = game.record
    land = landscape_of(record, board, index)
    out = task_fields(record, board, DUEL_TASK_TYPES, index)
    out["tasks_total"] = total_of(list(out.values()), Reason("duel-sum", {"row": "tasks"}),
                                  shallow=True)
    bonus = {**flag_fields(land), **longest_fields(land)}
    out.update(bonus)
    out["bonus_total"] = total_of(list(bonus.values()), Reason("duel-sum", {"row": "bonus"}),
                                  shallow=True)
    out["subtotal"] = total_of([out["tasks_total"], out["bonus_total"]],
                               Reason("duel-sum", {"row": "subtotal"}), shallow=True)
    return out


def winner_explanation(players: list[PlayerSheet]) -> Explanation:
    totals = [(p.player, p.total) for p in players]
    best = max(p.total for p in players)
    leaders = [p.player for p in players if p.total == best]
    if len(leaders) == 1:
        return Explanation.of(best, Reason("winner", {"who": leaders[0], "total": best,
                                                      "totals": totals}))
    return Explanation.of(best, Reason("shared-win", {"who": leaders, "total": best,
                                                      "totals": totals}), rulings=["R-7"])


def score_duel(game: Game) -> DuelSheet:
    """Every player's Duel sheet of a replayed duel record, and the winner."""
    record = game.record
    if not record.is_duel:
        raise ValueError("score_duel scores duel records; use companion.rules.scoring.board_game")
    boards = {str(who): b for who, b in game.boards.items()}
    module1 = module1_fields(record, boards)
    module2 = module2_scores(record, boards)
    pool, general = pool_by_player(game)
    warnings = merge(pool, tile_warnings(game), reveal_warnings(game),
                     {w: p.warnings for w, p in module2.items()})
    players = []
    for index, (who, board) in enumerate(boards.items()):
        fields = base_fields(game, board, index)
        fields.update(module1[who])
        fields.update(module2[who].fields)
        fields["total"] = total_of(
            [fields["subtotal"], fields["module1.total"], fields["module2.total"]],
            Reason("duel-sum", {"row": "total"}), shallow=True)
        players.append(PlayerSheet(who, fields, list(board.markers), module2[who],
                                   sorted(warnings.get(who, []),
                                          key=lambda w: (w.turn or 0, w.line or 0))))
    if 1 in record.modules:
        general = [*general, *cards_warnings(record)]
    if 2 in record.modules:
        general = [*general, *camera_warnings(boards)]
    return DuelSheet(players, winner_explanation(players), general)
