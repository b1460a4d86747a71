"""The real Deckhand bot against the fake Discord: it connects, syncs its commands, restarts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.e2e.fakediscord import FakeDiscord

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
