"""A stored game its engine cannot restore never leaves its table stuck.

The bot is stopped, one channel's stored game is damaged in the SQLite file (the very damage
the One Card engine once made itself: a record of what the table saw with a count of 0), and
the bot is started again. The first use of that table tells the member and the channel (in
the table's language), sets the record aside in the store, frees the channel and logs one
ERROR naming the table and the reason, no card; every other table plays on.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from bot.fakediscord import FakeChannel, FakeDiscord
from bot.i18n import t

if TYPE_CHECKING:
    from tests.e2e.conftest import Deckhand

CARD = re.compile(r"[♠♥♦♣]|JK[BC]")  # a One Card card as any text would name it


def damage(db_path: Path, channel: FakeChannel, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the channel's stored record in the bot's SQLite file, the bot stopped."""
    with sqlite3.connect(db_path) as db:
        (text,) = db.execute(
            "SELECT data FROM active_games WHERE channel_id = ?", (channel.id,)
        ).fetchone()
        data = json.loads(text)
        change(data)
        db.execute(
            "UPDATE active_games SET data = ? WHERE channel_id = ?",
            (json.dumps(data), channel.id),
        )


def a_count_of_zero(data: dict[str, Any]) -> None:
    """What the table saw of seat 1, with nothing left of it: the engine's own old bug."""
    state = data["state"]
    state["unfit"] = [None] * len(state["hands"])
    state["unfit"][0] = [1, 0]


def errors_about(caplog: pytest.LogCaptureFixture, channel: FakeChannel) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.ERROR and str(channel.id) in r.getMessage()
    ]


@pytest.mark.parametrize("locale", ["en-US", "ko"])
async def test_a_damaged_game_is_set_aside_on_first_use_and_the_other_tables_play_on(
    deckhand: Deckhand, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture, locale: str
) -> None:
    fake = fake_discord
    fake.guild.locale = locale
    lang = locale[:2]
    other = fake.add_channel("other-games")
    alice = fake.add_member("alice", locale=locale)
    bob = fake.add_member("bob", locale=locale)
    async with deckhand.run() as bot:
        for channel, game in ((fake.channel, "onecard"), (other, "uno")):
            opened = await fake.slash(alice, channel, f"{game} start", players=2, seed=7)
            lobby = opened.message or opened.messages[0]
            joined = await fake.click(bob, lobby, t("button.join", lang))
            assert not joined.ephemeral, joined.text
        uno = bot.sessions.get(other.id)
        assert uno is not None and uno.state is not None
        uno_version = uno.version
    damage(deckhand.db_path, fake.channel, a_count_of_zero)
    caplog.set_level(logging.INFO)

    async with deckhand.run() as bot:
        # Restored as every table is: its record is read when first needed.
        assert bot.sessions.get(fake.channel.id) is not None
        asked = await fake.slash(bob, fake.channel, "onecard hand")
        assert asked.ephemeral
        game = t("game.onecard", lang)
        assert asked.text == t("error.unrestorable", lang, game=game)
        told = await fake.wait_for_message(
            fake.channel, lambda m: m.text == t("game.set_aside", lang, game=game)
        )
        assert not told.ephemeral
        assert bot.sessions.get(fake.channel.id) is None  # the channel is free
        [kept] = await bot.store.set_aside_games()
        assert kept.game.channel_id == fake.channel.id
        assert kept.game.data["state"]["unfit"][0] == [1, 0]  # kept as it was
        assert "does not fit the hands" in kept.reason
        [error] = errors_about(caplog, fake.channel)
        assert "onecard" in error and "does not fit the hands" in error and not CARD.search(error)
        # Every other table restores and plays on.
        uno = bot.sessions.get(other.id)
        assert uno is not None and uno.state is not None and uno.version == uno_version
        mover = next(m for m in (alice, bob) if uno.seat_of(m.id) == uno.state.current_seat)
        drawn = await fake.slash(mover, other, "uno draw")
        assert not drawn.ephemeral, drawn.text
        assert uno.version > uno_version
        # A new game opens in the freed channel.
        again = await fake.slash(alice, fake.channel, "onecard start", players=2)
        assert not again.ephemeral, again.text
        assert bot.sessions.get(fake.channel.id) is not None
    assert len(errors_about(caplog, fake.channel)) == 1


UNREADABLE: dict[str, Callable[[dict[str, Any]], None]] = {
    "no seats": lambda data: data.pop("seats"),
    "a deadline that is no number": lambda data: data.update(deadline="soon"),
    "a turn past the seats": lambda data: data.update(turn=7),
    "a list, not a record": lambda data: None,  # written as [1] below
}


@pytest.mark.parametrize("kind", sorted(UNREADABLE))
async def test_a_record_that_cannot_be_read_at_all_is_set_aside_at_the_restart(
    deckhand: Deckhand, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob")
    other = fake.add_channel("other-games")
    async with deckhand.run() as bot:
        for channel in (fake.channel, other):
            opened = await fake.slash(alice, channel, "onecard start", players=2, seed=7)
            await fake.click(bob, opened.message or opened.messages[0], "Join")
            assert bot.sessions.get(channel.id) is not None
    damage(deckhand.db_path, fake.channel, UNREADABLE[kind])
    if kind == "a list, not a record":
        with sqlite3.connect(deckhand.db_path) as db:
            db.execute(
                "UPDATE active_games SET data = '[1]' WHERE channel_id = ?", (fake.channel.id,)
            )
    caplog.set_level(logging.INFO)
    async with deckhand.run() as bot:  # it starts, whatever the record
        # Nobody uses it: the restart itself sets it aside and tells the channel.
        await fake.wait_for_message(
            fake.channel, lambda m: m.text == t("game.set_aside", "en", game="One Card")
        )
        assert bot.sessions.get(fake.channel.id) is None
        [kept] = await bot.store.set_aside_games()
        assert kept.game.channel_id == fake.channel.id and kept.reason
        reopened = await fake.slash(alice, fake.channel, "onecard start", players=2)
        assert not reopened.ephemeral, reopened.text
        restored = bot.sessions.get(other.id)  # the other table plays on
        assert restored is not None and restored.state is not None
    [error] = errors_about(caplog, fake.channel)
    assert "cannot be restored" in error


async def test_a_damaged_game_whose_computer_moves_first_is_one_error_at_the_restart(
    deckhand: Deckhand, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    """The restart's computer burst is the first use: the burst meets the damage, the table
    is set aside, and the log has one ERROR (the burst's own failure is not logged again)."""
    fake = fake_discord
    alice = fake.add_member("alice")
    async with deckhand.run(computer_delay_seconds=30.0) as bot:
        await fake.slash(alice, fake.channel, "onecard start", players=2, bots=1, seed=7)
        session = bot.sessions.get(fake.channel.id)
        assert session is not None and session.state is not None
        if session.seats[session.state.current_seat].computer is False:  # alice first: move
            await fake.slash(alice, fake.channel, "onecard take")
        assert session.seats[session.state.current_seat].computer
    damage(deckhand.db_path, fake.channel, a_count_of_zero)
    caplog.set_level(logging.INFO)
    async with deckhand.run() as bot:
        await fake.wait_for_message(
            fake.channel, lambda m: m.text == t("game.set_aside", "en", game="One Card")
        )
        assert bot.sessions.get(fake.channel.id) is None
    assert len([r for r in caplog.records if r.levelno >= logging.ERROR]) == 1
