"""A server's settings through the real bot: who may change them (Manage Server), what
each one changes for the next table (turn time, language, lobby wait, who may deal a seeded
game), and a reset to the default."""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING

import pytest

from bot.fakediscord import FakeDiscord
from bot.fakediscord.model import MANAGE_GUILD
from bot.i18n import t
from bot.store.base import GuildSettings
from tests.e2e.deckhand_tables import (
    blackjack_seed,
    owner_of,
    settled,
)

if TYPE_CHECKING:
    from tests.e2e.conftest import Deckhand


async def test_settings_turn_time_and_language_are_saved_and_used_by_the_next_table(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    owner, alice = owner_of(fake_discord), fake_discord.add_member("alice")
    async with deckhand.run() as bot:
        saved = await fake_discord.slash(
            owner, fake_discord.channel, "game settings", turn_seconds=30, language="ko"
        )
        assert saved.ephemeral
        assert saved.text == t(
            "settings.saved",
            "en",
            turn=t("settings.seconds", "en", seconds=30),
            language="ko",
            role=t("settings.default", "en"),
            games=t("settings.all_games", "en"),
            seeding=t("choice.seeding.anyone", "en"),
            lobby=t("settings.default", "en"),
        )
        seed = blackjack_seed(1)
        opened = await fake_discord.slash(
            alice, fake_discord.channel, "blackjack start", players=1, seed=seed
        )
        assert not opened.ephemeral
        table = await settled(fake_discord, bot, fake_discord.channel)
        assert f"{t('bj.house', 'ko')}: {t('bj.hidden', 'ko')}, " in table.text  # in Korean
        status = await fake_discord.slash(alice, fake_discord.channel, "game status")
        left = int(re.findall(r"\d+", status.text)[-1])
        assert 25 <= left <= 30, status.text  # the configured 30 s, not Blackjack's 45
    async with deckhand.run() as bot:  # saved in the store, not only in memory
        session = bot.sessions.get(fake_discord.channel.id)
        assert session is not None and session.turn_seconds == 30


async def test_only_manage_server_changes_the_settings_not_the_moderator_role(
    deckhand: Deckhand, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    owner = owner_of(fake_discord)
    carol = fake_discord.add_member("carol")
    mod = fake_discord.add_member("mod", moderator=True)  # Manage Messages only
    admin = fake_discord.add_member("admin")
    async with deckhand.run() as bot:
        croupier = await fake_discord.add_role("Croupier")
        await fake_discord.give_role(carol, croupier)
        managers = await fake_discord.add_role("Managers", permissions=MANAGE_GUILD)
        await fake_discord.give_role(admin, managers)
        await fake_discord.slash(
            owner, fake_discord.channel, "game settings", moderator_role=croupier
        )
        before = await bot.store.guild_settings(fake_discord.guild.id)
        everyone = fake_discord.guild.roles[fake_discord.guild.id]
        for member in (carol, mod):
            refused = await fake_discord.slash(
                member, fake_discord.channel, "game settings", moderator_role=everyone
            )
            assert refused.ephemeral
            assert refused.text == t("error.manage_server_only", "en")
            refused = await fake_discord.slash(member, fake_discord.channel, "game settings")
            assert refused.text == t("error.manage_server_only", "en")  # not even a look
        assert await bot.store.guild_settings(fake_discord.guild.id) == before
        allowed = await fake_discord.slash(
            admin, fake_discord.channel, "game settings", turn_seconds=20
        )
        assert allowed.ephemeral and t("settings.seconds", "en", seconds=20) in allowed.text
        assert (await bot.store.guild_settings(fake_discord.guild.id)).turn_seconds == 20
        # Who changed what is in the log; the refused attempts changed nothing, so are not.
        changed = [
            r.getMessage() for r in caplog.records if "settings changed by" in r.getMessage()
        ]
        assert changed == [
            f"guild {fake_discord.guild.id}: settings changed by member {owner.id}: "
            f"moderator_role_id={croupier.id}",
            f"guild {fake_discord.guild.id}: settings changed by member {admin.id}: "
            "turn_seconds=20",
        ]


async def test_who_may_deal_a_seeded_game_is_the_servers_choice(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    owner = owner_of(fake)
    alice = fake.add_member("alice", locale="ko")
    mod = fake.add_member("mod", moderator=True)
    seed = blackjack_seed(1)
    async with deckhand.run() as bot:
        for setting, member, allowed in (
            ("off", alice, False),
            ("off", mod, False),
            ("moderators", alice, False),
            ("moderators", mod, True),
            ("anyone", alice, True),
        ):
            await fake.slash(owner, fake.channel, "game settings", seeding=setting)
            seeded = await fake.slash(member, fake.channel, "blackjack start", seed=seed)
            if not allowed:
                key = "error.seeding_off" if setting == "off" else "error.seeding_moderators"
                assert seeded.ephemeral and seeded.text == t(key, member.locale[:2])
                assert bot.sessions.get(fake.channel.id) is None  # nothing was opened
                fair = await fake.slash(member, fake.channel, "blackjack start")  # no seed: fine
                assert not fair.ephemeral, fair.text
            else:
                assert not seeded.ephemeral, seeded.text
                assert t("fair.seeded", "en", seed=seed) in seeded.text
            await fake.slash(mod, fake.channel, "game end")
            await fake.wait_for(lambda: bot.sessions.get(fake.channel.id) is None)


async def test_a_setting_can_be_reset_to_its_default(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    owner = owner_of(fake_discord)
    async with deckhand.run() as bot:
        croupier = await fake_discord.add_role("Croupier")
        guild = fake_discord.guild.id
        await fake_discord.slash(
            owner,
            fake_discord.channel,
            "game settings",
            turn_seconds=30,
            language="ko",
            moderator_role=croupier,
            allowed_games="blackjack",
            seeding="off",
        )
        assert (await bot.store.guild_settings(guild)).seeding == "off"
        reset = await fake_discord.slash(
            owner, fake_discord.channel, "game settings", reset="moderator_role_id"
        )
        assert croupier.mention not in reset.text
        settings = await bot.store.guild_settings(guild)
        assert settings.moderator_role_id is None and settings.turn_seconds == 30
        # A reset applies first, so a new value given beside it wins.
        await fake_discord.slash(
            owner, fake_discord.channel, "game settings", reset="turn_seconds", turn_seconds=40
        )
        assert (await bot.store.guild_settings(guild)).turn_seconds == 40
        await fake_discord.slash(owner, fake_discord.channel, "game settings", reset="turn_seconds")
        assert (await bot.store.guild_settings(guild)).turn_seconds is None
        everything = await fake_discord.slash(
            owner, fake_discord.channel, "game settings", reset="all"
        )
        default = t("settings.default", "en")
        assert everything.text == t(
            "settings.saved",
            "en",
            turn=default,
            language=default,
            role=default,
            games=t("settings.all_games", "en"),
            seeding=t("choice.seeding.anyone", "en"),
            lobby=default,
        )
        assert await bot.store.guild_settings(guild) == GuildSettings(guild)


async def test_a_server_sets_how_long_its_lobbies_wait(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    owner = fake.guild.members[fake.owner.id]
    alice = fake.add_member("alice")
    async with deckhand.run() as bot:
        saved = await fake.slash(owner, fake.channel, "game settings", lobby_minutes=30)
        assert t("settings.minutes", "en", minutes=30) in saved.text
        before = bot.sessions.clock()
        await fake.slash(alice, fake.channel, "onecard start", players=3)
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and session.deadline is not None
        assert 30 * 60 <= session.deadline - before < 30 * 60 + 5
