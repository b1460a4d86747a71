"""The tables of the ceiling benchmark (``benchmarks/ceiling.py``): guilds, channels, members
playing at a human pace, and what the fake Discord saw of them.

Three kinds of table, each game in turn within each kind:

- ``human``: members only (Blackjack alone, the other games two members);
- ``computer`` (every third table): one member and computer seats;
- ``timeout`` (one table in nine), in guilds whose ``/game settings turn_seconds`` is
  :data:`SLOW_TURN_SECONDS` (the least the setting takes): the seated members let every
  other turn of theirs run out, so the bot plays it for them (after its reminder at half
  time), and play the turns between at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMember,
    FakeMessage,
    InteractionResult,
    UsageError,
)
from bot.fakediscord.model import Interaction
from bot.fakediscord.ratelimits import counted
from bot.games import GameCatalog
from soak.witness import actions_of, version_of

__all__ = ["KINDS", "SLOW_TURN_SECONDS", "Table", "World", "fit_costs"]

CATALOG = GameCatalog.discover()
GAMES = tuple(CATALOG.names())
KINDS = ("human", "computer", "timeout")
SLOW_TURN_SECONDS = 10
TABLES_PER_GUILD = 25
STALL_SECONDS = 20.0  # no member's turn for this long: a member tries a move anyway

# Buttons that are not a move (or not one a member at a human pace would press here).
NOT_MOVES = frozenset(
    {"hand", "leave", "cancel", "join", "start", "undo", "reset", "arrange", "done", "rules"}
)


def computer_seats(game: str) -> tuple[int, int]:
    """``(seats, computers)`` at a computer table: the game's practice table's."""
    adapter = CATALOG.get(game)
    practice = adapter.soak.practice
    return int(practice.get("players", adapter.min_seats)), int(practice["bots"])


def human_seats(game: str) -> int:
    """Members at a members-only table: the fewest the game is played by."""
    return CATALOG.get(game).min_seats


def kind_of(index: int) -> str:
    """A third computer tables, one in nine timeout tables, the rest members only."""
    if index % 3 == 0:
        return "computer"
    return "timeout" if index % 9 == 1 else "human"


@dataclass
class Tally:
    """What the members did and the fake saw, by table kind, during the measured window."""

    member_moves: Counter[str] = field(default_factory=Counter)
    bot_tables: Counter[str] = field(default_factory=Counter)  # computer bursts, timeouts
    requests: Counter[int] = field(default_factory=Counter)  # counted requests by channel
    other_requests: int = 0  # counted requests naming no channel
    latencies: list[float] = field(default_factory=list)  # action -> its public table, s
    by_game: dict[str, list[float]] = field(default_factory=dict)  # the same, by game
    computer_lag: list[float] = field(default_factory=list)  # reply - answer - delay, s
    lag_by_game: dict[str, list[float]] = field(default_factory=dict)  # the same, by game
    refused: int = 0  # a move the bot answered only to the member (no new table)
    stalls: int = 0  # a table where no member's turn came for STALL_SECONDS
    stalled: list[str] = field(default_factory=list)  # the first few: game, kind, table
    not_sent: int = 0  # a button gone before the click (a table moved on meanwhile)


class World:
    """The guilds, channels and members of ``tables`` tables in one fake Discord, and the
    hooks that watch what the bot posts there."""

    def __init__(
        self,
        fake: FakeDiscord,
        tables: int,
        *,
        pace: float,
        computer_delay: float,
        seed: int = 1,
    ) -> None:
        self.fake = fake
        self.pace = pace
        self.computer_delay = computer_delay
        self.tally = Tally()
        self.measuring = False
        self.stopping = False
        self.by_channel: dict[int, Table] = {}
        self.tables: list[Table] = []
        self.slow_guilds: list[FakeGuild] = []
        self.not_opened: list[str] = []  # why tables could not be opened
        kinds: dict[str, list[int]] = {kind: [] for kind in KINDS}
        for index in range(tables):
            kinds[kind_of(index)].append(index)
        # Guild ids one millisecond apart alternate between two shards ((id >> 22) % 2);
        # each kind's tables are dealt round the kind's guilds (an even number of them), so
        # either shard gets half of every kind.
        base = fake.ids.next() >> 22
        made = 0
        for kind, indices in kinds.items():
            count = -(-len(indices) // TABLES_PER_GUILD)
            guilds = []
            for _ in range(count + count % 2):
                guilds.append(fake.add_guild(f"{kind}-{made}", guild_id=(base + 1 + made) << 22))
                made += 1
            if kind == "timeout":
                self.slow_guilds = guilds
            for number, index in enumerate(indices):
                guild = guilds[number % len(guilds)]
                # Each kind's tables take the games in turn, so every kind plays every game;
                # two at a time, since the guilds (an even number) alternate between the two
                # shards: each shard gets every game, not every other one.
                game = GAMES[(number // 2) % len(GAMES)]
                self.tables.append(Table(self, index, guild, kind, game=game, seed=seed))
        for table in self.tables:
            self.by_channel[table.channel.id] = table
        self._watch()

    def _watch(self) -> None:
        """Follow every public table the bot posts or edits, and count the requests that
        Discord counts against the global limit, by channel."""
        fake = self.fake
        new_message, edit, take = fake.new_message, fake.edit, fake.limits.take

        def created(channel: FakeChannel, data: dict[str, Any], **kw: Any) -> FakeMessage:
            message = new_message(channel, data, **kw)
            inter = kw.get("interaction")
            # An interaction's answer is made before it is recorded as its original; after a
            # deferred update (6: a table the bot posted itself, adopted) its first follow-up.
            answer = inter is not None and (
                inter.original is None or (inter.response_type == 6 and not inter.followups)
            )
            self.saw(message, by_bot=not answer)
            return message

        def edited(message: FakeMessage, data: dict[str, Any]) -> None:
            edit(message, data)
            self.saw(message, by_bot=False)

        def taken(route: str, params: dict[str, str]) -> tuple[dict[str, str], Any]:
            headers, limited = take(route, params)
            if limited is None and self.measuring and counted(route):
                if "channel_id" in params:
                    self.tally.requests[int(params["channel_id"])] += 1
                else:
                    self.tally.other_requests += 1
            return headers, limited

        fake.new_message = created  # type: ignore[method-assign]
        fake.edit = edited  # type: ignore[method-assign]
        fake.limits.take = taken  # type: ignore[method-assign]

    def saw(self, message: FakeMessage, *, by_bot: bool) -> None:
        """A public message: the channel's new live table if it is a newer one."""
        table = self.by_channel.get(message.channel_id)
        if table is None or message.ephemeral or not _versioned(message):
            return
        if table.live is not None and message.id < table.live.id:
            return
        fresh = table.live is None or message.id > table.live.id
        table.live = message
        table.changed.set()
        if fresh and table.moving:
            # A member's move is under way: the table is its own (a move from a private
            # message is answered there, and its table posted by the bot after the answer).
            by_bot, table.moving = False, False
        if not (fresh and by_bot):
            return
        # The computers' first table after a member's move answers it, measured or not (a
        # move left answered in the warm-up made a later table look seconds late).
        answered, table.answered = table.answered, None
        if not self.measuring:
            return
        kind = "computer" if table.kind == "computer" else "timeout"
        self.tally.bot_tables[kind] += 1
        table.bot_made += 1
        if answered is not None and kind == "computer":
            lag = max(0.0, self.fake.loop_time() - answered - self.computer_delay)
            self.tally.computer_lag.append(lag)
            self.tally.lag_by_game.setdefault(table.game, []).append(lag)

    async def configure(self) -> None:
        """The slow guilds' owner sets their turn time."""
        for guild in self.slow_guilds:
            owner = guild.members[self.fake.owner.id]
            channel = next(iter(guild.channels.values()), None)
            if channel is None:
                continue  # a guild of no table (a kind's guilds are an even number)
            await self.fake.slash(owner, channel, "game settings", turn_seconds=SLOW_TURN_SECONDS)

    async def open_all(self, at_once: int = 16) -> None:
        """Open every table (and seat its members), ``at_once`` at a time."""
        gate = asyncio.Semaphore(at_once)

        async def one(table: Table) -> Table | None:
            async with gate:
                try:
                    await table.open()
                except (RuntimeError, KeyError, UsageError) as error:
                    self.not_opened.append(str(error)[:300])
                    return None
                return table

        opened = await asyncio.gather(*(one(table) for table in self.tables))
        # A table the bot would not open (its refusal is reported) is not played.
        self.tables = [table for table in opened if table is not None]


