-- A database written by the web app before its migrations became one sequence (main at 4303fc3):
-- a game with share tokens, a campaign with a scored game, a photo and its review, a redo stack.
BEGIN TRANSACTION;
CREATE TABLE achievements (
            id INTEGER PRIMARY KEY,
            campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            achievement TEXT NOT NULL,
            created TEXT NOT NULL,
            UNIQUE (campaign_id, achievement)
        );
CREATE TABLE campaign_players (
            campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
            player_id INTEGER NOT NULL REFERENCES players(id),
            position INTEGER NOT NULL,
            PRIMARY KEY (campaign_id, player_id)
        );
INSERT INTO "campaign_players" VALUES(1,1,0);
INSERT INTO "campaign_players" VALUES(1,2,1);
CREATE TABLE campaigns (
            id INTEGER PRIMARY KEY,
            name TEXT,
            version INTEGER NOT NULL DEFAULT 1,
            created TEXT NOT NULL,
            updated TEXT NOT NULL
        , owner TEXT, view_token TEXT, edit_token TEXT, confirmed_seq INTEGER NOT NULL DEFAULT 0);
INSERT INTO "campaigns" VALUES(1,'Legacy',2,'2026-12-01T09:01:35+00:00','2026-12-01T09:01:35+00:00','owner-1','TiMcQYhsHDd55Yrl_OlBkQ','iyHck_a10uMC4IlqXZxr7w',0);
CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            campaign_id INTEGER REFERENCES campaigns(id) ON DELETE CASCADE,
            number INTEGER,
            record TEXT NOT NULL,
            sheet TEXT,
            score INTEGER,
            status TEXT NOT NULL CHECK (status IN ('in_progress', 'finished')),
            version INTEGER NOT NULL DEFAULT 1,
            created TEXT NOT NULL,
            updated TEXT NOT NULL, owner TEXT, view_token TEXT, edit_token TEXT,
            CHECK (status = 'in_progress' OR score IS NOT NULL OR campaign_id IS NULL),
            UNIQUE (campaign_id, number)
        );
