"""Sessions without Discord: a fake poster and a fake clock, and a registry on a memory store
playing the reference game (tests/reference_game.py), with helpers to play like a cog.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from bot.games import GameCatalog
from bot.sessions import Player, Post, SessionRegistry
from bot.settings import Settings
from bot.store.base import ActiveGame
from bot.store.memory import MemoryStore
from tests.reference_game import Add, CountAdapter

CHANNEL = 10
GUILD = 1
ALICE = Player(101, "Alice")
BOB = Player(102, "Bob")
CAROL = Player(103, "Carol")


class FakePoster:
    def __init__(self) -> None:
        self.posts: list[Post] = []
        self.stripped: list[int] = []
        self.retired: dict[int, str] = {}  # message id: what a retired lobby says now
        self.pings: list[tuple[int, str]] = []
        self.next_id = 5000
        self.refuse = 0  # how many posts to come Discord refuses
        self.refused: list[Post] = []

    async def post(self, post: Post) -> int | None:
        if self.refuse:
            self.refuse -= 1
            self.refused.append(post)
            return None
        self.posts.append(post)
        self.next_id += 1
        return self.next_id

    async def strip(self, channel_id: int, message_id: int, note: str | None = None) -> None:
        self.stripped.append(message_id)
        if note is not None:
            self.retired[message_id] = note

    async def ping(self, channel_id: int, member_id: int, text: str) -> None:
        self.pings.append((member_id, text))


class FakeClock:
    """Time stands still until a test advances it; sleepers wake in deadline order."""

    def __init__(self) -> None:
        self.now = 1_000_000.0
        self.waiters: list[tuple[float, int, asyncio.Future[None]]] = []
        self.count = 0

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.count += 1
        self.waiters.append((self.now + seconds, self.count, future))
        await future

    async def advance(self, seconds: float) -> None:
        target = self.now + seconds
        while True:
            await settle()
            self.waiters = [w for w in self.waiters if not w[2].done()]
            due = sorted(w for w in self.waiters if w[0] <= target)
            if not due:
                break
            when, _, future = due[0]
            self.now = max(self.now, when)
            future.set_result(None)
        self.now = target
        await settle()


async def settle() -> None:
    for _ in range(50):
        await asyncio.sleep(0)


def make_settings(**overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "default_turn_seconds": 60.0,
        "computer_delay_seconds": 1.0,
        "start_cooldown_seconds": 0.0,  # tests open lobbies back to back; the cooldown's own test
        **overrides,
    }
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


class Harness:
    """A registry on a memory store with fakes, plus helpers to play like a cog."""

    def __init__(
        self,
        store: MemoryStore | None = None,
        *,
        owns_guild: Callable[[int | None], bool] | None = None,
    ) -> None:
        self.store = store or MemoryStore()
        self.poster = FakePoster()
        self.clock = FakeClock()
        self.games = GameCatalog()
        self.games.register(CountAdapter())
        self.registry = SessionRegistry(
            store=self.store,
            settings=make_settings(),
            poster=self.poster,
            games=self.games,
            clock=self.clock.time,
            sleep=self.clock.sleep,
            owns_guild=owns_guild,
        )
        self.message_id = 100

    async def answered(self, reply_coro: Any) -> Post | None:
        """Await a registry call, then "post" its reply as a cog would."""
        reply = await reply_coro
        if reply.post is not None:
            self.message_id += 1
            await self.registry.published(reply.post, self.message_id)
        return reply.post

    async def saved_total_back_at_seat_0(self) -> int:
        """After a computer burst: the turn is back with seat 0 and the store holds the
        session as it is; the saved running total."""
        session = self.registry.get(CHANNEL)
        assert session is not None and session.state is not None
        assert session.state.current_seat == 0
        stored = await self.stored()
        assert stored is not None and stored.version == session.version
        total: int = stored.data["state"]["total"]
        return total

    async def stored(self) -> ActiveGame | None:
        found = [g for g in await self.store.load_active() if g.channel_id == CHANNEL]
        return found[0] if found else None


async def start_two(table: Harness, **options: Any) -> None:
    await table.answered(
        table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2, options=options)
    )
    await table.answered(table.registry.join(CHANNEL, BOB))


async def behind_its_back(table: Harness) -> ActiveGame:
    """A second writer saves the channel's record at the next version; what it saved."""
    stored = await table.stored()
    assert stored is not None
    other = ActiveGame(CHANNEL, GUILD, "count", stored.version + 1, dict(stored.data))
    await table.store.save(other, expected_version=stored.version)
    return other


def count_adapter(table: Harness) -> CountAdapter:
    adapter = table.games.get("count")
    assert isinstance(adapter, CountAdapter)
    return adapter


async def open_against_computers(table: Harness, level: str, **options: Any) -> None:
    """Alice and two computers at ``level``; Alice adds 1 and the computers play."""
    await table.answered(
        table.registry.open_lobby(
            CHANNEL, GUILD, "count", ALICE, players=3, bots=2, level=level, options=options
        )
    )
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    await table.clock.advance(1)
