-- Seeded deals are practice: recorded, never counted in /stats or /leaderboard.
ALTER TABLE finished_games ADD COLUMN seeded BOOLEAN NOT NULL DEFAULT false;

-- Who may deal a seeded game here: 'anyone', 'moderators' or 'off'; NULL: the default (anyone).
ALTER TABLE guild_settings ADD COLUMN seeding TEXT CHECK (seeding IN ('anyone', 'moderators', 'off'));
