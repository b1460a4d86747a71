"""What a finished game leaves behind, through the real bot: /stats and /leaderboard after a
game, ratings ranked by games between members (farming against computers moves nothing),
and no result recorded for a member after they left."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from bot.fakediscord import FakeDiscord
from bot.i18n import t
from bot.store.base import ActiveGame, GuildSettings, SeatResult
from tests.deals import fair_blackjack_deals
from tests.e2e.deckhand_tables import (
    answered_in_private,
    leave_game,
    open_table,
    play_to_the_end,
    recorded,
)

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from tests.e2e.conftest import Deckhand


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
        # A game a moderator ended records nothing (test_moderation.py: test_a_seated_...), and
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


async def test_deal_again_never_records_a_game_for_a_member_who_left(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    async with deckhand.run() as bot:
        await open_table(fake, bot, alice, [bob])
        left = await leave_game(fake, bob, fake.channel, "blackjack")
        # The Leave button of a private question answers in it; the table goes to the channel.
        await answered_in_private(fake, left)
        assert left.text == t("answer.on_table", "en"), left.text  # no seat, no hand any more
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
