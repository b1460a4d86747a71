-- Active sessions (lobbies and running games), one per channel.
CREATE TABLE active_games (
    channel_id BIGINT      PRIMARY KEY,
    guild_id   BIGINT,
    game       TEXT        NOT NULL,
    version    BIGINT      NOT NULL,
    data       JSONB       NOT NULL,  -- the session snapshot
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX active_games_guild ON active_games (guild_id);

-- Finished games and how each seat ended, for /stats and /leaderboard.
CREATE TABLE finished_games (
    id          BIGINT      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    channel_id  BIGINT      NOT NULL,
    guild_id    BIGINT,
    game        TEXT        NOT NULL,
    ended_by    BIGINT,               -- the moderator who ended it, if one did
    finished_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE seat_results (
    finished_id BIGINT  NOT NULL REFERENCES finished_games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    member_id   BIGINT,               -- NULL: a computer seat
    outcome     TEXT    NOT NULL CHECK (outcome IN ('win', 'lose', 'draw')),
    score       BIGINT  NOT NULL,
    rank        INTEGER NOT NULL,
    PRIMARY KEY (finished_id, seat)
);

CREATE INDEX seat_results_member ON seat_results (member_id);
CREATE INDEX finished_games_guild ON finished_games (guild_id, game);

-- Per-guild configuration from /game settings; NULL means "the default".
CREATE TABLE guild_settings (
    guild_id          BIGINT PRIMARY KEY,
    turn_seconds      INTEGER,
    language          TEXT,
    moderator_role_id BIGINT,
    allowed_games     TEXT[]
);
