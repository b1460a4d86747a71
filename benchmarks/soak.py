"""The chaos soak: the real bot process, the fake Discord, a real store, and
everything going wrong at once for ``--minutes``.

    python benchmarks/soak.py --minutes 1 [--channels N] --seed 7 [--database-url URL] --json OUT

This process runs the fake Discord (``bot/fakediscord``) and the members; the bot runs
as ``python -m bot run`` in a child process pointed at the fake with ``DISCORD_API_URL``, so
it can be killed with SIGKILL and started again. Each channel plays one game at a time, the
games taken in turn (:data:`GAMES`); members act at random (buttons, hand menus,
slash commands with legal and illegal arguments, out of turn, stale buttons, double clicks,
leaving and joining) and a moderator ends tables and kicks players. Faults come on a seeded
schedule (:data:`FAULTS`).

At the end it reports, all of which must be 0 (the exit status is 1 otherwise):

- ``moves lost``: checked at every kill, with the bot dead: each channel's stored game is at
  least at the newest version the bot showed in public (a table's buttons carry its version),
  or it was ended (a public notice followed that table);
- ``double applies``: one button (one version) acknowledged in public twice, or two different
  public tables posted for one version;
- ``leaks``: a public message with the bot's token, an interaction token or a stack trace, or
  a public table naming a card that a hand menu offered at the same game version (one version
  is one position: a card cannot be both in a hand and on the table; see
  :meth:`Witness._leaked`);
- ``limit violations``: what the fake says Discord would have refused (interactions the kill
  caught in flight excused: the member saw "interaction failed", which no bot can prevent);
- ``unhandled errors``: ERROR or CRITICAL lines and tracebacks in the bot's log;
- ``games stuck``: after the last restart, stored games the bot did not restore;
- ``refused yet written``: a save the bot reported failed ("nothing changed") that the store
  holds all the same, seen as the bot's next save of that channel meeting a version conflict
  (one process writes each channel under its lock, so nothing else can cause one; a kill
  cannot either: the new process reads what the store holds).

A game is played as its adapter's :class:`~bot.games.SoakStrategy` says (how to start it,
which slash moves a member may try): nothing here names a game, and its buttons and hand menus
are played without more code.

Storage faults: SQLite is locked by a second connection holding ``BEGIN EXCLUSIVE``.
PostgreSQL: half the time a second connection holds ``LOCK TABLE active_games IN ACCESS
EXCLUSIVE MODE`` (every read and write of a game waits, as if the server did not answer);
the other half the bot's way to the server is cut (``db_cut``: the bot reaches PostgreSQL
through a relay that drops every connection and refuses new ones for a few seconds, as the
bot sees a server stopped and started; stopping the machine's own server needs root and
would stop it for everyone). The soak runs in its own schema, dropped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import random
import re
import secrets
import signal
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import Report
from bot.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeMember,
    FakeMessage,
    InteractionResult,
    UsageError,
)
from bot.fakediscord.ratelimits import DISCORD_ROUTE_LIMITS
from bot.games import AUTOCOMPLETE, GameCatalog, SoakStrategy
from bot.i18n import t

ROOT = Path(__file__).resolve().parent.parent
VERSION = re.compile(r"^dh:(\d+):(\d+):")
MENU = re.compile(r"^dh:\d+:\d+:[a-z]+-menu\b")  # a game's menu of moves (cogs/common/ids.py)
# A card as the games write it in a hand menu and on a table: "[♠7]", "[10H]" (not "[1]",
# Go-Stop's month numbers, which many cards share).
CARD = re.compile(r"\[(?=[^\]]*[^\d\]])[^\]\s]{2,4}\]")
COMPONENT = 3
NO_GAME = {t("error.no_game", lang) for lang in ("en", "ko")}
INTERACTION_TOKEN = "aW50ZXJhY3Rpb24"  # how the fake's interaction tokens begin
ANSI = re.compile(r"\x1b\[[0-9;]*m")
RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (?P<level>[A-Z]+) ")
READY_SECONDS = 60.0
CONFLICT = "version conflict; reloading"

# -- the games ------------------------------------------------------------------------------

# How a random member plays each game: its adapter's own SoakStrategy (the options of
# /<game> start and the slash moves to try), in the games' order; the rest (buttons, hand
# menus) is generic.
STRATEGIES: dict[str, SoakStrategy] = {game.name: game.soak for game in GameCatalog.discover()}
GAMES = tuple(STRATEGIES)

# -- faults ---------------------------------------------------------------------------------

FAULTS = ("kill", "rest_429", "rest_500", "rest_502", "slow", "gateway_drop", "op7", "db_lock")
# Routes the bot uses outside an interaction's answer (posting, editing, stripping tables).
CHANNEL_ROUTES = (
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
    None,
)


@dataclass
class Tally:
    """What the soak counts."""

    interactions: int = 0
    acknowledged: int = 0  # interactions answered with a public table or notice
    refused: int = 0  # answered only to the member (a refusal, a hand)
    not_sent: int = 0  # the fake refused to send (a button gone, disabled): no interaction
    kills: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    moves_lost: list[str] = field(default_factory=list)
    double_applies: list[str] = field(default_factory=list)
    leaks: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)


# -- the bot process ------------------------------------------------------------------------


class BotProcess:
    """``python -m bot run`` against the fake; killed with SIGKILL, started again."""

    def __init__(self, fake: FakeDiscord, database_url: str, log_path: Path) -> None:
        self.fake = fake
        self.database_url = database_url
        self.log_path = log_path
        self.process: asyncio.subprocess.Process | None = None
        self.readies = 0

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD")}
        env.update(
            DISCORD_TOKEN=self.fake.token,
            DISCORD_API_URL=self.fake.base_url,
            DATABASE_URL=self.database_url,
            DEV_GUILD_ID=str(self.fake.guild.id),
            LOG_LEVEL="INFO",
            COMPUTER_DELAY_SECONDS="0.2",
            # Short turns, so timers fire (and meet the faults) within a short soak.
            DEFAULT_TURN_SECONDS="6",
            BLACKJACK_TURN_SECONDS="6",
            PYTHONPATH=str(ROOT),
        )
        return env

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    async def start(self) -> None:
        """Start the bot and wait until it says it is ready."""
        before = self.log_text().count(" ready as ") if self.log_path.exists() else 0
        log = self.log_path.open("ab")
        # Its own folder, so no .env of the repository is read.
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "run",
            cwd=self.log_path.parent,
            env=self.env(),
            stdout=log,
            stderr=log,
        )
        log.close()
        deadline = time.monotonic() + READY_SECONDS
        while self.log_text().count(" ready as ") <= before:
            if self.process.returncode is not None:
                raise RuntimeError(f"the bot stopped at start-up; see {self.log_path}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot was not ready within {READY_SECONDS} s")
            await asyncio.sleep(0.1)
        self.readies += 1

    async def kill(self) -> None:
        """SIGKILL: no close hook, no flush, sockets gone."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        self.process = None

    async def stop(self) -> None:
        """SIGTERM, as a server owner stops it."""
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 20)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
            self.process = None


