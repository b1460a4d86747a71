"""Hostile input to every command the bot syncs: empty, maximum-length, control and
right-to-left text, out-of-range numbers (docs/design.md §4: bad input gets a clear message and
changes nothing).

The commands are read from what the bot synced, so a new game's commands are covered as
soon as it loads.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from bot.fakediscord import FakeDiscord, FakeMember, UsageError
from bot.fakediscord.model import MANAGE_GUILD
from bot.games import GameCatalog
from bot.i18n import ECHO_LIMIT
from tests.e2e.deckhand_tables import settled

if TYPE_CHECKING:
    from bot.client import DeckhandBot
    from tests.e2e.conftest import Deckhand

STRING = 3
INTEGER, NUMBER = 4, 10
SUBCOMMAND, GROUP = 1, 2
LONGEST_USEFUL = 100  # no option needs more: a card, a set of tiles, a list of games
# ...but the revealed options of a table, pasted back into /game verify (an Uno table's: ~120).
LONGER = {("game verify", "options"): 300}


def leaves(commands: list[dict[str, Any]]) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """``("onecard play", [options])`` for every command a member can run."""

    def walk(
        path: str, options: list[dict[str, Any]]
    ) -> Iterator[tuple[str, list[dict[str, Any]]]]:
        subs = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
        if not subs:
            yield path, options
        for sub in subs:
            yield from walk(f"{path} {sub['name']}", sub.get("options") or [])

    for command in commands:
        if command.get("type", 1) == 1:
            yield from walk(command["name"], command.get("options") or [])


def hostile(option: dict[str, Any]) -> list[str]:
    longest = int(option.get("max_length", 6000))
    shortest = int(option.get("min_length", 0))
    values = [
        "\u202eRLO \u200f\u2067 isolate \u202e \x00\x07\x1b[31m" + "```" + "@everyone <@&1> **x**",
        "ي" * min(longest, 40) + " עברית",
        ("𝕏" * longest)[:longest],  # the most the option takes, in astral characters
        " " * max(shortest, 1),
        "r5@²",  # a digit int() refuses though str.isdigit() says yes
        '{"evil": 1}',  # JSON an engine's options refuse with its own ValueError
    ]
    if shortest == 0:
        values.append("")
    return [v[:longest] for v in values if shortest <= len(v) <= longest]


def filler(option: dict[str, Any], member: FakeMember) -> Any:
    """A valid value for an option the test is not attacking."""
    if option.get("choices"):
        return option["choices"][0]["value"]
    if option["type"] in (INTEGER, NUMBER):
        return option.get("min_value", 1)
    if option["type"] == STRING:
        return "x" * max(1, int(option.get("min_length", 1)))
    if option["type"] in (6, 9):  # a user or mentionable
        return member
    if option["type"] == 5:
        return False
    raise AssertionError(f"no filler for option type {option['type']}")


async def snapshot(bot: DeckhandBot, fake: FakeDiscord) -> Any:
    sessions = {s.channel_id: s.version for s in bot.sessions.sessions()}
    stored = await bot.store.load_active()
    settings = await bot.store.guild_settings(fake.guild.id)
    return sessions, stored, settings


def synced(fake: FakeDiscord) -> list[tuple[str, list[dict[str, Any]]]]:
    commands = [c for scope in fake.commands.values() for c in scope]
    found = list(leaves(commands))
    assert len(found) > 10, found
    return found


async def test_every_option_is_bounded(fake_discord: FakeDiscord, bot: DeckhandBot) -> None:
    member = fake_discord.add_member("alice")
    for path, options in synced(fake_discord):
        for option in options:
            if option["type"] == STRING and not option.get("choices"):
                most = LONGER.get((path, option["name"]), LONGEST_USEFUL)
                assert 0 < option.get("max_length", 6000) <= most, (path, option)
            if option["type"] in (INTEGER, NUMBER) and not option.get("choices"):
                assert "min_value" in option and "max_value" in option, (path, option)
                others = {
                    o["name"]: filler(o, member)
                    for o in options
                    if o.get("required") and o is not option
                }
                for outside in (option["min_value"] - 1, option["max_value"] + 1):
                    with pytest.raises(UsageError):  # Discord refuses it before the bot sees it
                        await fake_discord.slash(
                            member,
                            fake_discord.channel,
                            path,
                            **others,
                            **{option["name"]: outside},
                        )


def free_text(option: dict[str, Any]) -> bool:
    """A string option a member types freely (Discord itself refuses a value that is not one
    of an option's choices)."""
    return option["type"] == STRING and not option.get("choices")


def filler_for(path: str, option: dict[str, Any], member: FakeMember) -> Any:
    """:func:`filler`, but a seed /game verify reads as one, so its other options are read."""
    if path == "game verify" and option["name"] == "seed":
        return "12345"
    return filler(option, member)


async def test_hostile_text_in_every_option_is_refused_and_changes_nothing(
    deckhand: Deckhand, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob", locale="ko")
    admin = fake.add_member("admin")  # Manage Server: /game settings reads what it is given
    # Each game in a channel of its own, so its commands reach its own parsers (a One Card
    # table would answer Uno's with "not here"); /game's are tried in fake.channel.
    channels = {game: fake.add_channel(game) for game in GameCatalog.discover().names()}
    async with deckhand.run() as bot:
        managers = await fake.add_role("Managers", permissions=MANAGE_GUILD)
        await fake.give_role(admin, managers)
        # The commands that take text, and whose they are.
        commands = synced(fake)
        at_tables = {path.split()[0] for path, options in commands if any(map(free_text, options))}
        assert at_tables - {"game"} <= set(channels), at_tables
        for game, channel in channels.items():
            if game not in at_tables:
                continue
            # Alice and Bob seated in a running game of each, so its commands meet a game.
            opened = await fake.slash(alice, channel, f"{game} start", seed=11)
            assert not opened.ephemeral, (game, opened.text)
            joined = await fake.slash(bob, channel, f"{game} join")
            assert not joined.ephemeral, (game, joined.text)
            await settled(fake, bot, channel)
            session = bot.sessions.get(channel.id)
            assert session is not None and not session.is_lobby, game
        tried: set[tuple[str, str, str]] = set()
        offered: set[tuple[str, str, str]] = set()
        for path, options in commands:
            channel = channels.get(path.split()[0], fake.channel)
            members = (alice, bob, admin) if path == "game settings" else (alice, bob)
            for option in options:
                if not free_text(option):
                    continue
                for member in members:
                    offered.add((path, option["name"], member.name))
                    for value in hostile(option):
                        others = {
                            o["name"]: filler_for(path, o, member)
                            for o in options
                            if o.get("required") and o is not option
                        }
                        before = await snapshot(bot, fake)
                        answer = await fake.slash(
                            member, channel, path, **others, **{option["name"]: value}
                        )
                        tried.add((path, option["name"], member.name))
                        where = (path, option["name"], member.name, value)
                        assert answer.ephemeral, (*where, answer.text)
                        assert len(answer.text) <= 2000
                        # At most ECHO_LIMIT characters of it come back (bot.i18n.echo).
                        typed = value.strip()
                        if len(typed) > ECHO_LIMIT:
                            assert typed[: ECHO_LIMIT + 1] not in answer.text, (*where, answer.text)
                        assert "\u202e" not in answer.text and "\x00" not in answer.text
                        assert await snapshot(bot, fake) == before, where
        assert tried == offered, sorted(offered - tried)
        # Refused, every one: none reached an exception (an ERROR and "something went wrong").
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert errors == []
        assert {path.split()[0] for path, _, _ in tried} == at_tables
        assert len(at_tables) > 3, at_tables  # One Card's, Uno's, Go-Stop's ... and /game's


@pytest.mark.parametrize("options", ['{"evil":1}', '{"bonus_cards":"²"}', '{"players":99}'])
async def test_game_verify_refuses_options_no_engine_takes_without_an_error(
    deckhand: Deckhand,
    fake_discord: FakeDiscord,
    caplog: pytest.LogCaptureFixture,
    options: str,
) -> None:
    fake = fake_discord
    alice = fake.add_member("alice")
    async with deckhand.run():
        for game in GameCatalog.discover().names():  # every engine refuses an unknown option
            answer = await fake.slash(
                alice, fake.channel, "game verify", game=game, seed="1", salt="ab" * 16,
                options=options,
            )  # fmt: skip
            assert answer.ephemeral and answer.text.startswith("That is no deal to check"), (
                game,
                answer.text,
            )
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
