"""End-to-end fixtures: a fake Discord on 127.0.0.1 and bots connected to it.

``fake_discord`` fails the test at teardown if Discord would have refused anything the bot
sent (a limit exceeded, a second or late interaction response, an unanswered interaction,
a public post drawn as a reply to a hidden message), or if the bot met a webhook 429 (it
must never ask past those limits). A test that provokes either on purpose takes it with
``fake_discord.take_violations()`` or ``fake_discord.take_webhook_429s()``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bot.fakediscord import FakeDiscord, running_client
from tests.phone import assert_tables_fit_phone

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from bot.settings import Settings
    from bot.store.base import GameStore


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """A fresh fake Discord with one guild and a ``games`` channel; no violations allowed,
    every public table the bot posted fits a phone (40 columns) and pinged one member at
    most."""
    async with FakeDiscord() as fake:
        yield fake
        fake.assert_no_violations()
        fake.assert_no_webhook_429s()
        for message in fake.messages.values():
            if not message.ephemeral and message.author.id == fake.bot_user.id:
                assert_tables_fit_phone(message.content)
                # A table pings only the member whose turn starts; a reminder, only them.
                assert len(message.pinged) <= 1, (message.pinged, message.content)


class Deckhand:
    """Starts the real Deckhand bot against the fake, as often as a test needs.

    Every run uses the same SQLite file (``db_path``), so leaving one ``run()`` block and
    entering another is a restart: the new bot must restore the games the old one saved.
    """

    def __init__(self, fake: FakeDiscord, db_path: Path) -> None:
        self.fake = fake
        self.db_path = db_path
        self.runs = 0
        self.killed: list[DeckhandBot] = []

    def settings(self, **overrides: Any) -> Settings:
        from bot.settings import Settings

        values: dict[str, Any] = {
            "discord_token": self.fake.token,
            "database_url": f"sqlite:///{self.db_path}",
            "dev_guild_id": self.fake.guild.id,
            "computer_delay_seconds": 0.0,
            # Tests open tables one after another; the cooldown has its own test.
            "start_cooldown_seconds": 0.0,
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

    @contextlib.asynccontextmanager
    async def run_then_kill(self, **overrides: Any) -> AsyncIterator[DeckhandBot]:
        """Like :meth:`run`, but the block's end kills the bot as a crash would: its gateway
        task and timers stop mid-flight, no close hook runs (the store is neither closed nor
        checkpointed) and its sockets vanish without a websocket close."""
        from bot.client import create_bot
        from bot.store.sqlite import SQLiteStore

        bot = create_bot(self.settings(**overrides), SQLiteStore(self.db_path))
        self.runs += 1
        bot._connection.guild_ready_timeout = 0.05
        await bot.login(self.fake.token)
        connect = asyncio.create_task(bot.connect(reconnect=True), name="doomed-client")
        try:
            await asyncio.wait_for(bot.wait_until_ready(), 10.0)
            yield bot
        finally:
            self.killed.append(bot)
            keep_alive = getattr(bot.ws, "_keep_alive", None)  # discord.py's heartbeat thread
            if keep_alive is not None:
                keep_alive.stop()
            connect.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await connect
            await bot.sessions.tasks.close()  # its timers die with it, having saved nothing
            # The process's sockets close under it: TCP goes, no websocket close frame.
            await bot.http.connector.close()

    async def bury(self) -> None:
        """After the test: release what killed bots left open (threads, sessions)."""
        for bot in self.killed:
            await bot.store.close()
            await bot.http.close()
        self.killed.clear()


@pytest.fixture
async def deckhand(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[Deckhand]:
    """``async with deckhand.run() as bot:`` runs the real bot; run again to restart it."""
    runner = Deckhand(fake_discord, tmp_path / "deckhand.db")
    yield runner
    await runner.bury()


@pytest.fixture
async def bot(deckhand: Deckhand) -> AsyncIterator[DeckhandBot]:
    """The real bot, running for the whole test (a test that restarts it uses ``deckhand``)."""
    async with deckhand.run() as running:
        yield running
