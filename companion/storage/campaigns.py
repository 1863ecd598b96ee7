"""Campaigns: players, finished games, spending and achievements, replayed by the engine.

Representation: a ``campaigns`` row (name, ``version`` for optimistic concurrency), its
players (``players`` + ``campaign_players`` with their order), its games (``games`` rows
with ``campaign_id``; finished ones carry ``number`` 1, 2, ... and ``score``), and the
events after each game: ``spending`` rows (path, count, optional from_hex) and
``achievements`` rows (achievement id), ordered by ``seq``, one counter per campaign. The
campaign record (notation.md §4) is *derived* from these rows (``campaign_record``) and
replayed by ``companion.rules.campaign`` for every read, so the sheet is never stored
twice and can never disagree with what was spent.

The web app adds an owner and share tokens (``companion.storage.sharing``) and the
*confirmed* mark ``confirmed_seq``: the spending and achievement rows after the last
game whose ``seq`` is above it are *pending* (they count on the sheet at once and survive
a reload) and may be undone (``undo_pending``) until the players confirm them
(``confirm``); a newly recorded game makes them final as well (the engine only undoes
events after the last game).

Every change checks the campaign version it was made from (``expected_version``; None
skips the check, for tools), is validated by the engine before anything is written
(a refusal raises ``CampaignError`` and writes nothing) and runs as one transaction.
"""

from __future__ import annotations

from typing import Any

import sqlite_utils

from companion.rules import (
    AchievedEvent,
    CampaignError,
    CampaignRecord,
    CampaignState,
    Content,
    Event,
    GameEvent,
    SpendEvent,
    SpendItem,
    campaign_stats,
    title_for,
    unlocked_header,
    write_campaign,
)
from companion.rules import replay_campaign as replay
from companion.storage.database import now, transaction
from companion.storage.errors import NotFoundError, StaleEditError, StorageError
from companion.storage.games import insert_game_row
from companion.storage.limits import GAMES_PER_CAMPAIGN, check
from companion.storage.sharing import give_to, marks


def _check_text(value: str, what: str, forbidden: str) -> None:
    """Refuse characters the campaign record could not write back (notation.md §4)."""
    bad = [c for c in forbidden if c in value]
    if bad:
        shown = ", ".join(repr(c) for c in bad)
        raise CampaignError(f"{what} {value.strip()!r} may not contain {shown}")


def player_id(db: sqlite_utils.Database, name: str) -> int:
    """The id of the player called ``name``, created if new (inside a transaction)."""
    name = name.strip()
    if not name:
        raise CampaignError("a player needs a name")
    _check_text(name, "player name", ",#\n\r")
    row = db.execute("SELECT id FROM players WHERE name = ?", [name]).fetchone()
    if row:
        return int(row[0])
    cursor = db.execute("INSERT INTO players (name, created) VALUES (?, ?)", [name, now()])
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def insert_campaign_row(db: sqlite_utils.Database, name: str | None, players: list[str]) -> int:
    if name is not None:
        _check_text(name, "campaign name", "#\n\r")
    stamp = now()
    cursor = db.execute(
        "INSERT INTO campaigns (name, version, created, updated) VALUES (?, 1, ?, ?)",
        [name, stamp, stamp],
    )
    cid = cursor.lastrowid
    assert cid is not None
    for position, who in enumerate(players):
        db.execute(
            "INSERT OR IGNORE INTO campaign_players (campaign_id, player_id, position) "
            "VALUES (?, ?, ?)",
            [cid, player_id(db, who), position],
        )
    return cid


def create_campaign(
    db: sqlite_utils.Database, name: str | None, players: list[str] | tuple[str, ...] = (),
    owner: str | None = None,
) -> int:
    """A new, empty campaign (owned by ``owner``, with fresh share tokens, when given);
    return its id."""
    with transaction(db):
        cid = insert_campaign_row(db, name, list(players))
        if owner is not None:
            give_to(db, "campaigns", cid, owner)
        return cid


def players_of(db: sqlite_utils.Database, campaign_id: int) -> list[str]:
    """The names of the campaign's players, in order."""
    return [r["name"] for r in db.query(
        "SELECT p.name FROM campaign_players cp JOIN players p ON p.id = cp.player_id "
        "WHERE cp.campaign_id = ? ORDER BY cp.position", [campaign_id])]


def get_campaign(db: sqlite_utils.Database, campaign_id: int) -> dict[str, Any]:
    """The campaign row with its ``players`` (names in order)."""
    rows = list(db.query("SELECT * FROM campaigns WHERE id = ?", [campaign_id]))
    if not rows:
        raise NotFoundError(f"no campaign {campaign_id}")
    row = rows[0]
    row["players"] = players_of(db, campaign_id)
    return row


