"""Migration 1: the core tables of games and campaigns.

Representation: ``players`` (unique names), ``campaigns`` (name, ``version``),
``campaign_players`` (a campaign's players in order), ``games`` (``record`` in the
notation, ``sheet`` JSON, ``score``, ``status``, ``version``; ``campaign_id`` and
``number`` for a campaign's games), ``spending`` and ``achievements`` (the events after a
campaign game, ordered by ``seq``); see ``companion.storage.games`` and ``campaigns``.
"""

from __future__ import annotations

import sqlite_utils

from companion.storage.migrations.statements import run_statements

NUMBER = 1
NAME = "core tables: players, campaigns, games, spending, achievements"


def apply(db: sqlite_utils.Database) -> None:
    run_statements(
        db,
        """
        CREATE TABLE IF NOT EXISTS players (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            created TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS campaigns (
            id INTEGER PRIMARY KEY,
            name TEXT,
            version INTEGER NOT NULL DEFAULT 1,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS campaign_players (
            campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
            player_id INTEGER NOT NULL REFERENCES players(id),
            position INTEGER NOT NULL,
            PRIMARY KEY (campaign_id, player_id)
        );
        CREATE TABLE IF NOT EXISTS games (
            id INTEGER PRIMARY KEY,
            campaign_id INTEGER REFERENCES campaigns(id) ON DELETE CASCADE,
            number INTEGER,
            record TEXT NOT NULL,
            sheet TEXT,
            score INTEGER,
            status TEXT NOT NULL CHECK (status IN ('in_progress', 'finished')),
            version INTEGER NOT NULL DEFAULT 1,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            CHECK (status = 'in_progress' OR score IS NOT NULL OR campaign_id IS NULL),
            UNIQUE (campaign_id, number)
        );
        CREATE TABLE IF NOT EXISTS spending (
            id INTEGER PRIMARY KEY,
            campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            path TEXT NOT NULL,
            count INTEGER NOT NULL CHECK (count > 0),
            from_hex TEXT,
            created TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS achievements (
            id INTEGER PRIMARY KEY,
            campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            achievement TEXT NOT NULL,
            created TEXT NOT NULL,
            UNIQUE (campaign_id, achievement)
        );
        CREATE INDEX IF NOT EXISTS games_campaign ON games(campaign_id, number);
        CREATE INDEX IF NOT EXISTS spending_campaign ON spending(campaign_id, seq);
        CREATE INDEX IF NOT EXISTS achievements_campaign ON achievements(campaign_id, seq);
        """
    )
