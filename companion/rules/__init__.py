"""The rules engine: pure Python, standard library only (design.md layer 1).

This package's ``__all__`` is the engine's public API: the web app, the scanner, storage
and the command line import from ``companion.rules`` only, never from its modules.
Inside the package, modules import each other by module path, never through this file.

Layout (imports go one way, top-level modules below the subpackages; a test fails on an
import cycle and on any import from outside the standard library):

- ``hexgrid`` (axial hexes, edge order, ``opposite``, layout), ``tiles`` (codes,
  rotation, areas, catalogue, ``edges_can_meet``), ``notation`` (records in and out),
  ``numbers`` (bounded whole numbers), ``reasons`` (every refusal, warning and
  explanation as a code with parameters, and the one English renderer), ``errors``
  (they carry a reason and the record line), ``rulings`` (rulings R-n, house rules and
  the rule set), ``board`` (placement, undo,
  the incremental union-find, markers), ``territories`` (flood fill and the board's
  territories), ``landscape`` (what score rows read), ``explain`` (explanations),
  ``ordering`` (connected orders of a final map), ``pools`` (task markers in the box),
  ``game`` (replay of a record, board-game reveal order, warnings), ``recording``
  (record-text changes: place, undo, redo, end-of-game markers), ``rulebook`` (the rules
  in words, for the rules page), ``randomgame``, ``mapmerge``.
- ``duel/``: the Duel's own rules: ``turns`` (whose turn, reveal order), ``module1``,
  ``places``, ``module2``, ``warnings``.
- ``scoring/``: ``score(game)``, the one entry point for both games' sheets:
  ``board_game``, ``duel_sheet``, ``fields`` (rows both share), ``components``
  (unlocked campaign components).
- ``campaign/``: ``record``, ``track``, ``titles``, ``unlocks``, ``state`` (the sheet,
  spending, setup reminders), ``mill``, ``stats``.
"""

from companion.rules.board import (
    COMPLETED,
    FAILED,
    Board,
    Marker,
)
from companion.rules.box import (
    DUEL_HOLDS,
    BoxFlag,
    Fit,
    InPlay,
    box_flags,
    duel_kind,
    fit,
    fits,
    in_play,
    placement_flags,
    tiles_left,
)
from companion.rules.campaign.mill import (
    check_great_mill,
)
from companion.rules.campaign.record import (
    AchievedEvent,
    CampaignRecord,
    Event,
    GameEvent,
    SpendEvent,
    SpendItem,
    parse_campaign,
    write_campaign,
)
from companion.rules.campaign.state import (
    CampaignState,
    Crossing,
    Reminder,
    load_campaign,
    reminder_items,
    setup_reminders,
    unlocked_header,
)
from companion.rules.campaign.state import (
    replay as replay_campaign,
)
from companion.rules.campaign.stats import (
    campaign_stats,
)
from companion.rules.campaign.titles import (
    title_for,
)
from companion.rules.campaign.track import (
    HEX_BY_ID,
    HEXES,
    PATH_BY_ID,
    PATHS,
    TOTAL_CIRCLES,
    TrackPath,
)
from companion.rules.campaign.unlocks import (
    RED_HEART,
    Content,
    Effects,
)
from companion.rules.duel.turns import (
    Turn,
    duel_turn,
)
from companion.rules.errors import (
    CampaignError,
    IllegalPlacementError,
    NotationError,
    RulesError,
)
from companion.rules.game import (
    FIRST_TASK_TURNS,
    MIN_ACTIVE,
    Game,
    next_tile_kind,
    replay,
    replay_text,
    stack_limits,
)
from companion.rules.hexgrid import (
    DIRECTIONS,
    EDGE_NAMES,
    Hex,
    Layout,
    hex_round,
    opposite,
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
from companion.rules.numbers import (
    whole_number,
)
from companion.rules.ordering import (
    connected_order,
)
from companion.rules.pools import (
    board_game_pool,
    duel_pool,
    marker_pool,
    markers_left,
    markers_used,
)
from companion.rules.randomgame import (
    random_game,
    random_record,
)
from companion.rules.reasons import (
    CODES,
    Reason,
    clip,
    ordinal,
    render,
    rule_text,
)
from companion.rules.recording import (
    Position,
    RedoEntry,
    add_completed,
    build_placement,
    check_placement,
    completed_total,
    explain_illegal,
    illegal_now,
    load_position,
    place,
    redo,
    remove_completed,
    undo,
)
from companion.rules.rulebook import (
    RuleSection,
)
from companion.rules.rulebook import (
    search as search_rules,
)
from companion.rules.rulings import (
    RULINGS,
    Ruling,
)
from companion.rules.scoring import (
    DuelSheet,
    Sheet,
    explain_lines,
    score,
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
    "clip",
    "ordinal",
    "AchievedEvent",
    "add_completed",
    "best_alignment",
    "Board",
    "box_flags",
    "BoxFlag",
    "DUEL_HOLDS",
    "duel_kind",
    "board_game_pool",
    "build_placement",
    "campaign_stats",
    "CampaignError",
    "CampaignRecord",
    "CampaignState",
    "canonical",
    "catalogue",
    "check_code",
    "check_great_mill",
    "check_placement",
    "CODES",
    "COMPLETED",
    "completed_total",
    "connected_order",
    "Content",
    "Crossing",
    "DIRECTIONS",
    "duel_pool",
    "DUEL_SPECIALS",
    "DUEL_TASK_TYPES",
    "duel_turn",
    "DuelSheet",
    "EDGE_NAMES",
    "edges_can_meet",
    "Effects",
    "Event",
    "explain_illegal",
    "explain_lines",
    "FAILED",
    "Fit",
    "fit",
    "fits",
    "FLAG_TYPES",
    "format_placement",
    "Game",
    "GameEvent",
    "Hex",
    "HEX_BY_ID",
    "hex_round",
    "HEXES",
    "illegal_now",
    "in_play",
    "InPlay",
    "IllegalPlacementError",
    "Layout",
    "LETTER_OF",
    "load_campaign",
    "load_position",
    "Marker",
    "marker_pool",
    "markers_left",
    "markers_used",
    "merge_maps",
    "next_tile_kind",
    "FIRST_TASK_TURNS",
    "MIN_ACTIVE",
    "stack_limits",
    "NotationError",
    "opposite",
    "parse_campaign",
    "parse_catalogue",
    "parse_placement",
    "parse_record",
    "parse_task",
    "PATH_BY_ID",
    "PATHS",
    "place",
    "placement_flags",
    "Placement",
    "Position",
    "random_game",
    "random_record",
    "Reason",
    "Record",
    "RED_HEART",
    "redo",
    "RedoEntry",
    "Reminder",
    "reminder_items",
    "remove_completed",
    "clip",
    "ordinal",
    "render",
    "replay",
    "replay_campaign",
    "replay_text",
    "rotate",
    "rule_text",
    "RuleSection",
    "RulesError",
    "Ruling",
    "RULINGS",
    "score",
    "score_text",
    "search_rules",
    "Section",
    "setup_reminders",
    "Sheet",
    "SPECIAL_TILES",
    "SpendEvent",
    "SpendItem",
    "TASK_TYPES",
    "TaskSpec",
    "TERRAINS",
    "TERRITORY_TYPES",
    "tiles_left",
    "title_for",
    "TOTAL_CIRCLES",
    "TrackPath",
    "Turn",
    "undo",
    "unlocked_header",
    "write_campaign",
    "whole_number",
    "write_record",
]