def _asyncpg() -> Any:
    """asyncpg, imported only for a PostgreSQL run."""
    import asyncpg  # type: ignore[import-untyped]

    return asyncpg


# -- the store, read from outside -----------------------------------------------------------


class Relay:
    """The bot's way to PostgreSQL, which the soak can cut: every connection dropped and new
    ones refused for a few seconds, as the bot sees a server stopped and started (stopping
    the machine's own server needs root, and would stop it for everyone else)."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.upstream = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self.parts = parts
        self.port = 0
        self.server: asyncio.Server | None = None
        self.links: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        """``url`` through the relay."""
        user = self.parts.username or "postgres"
        secret = f":{self.parts.password}" if self.parts.password else ""
        return urlunsplit(self.parts._replace(netloc=f"{user}{secret}@127.0.0.1:{self.port}"))

    async def open(self) -> None:
        self.server = await asyncio.start_server(self._link, "127.0.0.1", self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def cut(self, seconds: float) -> None:
        """Drop every connection and refuse new ones for ``seconds``."""
        await self.close()
        await asyncio.sleep(seconds)
        await self.open()  # the same port: the bot's pool reconnects by itself

    async def close(self) -> None:
        """Drop every connection and refuse new ones (safe to call twice)."""
        server, self.server = self.server, None
        if server is not None:
            server.close()
        for writer in list(self.links):
            writer.transport.abort()
        self.links.clear()
        if server is not None:
            await server.wait_closed()

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        except OSError:
            writer.transport.abort()
            return
        self.links |= {writer, up_writer}

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            except (ConnectionError, OSError):
                pass
            finally:
                sink.transport.abort()
                self.links.discard(sink)

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))


class StoreProbe:
    """Reads the stored games (the bot dead) and makes the store unavailable on demand."""

    def __init__(self, database_url: str) -> None:
        self.url = database_url

    @property
    def sqlite_path(self) -> str:
        return self.url.removeprefix("sqlite:///").split("?")[0]

    async def rows(self) -> dict[int, tuple[int, dict[str, Any]]]:
        """channel id -> (version, data) of every stored game."""
        if self.url.startswith("sqlite"):
            with contextlib.closing(sqlite3.connect(self.sqlite_path, timeout=30)) as db:
                found = db.execute("SELECT channel_id, version, data FROM active_games").fetchall()
            return {int(c): (int(v), json.loads(d)) for c, v, d in found}
        asyncpg = _asyncpg()

        conn = await asyncpg.connect(self.url)
        try:
            records = await conn.fetch("SELECT channel_id, version, data FROM active_games")
        finally:
            await conn.close()
        return {
            int(r["channel_id"]): (
                int(r["version"]),
                r["data"] if isinstance(r["data"], dict) else json.loads(r["data"]),
            )
            for r in records
        }

    async def unavailable(self, seconds: float) -> None:
        """Hold the games' table so the bot can neither read nor write it for ``seconds``."""
        if self.url.startswith("sqlite"):
            db = sqlite3.connect(self.sqlite_path, timeout=30, isolation_level=None)
            try:
                db.execute("BEGIN EXCLUSIVE")
                await asyncio.sleep(seconds)
                db.execute("ROLLBACK")
            finally:
                db.close()
            return
        asyncpg = _asyncpg()

        conn = await asyncpg.connect(self.url)
        try:
            async with conn.transaction():
                await conn.execute("LOCK TABLE active_games IN ACCESS EXCLUSIVE MODE")
                await asyncio.sleep(seconds)
        finally:
            await conn.close()