def campaigns_for(db: sqlite_utils.Database, owner: str, shared: list[int]) -> list[dict[str, Any]]:
    """The campaigns this browser owns or was given a link to, last changed first, each with
    its ``players`` and its number of finished (``games``) and in-progress (``playing``)
    games."""
    rows = list(db.query(
        "SELECT c.*, (SELECT COUNT(*) FROM games g WHERE g.campaign_id = c.id AND "
        "g.status = 'finished') AS games, (SELECT COUNT(*) FROM games g WHERE "
        "g.campaign_id = c.id AND g.status = 'in_progress') AS playing FROM campaigns c "
        f"WHERE c.owner = ? OR c.id IN ({marks(shared)}) ORDER BY c.updated DESC, c.id DESC",
        [owner, *shared],
    ))
    for row in rows:
        row["players"] = players_of(db, int(row["id"]))
    return rows


def list_campaigns(db: sqlite_utils.Database) -> list[dict[str, Any]]:
    return list(db.query("SELECT * FROM campaigns ORDER BY updated DESC, id DESC"))


def finished_games(db: sqlite_utils.Database, campaign_id: int) -> list[dict[str, Any]]:
    return list(db.query(
        "SELECT id, number, score, record, sheet FROM games WHERE campaign_id = ? "
        "AND status = 'finished' ORDER BY number", [campaign_id]))


def games_in_progress(db: sqlite_utils.Database, campaign_id: int) -> list[dict[str, Any]]:
    """The campaign's games being played (id, version, record, created), oldest first."""
    return list(db.query(
        "SELECT id, version, record, created FROM games WHERE campaign_id = ? AND "
        "status = 'in_progress' ORDER BY id", [campaign_id]))


def campaign_record(db: sqlite_utils.Database, campaign_id: int) -> CampaignRecord:
    """The campaign record (notation.md §4) derived from the stored rows."""
    camp = get_campaign(db, campaign_id)
    events: list[Event] = []
    rows = list(db.query(
        "SELECT g.number AS number, e.seq AS seq, e.kind AS kind, e.a AS a, e.b AS b, "
        "e.c AS c FROM (SELECT game_id, seq, 'spend' AS kind, path AS a, count AS b, "
        "from_hex AS c FROM spending WHERE campaign_id = :cid UNION ALL SELECT game_id, seq, "
        "'achieved', achievement, NULL, NULL FROM achievements WHERE campaign_id = :cid) e "
        "JOIN games g ON g.id = e.game_id ORDER BY e.seq", {"cid": campaign_id}))
    by_game: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        by_game.setdefault(row["number"], []).append(row)
    for game in finished_games(db, campaign_id):
        events.append(GameEvent(game["score"]))
        for row in by_game.get(game["number"], []):
            last = events[-1]
            if row["kind"] == "spend":
                item = SpendItem(row["a"], row["b"], row["c"])
                if isinstance(last, SpendEvent):
                    events[-1] = SpendEvent(last.items + (item,))
                else:
                    events.append(SpendEvent((item,)))
            elif isinstance(last, AchievedEvent):
                events[-1] = AchievedEvent(last.ids + (row["a"],))
            else:
                events.append(AchievedEvent((row["a"],)))
    return CampaignRecord(camp["name"], camp["players"], events)


def campaign_record_text(db: sqlite_utils.Database, campaign_id: int) -> str:
    return write_campaign(campaign_record(db, campaign_id))


def load_state(
    db: sqlite_utils.Database, campaign_id: int, content: Content | None = None,
) -> CampaignState:
    """The campaign sheet: the derived record replayed by the rules engine."""
    return replay(campaign_record(db, campaign_id), content)


def campaign_history(db: sqlite_utils.Database, campaign_id: int) -> dict[str, Any]:
    """History and statistics as plain data (see ``companion.rules.campaign_stats``)."""
    return campaign_stats(load_state(db, campaign_id))


def _bump(db: sqlite_utils.Database, campaign_id: int, expected: int | None) -> None:
    if expected is None:
        cursor = db.execute(
            "UPDATE campaigns SET version = version + 1, updated = ? WHERE id = ?",
            [now(), campaign_id],
        )
    else:
        cursor = db.execute(
            "UPDATE campaigns SET version = version + 1, updated = ? "
            "WHERE id = ? AND version = ?", [now(), campaign_id, expected],
        )
    if cursor.rowcount == 0:
        current = get_campaign(db, campaign_id)["version"]  # NotFoundError if missing
        assert expected is not None
        raise StaleEditError(f"campaign {campaign_id}", expected, current)


