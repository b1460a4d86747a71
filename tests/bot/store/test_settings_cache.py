"""The guild settings a store keeps between reads (bot/store/_common.py SettingsCache)."""

from __future__ import annotations

import pytest

from bot.store._common import SettingsCache
from bot.store.base import GuildSettings

GUILD = 7


class Database:
    """Guild settings behind a counter of reads, and a write that can fail."""

    def __init__(self) -> None:
        self.rows: dict[int, GuildSettings] = {}
        self.reads = 0
        self.fail_writes = False

    async def read(self, guild_id: int) -> GuildSettings:
        self.reads += 1
        return self.rows.get(guild_id, GuildSettings(guild_id=guild_id))

    async def write(self, settings: GuildSettings) -> None:
        self.rows[settings.guild_id] = settings  # written, then the answer is lost
        if self.fail_writes:
            raise ConnectionError("the answer was lost")


async def test_settings_are_read_once_while_fresh() -> None:
    database, cache = Database(), SettingsCache()
    for _ in range(4):
        assert await cache.get(GUILD, database.read) == GuildSettings(guild_id=GUILD)
    assert database.reads == 1


async def test_settings_saved_are_seen_at_once_without_a_read() -> None:
    database, cache = Database(), SettingsCache()
    await cache.get(GUILD, database.read)
    chosen = GuildSettings(guild_id=GUILD, turn_seconds=30)
    await cache.save(chosen, database.write)
    assert await cache.get(GUILD, database.read) == chosen
    assert database.reads == 1


async def test_a_change_made_elsewhere_is_seen_once_the_kept_settings_are_stale() -> None:
    database, cache = Database(), SettingsCache(seconds=0.0)
    await cache.get(GUILD, database.read)
    database.rows[GUILD] = GuildSettings(guild_id=GUILD, language="ko")
    assert (await cache.get(GUILD, database.read)).language == "ko"


async def test_a_failed_write_leaves_the_settings_to_be_read_again() -> None:
    database, cache = Database(), SettingsCache()
    await cache.get(GUILD, database.read)
    database.fail_writes = True
    with pytest.raises(ConnectionError):
        await cache.save(GuildSettings(guild_id=GUILD, turn_seconds=45), database.write)
    # The write may have been made: what the database holds is read, not what was kept.
    assert (await cache.get(GUILD, database.read)).turn_seconds == 45
    assert database.reads == 2
