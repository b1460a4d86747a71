-- Stored games their engine could not restore, moved out of active_games so the channel is
-- free again, and kept here as they were for whoever runs the bot to inspect.
CREATE TABLE set_aside_games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    channel_id  INTEGER NOT NULL,
    guild_id    INTEGER,
    game        TEXT    NOT NULL,
    version     INTEGER NOT NULL,
    data        TEXT    NOT NULL,  -- the session snapshot as JSON, untouched
    reason      TEXT    NOT NULL,  -- why it could not be restored
    set_aside_at TEXT   NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
