"""The scale-out store: PostgreSQL through an asyncpg pool.

Several bot processes (one per group of shards) may share one database. Migrations take an
advisory lock so two processes starting together apply each step once; every write of a
game names the version it replaces, so a second writer of one channel fails loudly.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit

import asyncpg  # type: ignore[import-untyped]

from bot.store import (
    STORE_RETRY_WAIT_SECONDS,
    STORE_WAIT_SECONDS,
    StoreUnavailable,
    StoreUncertain,
)
from bot.store._common import (
    SettingsCache,
    check_finish,
    check_save,
    decode,
    expect_one,
    fold_stats,
    group_results,
    settings_from_row,
    settings_row,
    settings_select,
    settings_upsert,
    text_of,
)
from bot.store.base import (
    ActiveGame,
    GameRecord,
    GuildSettings,
    MemberStats,
    SeatResult,
    SetAside,
    VersionConflict,
)
from bot.store.migrations import migrations

__all__ = ["PostgresStore"]

log = logging.getLogger(__name__)

# pg_advisory_xact_lock key for migrations: any constant shared by every Deckhand process.
_MIGRATION_LOCK = 0x0DEC_4A4D
_CONNECT_TIMEOUT = 10.0
_RESTORE_TIMEOUT = 120.0  # reading every stored table at start
# What a statement meets when the server is down, restarting or cut off from us.
_UNREACHABLE = (
    OSError,
    TimeoutError,
    asyncpg.InterfaceError,  # includes a connection closed under us
    asyncpg.PostgresConnectionError,
    asyncpg.OperatorInterventionError,  # the server shutting down or starting up
    # A statement started on a connection the server had just closed (seen in 1 of 3 runs
    # of the test that cuts the connections): asyncpg drops that connection too.
    asyncpg.InternalClientError,
    # The server's own limits below: it gave the statement up, so nothing of it was written.
    asyncpg.LockNotAvailableError,
    asyncpg.QueryCanceledError,
)
# The server gave the statement up: nothing of it was written. Any other failure after a write
# was sent leaves its outcome open (StoreUncertain): the connection may have dropped on the
# way back, after the server committed.
_GAVE_UP = (asyncpg.LockNotAvailableError, asyncpg.QueryCanceledError)
# The server gives a statement up before we stop waiting for it (STORE_WAIT_SECONDS, or
# STORE_RETRY_WAIT_SECONDS right after a refusal). Ours alone would leave the outcome open:
# our cancel request races the statement, and a write waiting on a lock released just then
# still commits after the member was told nothing changed (the soak saw it twice in 12 min).
# Only a lock held that long (an outage; our own writes to one channel never overlap) or a
# stalled server hits these.
_SERVER_LIMITS = {
    "lock_timeout": f"{round(STORE_RETRY_WAIT_SECONDS * 800)}ms",
    "statement_timeout": f"{round(STORE_WAIT_SECONDS * 750)}ms",
}


async def _nothing_to_reset(conn: asyncpg.Connection) -> None:
    """What the pool runs on a connection given back, beyond rolling back a transaction
    left open (which it always does): nothing.

    asyncpg's default sends a reset query (advisory unlocks, ``CLOSE ALL``, ``UNLISTEN *``,
    ``RESET ALL``) on every release: a round trip per operation, a third of a move's. This
    store leaves no session state behind: its ``SET LOCAL`` and ``pg_advisory_xact_lock``
    end with their transaction, and it opens no cursor and listens to nothing
    (``tests/bot/store/test_postgres.py`` holds it to that).
    """


class PostgresStore:
    """:class:`bot.store.base.GameStore` on PostgreSQL."""

    def __init__(self, dsn: str, *, min_size: int = 1, max_size: int = 10) -> None:
        self._dsn = dsn
        self._sizes = (min_size, max_size)
        self._pool: asyncpg.Pool | None = None
        self._refused_at = -float("inf")  # time.monotonic() of the last refusal
        self._settings = SettingsCache()

    @classmethod
    def from_url(cls, url: str) -> PostgresStore:
        """``postgresql://user:password@host:port/database`` (``postgres://`` too)."""
        return cls(url)

    @property
    def where(self) -> str:
        """``host:port/database`` without credentials, for messages and logs."""
        try:
            parts = urlsplit(self._dsn)
            return f"{parts.hostname or 'localhost'}:{parts.port or 5432}{parts.path}"
        except ValueError:
            return "(unparsable DATABASE_URL)"

    async def open(self) -> None:
        """Connect the pool and apply pending migrations."""
        min_size, max_size = self._sizes
        try:
            self._pool = await asyncpg.create_pool(
                self._dsn,
                min_size=min_size,
                max_size=max_size,
                timeout=_CONNECT_TIMEOUT,
                # A statement waiting on a lock or a silent server gives up (TimeoutError,
                # so StoreUnavailable) while the member can still be answered.
                command_timeout=STORE_WAIT_SECONDS,
                server_settings=_SERVER_LIMITS,
                reset=_nothing_to_reset,
            )
            await self._migrate()
        except (
            OSError,
            TimeoutError,
            ValueError,
            asyncpg.PostgresError,
            asyncpg.InterfaceError,
        ) as error:
            await self.close()
            raise StoreUnavailable(f"cannot use PostgreSQL at {self.where}: {error}") from error

    async def close(self) -> None:
        """Close the pool (safe to call twice)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

    @property
    def _p(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("the PostgreSQL store is not open")
        return self._pool

    @asynccontextmanager
    async def _using(self, *, writes: bool = False) -> AsyncIterator[Any]:
        """A pooled connection for one operation; the server gone, restarting or unreachable
        becomes :class:`StoreUnavailable` (the pool reconnects by itself once it is back),
        or :class:`StoreUncertain` when ``writes`` and the failure came after the operation
        was sent (the server may have committed it, and only its answer was lost).

        Only the wait for a connection is ours to cut short: right after a refusal it gets
        STORE_RETRY_WAIT_SECONDS, so a click queued behind a refused one is answered in time.
        A statement already sent is limited by the server (``_SERVER_LIMITS``): cancelling it
        from here would race its commit, and a member told "nothing changed" could find the
        move made after all.
        """
        recently = time.monotonic() - self._refused_at < STORE_WAIT_SECONDS
        try:
            async with asyncio.timeout(STORE_RETRY_WAIT_SECONDS if recently else None):
                conn = await self._p.acquire()
        except _UNREACHABLE as error:
            raise self._refused(error) from error
        try:
            yield conn
        except _UNREACHABLE as error:
            refused = self._refused(error)
            if writes and not isinstance(error, _GAVE_UP):
                raise StoreUncertain(str(refused)) from error
            raise refused from error
        finally:
            try:
                await self._p.release(conn)
            except _UNREACHABLE as error:
                # The operation's outcome is already settled (done, or refused above): a
                # connection that cannot be reset is dropped and the pool opens a new one.
                log.warning("dropped a PostgreSQL connection to %s: %s", self.where, error)

    def _refused(self, error: BaseException) -> StoreUnavailable:
        self._refused_at = time.monotonic()
        return StoreUnavailable(f"cannot use PostgreSQL at {self.where}: {error}")

    async def _migrate(self) -> None:
        async with self._p.acquire() as conn, conn.transaction():
            # Another process may be migrating: wait for it as long as for a connection (a
            # migration may take its time too: not the limits of a move's statements).
            await conn.execute("SET LOCAL lock_timeout = 0; SET LOCAL statement_timeout = 0")
            await conn.execute(
                "SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK, timeout=_CONNECT_TIMEOUT
            )
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            done = {row[0] for row in await conn.fetch("SELECT version FROM schema_migrations")}
            for step in migrations("postgres"):
                if step.version in done:
                    continue
                async with conn.transaction():  # a savepoint: one step, whole or not at all
                    await conn.execute(step.sql)
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                        step.version,
                        step.name,
                    )
                log.info("applied PostgreSQL migration %s at %s", step.name, self.where)

    async def load_active(self) -> list[ActiveGame]:
        """Every stored session, by channel id."""
        async with self._using() as conn, conn.transaction():
            # A restore reads every table at once: not a move's statement, nor its limits.
            await conn.execute("SET LOCAL statement_timeout = 0")
            rows = await conn.fetch(
                "SELECT channel_id, guild_id, game, version, data::text FROM active_games"
                " ORDER BY channel_id",
                timeout=_RESTORE_TIMEOUT,
            )
            return [
                ActiveGame(row[0], row[1], row[2], row[3], decode(row[4]), row[4]) for row in rows
            ]

    async def create(self, game: ActiveGame) -> None:
        """Store a new session; :class:`VersionConflict` if the channel has one."""
        async with self._using(writes=True) as conn:
            await _insert_active(conn, game, text_of(game))

    async def save(self, game: ActiveGame, *, expected_version: int) -> None:
        """Replace the session stored at ``expected_version``."""
        check_save(game, expected_version)
        async with self._using(writes=True) as conn:
            status = await conn.execute(
                "UPDATE active_games SET guild_id = $1, game = $2, version = $3, data = $4::jsonb,"
                " updated_at = now() WHERE channel_id = $5 AND version = $6",
                game.guild_id,
                game.game,
                game.version,
                text_of(game),
                game.channel_id,
                expected_version,
            )
            expect_one(_count(status), game.channel_id, expected_version)

    async def delete(self, channel_id: int, *, expected_version: int) -> None:
        """Drop the session stored at ``expected_version``."""
        async with self._using(writes=True) as conn:
            status = await conn.execute(
                "DELETE FROM active_games WHERE channel_id = $1 AND version = $2",
                channel_id,
                expected_version,
            )
            expect_one(_count(status), channel_id, expected_version)

    async def finish(
        self,
        channel_id: int,
        *,
        expected_version: int | None,
        game: str,
        guild_id: int | None,
        seats: Sequence[SeatResult],
        ended_by: int | None = None,
        seeded: bool = False,
        keep: ActiveGame | None = None,
    ) -> None:
        """Drop the session, record its result and store ``keep``, in one transaction."""
        check_finish(seats)
        kept = None if keep is None else text_of(keep)
        async with self._using(writes=True) as conn, conn.transaction():
            if expected_version is None:
                held = await conn.fetchval(
                    "SELECT 1 FROM active_games WHERE channel_id = $1", channel_id
                )
                if held is not None:
                    raise VersionConflict(f"channel {channel_id} already has a game")
            else:
                status = await conn.execute(
                    "DELETE FROM active_games WHERE channel_id = $1 AND version = $2",
                    channel_id,
                    expected_version,
                )
                expect_one(_count(status), channel_id, expected_version)
            finished_id = await conn.fetchval(
                "INSERT INTO finished_games (channel_id, guild_id, game, ended_by, seeded)"
                " VALUES ($1, $2, $3, $4, $5) RETURNING id",
                channel_id,
                guild_id,
                game,
                ended_by,
                seeded,
            )
            await conn.executemany(
                "INSERT INTO seat_results (finished_id, seat, member_id, outcome, score, rank)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                [(finished_id, s.seat, s.member_id, s.outcome, s.score, s.rank) for s in seats],
            )
            if keep is not None and kept is not None:
                await _insert_active(conn, keep, kept)

    async def game_results(self, guild_id: int, game: str) -> list[GameRecord]:
        """Every counted result of ``game`` in the guild, oldest first."""
        async with self._using() as conn:
            rows = await conn.fetch(
                "SELECT f.id, s.seat, s.member_id, s.outcome, s.score, s.rank"
                " FROM finished_games f JOIN seat_results s ON s.finished_id = f.id"
                " WHERE f.guild_id = $1 AND f.game = $2 AND NOT f.seeded ORDER BY f.id, s.seat",
                guild_id,
                game,
            )
        return group_results(game, [tuple(row) for row in rows])

    async def set_aside(self, channel_id: int, *, expected_version: int, reason: str) -> None:
        """Move the session stored at ``expected_version`` into ``set_aside_games``."""
        async with self._using(writes=True) as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO set_aside_games (channel_id, guild_id, game, version, data, reason)"
                " SELECT channel_id, guild_id, game, version, data, $3 FROM active_games"
                " WHERE channel_id = $1 AND version = $2",
                channel_id,
                expected_version,
                reason,
            )
            status = await conn.execute(
                "DELETE FROM active_games WHERE channel_id = $1 AND version = $2",
                channel_id,
                expected_version,
            )
            expect_one(_count(status), channel_id, expected_version)

    async def set_aside_games(self) -> list[SetAside]:
        """Every record set aside, oldest first."""
        async with self._using() as conn:
            rows = await conn.fetch(
                "SELECT channel_id, guild_id, game, version, data::text, reason"
                " FROM set_aside_games ORDER BY id"
            )
        return [
            SetAside(ActiveGame(row[0], row[1], row[2], row[3], decode(row[4]), row[4]), row[5])
            for row in rows
        ]

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults (kept a while: :class:`SettingsCache`)."""
        return await self._settings.get(guild_id, self._read_guild_settings)

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """Insert or replace the guild's settings."""
        await self._settings.save(settings, self._write_guild_settings)

    async def _read_guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._using() as conn:
            row = await conn.fetchrow(settings_select("$1"), guild_id)
        return settings_from_row(guild_id, row, None if row is None else row[3])

    async def _write_guild_settings(self, settings: GuildSettings) -> None:
        allowed = None if settings.allowed_games is None else list(settings.allowed_games)
        values = settings_row(settings, allowed)
        marks = [f"${number}" for number in range(1, len(values) + 1)]
        async with self._using() as conn:
            await conn.execute(settings_upsert(marks), *values)

    async def member_stats(self, guild_id: int, member_id: int) -> MemberStats:
        """Played/won/lost/drawn and points per game for one member in one guild."""
        async with self._using() as conn:
            rows = await conn.fetch(
                "SELECT f.game, s.outcome, count(*), sum(s.score), f.seeded FROM seat_results s"
                " JOIN finished_games f ON f.id = s.finished_id"
                " WHERE f.guild_id = $1 AND s.member_id = $2"
                " GROUP BY f.game, s.outcome, f.seeded",
                guild_id,
                member_id,
            )
            return fold_stats(member_id, ((row[0], row[1], row[2], row[3], row[4]) for row in rows))


async def _insert_active(conn: Any, game: ActiveGame, data: str) -> None:
    """Insert a session (on the pool or in a transaction's connection); :class:`VersionConflict`
    if the channel has one."""
    status = await conn.execute(
        "INSERT INTO active_games (channel_id, guild_id, game, version, data)"
        " VALUES ($1, $2, $3, $4, $5::jsonb) ON CONFLICT (channel_id) DO NOTHING",
        game.channel_id,
        game.guild_id,
        game.game,
        game.version,
        data,
    )
    if _count(status) != 1:
        raise VersionConflict(f"channel {game.channel_id} already has a game")


def _count(status: str) -> int:
    """The row count at the end of a command tag such as ``UPDATE 1`` or ``INSERT 0 1``."""
    return int(status.rsplit(" ", 1)[-1])
