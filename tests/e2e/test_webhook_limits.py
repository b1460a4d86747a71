"""Discord's limits on interaction webhooks, met by the real bot through the fake.

An interaction's webhook is not counted against the global limit, but it is limited like any
webhook: 5 requests per 2 s per interaction, about 30 webhook messages a minute per channel
(past them, a 429 with a Retry-After of about 40 s), and a token Discord may forget early
(404, code 10015). None of them may stall a table, lose a member's answer or make the bot
retry a webhook Discord refused (``bot/webhooks.py``, ``cogs/common/voices.py``).
"""

from __future__ import annotations

import logging
import random
from collections import Counter
from typing import TYPE_CHECKING

import pytest

from bot.fakediscord import FakeDiscord
from bot.fakediscord.ratelimits import WEBHOOK_CHANNEL_LIMIT, counted
from bot.i18n import t
from tests.e2e.deckhand_tables import (
    answered_table,
    member_move,
    members_turn,
    menu_of,
    settled,
    to_play,
)

if TYPE_CHECKING:
    from tests.e2e.conftest import Deckhand

FOLLOWUP = "POST /webhooks/{app_id}/{token}"
SEND = "POST /channels/{channel_id}/messages"


def answered_within(result: object) -> float:
    """Seconds from the interaction to its first answer, as the fake saw them."""
    inter = result.interaction  # type: ignore[attr-defined]
    assert inter.responded_at is not None
    return float(inter.responded_at - inter.created)


def bot_posts(fake: FakeDiscord) -> list[object]:
    """The bot's public messages in the test's channel."""
    return [m for m in fake.public_messages(fake.channel) if m.author.id == fake.bot_user.id]


def webhook_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.webhooks" and r.levelno == logging.WARNING
    ]