INSERT INTO "games" VALUES(1,NULL,NULL,'game: board-game
players: Ana
0 0 GGGGGG task=grain/4
0 -1 MMMGMM
1 -1 MGGMGG
','{"game": "board-game", "tasks": {"forest": 0, "grain": 0, "village": 0, "track": 0, "stream": 0}, "tasks_total": 0, "flags": {"forest": 0, "grain": 0, "village": 0}, "longest": {"track": 0, "stream": 0}, "bonus_total": 0, "unlocked": {}, "unlocked_total": 0, "total": 0, "markers": [{"line": 3, "at": [0, 0], "type": "grain", "value": 4, "state": "active", "turn": null}], "pad": {"B1": 0, "B2": 0, "B3": 0, "B4": 0, "B5": 0, "S1": 0, "C1": 0, "C2": 0, "C3": 0, "D1": 0, "D2": 0, "S2": 0, "S3": 0, "H": 0}, "explanations": {"tasks.forest": {"value": 0, "text": "forest tasks: sum of completed markers", "tiles": [], "turns": [], "rulings": []}, "tasks.grain": {"value": 0, "text": "grain tasks: sum of completed markers", "tiles": [[0, 0]], "turns": [], "rulings": [], "items": [{"value": 0, "text": "grain/4 at (0, 0) (line 3) still active: its grain territory has 3 of 4 tiles", "tiles": [[0, 0]], "turns": [], "rulings": []}]}, "tasks.village": {"value": 0, "text": "village tasks: sum of completed markers", "tiles": [], "turns": [], "rulings": []}, "tasks.track": {"value": 0, "text": "track tasks: sum of completed markers", "tiles": [], "turns": [], "rulings": []}, "tasks.stream": {"value": 0, "text": "stream tasks: sum of completed markers", "tiles": [], "turns": [], "rulings": []}, "tasks_total": {"value": 0, "text": "S1: sum of B1-B5", "tiles": [[0, 0]], "turns": [], "rulings": [], "items": [{"value": 0, "text": "forest tasks: sum of completed markers", "tiles": [], "turns": [], "rulings": []}, {"value": 0, "text": "grain tasks: sum of completed markers", "tiles": [], "turns": [], "rulings": []}, {"value": 0, "text": "village tasks: sum of completed markers", "tiles": [], "turns": [], "rulings": []}, {"value": 0, "text": "track tasks: sum of completed markers", "tiles": [], "turns": [], "rulings": []}, {"value": 0, "text": "stream tasks: sum of completed markers", "tiles": [], "turns": [], "rulings": []}]}, "flags.forest": {"value": 0, "text": "forest flags: each flag in a closed forest territory scores its size", "tiles": [], "turns": [], "rulings": []}, "flags.grain": {"value": 0, "text": "grain flags: each flag in a closed grain territory scores its size", "tiles": [], "turns": [], "rulings": []}, "flags.village": {"value": 0, "text": "village flags: each flag in a closed village territory scores its size", "tiles": [], "turns": [], "rulings": []}, "longest.track": {"value": 0, "text": "no track on the map", "tiles": [], "turns": [], "rulings": ["R-2"]}, "longest.stream": {"value": 0, "text": "no stream on the map", "tiles": [], "turns": [], "rulings": ["R-2"]}, "bonus_total": {"value": 0, "text": "S2: flags plus longest track and stream", "tiles": [], "turns": [], "rulings": ["R-2"], "items": [{"value": 0, "text": "forest flags: each flag in a closed forest territory scores its size", "tiles": [], "turns": [], "rulings": []}, {"value": 0, "text": "grain flags: each flag in a closed grain territory scores its size", "tiles": [], "turns": [], "rulings": []}, {"value": 0, "text": "village flags: each flag in a closed village territory scores its size", "tiles": [], "turns": [], "rulings": []}, {"value": 0, "text": "no track on the map", "tiles": [], "turns": [], "rulings": []}, {"value": 0, "text": "no stream on the map", "tiles": [], "turns": [], "rulings": []}]}, "unlocked_total": {"value": 0, "text": "S3: unlocked components", "tiles": [], "turns": [], "rulings": []}, "total": {"value": 0, "text": "H: S1 + S2 + S3", "tiles": [[0, 0]], "turns": [], "rulings": ["R-2"], "items": [{"value": 0, "text": "S1: sum of B1-B5", "tiles": [], "turns": [], "rulings": []}, {"value": 0, "text": "S2: flags plus longest track and stream", "tiles": [], "turns": [], "rulings": []}, {"value": 0, "text": "S3: unlocked components", "tiles": [], "turns": [], "rulings": []}]}}, "warnings": [{"line": 4, "turn": 2, "text": "a task tile should have been revealed (one of the first 3 turns)"}, {"line": 5, "turn": 3, "text": "a task tile should have been revealed (one of the first 3 turns)"}]}',NULL,'in_progress',2,'2026-12-01T09:01:35+00:00','2026-12-01T09:01:35+00:00','owner-1','Azz27lH90DYnE9vSID02ow','HKgCrP3r3nRwerEimnJ9fA');
INSERT INTO "games" VALUES(2,1,1,'',NULL,120,'finished',1,'2026-12-01T09:01:35+00:00','2026-12-01T09:01:35+00:00',NULL,NULL,NULL);
CREATE TABLE migrations (number INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL);
INSERT INTO "migrations" VALUES(1,'core tables: players, campaigns, games, spending, achievements','2026-12-01T09:01:35+00:00');
INSERT INTO "migrations" VALUES(1001,'web: games.owner, games.view_token, games.edit_token','2026-12-01T09:01:35+00:00');
INSERT INTO "migrations" VALUES(1101,'web: campaigns.owner, view_token, edit_token, confirmed_seq','2026-12-01T09:01:35+00:00');
INSERT INTO "migrations" VALUES(1201,'web: photos of a game''s table and the photo review draft','2026-12-01T09:01:35+00:00');
CREATE TABLE photo_reviews (
            game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
            state TEXT NOT NULL,
            status TEXT NOT NULL CHECK (status IN ('review', 'confirmed')),
            version INTEGER NOT NULL DEFAULT 1,
            updated TEXT NOT NULL
        );
INSERT INTO "photo_reviews" VALUES(1,'{"tiles": [], "photos": [1]}','review',1,'2026-12-01T09:01:35+00:00');
CREATE TABLE photos (
            id INTEGER PRIMARY KEY,
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            jpeg BLOB,
            path TEXT,
            width INTEGER NOT NULL,
            height INTEGER NOT NULL,
            scan TEXT,
            created TEXT NOT NULL,
            CHECK (jpeg IS NOT NULL OR path IS NOT NULL)
        );
INSERT INTO "photos" VALUES(1,1,X'FFD86A706567',NULL,10,10,'{"tiles": []}','2026-12-01T09:01:35+00:00');
CREATE TABLE play_redo (game_id INTEGER PRIMARY KEY, version INTEGER NOT NULL, stack TEXT NOT NULL);
INSERT INTO "play_redo" VALUES(1,2,'[[null, "1 0 MMMMMG"]]');
CREATE TABLE players (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            created TEXT NOT NULL
        );
INSERT INTO "players" VALUES(1,'Ana','2026-12-01T09:01:35+00:00');
INSERT INTO "players" VALUES(2,'Rui','2026-12-01T09:01:35+00:00');
CREATE TABLE spending (
            id INTEGER PRIMARY KEY,
            campaign_id INTEGER NOT NULL REFERENCES campaigns(id) ON DELETE CASCADE,
            game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            path TEXT NOT NULL,
            count INTEGER NOT NULL CHECK (count > 0),
            from_hex TEXT,
            created TEXT NOT NULL
        );
CREATE INDEX games_campaign ON games(campaign_id, number);
CREATE INDEX spending_campaign ON spending(campaign_id, seq);
CREATE INDEX achievements_campaign ON achievements(campaign_id, seq);
CREATE INDEX games_owner ON games(owner, updated);
CREATE UNIQUE INDEX games_view_token ON games(view_token);
CREATE UNIQUE INDEX games_edit_token ON games(edit_token)
        ;
CREATE INDEX campaigns_owner ON campaigns(owner, updated);
CREATE UNIQUE INDEX campaigns_view_token ON campaigns(view_token);
CREATE UNIQUE INDEX campaigns_edit_token ON campaigns(edit_token)
        ;
CREATE INDEX photos_game ON photos(game_id, id);
COMMIT;
