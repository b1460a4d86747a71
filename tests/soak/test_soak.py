"""The soak's own checks (benchmarks/soak.py) see what they are there to see.

The soak itself is not a test (make soak runs it); these keep its judges honest: a check that
can never fire would report 0 for ever.
"""

from __future__ import annotations

import asyncio
import random
from types import SimpleNamespace
from typing import Any

from benchmarks.soak import (
    CARD,
    FAULTS,
    STRATEGIES,
    Relay,
    Soak,
    Tally,
    Witness,
    actions_of,
    log_conflicts,
    log_errors,
    version_of,
)
from bot.fakediscord import FakeDiscord


def table(channel: int, version: int, content: str, action: str = "hit") -> dict[str, Any]:
    button = {
        "type": 2,
        "style": 2,
        "label": action,
        "custom_id": f"dh:{channel}:{version}:{action}",
    }
    return {"content": content, "components": [{"type": 1, "components": [button]}]}


def hand(channel: int, version: int, cards: list[str]) -> dict[str, Any]:
    options = [{"label": card, "value": f"c{i}"} for i, card in enumerate(cards)]
    menu = {"type": 3, "custom_id": f"dh:{channel}:{version}:onecard-menu", "options": options}
    return {"content": "Your hand", "components": [{"type": 1, "components": [menu]}], "flags": 64}


def watched() -> tuple[FakeDiscord, Tally, Witness]:
    fake = FakeDiscord()
    tally = Tally()
    return fake, tally, Witness(fake, tally)


def test_a_table_reads_its_version_and_actions() -> None:
    data = table(5, 42, "```x```", "join")
    assert version_of(data["components"]) == 42
    fake, _, _ = watched()
    message = fake.new_message(fake.channel, data)
    assert actions_of(message) == {"join": "join"}
    assert version_of([]) is None


def test_two_different_tables_for_one_version_are_a_double_apply() -> None:
    fake, tally, witness = watched()
    channel = fake.channel
    fake.new_message(channel, table(channel.id, 7, "```A```"))
    fake.new_message(channel, table(channel.id, 7, "```A```"))  # a repost: the same table
    assert tally.double_applies == []
    fake.new_message(channel, table(channel.id, 7, "```B```"))
    assert len(tally.double_applies) == 1
    assert witness.shown[channel.id][0] == 7


async def test_a_hand_card_on_the_public_table_of_its_version_is_a_leak() -> None:
    fake, tally, _ = watched()
    fake._loop = asyncio.get_running_loop()  # the interaction's clock; no server needed
    channel = fake.channel
    alice = fake.add_member("alice")
    fake.new_message(channel, table(channel.id, 3, "```top [♠7]```"))
    inter = fake._interaction(3, alice, channel, {"custom_id": "x", "component_type": 2})
    fake.new_message(channel, hand(channel.id, 3, ["[♥2]", "[♣K]"]), interaction=inter)
    assert tally.leaks == []
    # A later version may show the card (it was played); the same version may not.
    fake.new_message(channel, table(channel.id, 4, "```top [♥2]```"))
    assert tally.leaks == []
    fake.new_message(channel, hand(channel.id, 5, ["[♣K]"]), interaction=inter)
    fake.new_message(channel, table(channel.id, 5, "```top [♣K]```"))
    assert len(tally.leaks) == 1 and "[♣K]" in tally.leaks[0]


def test_a_hand_menu_in_public_is_a_leak_in_every_game() -> None:
    fake, tally, _ = watched()
    channel = fake.channel
    public = hand(channel.id, 3, ["Red 5", "Red 5"])  # Uno's cards repeat: no card check
    del public["flags"]
    fake.new_message(channel, table(channel.id, 3, "```top Red 5```"))
    assert tally.leaks == []
    fake.new_message(channel, public)
    assert len(tally.leaks) == 1 and "menu" in tally.leaks[0]


def test_tokens_and_stack_traces_in_public_are_leaks() -> None:
    fake, tally, _ = watched()
    fake.new_message(fake.channel, {"content": f"oops {fake.token}"})
    fake.new_message(fake.channel, {"content": 'Traceback (most recent call last):\n  File "x"'})
    fake.new_message(fake.channel, {"content": "aW50ZXJhY3Rpb24abc"})  # an interaction's
    assert len(tally.leaks) == 3


def test_cards_are_told_from_month_numbers() -> None:
    assert CARD.fullmatch("[♠10]") and CARD.fullmatch("[7H]")
    assert not CARD.fullmatch("[1]") and not CARD.fullmatch("[12]")


def test_every_game_of_the_soak_has_a_strategy_that_starts_it() -> None:
    import random

    assert STRATEGIES
    for game, strategy in STRATEGIES.items():
        options = strategy.start(random.Random(1))
        assert "bots" in options, game


