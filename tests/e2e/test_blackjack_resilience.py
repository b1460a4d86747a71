"""Blackjack end to end when things go wrong: restarts, timeouts, Discord errors, resumes.

A move a member saw accepted is never lost: not to a bot restart on the same database, not
to a 429 or a 500 from Discord, not to a gateway reconnect. And the House's face-down card
never reaches a public message before the House's turn.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord.http
import discord.webhook.async_
import pytest

from bot.fakediscord import FakeDiscord, FakeMember
from bot.i18n import t
from tests.deals import fair_blackjack_deals
from tests.e2e.deckhand_tables import (
    CALLBACK,
    hole_card,
    latest_table,
    open_table,
    play_to_the_end,
    settled,
    version_of,
    whose_turn,
)

if TYPE_CHECKING:
    from tests.e2e.conftest import Deckhand


async def test_a_new_bot_on_the_same_database_continues_with_the_same_buttons(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    alice, bob = fake_discord.add_member("alice"), fake_discord.add_member("bob")
    by_id = {alice.id: alice, bob.id: bob}
    async with deckhand.run() as bot:
        await open_table(fake_discord, bot, alice, [bob])
        first = whose_turn(bot, fake_discord.channel)
        assert first is not None
        await fake_discord.click(
            by_id[first], latest_table(fake_discord, fake_discord.channel), "Stand"
        )
        table = await settled(fake_discord, bot, fake_discord.channel)
        session = bot.sessions.get(fake_discord.channel.id)
        assert session is not None
        version, turn = session.version, whose_turn(bot, fake_discord.channel)
    assert turn is not None and turn != first
    async with deckhand.run() as bot:
        restored = bot.sessions.get(fake_discord.channel.id)
        assert restored is not None and restored.version == version
        assert whose_turn(bot, fake_discord.channel) == turn
        # The message posted by the old process still works: its buttons are DynamicItems.
        moved = await fake_discord.click(by_id[turn], table, "Stand")
        assert not moved.ephemeral, moved.text
        assert bot.sessions.get(fake_discord.channel.id) is None  # both stood: game over
    assert fake_discord.gateway.identifies == 2


async def test_a_killed_bot_is_continued_by_a_new_process_with_the_same_buttons(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    alice, bob = fake_discord.add_member("alice"), fake_discord.add_member("bob")
    by_id = {alice.id: alice, bob.id: bob}
    channel = fake_discord.channel
    async with deckhand.run_then_kill() as bot:
        await open_table(fake_discord, bot, alice, [bob])
        first = whose_turn(bot, channel)
        assert first is not None
        hit = await fake_discord.click(by_id[first], latest_table(fake_discord, channel), "Hit")
        assert not hit.ephemeral, hit.text  # the member saw the Hit accepted ...
        table = await settled(fake_discord, bot, channel)
        session = bot.sessions.get(channel.id)
        assert session is not None
        version, turn = session.version, whose_turn(bot, channel)
        hit_line = hit.text.splitlines()[0]
    # ... and the bot died at once: no close, no flush, no goodbye to the gateway.
    assert turn is not None
    async with deckhand.run() as bot:
        restored = bot.sessions.get(channel.id)
        assert restored is not None and restored.version == version  # the Hit survived
        assert whose_turn(bot, channel) == turn
        assert hit_line in table.text
        moved = await fake_discord.click(by_id[turn], table, "Stand")
        assert not moved.ephemeral, moved.text
        assert restored.version == version + 1 or bot.sessions.get(channel.id) is None
    assert fake_discord.gateway.identifies == 2


async def test_deal_again_on_the_final_table_after_a_restart(
    fake_discord: FakeDiscord, deckhand: Deckhand, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob = fake_discord.add_member("alice"), fake_discord.add_member("bob")
    channel = fake_discord.channel
    # "Deal again" deals unseeded; the first such deal must not end at once (rule 4).
    fair_blackjack_deals(monkeypatch, players=2)
    async with deckhand.run() as bot:
        await open_table(fake_discord, bot, alice, [bob])
        final = await play_to_the_end(fake_discord, bot, [alice, bob])
        assert final.button_labels == [t("button.again", "en")]
    async with deckhand.run() as bot:
        assert bot.sessions.get(channel.id) is None
        dealt = await fake_discord.click(bob, final, t("button.again", "en"))
        assert not dealt.ephemeral, dealt.text
        session = bot.sessions.get(channel.id)
        assert session is not None and session.state is not None
        assert [s.member_id for s in session.seats] == [alice.id, bob.id]
        table = await settled(fake_discord, bot, channel)
        assert table.id != final.id and not fake_discord.messages[final.id].buttons


@pytest.mark.parametrize("rate_limited", [False, True])
async def test_a_turn_timeout_stands_for_the_player(
    fake_discord: FakeDiscord, deckhand: Deckhand, rate_limited: bool
) -> None:
    alice, bob = fake_discord.add_member("alice"), fake_discord.add_member("bob")
    async with deckhand.run(blackjack_turn_seconds=0.3) as bot:
        table = await open_table(fake_discord, bot, alice, [bob])
        first = whose_turn(bot, fake_discord.channel)
        session = bot.sessions.get(fake_discord.channel.id)
        assert session is not None and session.state is not None and first is not None
        version, seat = session.version, session.state.current_seat
        assert seat is not None
        total = session.state.view(None).totals[seat]
        line = t("bj.log.stand", "en", name=session.seats[seat].name, total=total)
        if rate_limited:  # the bot's first own post (the reminder, a follow-up) meets a 429
            failure = fake_discord.fail_next(429, "POST /webhooks/{app_id}/{token}")
        # Nobody clicks: after 0.3 s the bot stands for the player and posts the table.
        stood = await fake_discord.wait_for_message(
            fake_discord.channel, lambda m: line in m.text, after=table.id
        )
        assert session.version > version
        assert whose_turn(bot, fake_discord.channel) != first
        assert stood.buttons
        if rate_limited:
            assert failure.hits == 1
        # The table that gave the player the turn pinged them, and half-way they were
        # reminded: nobody else was pinged. (Later messages may remind the next player.)
        earlier = [m for m in fake_discord.public_messages(fake_discord.channel) if m.id < stood.id]
        pings = [m for m in earlier if m.pinged]
        assert [m.pinged for m in pings] == [[first], [first]]
        assert pings[0].id == table.id and t("turn.yours", "en", member=f"<@{first}>") in table.text
        assert pings[1].text.startswith(f"<@{first}>, it is your turn:")


@pytest.mark.parametrize("status", [429, 500])
async def test_a_discord_error_does_not_lose_the_move(
    fake_discord: FakeDiscord, deckhand: Deckhand, status: int
) -> None:
    alice = fake_discord.add_member("alice")
    async with deckhand.run() as bot:
        table = await open_table(fake_discord, bot, alice, [], bots=1)
        session = bot.sessions.get(fake_discord.channel.id)
        assert session is not None
        version = session.version
        failure = fake_discord.fail_next(status, CALLBACK)
        moved = await fake_discord.click(alice, table, "Hit")
        assert failure.hits == 1
        assert not moved.ephemeral, moved.text
        live = bot.sessions.get(fake_discord.channel.id)
        assert live is None or live.version > version


class FastRetries:
    """``asyncio`` for discord.py's webhook client, with its 5xx back-off (1 s, 3 s, ... 9 s
    between five attempts) cut to milliseconds, so a test can exhaust the retries."""

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    @staticmethod
    async def sleep(delay: float, result: Any = None) -> Any:
        return await asyncio.sleep(min(delay, 0.01), result)


@pytest.mark.parametrize("status", [404, 500])
async def test_a_saved_move_discord_will_not_answer_is_posted_in_the_channel(
    fake_discord: FakeDiscord,
    deckhand: Deckhand,
    monkeypatch: pytest.MonkeyPatch,
    status: int,
) -> None:
    monkeypatch.setattr(discord.webhook.async_, "asyncio", FastRetries())
    alice, bob = fake_discord.add_member("alice"), fake_discord.add_member("bob")
    by_id = {alice.id: alice, bob.id: bob}
    channel = fake_discord.channel
    async with deckhand.run() as bot:
        table = await open_table(fake_discord, bot, alice, [bob])
        first = whose_turn(bot, channel)
        session = bot.sessions.get(channel.id)
        assert first is not None and session is not None
        version = session.version
        # Every interaction answer fails (404: the token is gone; 500: all of discord.py's
        # retries); the member sees "This interaction failed", a fact of Discord's outage.
        failure = fake_discord.fail_next(status, CALLBACK, count=1000)
        fake_discord.deadline = 1.0  # no need to wait 3 s for the answer that cannot come
        clicked = await fake_discord.click(by_id[first], table, "Hit")
        assert not clicked.messages
        assert {v.kind for v in fake_discord.take_violations()} == {"no-response"}
        # The answer and the "your move was saved" notice were both tried.
        assert failure.hits == (2 if status == 404 else 10)
        failure.count = 0
        # The move was saved, and its table reached the channel as a plain message: the
        # only live table, so the game goes on from it.
        assert session.version == version + 1
        posted = await settled(fake_discord, bot, channel)
        assert posted.id > table.id and version_of(posted) == version + 1
        assert t("bj.log.hit", "en", name="alice", card="", total="").split(":")[0] in posted.text
        turn = whose_turn(bot, channel)
        assert turn is not None
        moved = await fake_discord.click(by_id[turn], posted, "Stand")
        assert not moved.ephemeral, moved.text
        assert session.version == version + 2


async def test_a_table_discord_will_not_take_at_all_is_posted_again_once_it_recovers(
    fake_discord: FakeDiscord,
    deckhand: Deckhand,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr(discord.webhook.async_, "asyncio", FastRetries())
    monkeypatch.setattr(discord.http, "asyncio", FastRetries())
    alice, bob = fake_discord.add_member("alice"), fake_discord.add_member("bob")
    by_id = {alice.id: alice, bob.id: bob}
    channel = fake_discord.channel
    async with deckhand.run() as bot:
        table = await open_table(fake_discord, bot, alice, [bob])
        first = whose_turn(bot, channel)
        session = bot.sessions.get(channel.id)
        assert first is not None and session is not None
        version = session.version
        # Discord answers 502 to everything the bot sends for a while: the answer, the
        # table posted in its place, and every retry discord.py makes of them.
        answers = fake_discord.fail_next(502, CALLBACK, count=1000)
        # The table then goes as a follow-up of the channel's newest interaction, and with
        # the bot's own token when that fails too.
        follow_ups = fake_discord.fail_next(502, "POST /webhooks/{app_id}/{token}", count=1000)
        posts = fake_discord.fail_next(502, "POST /channels/{channel_id}/messages", count=1000)
        fake_discord.deadline = 1.0
        clicked = await fake_discord.click(by_id[first], table, "Hit")
        assert not clicked.messages and session.version == version + 1  # saved, not shown
        fake_discord.take_violations()
        assert follow_ups.hits >= 1 and posts.hits >= 5  # the table was tried in the channel
        # Only the out-of-date table is in the channel: its buttons are refused.
        assert latest_table(fake_discord, channel).id == table.id
        answers.count = follow_ups.count = posts.count = 0  # Discord recovers
        posted = await fake_discord.wait_for_message(
            channel, lambda m: version_of(m) == version + 1, after=table.id, within=10.0
        )
        # ...and then the out-of-date table is retired.
        await fake_discord.wait_for(lambda: not fake_discord.messages[table.id].buttons, 5.0)
        turn = whose_turn(bot, channel)
        assert turn is not None
        moved = await fake_discord.click(by_id[turn], posted, "Stand")
        assert not moved.ephemeral, moved.text
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors  # Discord's outage is no error of the bot's


async def test_a_gateway_resume_keeps_the_game(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    alice, bob = fake_discord.add_member("alice"), fake_discord.add_member("bob")
    by_id: dict[int, FakeMember] = {alice.id: alice, bob.id: bob}
    async with deckhand.run() as bot:
        table = await open_table(fake_discord, bot, alice, [bob])
        await fake_discord.reconnect_gateway(how="drop")
        turn = whose_turn(bot, fake_discord.channel)
        assert turn is not None
        moved = await fake_discord.click(by_id[turn], table, "Stand")
        assert not moved.ephemeral, moved.text
        assert fake_discord.gateway.resumes == 1 and fake_discord.gateway.identifies == 1


def secret_seed(players: int, draws: int = 12) -> tuple[int, str]:
    """A seed whose hole card's code is nowhere among the dealt cards nor the next ``draws``
    cards of the shoe: until the House turns it over, that code has no business in any
    message at all. Returns the seed and the hole card's code."""
    from rules.blackjack import new
    from rules.cards import STANDARD_DECK

    for seed in range(1000):
        state = new(players, seed=seed)
        if state.is_over:
            continue
        snap = state.snapshot()
        hole = STANDARD_DECK[snap["house"][0]].code
        seen = [i for hand in snap["hands"] for i in hand] + snap["house"][1:]
        seen += snap["shoe"][-draws:]  # cards are drawn from the end of the shoe
        if hole not in {STANDARD_DECK[i].code for i in seen}:
            return seed, hole
    raise AssertionError("no such seed")


