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
from typing import TYPE_CHECKING, Any

import pytest

from bot.fakediscord import FakeDiscord
from bot.fakediscord.ratelimits import DISCORD_ROUTE_LIMITS, counted
from bot.games import GameCatalog
from tests.e2e.deckhand_tables import (
    blackjack_seed,
    button_action,
    member_move,
    members_turn,
    settled,
    whose_turn,
)

if TYPE_CHECKING:
    from bot.fakediscord import FakeMember, FakeMessage
    from tests.e2e.conftest import Deckhand

# Per game: the options of a table of one member and computers with the game's own features
# on (its adapter's practice table).
CATALOG = GameCatalog.discover()
TABLES = {game.name: game.soak.practice for game in CATALOG}


# A member's move every 5 seconds at each table, as the ceiling benchmark plays them: a human
# pace. Discord's webhook limits are per interaction (5 requests in 2 s) and per channel (30
# webhook messages a minute, ephemeral ones too), so a table played faster than people play
# would rightly spend the bot's token once its voices run short.
HUMAN_PACE = 5.0
MOVES_AT_A_TABLE = 9  # member moves a table plays (about 45 s), or to the game's end


async def test_every_game_at_a_human_pace_costs_nothing_against_the_global_limit(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """A member and computers at a table of every game at once, one channel each, every
    message a real table gets (moves from the private hand's menu and the table's buttons):
    no request counted against the global limit after the bot is ready, no webhook 429, and
    no public post of the bot hanging off a private answer (the fake's teardown check),
    while dozens of tables were posted and retired through the members' public answers
    (Discord's route and webhook limits on, as on Discord)."""
    fake = fake_discord
    fake.limits.route_limits.update(DISCORD_ROUTE_LIMITS)
    alice = fake.add_member("alice")
    channels = {game: fake.add_channel(game) for game in sorted(TABLES)}
    async with deckhand.run() as bot:
        fake.limits.reset()

        async def play(game: str) -> int:
            channel = channels[game]
            rng = random.Random(game)
            opened = await fake.slash(alice, channel, f"{game} start", seed=3, **TABLES[game])
            assert not opened.ephemeral, opened.text
            moves = 0
            while moves < MOVES_AT_A_TABLE:
                await fake.wait_for(lambda: members_turn(bot, channel, alice), within=20)
                await settled(fake, bot, channel)
                await asyncio.sleep(HUMAN_PACE)  # the member reads the table, then moves
                if not await member_move(fake, bot, alice, channel, rng):
                    break
                moves += 1
            await fake.wait_for(lambda: members_turn(bot, channel, alice), within=20)
            return moves

        played = await asyncio.gather(*(play(game) for game in channels))
        assert sum(played) >= 2 * len(channels), played
        for game, channel in channels.items():
            tables = [m for m in fake.public_messages(channel) if m.author.id == fake.bot_user.id]
            assert len(tables) >= 2, game
        by_route = Counter(route for route in fake.limits.requests.elements() if counted(route))
        assert by_route == Counter(), by_route
        assert fake.limits.global_requests == 0
        assert fake.limits.webhook_429 == Counter(), fake.limits.webhook_429
        assert any(r.startswith("POST /webhooks/") for r in fake.limits.requests.elements())


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


@pytest.mark.parametrize("game", sorted(TABLES))
async def test_a_timeout_rides_on_the_last_interaction_and_costs_two_once_it_expired(
    deckhand: Deckhand, fake_discord: FakeDiscord, game: str
) -> None:
    """Members who do not move: the half-time reminder and the timeout's table go out
    through the newest interaction of the channel (free). Once every token there has
    expired (15 minutes of silence), a timeout costs two counted requests, its table and
    retiring the one before it, and nothing else: no reminder with the bot's token (the
    table that began the turn mentioned the member already).

    Three members where the game seats three, so that no second timeout ends the game (a
    Blackjack round of two): if the next turn runs out before the tokens are made to expire,
    the one after it is measured instead, at the same cost."""
    fake = fake_discord
    seats = min(3, CATALOG.get(game).max_seats)
    host, *others = [fake.add_member(name) for name in ("alice", "bob", "carol")[:seats]]
    quick = {"default_turn_seconds": 1.5, "blackjack_turn_seconds": 1.5}
    players = {"players": seats} if "players" in TABLES[game] else {}
    async with deckhand.run(**quick) as bot:
        # A Blackjack deal may end at once (the House's blackjack): one that does not.
        seed = blackjack_seed(seats) if game == "blackjack" else 5
        await fake.slash(host, fake.channel, f"{game} start", seed=seed, **players)
        for member in others:
            joined = await fake.slash(member, fake.channel, f"{game} join")
            assert not joined.ephemeral, joined.text
        await settled(fake, bot, fake.channel)
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and session.state is not None, [
            m.content for m in fake.public_messages(fake.channel)
        ]
        fake.limits.reset()
        first = session.version
        await fake.wait_for(lambda: session.version > first or None)
        await settled(fake, bot, fake.channel)
        assert not session.state.is_over, "the first timeout ended the game: pick another seed"
        by_route = Counter(route for route in fake.limits.requests.elements() if counted(route))
        assert by_route == Counter(), by_route  # the reminder and the timeout, both free
        assert any(route.startswith("POST /webhooks/") for route in fake.limits.requests)
        voices = bot.sessions.poster.voices  # type: ignore[attr-defined]
        voices.clock = lambda: time.time() + 16 * 60  # every token has expired
        fake.limits.reset()
        second = session.version
        await fake.wait_for(lambda: session.version > second or None)
        await settled(fake, bot, fake.channel)
        by_route = Counter(route for route in fake.limits.requests.elements() if counted(route))
        assert by_route == Counter(
            {
                "POST /channels/{channel_id}/messages": 1,
                "PATCH /channels/{channel_id}/messages/{message_id}": 1,
            }
        ), by_route


@pytest.mark.parametrize("game", sorted(TABLES))
async def test_after_a_restart_a_move_through_the_bots_own_table_costs_nothing(
    deckhand: Deckhand, fake_discord: FakeDiscord, game: str
) -> None:
    """No interaction token survives a restart, so the live table has no voice that could
    retire it. The member's click on it (Hand; after the next restart a move button of the
    table, where it has one) is acknowledged as a deferred update, which makes the table
    that click's own message: the move's new table goes out as a follow-up and the old one
    is retired through the click, nothing counted."""
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    players = {"players": 2} if "players" in TABLES[game] else {}
    seed = blackjack_seed(2) if game == "blackjack" else 5
    async with deckhand.run():
        await fake.slash(alice, fake.channel, f"{game} start", seed=seed, **players)
        joined = await fake.slash(bob, fake.channel, f"{game} join")
        assert not joined.ephemeral, joined.text
    for through_hand in (True, False):
        async with deckhand.run() as bot:
            table = await settled(fake, bot, fake.channel)
            session = bot.sessions.get(fake.channel.id)
            # The restored session names the table before: a table's id is saved with the
            # move after it.
            assert session is not None and session.message_id != table.id
            fake.limits.reset()
            member = alice if whose_turn(bot, fake.channel) == alice.id else bob
            await move_through_table(fake, member, table, through_hand=through_hand)
            await settled(fake, bot, fake.channel)
            assert session.message_id != table.id and not table.buttons  # replaced, retired
            counts = Counter(r for r in fake.limits.requests.elements() if counted(r))
            assert counts == Counter(), counts
            assert "PATCH /webhooks/{app_id}/{token}/messages/{message_id}" in fake.limits.requests
            assert not fake.violations, fake.violations


async def test_deal_again_on_a_finished_table_after_a_restart_costs_nothing(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """The finished table the bot restored after a restart is adopted by the Deal again
    click on it like a live one: the new deal and the old table's retiring are free."""
    fake = fake_discord
    alice = fake.add_member("alice")
    async with deckhand.run() as bot:
        await fake.slash(alice, fake.channel, "blackjack start", seed=blackjack_seed(1))
        table = await settled(fake, bot, fake.channel)
        await fake.click(alice, table, "Stand")
        final = await settled(fake, bot, fake.channel)
        assert bot.sessions.get(fake.channel.id) is None  # the game is over
    async with deckhand.run() as bot:
        assert await settled(fake, bot, fake.channel) is final
        fake.limits.reset()
        again = {button_action(b): str(b["custom_id"]) for b in final.buttons}["again"]
        await fake.click(alice, final, again)
        dealt = await settled(fake, bot, fake.channel)
        assert dealt is not final and not final.buttons  # a new deal; the old table retired
        counts = Counter(r for r in fake.limits.requests.elements() if counted(r))
        assert counts == Counter(), counts
        assert not fake.violations, fake.violations


async def test_a_global_429_is_waited_out_before_the_same_request_is_sent_again(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """A process whose share is set above what Discord allows (here 3 a second) meets the
    global limit: each refused request goes again only after the ``retry_after`` Discord
    named, never at once, and every table still reaches the channel."""
    fake = fake_discord
    fake.limits.global_per_second = 3
    take = fake.limits.take
    # Counted requests in arrival order: when, the route and its parameters, the 429's wait.
    arrivals: list[tuple[float, tuple[str, tuple[tuple[str, str], ...]], float | None]] = []

    def watched(route: str, params: dict[str, str]) -> tuple[dict[str, str], Any]:
        headers, limited = take(route, params)
        if counted(route):
            wait = None if limited is None else float(limited["retry_after"])
            arrivals.append((time.monotonic(), (route, tuple(sorted(params.items()))), wait))
        return headers, limited

    fake.limits.take = watched  # type: ignore[method-assign]
    alice = fake.add_member("alice")
    rng = random.Random(2)
    over_the_limit = {"speak_through_interactions": False, "global_requests_per_second": 100}
    async with deckhand.run(**over_the_limit) as bot:
        await fake.slash(alice, fake.channel, "uno start", players=4, bots=3, seed=5)
        for _ in range(4):
            await fake.wait_for(lambda: members_turn(bot, fake.channel, alice))
            await settled(fake, bot, fake.channel)
            if not await member_move(fake, bot, alice, fake.channel, rng):
                break
        await settled(fake, bot, fake.channel)
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and session.message_id is not None
        assert fake.messages[session.message_id].buttons  # the newest table is live
        # Every try spent the budget, the refused ones and discord.py's second tries too.
        assert bot.budget.spent == fake.limits.global_requests + fake.limits.global_429
    refused = [(when, key, wait) for when, key, wait in arrivals if wait is not None]
    assert refused, "the bot never met the global limit: the test proves nothing"
    assert fake.limits.global_429 == len(refused)
    for when, key, wait in refused:
        again = next((t for t, k, _ in arrivals if k == key and t > when), None)
        assert again is not None, f"{key} was refused and never sent again"
        # discord.py sleeps the wait out before it sends again (a few ms of clock slack).
        assert again - when >= wait - 0.01, (key, again - when, wait)


async def move_through_table(
    fake: FakeDiscord, member: FakeMember, table: FakeMessage, *, through_hand: bool
) -> None:
    """A move made from ``table`` as a member makes it: one of its own move buttons (unless
    ``through_hand``, or it has none), else its Hand button, then picks in the hand's menus
    (a card that asks no more first) or its Draw or Stand button."""
    actions = {button_action(b): str(b["custom_id"]) for b in table.buttons}
    moves = [custom_id for action, custom_id in actions.items() if action not in ("hand", "leave")]
    if moves and not through_hand:
        await fake.click(member, table, moves[-1])
        return
    shown = await fake.click(member, table, actions["hand"])
    assert shown.response_type == 6 and shown.ephemeral, shown  # adopted, then the hand
    hand = shown.messages[0]
    for _ in range(3):  # a card may ask for more (a suit, a colour, a capture)
        menus = [c for c in hand.items() if c.get("type") == 3]
        if not menus:  # a hand of buttons: Draw (Rummikub) or Stand (Blackjack)
            buttons = {button_action(b): str(b["custom_id"]) for b in hand.buttons}
            await fake.click(member, hand, buttons.get("draw") or buttons["stand"])
            return
        options = menus[0].get("options", [])
        final = [o for o in options if not o.get("description")] or options
        picked = await fake.select(member, hand, menus[0]["custom_id"], [final[0]["value"]])
        if not (picked.ephemeral and picked.message is not None and picked.message.items()):
            return
        hand = picked.message
