"""The default store: one SQLite file through aiosqlite, in WAL mode.

Durability: every accepted move is committed before the bot answers. By default the commit
is ``synchronous=NORMAL``, SQLite's recommended setting for WAL: a committed move survives
the bot crashing, being killed or restarted, and the file is never corrupted; only a power
cut or an operating-system crash can roll back the last moment's moves. It spares an fsync
per move (about a third of a move's cost end to end). ``?synchronous=full`` on the URL
fsyncs every commit for servers that must survive power loss too.

All statements go through one connection, so a lock keeps one coroutine's transaction from
interleaving with another's. Other processes on the same file wait on SQLite's own lock
(``busy_timeout``); the version checks still make a second writer fail instead of winning.

Where SQLite answers "busy" without waiting. SQLite calls its busy handler (waits out
``busy_timeout``) except where waiting could deadlock: a connection that already holds a
read lock and asks for a write lock gets ``SQLITE_BUSY`` at once if another connection
holds or is taking one. This store meets that case in one place: switching a new file to
WAL (``PRAGMA journal_mode = WAL``) reads the header, then needs the write lock to change
it, so connections opening one new file together refuse each other. :meth:`SQLiteStore.open`
therefore makes the whole opening (connect, switch, migrate; each safe to repeat) again on a
new connection, after a short randomised back-off, until ``busy_timeout`` has passed, then
fails with :class:`StoreUnavailable` (within about twice ``busy_timeout``: the last attempt
may itself wait that long for the lock). (Retrying on the refused connection itself was tried:
it turned 1 failure in 10 into many, the other openers then waiting out their whole
timeout.) Every other statement cannot meet it: each write is one autocommit statement or
starts with ``BEGIN IMMEDIATE`` (it takes the write lock before reading, so it waits),
reads never need a write lock in WAL mode, and the store runs no ``VACUUM`` and no explicit
checkpoint (SQLite's automatic ones are passive and never fail a commit). A lock held
longer than ``busy_timeout`` by another process is :class:`StoreUnavailable` too, naming
the file, never an endless wait.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import parse_qs

import aiosqlite

from bot.store import STORE_RETRY_WAIT_SECONDS, STORE_WAIT_SECONDS, StoreUnavailable
from bot.store._common import (
    LEADERBOARD_ORDER,
    check_finish,
    check_save,
    decode,
    expect_one,
    fold_stats,
    text_of,
)
from bot.store.base import (
    ActiveGame,
    GuildSettings,
    LeaderboardRow,
    MemberStats,
    SeatResult,
    VersionConflict,
)
from bot.store.migrations import migrations

__all__ = ["SQLiteStore"]

log = logging.getLogger(__name__)

BUSY_TIMEOUT_SECONDS = STORE_WAIT_SECONDS
_SYNCHRONOUS = ("normal", "full")
# A wait for the connection longer than this was a queue behind a lock, not a busy moment.
_QUEUED = 0.05
# Back-off between attempts to open a file other connections are opening too: short, since
# the one that won finishes in milliseconds, and randomised so the losers do not collide again.
_RETRY_FIRST = 0.002
_RETRY_MOST = 0.1


class SQLiteStore:
    """:class:`bot.store.base.GameStore` on a SQLite file."""

    def __init__(
        self,
        path: str | Path,
        *,
        synchronous: str = "normal",
        busy_timeout: float = BUSY_TIMEOUT_SECONDS,
    ) -> None:
        if synchronous not in _SYNCHRONOUS:
            raise StoreUnavailable(
                f"SQLite synchronous must be normal or full (got {synchronous!r})"
            )
        self.path = str(path)
        self.synchronous = synchronous
        self.busy_timeout = busy_timeout
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._refused_at = -float("inf")  # time.monotonic() of the last refusal

    @classmethod
    def from_url(cls, url: str) -> SQLiteStore:
        """``sqlite:///relative/file.db``, ``sqlite:////absolute/file.db`` or ``sqlite:///:memory:``,
        optionally with ``?synchronous=full``."""
        path, _, query = url.partition("://")[2].partition("?")
        path = path.removeprefix("/")
        if not path:
            raise StoreUnavailable("DATABASE_URL names no SQLite file (sqlite:///data/deckhand.db)")
        options = parse_qs(query, keep_blank_values=True)
        unknown = sorted(set(options) - {"synchronous"})
        if unknown:
            raise StoreUnavailable(
                f"DATABASE_URL: unknown SQLite option {unknown[0]!r} (known: synchronous)"
            )
        synchronous = options.get("synchronous", ["normal"])[-1].lower()
        return cls(path, synchronous=synchronous)

    async def open(self) -> None:
        """Create the file's directory, connect, switch to WAL and apply migrations.

        Several connections opening one new file at once are retried (module docstring);
        :class:`StoreUnavailable` once ``busy_timeout`` has passed or on any other error.
        """
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            await self._until_not_busy(self._connect)
        except (OSError, sqlite3.Error) as error:
            await self.close()
            raise StoreUnavailable(f"cannot use SQLite database {self.path}: {error}") from error

    async def _connect(self) -> None:
        """One attempt at opening: a new connection each time, so a refused attempt's
        connection (and any lock its statement kept) is gone before the next one."""
        await self.close()
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        await self._db.execute(f"PRAGMA busy_timeout = {round(self.busy_timeout * 1000)}")
        async with self._db.execute("PRAGMA journal_mode = WAL") as cursor:
            mode = await cursor.fetchone()
        if self.path != ":memory:" and (mode is None or str(mode[0]).lower() != "wal"):
            # Still safe (a rollback journal), but readers now wait for writers.
            log.warning("SQLite database %s cannot use WAL mode here (%s)", self.path, mode)
        await self._db.execute(f"PRAGMA synchronous = {self.synchronous.upper()}")
        await self._db.execute("PRAGMA foreign_keys = ON")
        await self._migrate()

    async def _until_not_busy(self, step: Callable[[], Awaitable[None]]) -> None:
        """Run ``step`` again while SQLite answers busy without waiting, until the timeout."""
        deadline = time.monotonic() + self.busy_timeout
        pause = _RETRY_FIRST
        while True:
            try:
                await step()
                return
            except sqlite3.OperationalError as error:
                if not _is_busy(error) or time.monotonic() + pause > deadline:
                    raise
            await self.close()  # the refused attempt's connection, before waiting
            await asyncio.sleep(random.uniform(pause / 2, pause))
            pause = min(pause * 2, _RETRY_MOST)

    async def close(self) -> None:
        """Close the connection (safe to call twice)."""
        if self._db is not None:
            db, self._db = self._db, None
            await db.close()

    async def _migrate(self) -> None:
        db = self._conn
        await db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))"
        )
        # The write lock is taken before looking, so a second process starting at the same
        # moment waits, then sees the steps as done. (executescript would commit early.)
        applied = []
        async with self._transaction():
            async with db.execute("SELECT version FROM schema_migrations") as cursor:
                done = {row[0] for row in await cursor.fetchall()}
            for step in migrations("sqlite"):
                if step.version in done:
                    continue
                for statement in _statements(step.sql):
                    await db.execute(statement)
                await db.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
                    (step.version, step.name),
                )
                applied.append(step.name)
        for name in applied:
            log.info("applied SQLite migration %s to %s", name, self.path)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``, all or nothing. SQLite may answer a COMMIT with
        busy, full or an I/O error and leave the transaction open; it is rolled back then
        too, or the next autocommit write would silently join it and be lost."""
        db = self._conn
        await db.execute("BEGIN IMMEDIATE")
        try:
            yield
            await db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                await db.execute("ROLLBACK")
            raise

    @asynccontextmanager
    async def _using(self) -> AsyncIterator[None]:
        """Hold the connection for one operation; a lock another process held past
        ``busy_timeout`` (or a file gone bad) becomes :class:`StoreUnavailable`.

        ``busy_timeout`` is the whole wait, the turn for the connection included: when the
        file is locked every operation queues behind the one waiting on it, and each then
        waiting ``busy_timeout`` of its own would answer members after Discord gave up (the
        soak saw a second save succeed 3.4 s late).
        """
        asked = time.monotonic()
        async with self._lock:
            waited = time.monotonic() - asked
            left = self.busy_timeout - waited
            if left <= 0:
                raise StoreUnavailable(
                    f"cannot use SQLite database {self.path}: busy for {waited:.1f} s"
                )
            if time.monotonic() - self._refused_at < self.busy_timeout:
                left = min(left, STORE_RETRY_WAIT_SECONDS)
            shortened = left < self.busy_timeout - _QUEUED and self._db is not None
            if shortened:
                await self._conn.execute(f"PRAGMA busy_timeout = {round(left * 1000)}")
            try:
                yield
            except sqlite3.IntegrityError:
                raise  # a broken rule of the schema: a bug, not the database out of reach
            except sqlite3.DatabaseError as error:  # locked, gone, full, not a database
                self._refused_at = time.monotonic()
                raise StoreUnavailable(
                    f"cannot use SQLite database {self.path}: {error}"
                ) from error
            finally:
                if shortened and self._db is not None:
                    await self._db.execute(
                        f"PRAGMA busy_timeout = {round(self.busy_timeout * 1000)}"
                    )

    @property
    def _conn(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("the SQLite store is not open")
        return self._db

    async def load_active(self) -> list[ActiveGame]:
        """Every stored session, by channel id."""
        async with (
            self._using(),
            self._conn.execute(
                "SELECT channel_id, guild_id, game, version, data FROM active_games"
                " ORDER BY channel_id"
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return [ActiveGame(row[0], row[1], row[2], row[3], decode(row[4]), row[4]) for row in rows]

    async def create(self, game: ActiveGame) -> None:
        """Store a new session; :class:`VersionConflict` if the channel has one."""
        data = text_of(game)
        async with self._using():
            try:
                await self._conn.execute(
                    "INSERT INTO active_games (channel_id, guild_id, game, version, data)"
                    " VALUES (?, ?, ?, ?, ?)",
                    (game.channel_id, game.guild_id, game.game, game.version, data),
                )
            except sqlite3.IntegrityError as error:
                raise VersionConflict(f"channel {game.channel_id} already has a game") from error

    async def save(self, game: ActiveGame, *, expected_version: int) -> None:
        """Replace the session stored at ``expected_version``."""
        check_save(game, expected_version)
        data = text_of(game)
        async with self._using():
            cursor = await self._conn.execute(
                "UPDATE active_games SET guild_id = ?, game = ?, version = ?, data = ?,"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                " WHERE channel_id = ? AND version = ?",
                (game.guild_id, game.game, game.version, data, game.channel_id, expected_version),
            )
            expect_one(cursor.rowcount, game.channel_id, expected_version)

    async def delete(self, channel_id: int, *, expected_version: int) -> None:
        """Drop the session stored at ``expected_version``."""
        async with self._using():
            cursor = await self._conn.execute(
                "DELETE FROM active_games WHERE channel_id = ? AND version = ?",
                (channel_id, expected_version),
            )
            expect_one(cursor.rowcount, channel_id, expected_version)

    async def finish(
        self,
        channel_id: int,
        *,
        expected_version: int,
        game: str,
        guild_id: int | None,
        seats: Sequence[SeatResult],
        ended_by: int | None = None,
        seeded: bool = False,
    ) -> None:
        """Drop the session and record its result in one transaction."""
        check_finish(seats)
        db = self._conn
        async with self._using(), self._transaction():
            cursor = await db.execute(
                "DELETE FROM active_games WHERE channel_id = ? AND version = ?",
                (channel_id, expected_version),
            )
            expect_one(cursor.rowcount, channel_id, expected_version)
            cursor = await db.execute(
                "INSERT INTO finished_games (channel_id, guild_id, game, ended_by, seeded)"
                " VALUES (?, ?, ?, ?, ?)",
                (channel_id, guild_id, game, ended_by, int(seeded)),
            )
            finished_id = cursor.lastrowid
            await db.executemany(
                "INSERT INTO seat_results"
                " (finished_id, seat, member_id, outcome, score, rank)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(finished_id, s.seat, s.member_id, s.outcome, s.score, s.rank) for s in seats],
            )

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults."""
        async with (
            self._using(),
            self._conn.execute(
                "SELECT turn_seconds, language, moderator_role_id, allowed_games, seeding"
                " FROM guild_settings WHERE guild_id = ?",
                (guild_id,),
            ) as cursor,
        ):
            row = await cursor.fetchone()
        if row is None:
            return GuildSettings(guild_id=guild_id)
        allowed = None if row[3] is None else tuple(json.loads(row[3]))
        return GuildSettings(guild_id, row[0], row[1], row[2], allowed, row[4])

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """Insert or replace the guild's settings."""
        allowed = None if settings.allowed_games is None else json.dumps(settings.allowed_games)
        async with self._using():
            await self._conn.execute(
                "INSERT INTO guild_settings"
                " (guild_id, turn_seconds, language, moderator_role_id, allowed_games, seeding)"
                " VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET turn_seconds = excluded.turn_seconds,"
                " language = excluded.language,"
                " moderator_role_id = excluded.moderator_role_id,"
                " allowed_games = excluded.allowed_games, seeding = excluded.seeding",
                (
                    settings.guild_id,
                    settings.turn_seconds,
                    settings.language,
                    settings.moderator_role_id,
                    allowed,
                    settings.seeding,
                ),
            )

    async def member_stats(self, guild_id: int, member_id: int) -> MemberStats:
        """Played/won/lost/drawn and points per game for one member in one guild."""
        async with (
            self._using(),
            self._conn.execute(
                "SELECT f.game, s.outcome, count(*), sum(s.score), f.seeded FROM seat_results s"
                " JOIN finished_games f ON f.id = s.finished_id"
                " WHERE f.guild_id = ? AND s.member_id = ?"
                " GROUP BY f.game, s.outcome, f.seeded",
                (guild_id, member_id),
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return fold_stats(
            member_id, ((row[0], row[1], row[2], row[3], bool(row[4])) for row in rows)
        )

    async def leaderboard(
        self, guild_id: int, game: str | None = None, *, limit: int = 10, by_points: bool = False
    ) -> list[LeaderboardRow]:
        """Most wins first (``by_points``: most points); ties by fewer games played, then by
        member id."""
        async with (
            self._using(),
            self._conn.execute(
                "SELECT s.member_id AS member_id, sum(s.outcome = 'win') AS wins,"
                " count(*) AS played, sum(s.score) AS points"
                " FROM seat_results s JOIN finished_games f ON f.id = s.finished_id"
                " WHERE f.guild_id = ? AND (? IS NULL OR f.game = ?)"
                " AND s.member_id IS NOT NULL AND NOT f.seeded"
                f" GROUP BY s.member_id ORDER BY {LEADERBOARD_ORDER[by_points]} LIMIT ?",
                (guild_id, game, game, limit),
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return [LeaderboardRow(row[0], row[1], row[2], row[3]) for row in rows]


def _statements(script: str) -> list[str]:
    """A migration file split into whole statements (SQLite decides where one ends)."""
    statements, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip() and not all(
        part.strip().startswith("--") or not part.strip() for part in pending.splitlines()
    ):
        raise RuntimeError(f"migration ends inside a statement: {pending.strip()[:60]!r}")
    return statements


def _is_busy(error: sqlite3.OperationalError) -> bool:
    """``SQLITE_BUSY`` and its extended codes (the low byte of the code)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF == sqlite3.SQLITE_BUSY