# -- what the bot posted --------------------------------------------------------------------


def version_of(components: list[dict[str, Any]]) -> int | None:
    """The game version a message's buttons or menus carry."""
    stack = list(components)
    while stack:
        comp = stack.pop()
        stack.extend(comp.get("components") or [])
        match = VERSION.match(str(comp.get("custom_id", "")))
        if match:
            return int(match[2])
    return None


class Witness:
    """Watches every message the bot creates or edits in the fake (public and ephemeral)."""

    def __init__(self, fake: FakeDiscord, tally: Tally) -> None:
        self.fake = fake
        self.tally = tally
        # channel -> newest version shown in public, and the message id that showed it
        self.shown: dict[int, tuple[int, int]] = {}
        self.bodies: dict[tuple[int, int], str] = {}  # (channel, version) -> table digest
        self.tables = 0
        # (channel, version) -> card texts a hand offered / the public table's content
        self.hands: dict[tuple[int, int], set[str]] = {}
        self.public: dict[tuple[int, int], str] = {}
        self.tokens: set[str] = {fake.token, INTERACTION_TOKEN}
        new_message, edit = fake.new_message, fake.edit

        def created(channel: FakeChannel, data: dict[str, Any], **kw: Any) -> FakeMessage:
            message = new_message(channel, data, **kw)
            self.saw(message)
            return message

        def edited(message: FakeMessage, data: dict[str, Any]) -> None:
            edit(message, data)
            self.saw(message)

        fake.new_message = created  # type: ignore[method-assign]
        fake.edit = edited  # type: ignore[method-assign]

    def saw(self, message: FakeMessage) -> None:
        if message.author.id != self.fake.bot_user.id:
            return
        text = message.text
        channel = message.channel_id
        if message.ephemeral:
            self._saw_hand(message)
            return
        for token in self.tokens:
            if token in text:  # the bot's token, or the start every interaction token shares
                self.tally.leaks.append(f"channel {channel}: a token in message {message.id}")
        if "Traceback" in text or 'File "' in text:
            self.tally.leaks.append(f"channel {channel}: a stack trace in message {message.id}")
        if any(MENU.match(str(c.get("custom_id", ""))) for c in message.items()):
            # A hand's menu of moves lists its cards: in public, in every game, it is a hand
            # shown to the whole channel (the check the card names below cannot make in
            # games whose decks repeat a card, Uno's and Rummikub's).
            self.tally.leaks.append(f"channel {channel}: a hand's menu in public, {message.id}")
        self._check_hands(message)
        version = version_of(message.components)
        if version is None:
            return
        self.tables += 1
        digest = hashlib.sha256(message.content.encode()).hexdigest()
        known = self.bodies.setdefault((channel, version), digest)
        if known != digest:
            self.tally.double_applies.append(
                f"channel {channel}: two different tables for version {version}"
            )
        if version >= self.shown.get(channel, (0, 0))[0]:
            self.shown[channel] = (version, message.id)

    def _saw_hand(self, message: FakeMessage) -> None:
        """A hand listed to its member: the cards its menus offer, by the game version."""
        version = version_of(message.components)
        if message.visible_to is None or version is None:
            return
        labels = {
            str(o.get("label", ""))
            for c in message.items()
            if c.get("type") == 3
            for o in c.get("options", [])
        }
        cards = {label for label in labels if CARD.fullmatch(label)}
        if cards:
            key = (message.channel_id, version)
            self.hands.setdefault(key, set()).update(cards)
            self._leaked(key, self.public.get(key, ""), cards, message.id)

    def _check_hands(self, message: FakeMessage) -> None:
        version = version_of(message.components)
        if version is None:
            return
        key = (message.channel_id, version)
        self.public[key] = message.content
        self._leaked(key, message.content, self.hands.get(key, set()), message.id)

    def _leaked(self, key: tuple[int, int], public: str, cards: set[str], where: int) -> None:
        """A card a hand offered at a version, named by the public table of that version.

        One version is one position, so a card cannot be both in a hand and on the table at
        it: the played card ``[X]`` a table names was played at that version, not held.
        """
        for card in sorted(card for card in cards if card in public):
            self.tally.leaks.append(
                f"channel {key[0]}, version {key[1]}: the public table names {card} "
                f"from a hand (message {where})"
            )

    def ended_after(self, channel_id: int, message_id: int) -> bool:
        """Whether a public bot message without buttons came after ``message_id`` (a notice
        that the game ended or a lobby was closed)."""
        return any(
            m.id > message_id
            and m.channel_id == channel_id
            and not m.ephemeral
            and m.author.id == self.fake.bot_user.id
            and version_of(m.components) is None
            for m in self.fake.messages.values()
        )


