"""The real Deckhand bot against the fake Discord: it connects, syncs its commands, restarts."""

from __future__ import annotations

import asyncio
import logging
import re
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bot.fakediscord import FakeDiscord, FakeMember
from bot.fakediscord.model import MANAGE_GUILD, MANAGE_MESSAGES, VIEW_CHANNEL
from bot.i18n import t
from bot.sessions.render import render
from bot.store.base import ActiveGame, GuildSettings, SeatResult
from tests.deals import fair_blackjack_deals
from tests.e2e.deckhand_tables import (
    blackjack_seed,
    latest_table,
    leave_game,
    open_table,
    play_to_the_end,
    settled,
)

if TYPE_CHECKING:
    from bot.client import DeckhandBot
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


def owner_of(fake: FakeDiscord) -> FakeMember:
    """The guild's owner, who has every permission (Manage Server included)."""
    return fake.guild.members[fake.owner.id]


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


async def test_stats_and_leaderboard_count_a_finished_game(
    deckhand: Deckhand, fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    alice, bob, carol = (fake_discord.add_member(n) for n in ("alice", "bob", "carol"))
    fair_blackjack_deals(monkeypatch, players=3)  # an unseeded deal (counted), fixed for the test
    async with deckhand.run() as bot:
        none = await fake_discord.slash(carol, fake_discord.channel, "leaderboard")
        assert none.ephemeral and none.text == t("leaderboard.none", "en")
        await open_table(fake_discord, bot, alice, [bob], bots=1, fair=True)
        final = await play_to_the_end(fake_discord, bot, [alice, bob])
        outcomes = {}
        for member in (alice, bob):
            (line,) = [line for line in final.text.splitlines() if f"] {member.name}: " in line]
            outcome = next(
                o for o in ("win", "lose", "draw") if line.startswith(f"[{t('bj.' + o, 'en')}]")
            )
            outcomes[member.id] = outcome
        stats = await fake_discord.slash(carol, fake_discord.channel, "stats", member=alice)
        counts = {o: int(outcomes[alice.id] == o) for o in ("win", "lose", "draw")}
        won = 100 * counts["win"]
        assert stats.ephemeral and stats.text.splitlines() == [
            t("stats.title", "en", member=alice.mention),
            t("stats.row", "en", game="Blackjack", played=1, **counts),
            t("stats.house", "en", game="Blackjack", share=won, played=1),
        ]
        mine = await fake_discord.slash(carol, fake_discord.channel, "stats")
        assert mine.text == t("stats.none", "en", member=carol.mention)
        board = await fake_discord.slash(
            carol, fake_discord.channel, "leaderboard", game="blackjack"
        )
        assert not board.ephemeral and board.message is not None and board.message.pinged == []
        # Blackjack is played against the House: ranked by hands won, from 20 hands on.
        assert board.text.splitlines() == [
            t("leaderboard.title_house", "en", game="Blackjack", least=20),
            t("leaderboard.nobody_ranked", "en"),
        ]
        other = await fake_discord.slash(carol, fake_discord.channel, "leaderboard", game="onecard")
        assert other.text == t("leaderboard.none", "en")


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


async def record(
    bot: DeckhandBot, channel: int, game: str, *seats: tuple[int | None, str, int]
) -> None:
    """A finished, counted game of ``game``: each seat's member (None: a computer), outcome
    and score, ranked in the order given."""
    guild = next(iter(bot.guilds)).id
    await bot.store.create(ActiveGame(channel, guild, game, 1, {}))
    await bot.store.finish(
        channel,
        expected_version=1,
        game=game,
        guild_id=guild,
        seats=[
            SeatResult(n, member, outcome, score, n + 1)
            for n, (member, outcome, score) in enumerate(seats)
        ],
    )


async def test_ratings_rank_members_by_games_between_them_and_farming_moves_nothing(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    """Alice beats Bob twice at Uno and loses once: she ranks first. Carol then wins 30
    games at a table of computers (farming), and a moderator-ended game and a departed
    member's Deal again record nothing: the ranking is what it was, Carol only in practice."""
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob", locale="ko")
    carol = fake.add_member("carol")
    async with deckhand.run() as bot:
        for channel, alice_first in enumerate([True, False, True], start=1):
            first, second = (alice, bob) if alice_first else (bob, alice)
            await record(bot, channel, "uno", (first.id, "win", 20), (second.id, "lose", 0))
        board = await fake.slash(alice, fake.channel, "leaderboard", game="uno")
        lines = board.text.splitlines()
        assert lines[0] == t("leaderboard.title_rating", "en", game="Uno")
        assert (
            lines[1].startswith(f"1. {alice.mention}: ") and "(3 games against members)" in lines[1]
        )
        assert lines[2].startswith(f"2. {bob.mention}: ")
        for channel in range(10, 40):  # carol alone against computers, winning every game
            await record(bot, channel, "uno", (carol.id, "win", 50), (None, "lose", 0))
        farmed = await fake.slash(alice, fake.channel, "leaderboard", game="uno")
        assert farmed.text.splitlines()[:3] == lines[:3]  # the ranking is what it was
        # The board is public: a Korean member in this English server gets it in English,
        # and "no games yet" (private) in Korean.
        asked_by_bob = await fake.slash(bob, fake.channel, "leaderboard", game="uno")
        assert not asked_by_bob.ephemeral and asked_by_bob.text == farmed.text
        nothing = await fake.slash(bob, fake.channel, "leaderboard", game="gostop")
        assert nothing.ephemeral and nothing.text == t("leaderboard.none", "ko")
        assert farmed.text.splitlines()[3] == t(
            "leaderboard.practice",
            "en",
            members=t("leaderboard.practice_member", "en", member=carol.mention, games=30),
        )
        stats = await fake.slash(carol, fake.channel, "stats")
        assert t("stats.unrated", "en", game="Uno", computers=30) in stats.text
        # A game a moderator ended records nothing (test_a_seated_moderator_who_ends_...), and
        # a Deal again after a member left records only who stayed, with a computer where
        # they sat (test_deal_again_never_records_...): neither moves the ranking.
        guild = fake.guild.id
        await bot.store.create(ActiveGame(99, guild, "uno", 1, {}))
        await bot.store.finish(
            99, expected_version=1, game="uno", guild_id=guild, seats=[], ended_by=bob.id
        )
        await record(bot, 98, "uno", (alice.id, "win", 20), (None, "lose", 0))
        after = await fake.slash(alice, fake.channel, "leaderboard", game="uno")
        assert after.text.splitlines()[1:3] == lines[1:3]
        everything = await fake.slash(bob, fake.channel, "leaderboard")  # every game, top 3
        assert t("leaderboard.title_rating", "en", game="Uno") in everything.text  # the server's
        await bot.store.save_guild_settings(GuildSettings(fake.guild.id, language="ko"))
        korean = await fake.slash(alice, fake.channel, "leaderboard")
        assert t("leaderboard.title_rating", "ko", game=t("game.uno", "ko")) in korean.text


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


def recorded(db_path: Path) -> list[tuple[int | None, str, int | None]]:
    """Every seat result stored: (member, outcome, who ended the game)."""
    with sqlite3.connect(db_path) as db:
        return db.execute(
            "SELECT s.member_id, s.outcome, f.ended_by FROM seat_results s"
            " JOIN finished_games f ON f.id = s.finished_id ORDER BY f.id, s.seat"
        ).fetchall()


async def test_deal_again_never_records_a_game_for_a_member_who_left(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    async with deckhand.run() as bot:
        await open_table(fake, bot, alice, [bob])
        left = await leave_game(fake, bob, fake.channel, "blackjack")
        assert not left.ephemeral, left.text
        final = await play_to_the_end(fake, bot, [alice])
        for _ in range(3):
            again = await fake.click(alice, final, t("button.again", "en"))
            assert not again.ephemeral, again.text
            session = bot.sessions.get(fake.channel.id) or bot.sessions.finished.get(
                fake.channel.id
            )
            assert session is not None and session.seats[1].member_id is None
            final = await play_to_the_end(fake, bot, [alice])
        # The deal bob left counts for him; the three after it only for alice.
        members = [member for member, _, _ in recorded(deckhand.db_path)]
        assert members.count(bob.id) == 1 and members.count(alice.id) == 4
        refused = await fake.click(bob, final, t("button.again", "en"))
        assert refused.ephemeral and refused.text == t("error.not_seated", "en")


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
        asked = await fake.slash(bob, fake.channel, "uno leave")
        assert asked.ephemeral and asked.message is not None
        assert asked.text == t("leave.confirm_forfeit", "ko", game=t("game.uno", "ko"))
        assert not session.seats[1].computer  # nothing changed yet
        left = await fake.click(bob, asked.message, t("button.leave_confirmed", "ko"))
        assert not left.ephemeral, left.text
        assert session.seats[1].computer
        assert "bob left the game" in left.text  # named as they were when they left
        adapter = bot.sessions.adapter(session)
        later = render(session, adapter, [], []).content  # the next table
        assert "bob (left)" in later and "bob (hard)" not in later
        listed = await fake.slash(mod, fake.channel, "game list")
        assert "bob (left · computer)" in listed.text
        again = await fake.click(bob, asked.message, t("button.leave_confirmed", "ko"))
        assert again.ephemeral and again.text == t("error.not_seated", "ko")
