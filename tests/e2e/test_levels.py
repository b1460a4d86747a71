"""Computer levels in Discord: ``/<game> start level:`` picks how well the computer seats play;
the table names each computer seat with its level, in the table's language, the computers
play on at that level, and a restart keeps it. A level Discord never offered is refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from bot.fakediscord import FakeDiscord, FakeMember, FakeMessage, UsageError
from bot.games import GameCatalog
from rules.levels import Level
from tests.e2e.deckhand_tables import code_block, settled, version_of, whose_turn
from tests.phone import assert_tables_fit_phone

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from tests.e2e.conftest import Deckhand

SEED = 11
GAMES_WITH_COMPUTERS = set(GameCatalog.discover().names())  # every game seats computers


def above_the_block(text: str) -> str:
    return text.split("```", 1)[0]


async def take_and_let_the_computer_play(
    fake: FakeDiscord, bot: DeckhandBot, alice: FakeMember
) -> str:
    """Alice takes a card on her turn; the table once the computer has answered it."""
    assert whose_turn(bot, fake.channel) == alice.id
    session = bot.sessions.get(fake.channel.id)
    assert session is not None
    before = session.version
    took = await fake.slash(alice, fake.channel, "onecard take")
    assert not took.ephemeral, took.text

    def answered() -> bool | None:
        over = session.state is None or session.state.is_over
        return True if over or whose_turn(bot, fake.channel) == alice.id else None

    await fake.wait_for(answered)
    assert session.version >= before + 2  # Alice's move, then the computer's

    def posted() -> FakeMessage | None:
        # The newest table only: after a restart the one before it keeps its buttons.
        newest = fake.public_messages(fake.channel)[-1]
        return newest if version_of(newest) == session.version else None

    return (await fake.wait_for(posted)).text


async def test_a_hard_computer_is_named_plays_on_and_keeps_its_level_after_a_restart(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    async with deckhand.run() as bot:
        opened = await fake.slash(
            alice, fake.channel, "onecard start", players=2, bots=1, level="hard", seed=SEED
        )
        assert not opened.ephemeral, opened.text
        table = await settled(fake, bot, fake.channel)
        assert "AI 2 (hard)" in code_block(table.text)
        assert_tables_fit_phone(table.text)
        if whose_turn(bot, fake.channel) != alice.id:  # the computer opened: it has played
            assert "AI 2 (hard)" in above_the_block(table.text)
        text = await take_and_let_the_computer_play(fake, bot, alice)
        assert "AI 2 (hard)" in above_the_block(text) and "AI 2 (hard)" in code_block(text)
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and session.level is Level.HARD
    async with deckhand.run() as bot:
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and session.level is Level.HARD
        text = await take_and_let_the_computer_play(fake, bot, alice)
        assert "AI 2 (hard)" in above_the_block(text) and "AI 2 (hard)" in code_block(text)


async def test_a_korean_table_names_the_level_in_korean(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    fake.guild.locale = "ko"
    host = fake.add_member("호스트", locale="ko")
    async with deckhand.run() as bot:
        opened = await fake.slash(host, fake.channel, "gostop start", bots=1, level="hard")
        assert not opened.ephemeral, opened.text
        table = await settled(fake, bot, fake.channel)
        assert "AI 2 (고수)" in code_block(table.text)
        assert_tables_fit_phone(table.text)


async def test_a_lobby_says_the_level_and_a_normal_table_is_as_ever(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    async with deckhand.run() as bot:
        lobby = await fake.slash(
            alice, fake.channel, "uno start", players=3, bots=1, level="easy", seed=SEED
        )
        assert "Seat 3: computer\nComputer players: easy" in lobby.text, lobby.text
        await fake.slash(alice, fake.channel, "game end")
        opened = await fake.slash(alice, fake.channel, "uno start", players=2, bots=1, seed=SEED)
        assert not opened.ephemeral, opened.text
        table = await settled(fake, bot, fake.channel)
        assert "Computer 2" in code_block(table.text) and "(normal)" not in table.text
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and session.level is Level.NORMAL


def start_commands(fake: FakeDiscord) -> dict[str, dict[str, Any]]:
    """Each game's synced ``start`` subcommand, by game."""
    found = {}
    for command in fake.commands[fake.guild.id]:
        for sub in command.get("options") or []:
            if sub["name"] == "start" and any(o["name"] == "bots" for o in sub["options"]):
                found[command["name"]] = sub
    return found


async def test_every_game_with_computer_seats_offers_the_three_levels_in_both_languages(
    deckhand: Deckhand, fake_discord: FakeDiscord
) -> None:
    async with deckhand.run():
        starts = start_commands(fake_discord)
    assert set(starts) == GAMES_WITH_COMPUTERS
    for game, start in starts.items():
        [level] = [o for o in start["options"] if o["name"] == "level"]
        assert not level.get("required"), game
        assert level["name_localizations"]["ko"] == "실력"
        assert [c["value"] for c in level["choices"]] == ["easy", "normal", "hard"]
        korean = [c["name_localizations"]["ko"] for c in level["choices"]]
        assert korean == ["초보 (쉬움)", "중수 (보통)", "고수 (어려움)"]


@pytest.mark.parametrize("value", ["impossible", "HARD", ""])
async def test_a_level_discord_never_offered_is_refused_and_opens_nothing(
    deckhand: Deckhand, fake_discord: FakeDiscord, value: str
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    async with deckhand.run() as bot:
        with pytest.raises(UsageError):
            await fake.slash(alice, fake.channel, "onecard start", bots=1, level=value)
        assert bot.sessions.get(fake.channel.id) is None
        assert await bot.store.load_active() == []