def actions_of(message: FakeMessage) -> dict[str, str]:
    """A table's buttons by action (``dh:<channel>:<version>:<action>``): their labels."""
    found = {}
    for button in message.buttons:
        parts = str(button.get("custom_id", "")).split(":")
        if len(parts) >= 4 and parts[0] == "dh":
            found[parts[3]] = str(button.get("label", ""))
    return found


# -- the members ----------------------------------------------------------------------------


class Table:
    """One channel, its members and the game it plays now."""

    def __init__(
        self,
        soak: Soak,
        channel: FakeChannel,
        members: list[FakeMember],
        index: int,
    ) -> None:
        self.soak = soak
        self.fake = soak.fake
        self.channel = channel
        self.members = members
        self.rng = random.Random(soak.seed * 1000 + index)
        self.game_index = index
        self.game = GAMES[index % len(GAMES)]
        self.old_tables: list[FakeMessage] = []
        # Refusals in a row saying no game runs here: a kill left an ended game's table with
        # its buttons (nobody stripped them), so members open a new one as people would.
        self.no_game = 0

    def live_table(self) -> FakeMessage | None:
        tables = [
            m
            for m in self.fake.public_messages(self.channel)
            if m.author.id == self.fake.bot_user.id and m.buttons
        ]
        return tables[-1] if tables else None

    async def send(self, action: Awaitable[InteractionResult]) -> InteractionResult | None:
        """Send one interaction; count how it was answered."""
        try:
            result = await action
        except UsageError:
            self.soak.tally.not_sent += 1
            return None
        self.soak.tally.interactions += 1
        if result.text in NO_GAME:
            self.no_game += 1
        if result.messages and not result.ephemeral:
            self.no_game = 0
            self.soak.tally.acknowledged += 1
        elif result.response_type is not None:
            self.soak.tally.refused += 1
        self.soak.sent.append(result)
        return result

    async def play(self, until: float) -> None:
        loop = asyncio.get_running_loop()
        while loop.time() < until:
            await self.soak.running.wait()
            try:
                await self.step()
            except (TimeoutError, RuntimeError) as error:
                # The bot was killed under this action: the member saw "interaction failed".
                self.soak.notes.append(f"{self.channel.name}: {type(error).__name__}")
            await asyncio.sleep(self.rng.uniform(0.05, 0.4))

    async def step(self) -> None:
        rng = self.rng
        game = self.game
        member = rng.choice(self.members)
        table = self.live_table()
        actions = actions_of(table) if table is not None else {}
        stale = self.no_game >= 3
        if table is None or stale or ("again" in actions and rng.random() < 0.3):
            self.no_game = 0
            # Each new table plays the next game in turn.
            self.game_index += 1
            game = self.game = GAMES[self.game_index % len(GAMES)]
            options = self.strategy.start(rng)
            await self.send(self.fake.slash(member, self.channel, f"{game} start", **options))
            return
        # Mostly the member the table pinged (whose turn it is) acts; anyone may, though.
        turn = next((m for m in self.members if m.id in table.pinged), None)
        if turn is not None and rng.random() < 0.7:
            member = turn
        for action in ("join", "start", "again"):
            # A finished table offers nothing else but "Deal again" (or a new game above).
            chance = 0.9 if action == "again" else 0.5
            if action in actions and rng.random() < chance:
                await self.click(member, table, actions[action])
                return
        snapshot = table.snapshot()
        self.old_tables = [*self.old_tables[-4:], snapshot]
        roll = rng.random()
        if roll < 0.45:
            # Leaving and cancelling rarely, or no game would last.
            calm = [label for a, label in actions.items() if a not in ("leave", "cancel")]
            pool = calm if calm and rng.random() < 0.85 else table.button_labels
            await self.click(member, table, rng.choice(pool))
        elif roll < 0.55:  # a double click: the same button twice at once
            label = rng.choice(table.button_labels)
            await asyncio.gather(self.click(member, table, label), self.click(member, table, label))
        elif roll < 0.62 and len(self.old_tables) > 1:  # a client that did not refresh
            old = rng.choice(self.old_tables[:-1])
            if old.button_labels:
                label = rng.choice(old.button_labels)
                await self.send(self.fake.click(member, old, label, stale=True))
        elif roll < 0.85 and self.strategy.moves:
            await self.slash_move(member, *rng.choice(self.strategy.moves))
        elif roll < 0.92 and self.strategy.join:
            verb = rng.choice(("join", "leave"))
            await self.send(self.fake.slash(member, self.channel, f"{game} {verb}"))
        elif roll < 0.96:
            victim = rng.choice(self.members)
            await self.send(
                self.fake.slash(self.soak.moderator, self.channel, "game kick", member=victim)
            )
        elif roll < 0.98:
            await self.send(self.fake.slash(self.soak.moderator, self.channel, "game end"))
        else:
            await self.send(self.fake.slash(self.soak.moderator, self.channel, "game list"))

    async def click(self, member: FakeMember, table: FakeMessage, label: str) -> None:
        """Click; a hand that comes back with a menu is played from, menu after menu."""
        result = await self.send(self.fake.click(member, table, label))
        for _ in range(3):
            if result is None or not result.ephemeral or result.message is None:
                return
            shown = result.message
            menus = [c for c in shown.items() if c.get("type") == 3 and not c.get("disabled")]
            if not menus or self.rng.random() < 0.1:
                return
            menu = menus[0]
            values = [str(o["value"]) for o in menu.get("options", [])]
            if not values:
                return
            picked = self.rng.choice(values)
            result = await self.send(self.fake.select(member, shown, menu["custom_id"], [picked]))

    @property
    def strategy(self) -> SoakStrategy:
        """How the game played here now is played."""
        return STRATEGIES[self.game]

    async def slash_move(self, member: FakeMember, verb: str, options: Mapping[str, Any]) -> None:
        game = self.game
        chosen: dict[str, Any] = {}
        for name, value in options.items():
            if value is AUTOCOMPLETE:
                choices = await self.fake.autocomplete(
                    member, self.channel, f"{game} {verb}", name, ""
                )
                if not choices:
                    return
                chosen[name] = self.rng.choice(choices)["value"]
            elif isinstance(value, tuple):
                chosen[name] = self.rng.choice(value)
            else:
                chosen[name] = value
        await self.send(self.fake.slash(member, self.channel, f"{game} {verb}", **chosen))