async def test_the_hole_card_reaches_no_message_until_the_house_plays(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    alice, bob = fake_discord.add_member("alice"), fake_discord.add_member("bob", locale="ko")
    seed, hole = secret_seed(3)
    async with deckhand.run() as bot:
        table = await open_table(fake_discord, bot, alice, [bob], bots=1, seed=seed)
        for member in (alice, bob):
            hand = await fake_discord.click(member, table, "Hand")
            assert hand.ephemeral and hand.text
        final = await play_to_the_end(fake_discord, bot, [alice, bob])
    house, hidden = t("bj.house", "en"), t("bj.hidden", "en")  # the table is alice's (en)
    tables = [m for m in fake_discord.messages.values() if f"{house}: " in m.text]
    turned = min(m.id for m in tables if f"{house}: {hidden}" not in m.text)
    before = [m for m in fake_discord.messages.values() if m.id < turned]
    assert sum(m.ephemeral for m in before) == 2  # both hands were looked at
    assert len(before) >= 5
    for message in before:
        assert hole not in message.text, message.text
    assert hole in final.text  # turned over at the end, where the check would see it
    assert hole_card(3, seed) == hole


async def test_a_sharded_process_serves_the_guild_on_its_shard(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    alice = fake_discord.add_member("alice")
    async with deckhand.run(shard_count=2) as bot:
        assert sorted(s.shard for s in fake_discord.gateway.live_sessions()) == [(0, 2), (1, 2)]
        shard = (fake_discord.guild.id >> 22) % 2
        assert bot.guilds and bot.guilds[0].shard_id == shard
        table = await open_table(fake_discord, bot, alice, [], bots=1)
        moved = await fake_discord.click(alice, table, "Stand")
        assert not moved.ephemeral, moved.text


async def test_processes_split_the_shards_and_a_replacement_restores_the_game(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    alice = fake_discord.add_member("alice")
    mine = (fake_discord.guild.id >> 22) % 2  # the shard Discord puts this guild on
    channel = fake_discord.channel.id
    async with deckhand.run(shard_count=2, shard_ids=[1 - mine]) as elsewhere:
        async with deckhand.run(shard_count=2, shard_ids=[mine]) as bot:
            table = await open_table(fake_discord, bot, alice, [], bots=1)
            assert bot.sessions.get(channel) is not None
            assert elsewhere.sessions.get(channel) is None  # its shard never saw the game
        # The process serving the guild's shard is gone; a replacement takes the shard over.
        async with deckhand.run(shard_count=2, shard_ids=[mine]) as replacement:
            assert replacement.sessions.get(channel) is not None
            moved = await fake_discord.click(alice, table, "Stand")
            assert not moved.ephemeral, moved.text


async def test_a_process_for_another_shard_does_not_restore_this_guilds_game(
    fake_discord: FakeDiscord, deckhand: Deckhand
) -> None:
    alice = fake_discord.add_member("alice")
    mine = (fake_discord.guild.id >> 22) % 2
    async with deckhand.run(shard_count=2, shard_ids=[mine]) as bot:
        table = await open_table(fake_discord, bot, alice, [], bots=1)
        # Started while the game is stored: it must leave the game to the guild's shard.
        async with deckhand.run(shard_count=2, shard_ids=[1 - mine]) as elsewhere:
            assert elsewhere.sessions.get(fake_discord.channel.id) is None
            moved = await fake_discord.click(alice, table, "Stand")
            assert not moved.ephemeral, moved.text
