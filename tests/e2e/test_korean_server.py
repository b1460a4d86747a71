"""A Korean server, as its members see it: every game played from the lobby to the final
table with no English word in any message, public or private, but card codes and names."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest

from bot.fakediscord import FakeDiscord
from bot.games import GameCatalog
from tests.e2e.deckhand_tables import member_move, members_turn, settled, to_play
from tests.language import english_words

if TYPE_CHECKING:
    from tests.e2e.conftest import Deckhand

# Per game: the options of a table of one member and computers with the game's own features
# on (its adapter's practice table).
TABLES = {game.name: game.soak.practice for game in GameCatalog.discover()}


@pytest.mark.parametrize("game", sorted(TABLES))
async def test_a_korean_server_plays_the_game_to_the_end_in_korean_only(
    deckhand: Deckhand, fake_discord: FakeDiscord, game: str
) -> None:
    fake = fake_discord
    fake.guild.locale = "ko"
    minjun = fake.add_member("민준", locale="ko")
    rng = random.Random(game)
    async with deckhand.run() as bot:
        opened = await fake.slash(minjun, fake.channel, f"{game} start", seed=3, **TABLES[game])
        assert not opened.ephemeral, opened.text
        for _ in range(400):
            await fake.wait_for(lambda: members_turn(bot, fake.channel, minjun))
            await settled(fake, bot, fake.channel)
            if await member_move(fake, bot, minjun, fake.channel, rng) is None:
                break
        else:
            raise AssertionError("the game did not end")
        # A last move made from the private hand is answered there: the final table is the
        # bot's own post after it.
        await to_play(fake, bot, fake.channel)
        if game == "rummikub":
            await fake.slash(minjun, fake.channel, "rummikub hint")  # a table with hints
        status = await fake.slash(minjun, fake.channel, "game status")
        assert status.ephemeral
    seen = [m for m in fake.messages.values() if m.visible_to in (None, minjun.id)]
    assert len(seen) >= 3
    english = {m.text[:60]: english_words(m.text) for m in seen if english_words(m.text)}
    assert english == {}
    final = [m for m in seen if not m.ephemeral][-1]
    assert "공정한 배분 공개" in final.text or "시드" in final.text
