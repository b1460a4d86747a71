"""The bot end to end through the fake Discord: Blackjack actions per second and p99 latency,
side by side with a bare ``/ping`` bot measured in the same run.

    python benchmarks/bot.py [--actions N] [--json OUT.json]

One process, one action in flight: the fake injects an interaction over the gateway and the
latency clock stops when the bot's interaction callback reaches the fake. Two rates:

- ``rate`` (as the bot's first speed target counted): the next action is injected once the
  callback arrives; the bot's remaining work for the last one (retiring the old table's
  buttons) overlaps it.
- ``rate, settled``: the next action also waits until that work is done, so the rate counts
  everything an action costs, one after another.

``ratio`` = Deckhand's SQLite ``rate`` / the ping bot's rate (1 would mean the game costs
nothing beyond discord.py itself). A CPU profile, with no target on the ratio: a move answers
and retires a table by design, and what limits a deployment is how many tables it holds
under Discord's own rate limits (``benchmarks/ceiling.py``, docs/design.md §8).

The many-channels case: ``--channels`` (50) channels, each with its own member at its own
running Blackjack table, all acting at once with one action in flight per channel; its
baseline is the ping bot answering ``/ping`` in as many channels at once.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

# This file is named like the ``bot`` package: keep its own folder off the import path so
# ``import bot.client`` finds the package, and import the harness from the repository root.
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
from discord import app_commands

from benchmarks.harness import Report, percentile
from bot.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeMember,
    FakeMessage,
    InteractionResult,
    running_client,
)

Action = Callable[[], Awaitable[InteractionResult]]


class PingBot(discord.Client):
    """The floor: discord.py answering one slash command with a fixed message."""

    def __init__(self, guild_id: int) -> None:
        super().__init__(intents=discord.Intents.none())
        self.tree = app_commands.CommandTree(self)
        self.guild = discord.Object(guild_id)

        @self.tree.command(description="pong")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pong")

    async def setup_hook(self) -> None:
        self.tree.copy_global_to(guild=self.guild)
        await self.tree.sync(guild=self.guild)


Measured = tuple[float, list[float]]  # actions per second, every action's latency in ms
Bot = Callable[[], AbstractAsyncContextManager[list[Action]]]


async def measure(acts: list[Action], args: argparse.Namespace) -> Measured:
    """One run: ``args.warmup`` actions, then ``args.actions / args.repeats`` measured; the
    rate and every measured action's latency (injection -> callback).

    The acts are the bot's channels: each loops on its own, one action in flight per
    channel, and the rate counts them all together.
    """
    latencies: list[float] = []

    async def loop(act: Action, count: int) -> None:
        for _ in range(count):
            result = await act()
            inter = result.interaction
            if inter.responded_at is None:
                raise RuntimeError(f"the bot did not answer: {result!r}")
            latencies.append((inter.responded_at - inter.created) * 1000)

    await asyncio.gather(*(loop(act, max(1, args.warmup // len(acts))) for act in acts))
    latencies.clear()
    each = max(1, args.actions // args.repeats // len(acts))
    start = time.perf_counter()
    await asyncio.gather(*(loop(act, each) for act in acts))
    return each * len(acts) / (time.perf_counter() - start), latencies


def bench(args: argparse.Namespace, **bots: Bot) -> dict[str, Measured]:
    """Each bot's rate, the median of ``args.repeats`` runs (so a burst of load from
    elsewhere on the machine does not decide it), and all its latencies.

    Each run starts the bot afresh on its own fake Discord (the fake serves one bot per
    process at a time); with several bots their runs alternate, so load from elsewhere on
    a shared machine hits each alike and their ratio stays fair.
    """
    rates: dict[str, list[float]] = {name: [] for name in bots}
    latencies: dict[str, list[float]] = {name: [] for name in bots}

    async def run(bot: Bot) -> Measured:
        async with bot() as acts:
            return await measure(acts, args)

    for _ in range(args.repeats):
        for name, bot in bots.items():
            rate, measured = asyncio.run(run(bot))
            rates[name].append(rate)
            latencies[name] += measured
    return {name: (statistics.median(rates[name]), latencies[name]) for name in bots}


@asynccontextmanager
async def ping_bot(*, channels: int = 1) -> AsyncIterator[list[Action]]:
    """The ping bot on its own fake Discord: an act per channel, each its own member."""
    async with FakeDiscord() as fake:
        bot = PingBot(fake.guild.id)
        async with running_client(bot, fake):
            acts: list[Action] = []
            for number in range(channels):
                pinger = fake.add_member(f"pinger{number}")
                channel = fake.channel if number == 0 else fake.add_channel(f"ping-{number}")
                acts.append(functools.partial(fake.slash, pinger, channel, "ping"))
            yield acts


@asynccontextmanager
async def deckhand_bot(
    *,
    memory: bool = False,
    settle: bool = False,
    synchronous: str = "normal",
    game: str = "blackjack",
    channels: int = 1,
) -> AsyncIterator[list[Action]]:
    """Deckhand on its own fake Discord and store: an open table per channel."""
    from bot.client import DeckhandBot
    from bot.settings import Settings
    from bot.store.memory import MemoryStore
    from bot.store.sqlite import SQLiteStore

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.db"
        async with FakeDiscord() as fake:
            settings = Settings(  # type: ignore[call-arg]
                _env_file=None,
                discord_token=fake.token,
                database_url=f"sqlite:///{path}",
                dev_guild_id=fake.guild.id,
                computer_delay_seconds=0.0,
                log_level="WARNING",
            )
            store = MemoryStore() if memory else SQLiteStore(path, synchronous=synchronous)
            bot = DeckhandBot(settings, store)
            async with running_client(bot, fake):
                if game == "uno":
                    uno = UnoTable(fake, bot, [fake.add_member("player"), fake.add_member("other")])
                    await uno.open()
                    yield [uno.act]
                    await settled()
                    return
                tables = [
                    BlackjackTable(
                        fake,
                        bot,
                        fake.add_member(f"player{number}"),
                        fake.channel if number == 0 else fake.add_channel(f"table-{number}"),
                        settle=settle,
                    )
                    for number in range(channels)
                ]
                for table in tables:
                    await table.open()
                yield [table.act for table in tables]
                await settled()


async def settled() -> None:
    """Let the bot finish what the last actions started before it shuts down: what a move
    tells the member alone is a follow-up sent after the answer the run waited for."""
    handlers = [
        task
        for task in asyncio.all_tasks()
        if task.get_name() == "CommandTree-invoker" or task.get_name().startswith("discord-ui-")
    ]
    if handlers:
        await asyncio.wait(handlers)


class BlackjackTable:
    """One member alone at a Blackjack table: Hit, then Stand, then "Deal again" when the
    round is over, so every action is a real move that the bot saves before answering.
    With ``settle`` an action ends only when the previous table has lost its buttons."""

    def __init__(
        self,
        fake: FakeDiscord,
        bot: Any,
        member: FakeMember,
        channel: FakeChannel,
        *,
        settle: bool = False,
    ) -> None:
        self.settle = settle
        self.fake = fake
        self.channel = channel
        self.bot = bot
        self.member = member
        self.table: FakeMessage | None = None
        self.hit = False

    async def open(self) -> None:
        opened = await self.fake.slash(self.member, self.channel, "blackjack start", players=1)
        if opened.ephemeral or opened.message is None:
            raise RuntimeError(f"could not open a table: {opened!r}")
        self.table = opened.message

    async def act(self) -> InteractionResult:
        table = self.table
        assert table is not None
        session = self.bot.sessions.get(self.channel.id)
        if session is None or session.state is None or session.state.is_over:
            label, self.hit = "Deal again", False
        else:
            label, self.hit = ("Stand", False) if self.hit else ("Hit", True)
        result = await self.fake.click(self.member, table, label)
        if result.ephemeral or result.message is None:
            raise RuntimeError(f"the bot refused {label}: {result!r}")
        self.table = result.message
        if self.settle:
            await self.fake.wait_for(lambda: not table.components)
        return result


class UnoTable:
    """Two members at an Uno table with stacking and UNO calls: each action is the move the
    computer player would make in the seat to act, made as a member makes it (``/uno play``,
    ``draw``, ``pass``, ``uno``, ``catch``, the Hand select for a first wild's colour), and
    Deal again when the round is over."""

    def __init__(self, fake: FakeDiscord, bot: Any, members: list[FakeMember]) -> None:
        self.fake = fake
        self.bot = bot
        self.members = members

    async def open(self) -> None:
        channel = self.fake.channel
        first, second = self.members
        options = {"players": 2, "seed": 1, "stacking": True, "uno_call": True}
        opened = await self.fake.slash(first, channel, "uno start", **options)
        joined = await self.fake.slash(second, channel, "uno join")
        if opened.ephemeral or joined.ephemeral:
            raise RuntimeError(f"could not open a table: {opened!r} {joined!r}")

    async def act(self) -> InteractionResult:
        from rules.uno import CallUno, CatchUno, ChooseColour, Draw, Pass, Play
        from rules.uno.ai import choose_action
        from rules.uno.cards import COLOUR_NAMES

        fake, channel = self.fake, self.fake.channel
        session = self.bot.sessions.get(channel.id)
        if session is None or session.state is None or session.state.is_over:
            table = [m for m in fake.public_messages(channel) if m.buttons][-1]
            return await fake.click(self.members[0], table, "Deal again")
        state = session.state
        member = next(m for m in self.members if m.id == session.seats[state.turn].member_id)
        view = state.view(state.turn)
        action = choose_action(view)
        if isinstance(action, Play):
            options: dict[str, Any] = {"card": (view.hand or ())[action.index]}
            if action.colour is not None:
                options["colour"] = COLOUR_NAMES[action.colour]
            result = await fake.slash(member, channel, "uno play", **options)
        elif isinstance(action, ChooseColour):
            table = [m for m in fake.public_messages(channel) if m.buttons][-1]
            hand = await fake.click(member, table, "Hand")
            assert hand.message is not None
            menu = next(c for c in hand.message.items() if c.get("type") == 3)
            value = f"={COLOUR_NAMES[action.colour]}"
            result = await fake.select(member, hand.message, menu["custom_id"], [value])
        else:
            verbs = {Draw: "draw", Pass: "pass", CallUno: "uno", CatchUno: "catch"}
            result = await fake.slash(member, channel, f"uno {verbs[type(action)]}")
        if result.ephemeral and not isinstance(action, Draw | ChooseColour):
            raise RuntimeError(f"the bot refused {action}: {result.text}")
        return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=2000, help="measured actions per bot")
    parser.add_argument("--warmup", type=int, default=100, help="unmeasured actions first")
    parser.add_argument("--repeats", type=int, default=5, help="runs; the median rate is kept")
    parser.add_argument("--channels", type=int, default=50, help="channels of the many case")
    parser.add_argument("--json", metavar="OUT.json", help="also write the report as JSON")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    report = Report(benchmark="bot")
    many = args.channels
    one = bench(args, ping=ping_bot, deckhand=deckhand_bot)
    (ping_rate, ping_lat), (rate, lat) = one["ping"], one["deckhand"]
    report.add("blackjack action", "rate", rate, "actions/s")
    report.add("blackjack action", "p50 latency", percentile(lat, 0.50), "ms")
    report.add("blackjack action", "p99 latency", percentile(lat, 0.99), "ms")
    settled, _ = bench(args, it=functools.partial(deckhand_bot, settle=True))["it"]
    report.add("blackjack action", "rate, settled", settled, "actions/s")
    full_rate, full_lat = bench(args, it=functools.partial(deckhand_bot, synchronous="full"))["it"]
    case = "blackjack action, SQLite synchronous=full"
    report.add(case, "rate", full_rate, "actions/s")
    report.add(case, "p99 latency", percentile(full_lat, 0.99), "ms")
    mem_rate, mem_lat = bench(args, it=functools.partial(deckhand_bot, memory=True))["it"]
    case = "blackjack action, memory store"
    report.add(case, "rate", mem_rate, "actions/s")
    report.add(case, "p99 latency", percentile(mem_lat, 0.99), "ms")
    both = bench(
        args,
        ping=functools.partial(ping_bot, channels=many),
        deckhand=functools.partial(deckhand_bot, channels=many),
    )
    (ping_many, ping_many_lat), (many_rate, many_lat) = both["ping"], both["deckhand"]
    case = f"blackjack action, {many} channels at once"
    report.add(case, "rate", many_rate, "actions/s")
    report.add(case, "p50 latency", percentile(many_lat, 0.50), "ms")
    report.add(case, "p99 latency", percentile(many_lat, 0.99), "ms")
    uno_rate, uno_lat = bench(args, it=functools.partial(deckhand_bot, game="uno"))["it"]
    case = "uno action"
    report.add(case, "rate", uno_rate, "actions/s")
    report.add(case, "p50 latency", percentile(uno_lat, 0.50), "ms")
    report.add(case, "p99 latency", percentile(uno_lat, 0.99), "ms")
    report.add_baseline("ping bot", "slash /ping", "rate", ping_rate, "actions/s")
    report.add_baseline("ping bot", "slash /ping", "p50 latency", percentile(ping_lat, 0.5), "ms")
    report.add_baseline("ping bot", "slash /ping", "p99 latency", percentile(ping_lat, 0.99), "ms")
    case = f"slash /ping, {many} channels at once"
    report.add_baseline("ping bot", case, "rate", ping_many, "actions/s")
    report.add_baseline("ping bot", case, "p50 latency", percentile(ping_many_lat, 0.5), "ms")
    report.add_baseline("ping bot", case, "p99 latency", percentile(ping_many_lat, 0.99), "ms")
    report.set_ratio("ping bot", rate / ping_rate)
    report.set_ratio(f"ping bot, {many} channels", many_rate / ping_many)
    report.note("ratio = Deckhand's Blackjack action rate (SQLite) / a bare discord.py /ping")
    report.note("bot's, their runs alternating so load from elsewhere hits both alike")
    report.note("SQLite as shipped (WAL, synchronous=NORMAL): each move committed before the")
    report.note("answer; synchronous=full also fsyncs each commit (survives power loss)")
    report.note("rate: next action on the callback (as first counted); settled: also after")
    report.note("the old table's buttons are gone. A CPU profile with no ratio target: what")
    report.note("limits a deployment is benchmarks/ceiling.py (tables held under Discord's limits)")
    report.note(f"{many} channels: one action in flight per channel, all channels at once;")
    report.note("its ratio is against the ping bot answering in as many channels at once")
    report.note("uno action: a member's move by command (two members, stacking, UNO calls);")
    report.note("target: its p99 <= the blackjack action's p99 + 2 ms")
    report.print_table()
    if args.json:
        report.write_json(args.json)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