async def test_a_channel_past_its_webhook_limit_gets_its_tables_and_answers_at_once(
    deckhand: Deckhand, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """Another integration's webhooks spent the channel's 30 messages of this minute. The
    computers' table after a member's move meets Discord's 429 (Retry-After 40) through the
    voice: it is raised, not slept on, so the same table reaches the channel with the bot's
    token within seconds and mentions the member; the member's hand and next move are
    answered at once; the channel's webhooks rest, so nothing meets the 429 again; one
    WARNING, with the token masked."""
    fake = fake_discord
    alice = fake.add_member("alice")
    caplog.set_level(logging.WARNING)
    async with deckhand.run(computer_delay_seconds=0.2) as bot:
        await fake.slash(alice, fake.channel, "onecard start", players=2, bots=1, seed=5)
        table = await to_play(fake, bot, fake.channel)
        for i in range(WEBHOOK_CHANNEL_LIMIT[0]):
            assert fake.limits.webhook_message(fake.channel.id, f"another-app-{i}") is None
        took = await fake.click(alice, table, "Take")  # answered with the table: a voice
        assert not took.ephemeral and took.message is not None
        pinged = await fake.wait_for_message(
            fake.channel, lambda m: alice.id in m.pinged, after=took.message.id
        )
        assert fake.limits.webhook_429["channel"] == 1
        hand = await fake.click(alice, pinged, "Hand")
        assert hand.ephemeral and answered_within(hand) < 1.0
        assert hand.message is not None
        moved = await fake.select(alice, hand.message, menu_of(hand.message)["custom_id"], ["take"])
        assert moved.response_type == 7 and answered_within(moved) < 1.0
        after = await answered_table(fake, moved)
        assert after.id > pinged.id
        await settled(fake, bot, fake.channel)
        assert fake.take_webhook_429s() == {"channel": 1}  # met once, then left alone
        assert fake.limits.requests[SEND] >= 2  # the bot's token carried the tables meanwhile
    assert fake.limits.invalid_requests_peak == 0  # a shared 429 is not counted against it
    warnings = webhook_warnings(caplog)
    assert len(warnings) == 1 and "40.0 s" in warnings[0], warnings
    assert "/webhooks/" in warnings[0] and took.interaction.token not in warnings[0]


async def test_a_webhook_429_on_a_computers_table_never_holds_it_back(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """The voice the computers' table goes through is answered 429 with Retry-After 40
    (as Discord answers past a channel's limit): the same table reaches the channel within
    seconds through another way, it mentions the member whose turn it is, that member's
    next answer comes at once, and the refused token is not tried again."""
    fake = fake_discord
    alice = fake.add_member("alice")
    async with deckhand.run(computer_delay_seconds=0.2) as bot:
        await fake.slash(alice, fake.channel, "onecard start", players=2, bots=1, seed=5)
        table = await to_play(fake, bot, fake.channel)
        refused = fake.fail_next(429, FOLLOWUP, retry_after=40.0)
        moved = await fake.click(alice, table, "Take")  # answered with the table: a voice
        assert not moved.ephemeral and moved.message is not None
        pinged = await fake.wait_for_message(
            fake.channel, lambda m: alice.id in m.pinged, after=moved.message.id
        )
        assert refused.hits == 1
        assert pinged.buttons and "computer" in pinged.text.lower()
        hand = await fake.click(alice, pinged, "Hand")
        assert hand.ephemeral and answered_within(hand) < 1.0
        await settled(fake, bot, fake.channel)
        assert not moved.message.buttons  # retired, with the bot's token
    assert fake.limits.webhook_429 == Counter()  # the fake's own limits were never met


async def test_thirty_webhook_messages_a_minute_in_one_channel_are_never_asked_for(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """A member and three computers playing as fast as the member can click: well over 30
    tables a minute. The bot keeps its webhook messages in the channel under Discord's
    limit and its use of each token under the token's bucket, and posts the rest with its
    own token: no webhook 429 at all, every table reaches the channel."""
    fake = fake_discord
    alice = fake.add_member("alice")
    rng = random.Random(4)
    async with deckhand.run() as bot:
        await fake.slash(alice, fake.channel, "uno start", players=4, bots=3, seed=11)
        moves = 0
        while moves < 200 and len(bot_posts(fake)) <= 40:
            await fake.wait_for(lambda: members_turn(bot, fake.channel, alice))
            await settled(fake, bot, fake.channel)
            if await member_move(fake, bot, alice, fake.channel, rng) is None:
                final = await to_play(fake, bot, fake.channel)  # the game ended
                again = await fake.click(alice, final, "Deal again")
                assert not again.ephemeral, again.text
            moves += 1
        await settled(fake, bot, fake.channel)
        posts = bot_posts(fake)
    assert len(posts) > WEBHOOK_CHANNEL_LIMIT[0], (moves, len(posts))
    assert fake.limits.webhook_429 == Counter(), fake.limits.webhook_429
    spent = Counter(route for route in fake.limits.requests.elements() if counted(route))
    assert spent[SEND] > 0  # the bot's token took over where the webhooks had no room
    assert fake.limits.requests[FOLLOWUP] <= WEBHOOK_CHANNEL_LIMIT[0] * 2  # about 2 minutes


async def test_a_token_discord_forgets_early_is_dropped_and_its_lobby_still_retired(
    deckhand: Deckhand, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """The lobby's own interaction answers 10015 (Unknown Webhook) inside its 15 minutes:
    when the game begins, retiring the lobby falls through to the bot's token (the lobby
    does not keep Join, Leave, Start and Cancel), the token is never used again (the fake
    records a second use as a violation) and the bot says so once."""
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    caplog.set_level(logging.WARNING)
    async with deckhand.run(computer_delay_seconds=0.2) as bot:
        opened = await fake.slash(alice, fake.channel, "crazyeights start", players=2)
        lobby = opened.message
        assert lobby is not None and lobby.buttons
        fake.unknown_webhook(opened)
        joined = await fake.slash(bob, fake.channel, "crazyeights join")  # the game begins
        assert not joined.ephemeral
        await settled(fake, bot, fake.channel)
        await fake.wait_for(lambda: not lobby.buttons or None)
        assert t("lobby.retired_started", "en") in lobby.content
    warnings = webhook_warnings(caplog)
    assert len(warnings) == 1 and "10015" in warnings[0], warnings


async def test_a_failed_hint_never_carries_the_next_post_into_its_thinking_message(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """A hint is answered with a private deferral ("thinking"); its answer fails. The turn's
    reminder that follows goes to the channel, never into the asker's private message (the
    first follow-up after a deferral fills it, whatever its flags)."""
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    async with deckhand.run(default_turn_seconds=3.0) as bot:
        await fake.slash(alice, fake.channel, "rummikub start", players=2, hints="on", seed=2)
        joined = await fake.slash(bob, fake.channel, "rummikub join")
        assert not joined.ephemeral
        table = await settled(fake, bot, fake.channel)
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and session.state is not None
        seat = session.state.current_seat
        asker = alice if session.seats[seat].member_id == alice.id else bob  # type: ignore[index]
        fake.fail_next(404, FOLLOWUP, count=2)  # the hint, then its "something went wrong"
        hint = await fake.slash(asker, fake.channel, "rummikub hint")
        assert hint.response_type == 5
        reminder = await fake.wait_for_message(
            fake.channel, lambda m: f"<@{asker.id}>" in m.content, after=table.id
        )
        thinking = hint.interaction.original
        assert thinking is not None and thinking.loading and f"<@{asker.id}>" not in thinking.text
        assert reminder.id != thinking.id and not reminder.ephemeral
        assert not fake.hidden_replies
    # Provoked: both of the hint's answers were refused, so it never stopped "thinking".
    assert [v.kind for v in fake.take_violations()] == ["no-followup"]


async def test_ending_a_table_from_the_list_answers_the_moderator_before_it_posts_there(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """``/game list``'s End with Discord slow to take posts in the table's channel: the
    moderator is answered within Discord's 3 seconds, and the final table follows."""
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    mod = fake.add_member("mod", moderator=True)
    other = fake.add_channel("other")
    async with deckhand.run() as bot:
        await fake.slash(alice, fake.channel, "onecard start", players=2, seed=5)
        await fake.slash(bob, fake.channel, "onecard join")
        table = await settled(fake, bot, fake.channel)
        listed = await fake.slash(mod, other, "game list")
        assert listed.message is not None
        fake.slow_next(4.0, FOLLOWUP, count=3)
        fake.slow_next(4.0, SEND, count=3)
        ended = await fake.click(mod, listed.message, t("button.end_n", "en", n=1))
        assert ended.ephemeral and answered_within(ended) < 3.0, ended
        final = await fake.wait_for_message(
            fake.channel, lambda m: m.author.id == fake.bot_user.id, after=table.id, within=15
        )
        assert f"<@{mod.id}>" in final.text
        assert bot.sessions.get(fake.channel.id) is None