# -- the run --------------------------------------------------------------------------------


class Soak:
    def __init__(self, args: argparse.Namespace, fake: FakeDiscord, workdir: Path) -> None:
        self.args = args
        self.seed: int = args.seed
        self.fake = fake
        self.tally = Tally()
        self.witness = Witness(fake, self.tally)
        self.rng = random.Random(args.seed)
        self.faults_left: list[str] = []  # this round's faults still to come (next_fault)
        self.database_url: str = args.database_url or f"sqlite:///{workdir / 'soak.db'}"
        self.bot = BotProcess(fake, self.database_url, workdir / "bot.log")
        self.store = StoreProbe(self.database_url)
        # PostgreSQL: the bot reaches it through a relay the soak cuts (Relay).
        self.relay = None if args.database_url is None else Relay(self.database_url)
        self.running = asyncio.Event()
        self.sent: list[InteractionResult] = []
        self.notes: list[str] = []
        self.excused: list[tuple[float, float]] = []  # fake loop times: kill .. ready
        self.excused_count = 0  # interactions a kill left unanswered
        self.moderator = fake.add_member("mod", moderator=True)
        self.tables: list[Table] = []
        for i in range(args.channels):
            channel = fake.add_channel(f"soak-{i}")
            members = [
                fake.add_member(f"p{i}{j}", locale="ko" if j == 1 else "en-US") for j in range(3)
            ]
            self.tables.append(Table(self, channel, members, i))

    async def run(self) -> None:
        if self.relay is not None:
            await self.relay.open()
            self.bot.database_url = self.relay.url
        await self.bot.start()
        self.running.set()
        until = asyncio.get_running_loop().time() + self.args.minutes * 60
        players = [asyncio.create_task(table.play(until)) for table in self.tables]
        chaos = asyncio.create_task(self.chaos(until))
        await asyncio.gather(*players)
        # The schedule ends by itself after its current fault (never cut in a kill's middle).
        await chaos
        self.running.set()
        await self.quiet()
        # The last kill, checked like the others; then a last start restores every game.
        await self.kill_and_check(restart=False)
        # Finished tables kept for "Deal again" are not games to go on with.
        rows = {c: r for c, r in (await self.store.rows()).items() if not r[1].get("finished_at")}
        before = self.bot.log_text().count(" ready as ")
        await self.bot.start()
        assert self.bot.log_text().count(" ready as ") > before
        restored = re.findall(r"restored (\d+) game\(s\)", self.bot.log_text())
        if restored and int(restored[-1]) < len(rows):
            self.tally.stuck.append(f"{len(rows)} stored, {restored[-1]} restored")
        await self.quiet()
        await self.bot.stop()
        if self.relay is not None:
            await self.relay.close()

    async def quiet(self) -> None:
        """Let answers in flight and computer moves settle."""
        await asyncio.sleep(4.0)

    async def chaos(self, until: float) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.rng.uniform(2.0, 6.0))
            if loop.time() > until:
                return
            kind = self.next_fault()
            self.tally.faults[kind] += 1
            if kind == "kill":
                await self.kill_and_check(restart=True)
            elif kind.startswith("rest_"):
                status = int(kind.removeprefix("rest_"))
                route = self.rng.choice(CHANNEL_ROUTES)
                self.fake.fail_next(
                    status,
                    route,
                    count=self.rng.randint(1, 3),
                    retry_after=self.rng.uniform(0.05, 1.0),
                )
            elif kind == "slow":
                self.fake.slow_next(
                    self.rng.uniform(3.1, 4.0), self.rng.choice(CHANNEL_ROUTES[:2]), count=2
                )
            elif kind == "gateway_drop":
                await self.fake.gateway.drop(4000)
            elif kind == "op7":
                await self.fake.gateway.send_reconnect()
            elif kind == "db_lock":
                seconds = self.rng.uniform(1.0, 4.0)
                if self.relay is not None and self.rng.random() < 0.5:
                    # The server gone instead of a table locked: counted as both.
                    self.tally.faults["db_cut"] += 1
                    await self.relay.cut(seconds)
                else:
                    await self.store.unavailable(seconds)

    def next_fault(self) -> str:
        """Faults come in rounds, every kind once a round in a seeded order: a plain random
        pick left the 1-minute CI soak without a 429 or a 500 at all (seed 15)."""
        if not self.faults_left:
            self.faults_left = list(FAULTS)
            self.rng.shuffle(self.faults_left)
        return self.faults_left.pop()

    async def kill_and_check(self, *, restart: bool) -> None:
        """SIGKILL the bot, check nothing it acknowledged is missing from the store, restart."""
        self.running.clear()
        killed_at = self.fake.loop_time()
        await self.bot.kill()
        self.tally.kills += 1
        rows = await self.store.rows()
        for channel_id, (version, message_id) in self.witness.shown.items():
            stored = rows.get(channel_id)
            if stored is None:
                if not self.witness.ended_after(
                    channel_id, message_id
                ) and not self.end_cut_by_kill(channel_id, killed_at):
                    shown = self.witness.public.get((channel_id, version), "").splitlines()
                    self.tally.moves_lost.append(
                        f"channel {channel_id}: version {version} was shown (message "
                        f"{message_id}: {shown[0][:80] if shown else ''!r}), nothing is stored"
                    )
            elif stored[0] < version:
                self.tally.moves_lost.append(
                    f"channel {channel_id}: version {version} was shown, {stored[0]} is stored"
                )
        if restart:
            await self.bot.start()
            self.excused.append((killed_at, self.fake.loop_time()))
            self.running.set()
        else:
            self.excused.append((killed_at, float("inf")))

    def end_cut_by_kill(self, channel_id: int, killed_at: float) -> bool:
        """Whether the kill caught in flight an interaction that may have ended this channel's
        game (a /game end here, a list's End naming it, a host's leave): written, then never
        announced, as no bot can help. A lost move shows as an older version stored; only an
        end leaves nothing, so nothing else is excused by this."""
        since = killed_at - self.fake.deadline - 1
        return any(
            since <= inter.created <= killed_at
            and not inter.completed.is_set()
            and (inter.channel.id == channel_id or str(channel_id) in json.dumps(inter.payload))
            for inter in self.fake.interactions.values()
        )

    def violations(self) -> list[str]:
        """The fake's violations, minus interactions a kill caught in flight or while down."""
        self.fake._check_unanswered()
        deadline = self.fake.deadline
        found = []
        self.excused_count = 0
        for v in self.fake.violations:
            inter = self.fake.interactions.get(v.interaction_id or 0)
            lost = v.kind in ("no-response", "no-followup", "late-response")
            if (
                inter is not None
                and lost
                and any(start - deadline - 1 <= inter.created <= end for start, end in self.excused)
            ):
                self.excused_count += 1
                continue
            found.append(str(v))
        return found

    def double_clicks(self) -> None:
        """One button (one version) acknowledged in public more than once."""
        by_button: Counter[str] = Counter()
        for result in self.sent:
            inter = result.interaction
            if inter.kind != COMPONENT or result.ephemeral or not result.messages:
                continue
            custom_id = str(inter.payload["data"].get("custom_id", ""))
            if VERSION.match(custom_id) and ":end_listed" not in custom_id:
                by_button[custom_id] += 1
        for custom_id, count in by_button.items():
            if count > 1:
                self.tally.double_applies.append(f"{custom_id} acknowledged {count} times")

    def errors(self) -> list[str]:
        return log_errors(self.bot.log_text())

    def conflicts(self) -> list[str]:
        return log_conflicts(self.bot.log_text())


