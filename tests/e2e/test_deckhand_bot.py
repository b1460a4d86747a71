"""The real Deckhand bot against the fake Discord: it connects, syncs its commands, restarts;
its shared commands answer in the member's language; lobbies close, are capped and retire their
messages; names cannot dress up its messages; leaving a running game asks first.

A server's settings are in test_server_settings.py, moderators in test_moderation.py, stats
and ratings in test_records.py."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import TYPE_CHECKING

from bot.fakediscord import FakeDiscord
from bot.i18n import t
from bot.sessions.render import render
from tests.e2e.deckhand_tables import (
    answered_in_private,
    latest_table,
    leave_game,
    open_table,
    to_play,
)

if TYPE_CHECKING:
    from tests.e2e.conftest import Deckhand

GUILD_SYNC = "PUT /applications/{app_id}/guilds/{guild_id}/commands"


async def test_bot_connects_syncs_commands_and_restarts_on_the_same_database(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    async with deckhand.run() as bot:
        assert bot.is_ready()
        assert bot.user is not None and bot.user.id == fake_discord.bot_user.id
        assert GUILD_SYNC in fake_discord.rest.requests
        names = {c["name"] for c in fake_discord.commands[fake_discord.guild.id]}
        assert names == {c.name for c in bot.tree.get_commands()}
        korean = {
            c["name"]: c["name_localizations"]["ko"]
            for c in fake_discord.commands[fake_discord.guild.id]
        }
        assert korean["game"] == "게임" and korean["leaderboard"] == "순위표"
    async with deckhand.run() as bot:
        assert bot.is_ready()
    assert fake_discord.gateway.identifies == 2
    assert fake_discord.rest.requests.count(GUILD_SYNC) == 2
    assert deckhand.db_path.exists()


async def test_shared_commands_answer_privately_in_the_members_language(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    alice = fake_discord.add_member("alice")
    minsu = fake_discord.add_member("minsu", locale="ko")
    async with deckhand.run():
        status = await fake_discord.slash(alice, fake_discord.channel, "game status")
        assert status.ephemeral and status.text == "No game is running in this channel."
        korean = await fake_discord.slash(minsu, fake_discord.channel, "game status")
        assert korean.ephemeral and korean.text == "이 채널에서 진행 중인 게임이 없어요."
        rules = await fake_discord.slash(alice, fake_discord.channel, "rules", game="blackjack")
        assert rules.ephemeral and "208 cards" in rules.text
        ended = await fake_discord.slash(alice, fake_discord.channel, "game end")
        assert ended.ephemeral and ended.text
    assert fake_discord.public_messages(fake_discord.channel) == []
    assert [m.text for m in fake_discord.ephemeral_messages(minsu)] == [korean.text]


async def test_a_lobby_nobody_joins_closes_and_says_so_even_across_a_restart(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob", locale="ko")
    other = fake.add_channel("other")
    async with deckhand.run(default_lobby_seconds=0.4) as bot:
        await fake.slash(alice, fake.channel, "onecard start", players=3)
        closed = await fake.wait_for_message(fake.channel, lambda m: "lobby of" in m.text)
        assert closed.text == t("lobby.expired", "en", game="One Card", host=alice.mention)
        assert closed.pinged == []  # it names the host without pinging them
        # Said once: the lobby message itself says it closed, with its buttons gone.
        assert fake.public_messages(fake.channel) == [closed] and closed.components == []
        assert bot.sessions.get(fake.channel.id) is None
        # A join gives the lobby its time again.
        opened = await fake.slash(alice, other, "uno start", players=3)
        await fake.click(bob, opened.message or opened.messages[0], "Join")
        session = bot.sessions.get(other.id)
        assert session is not None and session.is_lobby
    async with deckhand.run(default_lobby_seconds=0.4) as bot:  # restored, and still counting
        told = await fake.wait_for_message(other, lambda m: "lobby of" in m.text, within=5)
        assert told.text == t("lobby.expired", "en", game="Uno", host=alice.mention)
        assert bot.sessions.get(other.id) is None


async def test_a_member_hosts_three_lobbies_at_most_and_waits_between_them(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    channels = [fake.channel, *(fake.add_channel(f"c{n}") for n in range(4))]
    async with deckhand.run(start_cooldown_seconds=0.3) as bot:
        for number, channel in enumerate(channels[:3]):
            if number:  # a lobby opened just before: the cooldown, then it has passed
                early = await fake.slash(alice, channel, "onecard start", players=3)
                assert early.ephemeral and early.text == t("error.start_cooldown", "en", seconds=1)
                await asyncio.sleep(0.35)  # the cooldown's 0.3 s, measured on the bot's clock
            opened = await fake.slash(alice, channel, "onecard start", players=3)
            assert not opened.ephemeral, opened.text
        await asyncio.sleep(0.35)
        capped = await fake.slash(alice, channels[3], "onecard start", players=3)
        assert capped.ephemeral and capped.text == t("error.lobby_cap", "en", most=3)
        assert bot.sessions.get(channels[3].id) is None


async def test_display_names_dress_up_no_message_of_the_bot(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """Members named to break out of code blocks, make headings, subtext and masked links,
    or turn lines around, play: every public message keeps its blocks closed and none of
    it takes effect; nobody is pinged by a name."""
    from tests.bot.test_messages_fit import assert_dressed_by_no_name

    fake = fake_discord
    names = ["x```y", "# BIG", "[free nitro](https://evil.example)", "-# tiny\u202eab"]
    alice, bob, carol, dave = (fake.add_member(name) for name in names)
    mod = fake.add_member("mod", moderator=True)
    async with deckhand.run() as bot:
        opened = await fake.slash(alice, fake.channel, "onecard start", players=4, seed=7)
        for member in (bob, carol):
            joined = await fake.slash(member, fake.channel, "onecard join")
            assert not joined.ephemeral, joined.text
        await leave_game(fake, carol, fake.channel, "onecard")  # "-# tiny" left
        await fake.slash(dave, fake.channel, "onecard join")
        started = await fake.click(alice, latest_table(fake, fake.channel), "Start")
        assert opened.message is not None and not started.ephemeral, started.text
        await fake.slash(mod, fake.channel, "game kick", member=bob)
        listed = await fake.slash(mod, fake.channel, "game list")
        status = await fake.slash(dave, fake.channel, "game status")
        for text in (listed.text, status.text):
            assert_dressed_by_no_name(text)
        assert bot.sessions.get(fake.channel.id) is not None
    for message in fake.public_messages(fake.channel):
        assert_dressed_by_no_name(message.text)


async def test_old_lobby_messages_say_what_became_of_them(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """A join posts the lobby anew and the start posts the table: the lobby messages left
    above lose their buttons and say so, instead of "Seat 2: (free)"; a closed lobby says
    who closed it. Edited, not posted: nobody is pinged again."""
    fake = fake_discord
    alice, bob = fake.add_member("alice", locale="ko"), fake.add_member("bob")
    carol = fake.add_member("carol")
    async with deckhand.run() as bot:
        await open_table(fake, bot, alice, [bob, carol])
        first, second, *_ = fake.public_messages(fake.channel)
        assert first.content == t("lobby.retired_changed", "en") and first.components == []
        assert second.content == t("lobby.retired_started", "en") and second.components == []
        ended = await fake.slash(alice, fake.channel, "game end")
        assert ended.ephemeral  # the host of a running game is no moderator
        other = fake.add_channel("other")
        await fake.slash(alice, other, "uno start", players=2)
        closed = await fake.slash(alice, other, "game end")
        assert not closed.ephemeral
        lobby = fake.public_messages(other)[0]
        await fake.wait_for(lambda: lobby.components == [] or None)
        assert lobby.content == closed.text
        assert lobby.pinged == []


async def test_leaving_a_running_game_asks_first_and_the_seat_says_the_member_left(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """/uno leave in a running game changes nothing until the member presses the button
    that names what leaving costs (Uno: a forfeit). The seat then reads "bob (left)" in the
    table and "(left · computer)" in /game list, never like a computer's level."""
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob", locale="ko")
    mod = fake.add_member("mod", moderator=True)
    async with deckhand.run() as bot:
        await fake.slash(alice, fake.channel, "uno start", players=3, bots=1, level="hard")
        await fake.slash(bob, fake.channel, "uno join")
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and not session.is_lobby
        await to_play(fake, bot, fake.channel)  # the computer's move is in before bob's
        asked = await fake.slash(bob, fake.channel, "uno leave")
        assert asked.ephemeral and asked.message is not None
        assert asked.text == t("leave.confirm_forfeit", "ko", game=t("game.uno", "ko"))
        assert not session.seats[1].computer  # nothing changed yet
        question = dataclasses.replace(asked.message)  # as bob's client shows it
        left = await fake.click(bob, asked.message, t("button.leave_confirmed", "ko"))
        # The question's button answers in the question; the table goes to the channel.
        table = await answered_in_private(fake, left, asked.message)
        assert left.text == t("answer.on_table", "ko") and not asked.message.buttons
        assert session.seats[1].computer
        assert "bob left the game" in table.text  # named as they were when they left
        adapter = bot.sessions.adapter(session)
        later = render(session, adapter, [], []).content  # the next table
        assert "bob (left)" in later and "bob (hard)" not in later
        listed = await fake.slash(mod, fake.channel, "game list")
        assert "bob (left · computer)" in listed.text
        # Pressed again where bob's client has not redrawn the question yet:
        again = await fake.click(bob, question, t("button.leave_confirmed", "ko"), stale=True)
        assert again.ephemeral and again.text == t("error.not_seated", "ko")