# How long a move answered in private may wait for its table before the member moves on: a
# move whose table never came is a stalled table's business, not a latency.
PRIVATE_TABLE_WAIT = 5.0


def _still_choosing(private: FakeMessage, live: FakeMessage) -> bool:
    """Whether a private message updated in place still asks for the rest of the move (a
    suit or colour to name): live choices of the version the member moved on, which a move
    made would have left behind."""
    offered = [c for c in private.items() if c.get("type") in (2, 3) and not c.get("disabled")]
    version = version_of(offered)
    return version is not None and version == version_of(live.items())


def _versioned(message: FakeMessage) -> bool:
    """Whether the message's buttons carry a game version (a table's, not a notice's)."""
    return version_of(message.buttons) is not None


class Table:
    """One channel, its members and their game; ``play`` acts at a human pace."""

    def __init__(
        self, world: World, index: int, guild: FakeGuild, kind: str, *, game: str, seed: int
    ) -> None:
        self.world = world
        self.fake = world.fake
        self.index = index
        self.kind = kind
        self.game = game
        self.rng = random.Random(seed * 100_003 + index)
        self.channel = self.fake.add_channel(f"t{index}-{self.game}", guild=guild)
        players, bots = computer_seats(self.game)
        seats = players - bots if kind == "computer" else human_seats(self.game)
        self.members = [
            self.fake.add_member(f"m{index}x{seat}", guild=guild) for seat in range(seats)
        ]
        self.live: FakeMessage | None = None
        self.changed = asyncio.Event()
        self.answered: float | None = None  # when the last member move's table came
        self.moving = False  # a member's move is under way: its table is not the bot's own
        self.skip: dict[int, bool] = {}  # timeout tables: whose next turn runs out
        self.moves = self.bot_made = 0  # member moves, bot's own tables while measured

    def start_options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"seed": self.rng.randint(0, 10**6)}
        players, bots = computer_seats(self.game)
        if self.kind != "computer":
            players, bots = human_seats(self.game), 0
        if "players" in CATALOG.get(self.game).soak.practice:  # a game of fixed seats has none
            options["players"] = players
        if bots:
            options["bots"] = bots
        return options

    async def open(self) -> None:
        host, *others = self.members
        opened = await self.fake.slash(
            host, self.channel, f"{self.game} start", **self.start_options()
        )
        if opened.ephemeral or opened.message is None:
            raise RuntimeError(f"{self.channel.name}: could not open a table: {opened!r}")
        for member in others:
            assert self.live is not None
            joined = await self.fake.click(member, self.live, actions_of(self.live)["join"])
            if joined.ephemeral:
                raise RuntimeError(f"{self.channel.name}: could not join: {joined!r}")

    def describe(self) -> str:
        """The table as a stalled one is reported: its game, kind, buttons and first line."""
        live = self.live
        shown = "no table" if live is None else f"{live.button_labels} {live.content!r}"
        return f"{self.channel.name} ({self.kind}): {shown}"

    def offers_deal(self) -> bool:
        """Whether the live table is a finished game's, offering a new deal."""
        return self.live is not None and "again" in actions_of(self.live)

    def whose_turn(self) -> FakeMember | None:
        """The member the live table names (or anyone, when it offers a new deal)."""
        live = self.live
        if live is None or not live.buttons:
            return None
        if "again" in actions_of(live):
            return self.members[0]
        for member in self.members:
            if member.mention in live.content:
                return member
        # A turn that goes on (a hit, a drawn card to play or keep) names nobody: the table
        # marks the seat to move with '>' ("> m3x0: ..."), Go-Stop says "m3x0 to play" or
        # asks "m3x0: which card does the flip take?".
        for line in live.content.splitlines():
            line = line.strip()  # noqa: PLW2901
            for member in self.members:
                asked = line.startswith(f"{member.name}:") and line.endswith("?")
                if member.name in line and (line.startswith(">") or "to play" in line or asked):
                    return member
        return None

    async def turn(self, within: float) -> FakeMember | None:
        """Wait until a member is to move (``None``: none within ``within`` seconds)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while not self.world.stopping:
            self.changed.clear()
            member = self.whose_turn()
            if member is not None:
                return member
            try:
                await asyncio.wait_for(self.changed.wait(), deadline - loop.time())
            except TimeoutError:
                return None
        return None

    async def next_table(self, within: float) -> None:
        """Wait until another table is live (or ``within`` seconds)."""
        live = self.live
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(within):
                while self.live is live and not self.world.stopping:
                    self.changed.clear()
                    await self.changed.wait()

    async def play(self) -> None:
        """Act until the world stops: a member's move every ``pace`` seconds on average
        (uniform in half to one and a half of it), on a timeout table every other turn of
        each member left to run out and the turns between played sooner."""
        loop = asyncio.get_running_loop()
        pace = self.world.pace
        last = loop.time() - self.rng.uniform(0, pace)
        while not self.world.stopping:
            if self.kind == "timeout":
                gap = self.rng.uniform(0.1, 0.5) * pace
            else:
                gap = self.rng.uniform(0.5, 1.5) * pace
            await asyncio.sleep(max(0.0, last + gap - loop.time()))
            member = await self.turn(STALL_SECONDS)
            if self.world.stopping:
                return
            if member is None:
                if self.world.measuring:
                    self.world.tally.stalls += 1
                    self.world.tally.stalled.append(self.describe())
                member = self.rng.choice(self.members)
            elif self.kind == "timeout" and not self.offers_deal():
                skip = self.skip[member.id] = not self.skip.get(member.id, False)
                if skip:  # this turn runs out: wait for the bot's table
                    await self.next_table(SLOW_TURN_SECONDS * 3)
                    last = loop.time()
                    continue
            last = loop.time()
            try:
                await self.move(member)
            except UsageError:
                self.world.tally.not_sent += 1

    async def move(self, member: FakeMember) -> None:
        """One move: mostly from the member's hand (its menu or buttons), else a button of
        the table; a private answer with a further menu (a colour to name) is followed."""
        live = self.live
        if live is None:
            return
        # The member moves again: whatever the computers answered the move before is over
        # (a move that left the turn with its member has no computers' table to wait for).
        self.moving, self.answered = True, None
        try:
            await self._move(member, live)
        finally:
            self.moving = False

    async def _move(self, member: FakeMember, live: FakeMessage) -> None:
        actions = actions_of(live)
        if "again" in actions:
            await self.moved(await self.fake.click(member, live, actions["again"]))
            return
        moves = [label for action, label in actions.items() if action not in NOT_MOVES]
        if "hand" in actions and (not moves or self.rng.random() < 0.8):
            result = await self.fake.click(member, live, actions["hand"])
        else:
            if not moves:
                return
            result = await self.fake.click(member, live, self.rng.choice(moves))
        for _ in range(3):
            if not result.ephemeral or result.message is None:
                break  # public
            if result.response_type == 7 and not _still_choosing(result.message, live):
                break  # a move made from the private message, answered there
            picked = await self.pick(member, result.message)
            if picked is None:
                return
            result = picked
        await self.moved(result)

    async def pick(self, member: FakeMember, shown: FakeMessage) -> InteractionResult | None:
        """Choose from a private message: a menu's option, else one of its move buttons."""
        menus = [c for c in shown.items() if c.get("type") == 3 and not c.get("disabled")]
        if menus:
            values = [str(o["value"]) for o in menus[0].get("options", [])]
            if values:
                choice = [self.rng.choice(values)]
                return await self.fake.select(member, shown, menus[0]["custom_id"], choice)
        buttons = [b for b in actions_of(shown).items() if b[0] not in NOT_MOVES]
        if not buttons:
            return None
        return await self.fake.click(member, shown, self.rng.choice(buttons)[1])

    async def moved(self, result: InteractionResult) -> None:
        """Record a move's answer: its latency if it posted a table, else a refusal."""
        world = self.world
        public = [m for m in result.messages if not m.ephemeral and _versioned(m)]
        inter = result.interaction
        if not public and result.response_type == 7:
            # A move made from a private message is answered there; its table is the bot's
            # post after it (none for a step that stays private, as Rummikub's staging).
            try:
                await self.fake.wait_for_message(
                    self.channel, _versioned, after=inter.id, within=PRIVATE_TABLE_WAIT
                )
            except TimeoutError:
                return
            self.count(inter, self.fake.loop_time())
            return
        if not public:
            if world.measuring and result.response_type is not None:
                world.tally.refused += 1
            return
        done = inter.responded_at if inter.response_type == 4 else self.fake.loop_time()
        assert done is not None
        self.count(inter, done)

    def count(self, inter: Interaction, done: float) -> None:
        """A member's move whose table reached the fake at ``done``."""
        world = self.world
        self.answered = done if self.kind == "computer" else None
        if world.measuring:
            world.tally.member_moves[self.kind] += 1
            self.moves += 1
            world.tally.latencies.append(done - inter.created)
            world.tally.by_game.setdefault(self.game, []).append(done - inter.created)