def log_conflicts(text: str) -> list[str]:
    """The bot's records of a save meeting a version conflict (``bot/sessions/core.py``)."""
    return [ANSI.sub("", line) for line in text.splitlines() if CONFLICT in ANSI.sub("", line)]


def log_errors(text: str) -> list[str]:
    """ERROR and CRITICAL records, and tracebacks no handled record (a WARNING with the
    failure it survived) owns: an uncaught exception printed by Python."""
    found = []
    level = None
    for raw in text.splitlines():
        line = ANSI.sub("", raw)
        record = RECORD.match(line)
        if record:
            level = record["level"]
            if level in ("ERROR", "CRITICAL"):
                found.append(line)
        elif line.startswith("Traceback") and level not in ("DEBUG", "INFO", "WARNING"):
            found.append(line)
    return found


async def soak(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="deckhand-soak-"))
    schema = None
    if args.database_url:
        schema = f"soak_{secrets.token_hex(4)}"
        args.database_url = await _fresh_schema(args.database_url, schema)
    try:
        async with FakeDiscord(guild_name="Soak") as fake:
            if args.rate_limits:  # Discord's: the global 50/s and a channel's 5 messages / 5 s
                fake.limits.route_limits.update(DISCORD_ROUTE_LIMITS)
            else:
                fake.limits.global_per_second = None
            run = Soak(args, fake, workdir)
            started = time.monotonic()
            try:
                await run.run()
            finally:
                if run.bot.process is not None:
                    await run.bot.kill()
            run.double_clicks()
            violations = run.violations()
            errors = run.errors()
            conflicts = run.conflicts()
            tally = run.tally
            return {
                "minutes": args.minutes,
                "seconds": round(time.monotonic() - started, 1),
                "channels": args.channels,
                "seed": args.seed,
                "store": "postgresql" if args.database_url else "sqlite",
                "games": list(GAMES),
                "interactions sent": tally.interactions,
                "acknowledged in public": tally.acknowledged,
                "answered privately": tally.refused,
                "public tables": run.witness.tables,
                "kills": tally.kills,
                "faults": dict(sorted(tally.faults.items())),
                "rate limits": "on" if args.rate_limits else "off",
                "requests": fake.limits.report(),
                "requests by bucket": dict(fake.limits.bucket_requests.most_common()),
                "moves lost": len(tally.moves_lost),
                "double applies": len(tally.double_applies),
                "leaks": len(tally.leaks),
                "limit violations": len(violations),
                "unhandled errors": len(errors),
                "games stuck": len(tally.stuck),
                "refused yet written": len(conflicts),
                "not sent (button gone)": tally.not_sent,
                "unanswered because of a kill (excused)": run.excused_count,
                "private answers, most common": Counter(
                    r.text.splitlines()[0][:60] if r.text else "(none)"
                    for r in run.sent
                    if r.ephemeral or not r.messages
                ).most_common(12),
                "log": str(run.bot.log_path),
                "details": {
                    "moves lost": tally.moves_lost[:20],
                    "double applies": tally.double_applies[:20],
                    "leaks": tally.leaks[:20],
                    "limit violations": violations[:20],
                    "unhandled errors": errors[:20],
                    "games stuck": tally.stuck,
                    "refused yet written": conflicts[:20],
                },
            }
    finally:
        if schema is not None and args.database_url:
            await _drop_schema(args.database_url, schema)


