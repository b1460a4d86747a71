-- Active sessions (lobbies and running games), one per channel.
CREATE TABLE active_games (
    channel_id INTEGER PRIMARY KEY,
    guild_id   INTEGER,
    game       TEXT    NOT NULL,
    version    INTEGER NOT NULL,
    data       TEXT    NOT NULL,  -- the session snapshot as JSON
    updated_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Finished games and how each seat ended, for /stats and /leaderboard.
CREATE TABLE finished_games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id  INTEGER NOT NULL,
    guild_id    INTEGER,
    game        TEXT    NOT NULL,
    ended_by    INTEGER,          -- the moderator who ended it, if one did
    finished_at TEXT    NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE seat_results (
    finished_id INTEGER NOT NULL REFERENCES finished_games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    member_id   INTEGER,          -- NULL: a computer seat
    outcome     TEXT    NOT NULL CHECK (outcome IN ('win', 'lose', 'draw')),
    score       INTEGER NOT NULL,
    rank        INTEGER NOT NULL,
    PRIMARY KEY (finished_id, seat)
);

CREATE INDEX seat_results_member ON seat_results (member_id);
CREATE INDEX finished_games_guild ON finished_games (guild_id, game);

-- Per-guild configuration from /game settings; NULL means "the default".
CREATE TABLE guild_settings (
    guild_id          INTEGER PRIMARY KEY,
    turn_seconds      INTEGER,
    language          TEXT,
    moderator_role_id INTEGER,
    allowed_games     TEXT        -- JSON array of game names
);