def _next_seq(db: sqlite_utils.Database, campaign_id: int) -> int:
    row = db.execute(
        "SELECT MAX(s) FROM (SELECT MAX(seq) AS s FROM spending WHERE campaign_id = :c "
        "UNION ALL SELECT MAX(seq) FROM achievements WHERE campaign_id = :c)",
        {"c": campaign_id},
    ).fetchone()
    return 1 + (row[0] or 0)


def _last_game_id(db: sqlite_utils.Database, campaign_id: int) -> int:
    games = finished_games(db, campaign_id)
    if not games:
        raise CampaignError("no game recorded yet: crosses come from a game's score")
    return int(games[-1]["id"])


def insert_spend_row(db: sqlite_utils.Database, campaign_id: int, game_id: int,
                     item: SpendItem) -> None:
    db.execute(
        "INSERT INTO spending (campaign_id, game_id, seq, path, count, from_hex, created) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [campaign_id, game_id, _next_seq(db, campaign_id), item.path, item.count,
         item.from_hex, now()],
    )


def insert_achievement_row(db: sqlite_utils.Database, campaign_id: int, game_id: int,
                           achievement: str) -> None:
    db.execute(
        "INSERT INTO achievements (campaign_id, game_id, seq, achievement, created) "
        "VALUES (?, ?, ?, ?, ?)",
        [campaign_id, game_id, _next_seq(db, campaign_id), achievement, now()],
    )


def spend(
    db: sqlite_utils.Database, campaign_id: int, path: str, count: int = 1,
    from_hex: str | None = None, *, expected_version: int | None,
) -> CampaignState:
    """Cross circles (checked by R-6 against the stored campaign); return the new sheet."""
    with transaction(db):
        _bump(db, campaign_id, expected_version)
        state = load_state(db, campaign_id)
        state.spend(path, count, from_hex)
        event = state.events[-1]
        assert isinstance(event, SpendEvent)
        insert_spend_row(db, campaign_id, _last_game_id(db, campaign_id), event.items[-1])
    return state


def achieve(
    db: sqlite_utils.Database, campaign_id: int, achievement: str, *,
    expected_version: int | None,
) -> CampaignState:
    """Tick an achievement met during the last game; return the new sheet."""
    with transaction(db):
        _bump(db, campaign_id, expected_version)
        state = load_state(db, campaign_id)
        state.achieve(achievement)
        insert_achievement_row(db, campaign_id, _last_game_id(db, campaign_id), achievement)
    return state


def undo_last(
    db: sqlite_utils.Database, campaign_id: int, *, expected_version: int | None,
) -> CampaignState:
    """Take back the last spending or achievement after the last game."""
    with transaction(db):
        _bump(db, campaign_id, expected_version)
        game_id = _last_game_id(db, campaign_id)
        row = db.execute(
            "SELECT kind, id FROM (SELECT 'spending' AS kind, id, seq FROM spending WHERE "
            "game_id = :g UNION ALL SELECT 'achievements', id, seq FROM achievements WHERE "
            "game_id = :g) ORDER BY seq DESC LIMIT 1", {"g": game_id},
        ).fetchone()
        if row is None:
            raise CampaignError("nothing to undo since the last game")
        db.execute(f"DELETE FROM {row[0]} WHERE id = ?", [row[1]])
        state = load_state(db, campaign_id)
    return state


def last_seq(db: sqlite_utils.Database, campaign_id: int) -> int:
    """The ``seq`` of the newest spending or achievement row after the last game (0: none)."""
    games = finished_games(db, campaign_id)
    if not games:
        return 0
    row = db.execute(
        "SELECT MAX(s) FROM (SELECT MAX(seq) AS s FROM spending WHERE game_id = :g "
        "UNION ALL SELECT MAX(seq) FROM achievements WHERE game_id = :g)",
        {"g": games[-1]["id"]},
    ).fetchone()
    return int(row[0] or 0)


def pending_count(db: sqlite_utils.Database, campaign: dict[str, Any]) -> int:
    """How many spending/achievement rows after the last game are not confirmed yet."""
    games = finished_games(db, int(campaign["id"]))
    if not games:
        return 0
    row = db.execute(
        "SELECT (SELECT COUNT(*) FROM spending WHERE game_id = :g AND seq > :c) + "
        "(SELECT COUNT(*) FROM achievements WHERE game_id = :g AND seq > :c)",
        {"g": games[-1]["id"], "c": int(campaign.get("confirmed_seq") or 0)},
    ).fetchone()
    return int(row[0])