async def _fresh_schema(url: str, schema: str) -> str:
    """A schema of its own, so the soak never touches another run's tables."""
    asyncpg = _asyncpg()

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
    finally:
        await conn.close()
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}search_path={schema}"


async def _drop_schema(url: str, schema: str) -> None:
    asyncpg = _asyncpg()

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await conn.close()


COUNTS = (
    "moves lost",
    "double applies",
    "leaks",
    "limit violations",
    "unhandled errors",
    "games stuck",
    "refused yet written",
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument(
        "--channels", type=int, default=len(GAMES), help="default: one table of each game"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", default=None, help="PostgreSQL instead of SQLite")
    parser.add_argument("--json", default=None, help="write the report here")
    parser.add_argument(
        "--no-rate-limits",
        dest="rate_limits",
        action="store_false",
        help="turn off Discord's rate limits in the fake (on by default)",
    )
    args = parser.parse_args()
    summary = asyncio.run(soak(args))
    report = Report(benchmark="soak")
    case = f"{summary['store']}, {args.channels} channels, seed {args.seed}"
    report.add(case, "interactions sent", summary["interactions sent"], "interactions")
    report.add(case, "moves acknowledged", summary["acknowledged in public"], "interactions")
    report.add(case, "public tables", summary["public tables"], "messages")
    report.add(case, "kills", summary["kills"], "kills")
    for kind, count in summary["faults"].items():
        report.add(case, f"fault {kind}", count, "faults")
    for name, count in summary["requests"].items():
        report.add(case, name, count, "requests" if name.startswith("requests") else "429s")
    for name in COUNTS:
        report.add(case, name, summary[name], "count (must be 0)")
    report.note("no peer runs a soak: ratios are empty")
    report.note(f"bot log: {summary['log']}")
    for name, details in summary["details"].items():
        for line in details[:5]:
            report.note(f"{name}: {line}")
    report.print_table()
    if args.json:
        data = report.to_json()
        data["summary"] = summary
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    failed = [name for name in COUNTS if summary[name]]
    if failed:
        print(f"soak FAILED: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
