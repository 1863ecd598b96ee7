"""The rules engine: pure Python, standard library only (design.md layer 1).

Modules: ``hexgrid`` (axial hexes, edge order, layout), ``tiles`` (codes, rotation,
areas, catalogue), ``notation`` (records in and out), ``board`` (placement, undo,
territories, markers), ``territories`` (flood fill), ``game`` (replay, warnings),
``sheet`` and ``components`` (board-game score sheet), ``duel`` (the Duel),
``campaign`` (the campaign sheet), ``explain`` (explanations), ``errors``.
"""

from companion.rules.errors import (
    CampaignError,
    IllegalPlacementError,
    NotationError,
    RulesError,
)
from companion.rules.hexgrid import Hex

__all__ = ["CampaignError", "Hex", "IllegalPlacementError", "NotationError", "RulesError"]
