"""Hostile input to every command the bot syncs: empty, maximum-length, control and
right-to-left text, out-of-range numbers (DESIGN.md §4: bad input gets a clear message and
changes nothing).

The commands are read from what the bot synced, so a new game's commands are covered as
soon as it loads.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from bot.fakediscord import FakeDiscord, FakeMember, UsageError
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
ECHO_MOST = 100  # an answer repeats at most this much of what was typed


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


@pytest.fixture
async def bot(deckhand: Deckhand) -> Any:
    async with deckhand.run() as running:
        yield running


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


async def test_hostile_text_in_every_option_is_refused_and_changes_nothing(
    fake_discord: FakeDiscord, bot: DeckhandBot
) -> None:
    fake = fake_discord
    alice, bob = fake.add_member("alice"), fake.add_member("bob", locale="ko")
    # A running One Card game here, seated members acting in it, so game commands meet a game.
    opened = await fake.slash(alice, fake.channel, "onecard start", players=2, seed=11)
    await fake.click(bob, opened.message or opened.messages[0], "Join")
    await settled(fake, bot, fake.channel)
    tried = 0
    for path, options in synced(fake):
        for option in options:
            if (
                option["type"] != STRING
                or option.get("choices")
                or (option.get("autocomplete") is None and False)
            ):
                continue
            for member in (alice, bob):
                for value in hostile(option):
                    others = {
                        o["name"]: filler(o, member)
                        for o in options
                        if o.get("required") and o is not option
                    }
                    before = await snapshot(bot, fake)
                    answer = await fake.slash(
                        member, fake.channel, path, **others, **{option["name"]: value}
                    )
                    tried += 1
                    assert answer.ephemeral, (path, option["name"], value, answer.text)
                    assert len(answer.text) <= 2000
                    long_enough = value.strip()
                    if len(long_enough) > ECHO_MOST:
                        assert long_enough[: ECHO_MOST + 1] not in answer.text, (path, answer.text)
                    assert "\u202e" not in answer.text and "\x00" not in answer.text
                    assert await snapshot(bot, fake) == before, (path, option["name"], value)
    assert tried >= 10
