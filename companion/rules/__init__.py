"""The rules engine: pure Python, standard library only (design.md layer 1).

This package's ``__all__`` is the engine's public API: the web app, the scanner, storage
and the command line import from ``companion.rules`` only, never from its modules.

Modules: ``hexgrid`` (axial hexes, edge order, layout), ``tiles`` (codes, rotation,
areas, catalogue), ``notation`` (records in and out), ``board`` (placement, undo,
territories, markers), ``territories`` (flood fill), ``game`` (replay, warnings),
``sheet`` and ``components`` (board-game score sheet), ``duel`` (the Duel),
``campaign`` (the campaign sheet), ``explain`` (explanations), ``errors``.
"""

from companion.rules.board import (
    COMPLETED,
    FAILED,
    Board,
    Marker,
)
from companion.rules.campaign import (
    CampaignState,
    Crossing,
    load_campaign,
    setup_reminders,
    unlocked_header,
)
from companion.rules.campaign import (
    replay as replay_campaign,
)
from companion.rules.campaign_mill import (
    check_great_mill,
)
from companion.rules.campaign_record import (
    AchievedEvent,
    CampaignRecord,
    Event,
    GameEvent,
    SpendEvent,
    SpendItem,
    parse_campaign,
    write_campaign,
)
from companion.rules.campaign_stats import (
    campaign_stats,
)
from companion.rules.campaign_titles import (
    title_for,
)
from companion.rules.campaign_track import (
    HEX_BY_ID,
    HEXES,
    PATH_BY_ID,
    PATHS,
    TOTAL_CIRCLES,
    TrackPath,
)
from companion.rules.campaign_unlocks import (
    RED_HEART,
    Content,
    Effects,
)
from companion.rules.duel import (
    score_duel,
)
from companion.rules.errors import (
    CampaignError,
    IllegalPlacementError,
    NotationError,
    RulesError,
)
from companion.rules.game import (
    Game,
    board_game_pool,
    duel_pool,
    replay,
    replay_text,
)
from companion.rules.hexgrid import (
    DIRECTIONS,
    EDGE_NAMES,
    Hex,
    Layout,
    hex_round,
)
from companion.rules.mapmerge import (
    best_alignment,
    merge_maps,
)
from companion.rules.notation import (
    DUEL_SPECIALS,
    DUEL_TASK_TYPES,
    FLAG_TYPES,
    SPECIAL_TILES,
    TASK_TYPES,
    TERRITORY_TYPES,
    Placement,
    Record,
    Section,
    TaskSpec,
    format_placement,
    parse_placement,
    parse_record,
    parse_task,
    write_record,
)
from companion.rules.ordering import (
    connected_order,
)
from companion.rules.randomgame import (
    random_game,
    random_record,
)
from companion.rules.rulings import (
    RULINGS,
)
from companion.rules.sheet import (
    explain_lines,
    score_game,
    score_text,
)
from companion.rules.tiles import (
    LETTER_OF,
    TERRAINS,
    canonical,
    catalogue,
    check_code,
    edges_can_meet,
    parse_catalogue,
    rotate,
)

__all__ = [
    "AchievedEvent",
    "Board",
    "COMPLETED",
    "CampaignError",
    "CampaignRecord",
    "CampaignState",
    "Content",
    "Crossing",
    "DIRECTIONS",
    "DUEL_SPECIALS",
    "DUEL_TASK_TYPES",
    "EDGE_NAMES",
    "Effects",
    "Event",
    "FAILED",
    "FLAG_TYPES",
    "Game",
    "GameEvent",
    "HEXES",
    "HEX_BY_ID",
    "Hex",
    "IllegalPlacementError",
    "LETTER_OF",
    "Layout",
    "Marker",
    "NotationError",
    "PATHS",
    "PATH_BY_ID",
    "Placement",
    "RED_HEART",
    "RULINGS",
    "Record",
    "RulesError",
    "SPECIAL_TILES",
    "Section",
    "SpendEvent",
    "SpendItem",
    "TASK_TYPES",
    "TERRAINS",
    "TERRITORY_TYPES",
    "TOTAL_CIRCLES",
    "TaskSpec",
    "TrackPath",
    "best_alignment",
    "board_game_pool",
    "campaign_stats",
    "canonical",
    "catalogue",
    "check_code",
    "check_great_mill",
    "connected_order",
    "duel_pool",
    "explain_lines",
    "edges_can_meet",
    "format_placement",
    "hex_round",
    "load_campaign",
    "merge_maps",
    "parse_campaign",
    "parse_catalogue",
    "parse_placement",
    "parse_record",
    "parse_task",
    "random_game",
    "random_record",
    "replay",
    "replay_campaign",
    "replay_text",
    "rotate",
    "score_duel",
    "score_game",
    "score_text",
    "setup_reminders",
    "title_for",
    "unlocked_header",
    "write_campaign",
    "write_record",
]
