"""Moderators through the real bot: who counts as one (a role the server sets, Manage
Messages in the table's own channel), and what they may do: end a game, kick a member, list
every table they can see and end one from the list; a seated moderator who ends a game
forfeits it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from bot.fakediscord import FakeDiscord
from bot.fakediscord.model import MANAGE_MESSAGES, VIEW_CHANNEL
from bot.i18n import t
from tests.e2e.deckhand_tables import (
    open_table,
    owner_of,
    recorded,
)

if TYPE_CHECKING:
    from tests.e2e.conftest import Deckhand


async def test_a_moderator_role_set_by_the_command_may_end_the_game(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    owner = owner_of(fake_discord)
    alice, bob, carol = (fake_discord.add_member(n) for n in ("alice", "bob", "carol"))
    async with deckhand.run() as bot:
        croupier = await fake_discord.add_role("Croupier")  # no Manage Messages
        await fake_discord.give_role(carol, croupier)
        await open_table(fake_discord, bot, alice, [bob])
        refused = await fake_discord.slash(carol, fake_discord.channel, "game end")
        assert refused.ephemeral and refused.text == t("error.moderator_only", "en")
        assert bot.sessions.get(fake_discord.channel.id) is not None
        saved = await fake_discord.slash(
            owner, fake_discord.channel, "game settings", moderator_role=croupier
        )
        assert saved.ephemeral and croupier.mention in saved.text
        ended = await fake_discord.slash(carol, fake_discord.channel, "game end")
        assert not ended.ephemeral
        assert ended.text.splitlines()[0] == t("game.ended_by", "en", member=carol.mention)
        assert bot.sessions.get(fake_discord.channel.id) is None


async def test_kick_is_refused_to_a_plain_member_and_done_by_a_moderator(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    alice, bob, carol = (fake_discord.add_member(n) for n in ("alice", "bob", "carol"))
    mod = fake_discord.add_member("mod", moderator=True)
    async with deckhand.run() as bot:
        await open_table(fake_discord, bot, alice, [bob])
        session = bot.sessions.get(fake_discord.channel.id)
        assert session is not None
        version = session.version
        refused = await fake_discord.slash(carol, fake_discord.channel, "game kick", member=bob)
        assert refused.ephemeral and refused.text == t("error.moderator_only", "en")
        assert session.version == version and not session.seats[1].computer
        kicked = await fake_discord.slash(mod, fake_discord.channel, "game kick", member=bob)
        assert not kicked.ephemeral
        assert t("game.kicked", "en", name="bob") in kicked.text
        session = bot.sessions.get(fake_discord.channel.id)
        assert session is None or session.seats[1].computer


async def test_a_moderator_lists_every_table_and_ends_one_from_the_list(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    mod = fake.add_member("mod", moderator=True, locale="ko")
    other = fake.add_channel("other")
    async with deckhand.run() as bot:
        refused = await fake.slash(alice, fake.channel, "game list")
        assert refused.ephemeral and refused.text == t("error.moderator_only", "en")
        none = await fake.slash(mod, fake.channel, "game list")
        assert none.text == t("list.none", "ko")
        await open_table(fake, bot, alice, [bob])  # a Blackjack game in #games
        lobby = await fake.slash(bob, other, "onecard start", players=3)  # a lobby in #other
        assert not lobby.ephemeral
        listed = await fake.slash(mod, other, "game list")
        assert listed.ephemeral and listed.message is not None
        lines = listed.text.splitlines()
        assert lines[0] == t("list.title", "ko", n=2)
        games_line = next(line for line in lines if f"<#{fake.channel.id}>" in line)
        assert t("game.blackjack", "ko") in games_line and "alice, bob" in games_line
        assert t("list.turn", "ko", name="alice") in games_line  # seat 1 plays first
        other_line = next(line for line in lines if f"<#{other.id}>" in line)
        assert t("list.lobby", "ko", seated=1, players=3) in other_line
        assert listed.message.button_labels == [
            t("button.end_n", "ko", n=1),
            t("button.end_n", "ko", n=2),
        ]
        number = 1 if lines[1] == games_line else 2
        # Only a moderator may press it, even holding the message.
        ended = await fake.click(mod, listed.message, t("button.end_n", "ko", n=number))
        assert ended.ephemeral and ended.text == t(
            "list.ended", "ko", game=t("game.blackjack", "ko"), channel=f"<#{fake.channel.id}>"
        )
        assert bot.sessions.get(fake.channel.id) is None
        assert bot.sessions.get(other.id) is not None  # the other table is untouched
        told = await fake.wait_for_message(
            fake.channel, lambda m: t("game.ended_by", "en", member=mod.mention) in m.text
        )
        assert not told.ephemeral
        again = await fake.click(mod, listed.message, t("button.end_n", "ko", n=number))
        assert again.ephemeral and again.text == t("error.stale_button", "ko")


async def test_moderation_counts_the_rights_in_the_tables_own_channel(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """Manage Messages in one channel only: /game list there shows the tables of the
    channels the member can see (not a hidden one), and its End buttons refuse a table in a
    channel where the member moderates nothing; a moderator there ends it."""
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    mia = fake.add_member("mia")  # no moderator role
    own = fake.add_channel("mia-moderates")
    hidden = fake.add_channel("staff-only")
    fake.overwrite(own, mia, allow=MANAGE_MESSAGES)
    everyone = fake.guild.roles[fake.guild.id]
    fake.overwrite(hidden, everyone, deny=VIEW_CHANNEL)
    fake.overwrite(hidden, alice, allow=VIEW_CHANNEL)
    mod = fake.add_member("mod", moderator=True)
    async with deckhand.run() as bot:
        await open_table(fake, bot, alice, [bob])  # Blackjack in #games
        secret = await fake.slash(alice, hidden, "onecard start", players=3)
        assert not secret.ephemeral, secret.text
        refused = await fake.slash(mia, fake.channel, "game list")
        assert refused.text == t("error.moderator_only", "en")  # no rights in #games
        listed = await fake.slash(mia, own, "game list")
        assert listed.ephemeral and listed.message is not None
        assert f"<#{fake.channel.id}>" in listed.text and f"<#{hidden.id}>" not in listed.text
        assert listed.text.splitlines()[0] == t("list.title", "en", n=1)
        ended = await fake.click(mia, listed.message, t("button.end_n", "en", n=1))
        assert ended.ephemeral and ended.text == t("error.moderator_only", "en")
        assert bot.sessions.get(fake.channel.id) is not None  # still running
        assert bot.sessions.get(hidden.id) is not None
        # A moderator of #games sees it and ends it there; the server's owner sees both.
        ended = await fake.click(
            mod, (await fake.slash(mod, own, "game list")).message, t("button.end_n", "en", n=1)
        )
        assert ended.text == t(
            "list.ended", "en", game="Blackjack", channel=f"<#{fake.channel.id}>"
        )
        owner = fake.guild.members[fake.owner.id]
        everything = await fake.slash(owner, own, "game list")
        assert f"<#{hidden.id}>" in everything.text


@pytest.mark.parametrize("players", [2, 3])
async def test_a_seated_moderator_who_ends_the_game_forfeits_it(
    deckhand: Deckhand, fake_discord: FakeDiscord, players: int
) -> None:
    """A moderator playing at the table gives up their seat by the game's rule: two players,
    the other wins; three, the game goes on and records everyone when it ends. Having given
    it up, they cannot end it either."""
    fake = fake_discord
    mod = fake.add_member("mod", moderator=True)
    others = [fake.add_member("bob"), fake.add_member("carol")][: players - 1]
    async with deckhand.run() as bot:
        opened = await fake.slash(mod, fake.channel, "onecard start", players=players, seed=7)
        for member in others:
            joined = await fake.slash(member, fake.channel, "onecard join")
            assert not joined.ephemeral, joined.text
        assert bot.sessions.get(fake.channel.id) is not None and opened.message is not None
        ended = await fake.slash(mod, fake.channel, "game end")
        assert not ended.ephemeral
        assert t("game.ended_forfeit", "en", member=mod.mention) in ended.text
        if players == 2:  # the forfeit rule gives bob the game
            assert bot.sessions.get(fake.channel.id) is None
            results = recorded(deckhand.db_path)
            assert (mod.id, "lose", None) in results and (others[0].id, "win", None) in results
            return
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and session.seats[0].computer  # bob and carol play on
        assert recorded(deckhand.db_path) == []
        again = await fake.slash(mod, fake.channel, "game end")
        assert again.ephemeral and again.text == t("error.end_own_game", "en")
        assert bot.sessions.get(fake.channel.id) is session