def test_the_log_counts_errors_and_stray_tracebacks_not_survived_failures() -> None:
    log = "\n".join(
        [
            "2026-11-25 08:51:39 \x1b[33;1mWARNING \x1b[0m cogs.common.buttons posting it instead",
            "Traceback (most recent call last):",
            '  File "x", line 1',
            "2026-11-25 08:51:40 INFO     bot.client ready",
            "2026-11-25 08:51:41 ERROR    bot.sessions channel 1: failed",
            "Traceback (most recent call last):",
        ]
    )
    assert len(log_errors(log)) == 2  # the ERROR record and its traceback
    assert log_errors("Traceback (most recent call last):\nboom") == [
        "Traceback (most recent call last):"
    ]


def test_a_version_conflict_in_the_log_is_a_refused_save_that_was_written() -> None:
    log = (
        "2026-11-25 10:41:39 WARNING  bot.sessions.core channel 5: not saved, the store is"
        " unavailable\n"
        "2026-11-25 10:41:40 \x1b[33mWARNING\x1b[0m  bot.sessions.core channel 5: version"
        " conflict; reloading the game\n"
    )
    found = log_conflicts(log)
    assert len(found) == 1 and "channel 5" in found[0] and "\x1b" not in found[0]
    assert log_conflicts(log.splitlines()[0]) == []


def test_faults_come_in_rounds_of_every_kind() -> None:
    """Each round of faults has every kind once (a 1-minute soak meets them all), in an order
    the seed decides."""
    soak = SimpleNamespace(rng=random.Random(15), faults_left=[])
    drawn = [Soak.next_fault(soak) for _ in range(3 * len(FAULTS))]  # type: ignore[arg-type]
    rounds = [drawn[i : i + len(FAULTS)] for i in range(0, len(drawn), len(FAULTS))]
    assert all(sorted(r) == sorted(FAULTS) for r in rounds)
    assert len({tuple(r) for r in rounds}) > 1  # shuffled anew each round
    again = SimpleNamespace(rng=random.Random(15), faults_left=[])
    assert [Soak.next_fault(again) for _ in drawn] == drawn  # type: ignore[arg-type]


async def test_the_relay_to_postgresql_cuts_every_connection_and_comes_back() -> None:
    """What the bot meets on a ``db_cut``: its connections dropped, new ones refused while
    the cut lasts, then the same address working again."""

    async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(100):
            writer.write(data)
            await writer.drain()
        writer.close()

    upstream = await asyncio.start_server(echo, "127.0.0.1", 0)
    port = upstream.sockets[0].getsockname()[1]
    relay = Relay(f"postgresql://deckhand:pw@127.0.0.1:{port}/test?search_path=soak_1")
    await relay.open()
    try:
        assert (
            relay.url == f"postgresql://deckhand:pw@127.0.0.1:{relay.port}/test?search_path=soak_1"
        )
        reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
        writer.write(b"move")
        assert await reader.read(100) == b"move"
        cut = asyncio.create_task(relay.cut(0.5))
        await asyncio.sleep(0.1)
        assert await reader.read(100) == b""  # the connection was dropped
        try:
            await asyncio.open_connection("127.0.0.1", relay.port)
        except OSError:
            pass
        else:
            raise AssertionError("a connection was taken during the cut")
        await cut
        reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
        writer.write(b"again")
        assert await reader.read(100) == b"again"
        writer.close()
    finally:
        await relay.close()
        upstream.close()


def test_a_game_gone_from_the_store_is_excused_only_by_an_end_the_kill_cut_off() -> None:
    """Nothing stored for a shown game is a lost move, unless the kill caught in flight an
    interaction that may have ended it (here, or naming this channel), written but never
    announced."""

    def interaction(channel: int, created: float, *, answered: bool, payload: Any = None) -> Any:
        done = asyncio.Event()
        if answered:
            done.set()
        return SimpleNamespace(
            created=created,
            completed=done,
            channel=SimpleNamespace(id=channel),
            payload=payload or {},
        )

    def soak(*interactions: Any) -> Any:
        fake = SimpleNamespace(deadline=3.0, interactions=dict(enumerate(interactions)))
        return SimpleNamespace(fake=fake)

    killed_at = 100.0
    cases = {
        "an end here, cut off": (soak(interaction(5, 99.0, answered=False)), True),
        "an end here, answered": (soak(interaction(5, 99.0, answered=True)), False),
        "an End button naming it": (
            soak(interaction(9, 99.5, answered=False, payload={"custom_id": "dh:list:5:3"})),
            True,
        ),
        "another channel's": (soak(interaction(9, 99.0, answered=False)), False),
        "long before the kill": (soak(interaction(5, 90.0, answered=False)), False),
    }
    for name, (run, excused) in cases.items():
        assert Soak.end_cut_by_kill(run, 5, killed_at) is excused, name
