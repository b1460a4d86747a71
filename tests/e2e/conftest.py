"""End-to-end fixtures: a fake Discord on 127.0.0.1 and bots connected to it.

``fake_discord`` fails the test at teardown if Discord would have refused anything the bot
sent (a limit exceeded, a second or late interaction response, an unanswered interaction).
A test that provokes a refusal on purpose takes it with ``fake_discord.take_violations()``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.e2e.fakediscord import FakeDiscord, running_client

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from bot.settings import Settings
    from bot.store.base import GameStore


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fresh fake Discord with one guild and a ``games`` channel; no violations allowed."""
    async with FakeDiscord() as fake:
        yield fake
        fake.assert_no_violations()


class Deckhand:
    """Starts the real Deckhand bot against the fake, as often as a test needs.

    Every run uses the same SQLite file (``db_path``), so leaving one ``run()`` block and
    entering another is a restart: the new bot must restore the games the old one saved.
    """

    def __init__(self, fake: FakeDiscord, db_path: Path) -> None:
        self.fake = fake
        self.db_path = db_path
        self.runs = 0

    def settings(self, **overrides: Any) -> Settings:
        from bot.settings import Settings

        values: dict[str, Any] = {
            "discord_token": self.fake.token,
            "database_url": f"sqlite:///{self.db_path}",
            "dev_guild_id": self.fake.guild.id,
            "computer_delay_seconds": 0.0,
            "log_level": "WARNING",
        }
        values.update(overrides)
        return Settings(_env_file=None, **values)  # type: ignore[call-arg]

    @contextlib.asynccontextmanager
    async def run(self, *, memory: bool = False, **overrides: Any) -> AsyncIterator[DeckhandBot]:
        """The bot connected and ready; ``memory=True`` uses a MemoryStore instead of SQLite."""
        from bot.client import create_bot
        from bot.store.memory import MemoryStore
        from bot.store.sqlite import SQLiteStore

        store: GameStore = MemoryStore() if memory else SQLiteStore(self.db_path)
        # create_bot: a ShardedDeckhandBot when the settings name a shard count.
        bot = create_bot(self.settings(**overrides), store)
        self.runs += 1
        async with running_client(bot, self.fake):
            yield bot


@pytest.fixture
def deckhand(fake_discord: FakeDiscord, tmp_path: Path) -> Deckhand:
    """``async with deckhand.run() as bot:`` runs the real bot; run again to restart it."""
    return Deckhand(fake_discord, tmp_path / "deckhand.db")