def fit_costs(rows: list[tuple[float, float, float, float]]) -> dict[str, float | None]:
    """Counted requests per member move, per computer table and per timeout: the least
    squares fit of ``requests = m * moves + c * computer tables + t * timeouts`` over the
    tables' rows ``(moves, computer tables, timeouts, requests)``; a kind nobody saw is
    ``None``."""
    names = ("member move", "computer move", "timeout")
    used = [k for k in range(3) if any(row[k] for row in rows)]
    size = len(used)
    # Normal equations A^T A x = A^T b over the columns seen.
    matrix = [[sum(r[i] * r[j] for r in rows) for j in used] for i in used]
    vector = [sum(r[i] * r[3] for r in rows) for i in used]
    solution = _solve(matrix, vector) if size else []
    found: dict[str, float | None] = dict.fromkeys(names)
    for k, value in zip(used, solution, strict=True):
        found[names[k]] = round(value, 3) + 0.0  # no -0.0
    return found


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a 3x3 system at most)."""
    n = len(vector)
    rows = [[*matrix[i], vector[i]] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        if abs(rows[col][col]) < 1e-12:
            raise ValueError("the costs cannot be told apart")
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def table_rows(world: World) -> list[tuple[float, float, float, float]]:
    """Per table: its member moves, computer tables, timeouts and counted requests in the
    measured window, as :func:`fit_costs` takes them."""
    return [
        (t.moves, t.bot_made if t.kind == "computer" else 0,
         0 if t.kind == "computer" else t.bot_made, world.tally.requests[t.channel.id])
        for t in world.tables
    ]  # fmt: skip