def confirm(db: sqlite_utils.Database, campaign_id: int, expected_version: int) -> int:
    """Make the pending spending final (no undo past it); return the new version."""
    with transaction(db):
        cursor = db.execute(
            "UPDATE campaigns SET version = version + 1, updated = :now, confirmed_seq = "
            "MAX(confirmed_seq, :seq) WHERE id = :id AND version = :v",
            {"now": now(), "seq": last_seq(db, campaign_id), "id": campaign_id,
             "v": expected_version},
        )
        if cursor.rowcount == 0:
            current = get_campaign(db, campaign_id)["version"]
            raise StaleEditError(f"campaign {campaign_id}", expected_version, current)
    return expected_version + 1


def undo_pending(db: sqlite_utils.Database, campaign: dict[str, Any],
                 expected_version: int) -> None:
    """Take back the newest pending row; confirmed rows stay (``CampaignError``)."""
    if last_seq(db, int(campaign["id"])) <= int(campaign.get("confirmed_seq") or 0):
        raise CampaignError("nothing to undo: the spending is confirmed")
    undo_last(db, int(campaign["id"]), expected_version=expected_version)


def record_score(
    db: sqlite_utils.Database, campaign_id: int, score: int, *, record: str = "",
    sheet: dict[str, Any] | None = None, expected_version: int | None,
) -> int:
    """Add a finished game known only by its total (or with its record); return its id."""
    title_for(score)
    with transaction(db):
        _bump(db, campaign_id, expected_version)
        number = len(finished_games(db, campaign_id)) + 1
        check(number, GAMES_PER_CAMPAIGN, "games in a campaign")
        return insert_game_row(db, record, sheet=sheet, status="finished", score=score,
                               campaign_id=campaign_id, number=number)


def start_campaign_game(db: sqlite_utils.Database, campaign_id: int,
                        expected_version: int | None = None) -> int:
    """Start the campaign's next game: an in-progress record whose headers name the
    players and the unlocked score rows (``unlocked:``) of the campaign. With
    ``expected_version`` it is started once per version of the campaign (the version is
    bumped with it): a repeated or concurrent post of the same form gets
    ``StaleEditError`` instead of a second game."""
    camp = get_campaign(db, campaign_id)
    header = unlocked_header(load_state(db, campaign_id))
    lines = ["game: board-game"]
    if camp["players"]:
        lines.append("players: " + ", ".join(camp["players"]))
    if header:
        lines.append(f"unlocked: {header}")
    with transaction(db):
        if expected_version is not None:
            _bump(db, campaign_id, expected_version)
        return insert_game_row(db, "\n".join(lines) + "\n", campaign_id=campaign_id)


__all__ = [
    "NOTE_LIMIT",
    "achieve",
    "campaign_history",
    "campaign_record",
    "campaign_record_text",
    "campaigns_for",
    "confirm",
    "create_campaign",
    "finished_games",
    "games_in_progress",
    "get_campaign",
    "insert_achievement_row",
    "insert_campaign_row",
    "insert_spend_row",
    "last_seq",
    "list_campaigns",
    "load_state",
    "pending_count",
    "player_id",
    "players_of",
    "record_score",
    "spend",
    "start_campaign_game",
    "undo_last",
    "set_unlock_note",
    "undo_pending",
    "unlock_notes",
]


# ------------------------------------------------------------ the players' card notes
NOTE_LIMIT = 2000
"""Characters of one note (what the players copy from a card the companion lacks)."""


def unlock_notes(db: sqlite_utils.Database, campaign_id: int) -> dict[str, str]:
    """The players' notes of a campaign: unlock id -> text."""
    if "unlock_notes" not in db.table_names():
        return {}
    rows = db.execute("SELECT unlock_id, text FROM unlock_notes WHERE campaign_id = ?",
                      [campaign_id]).fetchall()
    return {str(u): str(t) for u, t in rows}


def set_unlock_note(db: sqlite_utils.Database, campaign_id: int, unlock_id: str,
                    text: str) -> None:
    """Save (or, with empty ``text``, remove) the players' note on one unlock."""
    get_campaign(db, campaign_id)  # NotFoundError for a campaign that is not there
    text = text.strip()
    if len(text) > NOTE_LIMIT or len(unlock_id) > 100:
        raise StorageError(f"a note holds at most {NOTE_LIMIT} characters")
    with transaction(db):
        if text:
            db.execute("INSERT INTO unlock_notes (campaign_id, unlock_id, text, updated) "
                       "VALUES (?, ?, ?, ?) ON CONFLICT (campaign_id, unlock_id) DO UPDATE "
                       "SET text = excluded.text, updated = excluded.updated",
                       [campaign_id, unlock_id, text, now()])
        else:
            db.execute("DELETE FROM unlock_notes WHERE campaign_id = ? AND unlock_id = ?",
                       [campaign_id, unlock_id])
