"""The faults a soak injects, on a seeded schedule: Discord answering 429, 500 or 502, or
slowly; the gateway dropped or told to reconnect (op 7); the store unavailable; and the bot
killed (which :mod:`soak.run` does itself, as it checks the store at each kill).

The store unavailable: SQLite is locked by a second connection holding ``BEGIN EXCLUSIVE``.
PostgreSQL: half the time a second connection holds ``LOCK TABLE active_games IN ACCESS
EXCLUSIVE MODE`` (every read and write of a game waits, as if the server did not answer);
the other half the bot's way to the server is cut (``db_cut``: the bot reaches PostgreSQL
through a :class:`Relay` that drops every connection and refuses new ones for a few seconds,
as the bot sees a server stopped and started; stopping the machine's own server needs root
and would stop it for everyone).
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from collections import Counter
from urllib.parse import urlsplit, urlunsplit

import asyncpg  # type: ignore[import-untyped]

from bot.fakediscord import FakeDiscord
from soak.store import sqlite_path

__all__ = ["CHANNEL_ROUTES", "FAULTS", "FaultSchedule", "Faults", "Relay", "lock_store"]

FAULTS = ("kill", "rest_429", "rest_500", "rest_502", "slow", "gateway_drop", "op7", "db_lock")
# Routes the bot uses outside an interaction's answer (posting, editing, stripping tables);
# None: any route.
CHANNEL_ROUTES = (
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
    None,
)


class FaultSchedule:
    """Faults come in rounds, every kind once a round in a seeded order: a plain random pick
    left the 1-minute CI soak without a 429 or a 500 at all (seed 15)."""

    def __init__(self, rng: random.Random, kinds: tuple[str, ...] = FAULTS) -> None:
        self.rng = rng
        self.kinds = kinds
        self.left: list[str] = []  # this round's faults still to come

    def next(self) -> str:
        """The next fault to inject."""
        if not self.left:
            self.left = list(self.kinds)
            self.rng.shuffle(self.left)
        return self.left.pop()


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
        """Listen (on the port it had, once it had one)."""
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


async def lock_store(url: str, seconds: float) -> None:
    """Hold the games' table so the bot can neither read nor write it for ``seconds``."""
    if url.startswith("sqlite"):
        db = sqlite3.connect(sqlite_path(url), timeout=30, isolation_level=None)
        try:
            db.execute("BEGIN EXCLUSIVE")
            await asyncio.sleep(seconds)
            db.execute("ROLLBACK")
        finally:
            db.close()
        return
    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction():
            await conn.execute("LOCK TABLE active_games IN ACCESS EXCLUSIVE MODE")
            await asyncio.sleep(seconds)
    finally:
        await conn.close()


class Faults:
    """Injects the faults other than a kill into the fake Discord and the store, counting
    each in ``counted``.

    ``relay``: the bot's way to PostgreSQL, cut half the times the store is made unavailable;
    None on SQLite. ``rng`` decides the faults' details (which route, how long).
    """

    def __init__(
        self,
        fake: FakeDiscord,
        rng: random.Random,
        database_url: str,
        relay: Relay | None,
        counted: Counter[str],
    ) -> None:
        self.fake = fake
        self.rng = rng
        self.database_url = database_url
        self.relay = relay
        self.counted = counted
        self.times: list[float] = []  # when each was injected (time.time(), as the log's)

    async def inject(self, kind: str) -> None:
        """Inject one fault of ``kind`` (one of :data:`FAULTS` but ``kill``)."""
        rng = self.rng
        self.counted[kind] += 1
        self.times.append(time.time())
        if kind.startswith("rest_"):
            self.fake.fail_next(
                int(kind.removeprefix("rest_")),
                rng.choice(CHANNEL_ROUTES),
                count=rng.randint(1, 3),
                retry_after=rng.uniform(0.05, 1.0),
            )
        elif kind == "slow":
            self.fake.slow_next(rng.uniform(3.1, 4.0), rng.choice(CHANNEL_ROUTES[:2]), count=2)
        elif kind == "gateway_drop":
            await self.fake.gateway.drop(4000)
        elif kind == "op7":
            await self.fake.gateway.send_reconnect()
        elif kind == "db_lock":
            seconds = rng.uniform(1.0, 4.0)
            if self.relay is not None and rng.random() < 0.5:
                # The server gone instead of a table locked: counted as both.
                self.counted["db_cut"] += 1
                await self.relay.cut(seconds)
            else:
                await lock_store(self.database_url, seconds)
        else:
            raise ValueError(f"not a fault to inject: {kind!r}")
