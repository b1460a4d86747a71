"""What a game costs against Discord's global rate limit (50 requests a second per bot).

Interaction endpoints are not counted (discord-api-docs ``topics/rate-limits.mdx``): a
member's move is answered through its interaction, the table it replaces is retired
through the interaction that posted it, and the computer moves and timeouts after it are
posted through the newest member interaction of the channel (``cogs.common.voices``). So a
game played at a human pace costs nothing; only a table with no live interaction (15
minutes of silence, a restart) is posted, and its predecessor retired, with the bot's token.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from typing import TYPE_CHECKING

import pytest

from bot.fakediscord import FakeDiscord
from bot.fakediscord.ratelimits import DISCORD_ROUTE_LIMITS, counted
from bot.games import GameCatalog
from tests.e2e.deckhand_tables import member_move, members_turn, settled

if TYPE_CHECKING:
    from tests.e2e.conftest import Deckhand

# Per game: the options of a table of one member and computers with the game's own features
# on (its adapter's practice table).
TABLES = {game.name: game.soak.practice for game in GameCatalog.discover()}


@pytest.mark.parametrize("game", sorted(TABLES))
async def test_a_game_at_a_human_pace_costs_nothing_against_the_global_limit(
    deckhand: Deckhand, fake_discord: FakeDiscord, game: str
) -> None:
    """One member and computers play a whole game, every message a real table would get:
    no request counted against the global limit after the bot is ready, while dozens of
    tables were posted and retired (Discord's route buckets on, as on Discord)."""
    fake = fake_discord
    fake.limits.route_limits.update(DISCORD_ROUTE_LIMITS)
    alice = fake.add_member("alice")
    rng = random.Random(game)
    async with deckhand.run() as bot:
        fake.limits.reset()
        opened = await fake.slash(alice, fake.channel, f"{game} start", seed=3, **TABLES[game])
        assert not opened.ephemeral, opened.text
        for _ in range(400):
            await fake.wait_for(lambda: members_turn(bot, fake.channel, alice))
            await settled(fake, bot, fake.channel)
            if not await member_move(fake, bot, alice, fake.channel, rng):
                break
        else:
            raise AssertionError("the game did not end")
        await asyncio.sleep(0)
        tables = [m for m in fake.public_messages(fake.channel) if m.author.id == fake.bot_user.id]
        assert len(tables) >= 2
        by_route = Counter(route for route in fake.limits.requests.elements() if counted(route))
        assert by_route == Counter(), by_route
        assert fake.limits.global_requests == 0


async def test_without_interactions_every_table_counts_and_goes_through_the_budget(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """The design before voices (kept behind ``speak_through_interactions`` for the ceiling
    benchmark): computer moves post and retire with the bot's token, and each of those
    requests waits for this process's share of the global limit."""
    fake = fake_discord
    alice = fake.add_member("alice")
    rng = random.Random(1)
    async with deckhand.run(speak_through_interactions=False, global_requests_per_second=20) as bot:
        fake.limits.reset()
        spent = bot.budget.spent
        await fake.slash(alice, fake.channel, "uno start", players=4, bots=3, seed=5)
        for _ in range(3):
            await fake.wait_for(lambda: members_turn(bot, fake.channel, alice))
            await settled(fake, bot, fake.channel)
            await member_move(fake, bot, alice, fake.channel, rng)
        await settled(fake, bot, fake.channel)
        assert fake.limits.global_requests >= 4
        assert bot.budget.spent - spent == fake.limits.global_requests


async def test_a_timeout_rides_on_the_last_interaction_and_costs_two_once_it_expired(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """Nobody moves: the timeout's table goes out through the newest interaction of the
    channel (free). Once every token there has expired (15 minutes of silence), a timeout
    costs two counted requests: its table, and retiring the one before it."""
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    async with deckhand.run(default_turn_seconds=0.6) as bot:
        await fake.slash(alice, fake.channel, "uno start", players=2, seed=5)
        joined = await fake.slash(bob, fake.channel, "uno join")
        assert not joined.ephemeral, joined.text
        fake.limits.reset()
        session = bot.sessions.get(fake.channel.id)
        assert session is not None
        first = session.version
        await fake.wait_for(lambda: session.version > first or None)
        await settled(fake, bot, fake.channel)
        assert fake.limits.global_requests == 0  # the reminder and the timeout, both free
        voices = bot.sessions.poster.voices  # type: ignore[attr-defined]
        voices.clock = lambda: time.time() + 16 * 60  # every token has expired
        fake.limits.reset()
        second = session.version
        await fake.wait_for(lambda: session.version > second or None)
        await settled(fake, bot, fake.channel)
        by_route = Counter(route for route in fake.limits.requests.elements() if counted(route))
        # The half-time reminder, the timeout's table, and retiring the table before it.
        assert by_route == Counter(
            {
                "POST /channels/{channel_id}/messages": 2,
                "PATCH /channels/{channel_id}/messages/{message_id}": 1,
            }
        ), by_route
