-- Stored games their engine could not restore, moved out of active_games so the channel is
-- free again, and kept here as they were for whoever runs the bot to inspect.
CREATE TABLE set_aside_games (
    id           BIGSERIAL   PRIMARY KEY,
    channel_id   BIGINT      NOT NULL,
    guild_id     BIGINT,
    game         TEXT        NOT NULL,
    version      BIGINT      NOT NULL,
    data         JSONB       NOT NULL,  -- the session snapshot, untouched
    reason       TEXT        NOT NULL,  -- why it could not be restored
    set_aside_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
