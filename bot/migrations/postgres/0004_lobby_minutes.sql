-- How long a lobby waits for a join before it closes; NULL: the default (15 minutes).
ALTER TABLE guild_settings ADD COLUMN lobby_minutes INTEGER CHECK (lobby_minutes > 0);
