"""The default store: one SQLite file (the standard library's ``sqlite3``), in WAL mode.

Durability: every accepted move is committed before the bot answers. By default the commit
is ``synchronous=NORMAL``, SQLite's recommended setting for WAL: a committed move survives
the bot crashing, being killed or restarted, and the file is never corrupted; only a power
cut or an operating-system crash can roll back the last moment's moves. It spares an fsync
per move (about a third of a move's cost end to end). ``?synchronous=full`` on the URL
fsyncs every commit for servers that must survive power loss too.

All statements go through one connection, so a lock keeps one coroutine's operation from
interleaving with another's. Other processes on the same file wait on SQLite's own lock
(``busy_timeout``); the version checks still make a second writer fail instead of winning.

Where the statements run. Each operation (a save, a finish with its result rows, a read) is
one function of the connection, run whole, committed before it returns. With the shipped
``synchronous=NORMAL`` it first runs on the event loop's own thread with no busy wait: a
commit there writes to the WAL without an fsync, tens of microseconds, far less than
handing it to a thread and back (a thread hop per statement was most of a move's cost with
aiosqlite). Only if SQLite answers busy (another process holds the lock; nothing was
written, a transaction is rolled back whole) does the operation run again on the store's one
worker thread, waiting there for the lock as below, so the loop never waits on another
process. ``synchronous=full`` fsyncs every commit, so its operations always run on the
worker thread.

Checkpoints. SQLite's automatic checkpoint runs inside the commit that crosses its mark and
fsyncs the file: on the loop that held every channel up for milliseconds (up to 20 ms seen).
So with operations on the loop the connection makes none; every :data:`_CHECKPOINT_EVERY`
operations a second connection on a thread of its own makes a passive one (it never takes
the write lock nor waits for it, so it blocks no commit and no commit waits for it).

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
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar
from urllib.parse import parse_qs

from bot.store import STORE_RETRY_WAIT_SECONDS, STORE_WAIT_SECONDS, StoreUnavailable
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
# Operations between two checkpoints: a move writes a few pages, so the WAL stays within
# about SQLite's own mark (1000 pages).
_CHECKPOINT_EVERY = 200

T = TypeVar("T")


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
        self._db: sqlite3.Connection | None = None
        self._lock = asyncio.Lock()
        self._refused_at = -float("inf")  # time.monotonic() of the last refusal
        self._settings = SettingsCache()
        # A commit that fsyncs would hold up every channel: those stay off the loop.
        self._inline = synchronous == "normal"
        self._worker: ThreadPoolExecutor | None = None
        self._checkpoints: ThreadPoolExecutor | None = None
        self._checkpointer: sqlite3.Connection | None = None
        self._checkpointing: asyncio.Future[None] | None = None
        self._since_checkpoint = 0
        # The last checkpoint's (frames in the WAL, frames copied into the file). A passive
        # one stops at a frame a reader or writer still uses; the file is whole only with the
        # WAL beside it, which SQLite always reads.
        self.last_checkpoint: tuple[int, int] | None = None

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
            await self._until_not_busy(lambda: self._in_thread(self._connect))
        except (OSError, sqlite3.Error) as error:
            await self.close()
            raise StoreUnavailable(f"cannot use SQLite database {self.path}: {error}") from error

    def _connect(self) -> None:
        """One attempt at opening (on the worker thread): a new connection each time, so a
        refused attempt's connection (and any lock its statement kept) is gone before the
        next one."""
        self._disconnect()
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db = db
        db.execute(f"PRAGMA busy_timeout = {round(self.busy_timeout * 1000)}")
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()
        if self.path != ":memory:" and (mode is None or str(mode[0]).lower() != "wal"):
            # Still safe (a rollback journal), but readers now wait for writers.
            log.warning("SQLite database %s cannot use WAL mode here (%s)", self.path, mode)
        db.execute(f"PRAGMA synchronous = {self.synchronous.upper()}")
        db.execute("PRAGMA foreign_keys = ON")
        self._migrate(db)
        if self._inline:
            # On the loop a busy file must answer at once; the worker thread waits instead.
            db.execute("PRAGMA busy_timeout = 0")
            db.execute("PRAGMA wal_autocheckpoint = 0")  # made off the loop (module docstring)

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
            await self._in_thread(self._disconnect)  # the refused attempt's, before waiting
            await asyncio.sleep(random.uniform(pause / 2, pause))
            pause = min(pause * 2, _RETRY_MOST)

    def _disconnect(self) -> None:
        if self._db is not None:
            db, self._db = self._db, None
            db.close()

    async def close(self) -> None:
        """Close the connection (safe to call twice)."""
        if self._checkpointing is not None:
            await asyncio.wait([self._checkpointing])
            self._checkpointing = None
        if self._checkpointer is not None:  # before the last connection, which checkpoints
            checkpointer, self._checkpointer = self._checkpointer, None
            checkpointer.close()
        if self._checkpoints is not None:
            checkpoints, self._checkpoints = self._checkpoints, None
            checkpoints.shutdown(wait=False)
        if self._db is not None:
            await self._in_thread(self._disconnect)  # closing may checkpoint the WAL
        if self._worker is not None:
            worker, self._worker = self._worker, None
            worker.shutdown(wait=False)

    def _migrate(self, db: sqlite3.Connection) -> None:
        db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
            " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))"
        )

        # The write lock is taken before looking, so a second process starting at the same
        # moment waits, then sees the steps as done. (executescript would commit early.)
        def steps(db: sqlite3.Connection) -> list[str]:
            done = {row[0] for row in db.execute("SELECT version FROM schema_migrations")}
            applied = []
            for step in migrations("sqlite"):
                if step.version in done:
                    continue
                for statement in _statements(step.sql):
                    db.execute(statement)
                db.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (?, ?)",
                    (step.version, step.name),
                )
                applied.append(step.name)
            return applied

        for name in _transaction(db, steps):
            log.info("applied SQLite migration %s to %s", name, self.path)

    async def _in_thread(self, work: Callable[[], T]) -> T:
        """``work()`` on the store's worker thread. If the caller is cancelled meanwhile, the
        wait goes on until ``work`` is done: the connection must not be used by two threads."""
        if self._worker is None:
            self._worker = ThreadPoolExecutor(1, thread_name_prefix="deckhand-sqlite")
        done = asyncio.get_running_loop().run_in_executor(self._worker, work)
        try:
            return await asyncio.shield(done)
        except asyncio.CancelledError:
            await asyncio.wait([done])
            raise

    def _checkpoint_now_and_then(self) -> None:
        """Every :data:`_CHECKPOINT_EVERY` operations on the loop, a passive checkpoint on
        the checkpoint thread (one at a time)."""
        self._since_checkpoint += 1
        if self._since_checkpoint < _CHECKPOINT_EVERY or self.path == ":memory:":
            return
        if self._checkpointing is not None and not self._checkpointing.done():
            return
        self._since_checkpoint = 0
        if self._checkpoints is None:
            self._checkpoints = ThreadPoolExecutor(1, thread_name_prefix="deckhand-checkpoint")
        loop = asyncio.get_running_loop()
        self._checkpointing = loop.run_in_executor(self._checkpoints, self._checkpoint)

    def _checkpoint(self) -> None:
        """A passive checkpoint from the checkpoint thread's own connection; a failure only
        leaves the WAL longer until the next one."""
        try:
            if self._checkpointer is None:
                self._checkpointer = sqlite3.connect(
                    self.path, isolation_level=None, check_same_thread=False
                )
            _, in_wal, copied = self._checkpointer.execute(
                "PRAGMA wal_checkpoint(PASSIVE)"
            ).fetchone()
            self.last_checkpoint = (in_wal, copied)
        except sqlite3.Error as error:
            log.warning("SQLite database %s: checkpoint failed: %s", self.path, error)

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run one operation on the connection (module docstring: on the loop, or on the
        worker thread when it must wait); a lock another process held past ``busy_timeout``
        (or a file gone bad) becomes :class:`StoreUnavailable`.

        ``busy_timeout`` is the whole wait, the turn for the connection included: when the
        file is locked every operation queues behind the one waiting on it, and each then
        waiting ``busy_timeout`` of its own would answer members after Discord gave up (the
        soak saw a second save succeed 3.4 s late).
        """
        asked = time.monotonic()
        recently_refused = asked - self._refused_at < self.busy_timeout
        # The turn for the connection is bounded too: behind a locked file every operation
        # queues, and one interaction may make two (a read, then its save). Once the file
        # was refused, a queued operation waits its turn only briefly: the soak saw a burst
        # of operations, each given its own short wait in turn, answer members 3.1-3.4 s late.
        patience = STORE_RETRY_WAIT_SECONDS if recently_refused else self.busy_timeout
        try:
            async with asyncio.timeout(patience):
                await self._lock.acquire()
        except TimeoutError:
            raise StoreUnavailable(
                f"cannot use SQLite database {self.path}: busy for {patience:.2f} s"
            ) from None
        try:
            db = self._conn
            waited = time.monotonic() - asked
            left = self.busy_timeout - waited
            if left <= 0:
                raise StoreUnavailable(
                    f"cannot use SQLite database {self.path}: busy for {waited:.1f} s"
                )
            if recently_refused or time.monotonic() - self._refused_at < self.busy_timeout:
                left = min(left, STORE_RETRY_WAIT_SECONDS)
            try:
                if self._inline:
                    self._checkpoint_now_and_then()
                    try:
                        return work(db)
                    except sqlite3.OperationalError as error:
                        if not _is_busy(error):
                            raise
                return await self._in_thread(lambda: _waiting(db, left, self._inline, work))
            except sqlite3.IntegrityError:
                raise  # a broken rule of the schema: a bug, not the database out of reach
            except sqlite3.DatabaseError as error:  # locked, gone, full, not a database
                self._refused_at = time.monotonic()
                raise StoreUnavailable(
                    f"cannot use SQLite database {self.path}: {error}"
                ) from error
        finally:
            self._lock.release()

    @property
    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("the SQLite store is not open")
        return self._db

    async def load_active(self) -> list[ActiveGame]:
        """Every stored session, by channel id."""
        rows = await self._run(
            lambda db: db.execute(
                "SELECT channel_id, guild_id, game, version, data FROM active_games"
                " ORDER BY channel_id"
            ).fetchall()
        )
        return [ActiveGame(row[0], row[1], row[2], row[3], decode(row[4]), row[4]) for row in rows]

    async def create(self, game: ActiveGame) -> None:
        """Store a new session; :class:`VersionConflict` if the channel has one."""
        data = text_of(game)

        def insert(db: sqlite3.Connection) -> None:
            try:
                _insert_active(db, game, data)
            except sqlite3.IntegrityError as error:
                raise VersionConflict(f"channel {game.channel_id} already has a game") from error

        await self._run(insert)

    async def save(self, game: ActiveGame, *, expected_version: int) -> None:
        """Replace the session stored at ``expected_version``."""
        check_save(game, expected_version)
        data = text_of(game)

        def update(db: sqlite3.Connection) -> None:
            cursor = db.execute(
                "UPDATE active_games SET guild_id = ?, game = ?, version = ?, data = ?,"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                " WHERE channel_id = ? AND version = ?",
                (game.guild_id, game.game, game.version, data, game.channel_id, expected_version),
            )
            expect_one(cursor.rowcount, game.channel_id, expected_version)

        await self._run(update)

    async def delete(self, channel_id: int, *, expected_version: int) -> None:
        """Drop the session stored at ``expected_version``."""
        await self._run(lambda db: _delete_active(db, channel_id, expected_version))

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

        def record(db: sqlite3.Connection) -> None:
            if expected_version is None:
                held = db.execute(
                    "SELECT 1 FROM active_games WHERE channel_id = ?", (channel_id,)
                ).fetchone()
                if held is not None:
                    raise VersionConflict(f"channel {channel_id} already has a game")
            else:
                _delete_active(db, channel_id, expected_version)
            cursor = db.execute(
                "INSERT INTO finished_games (channel_id, guild_id, game, ended_by, seeded)"
                " VALUES (?, ?, ?, ?, ?)",
                (channel_id, guild_id, game, ended_by, int(seeded)),
            )
            finished_id = cursor.lastrowid
            db.executemany(
                "INSERT INTO seat_results"
                " (finished_id, seat, member_id, outcome, score, rank)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                [(finished_id, s.seat, s.member_id, s.outcome, s.score, s.rank) for s in seats],
            )
            if keep is not None and kept is not None:
                _insert_active(db, keep, kept)

        await self._run(lambda db: _transaction(db, record))

    async def game_results(self, guild_id: int, game: str) -> list[GameRecord]:
        """Every counted result of ``game`` in the guild, oldest first."""
        rows = await self._run(
            lambda db: db.execute(
                "SELECT f.id, s.seat, s.member_id, s.outcome, s.score, s.rank"
                " FROM finished_games f JOIN seat_results s ON s.finished_id = f.id"
                " WHERE f.guild_id = ? AND f.game = ? AND NOT f.seeded ORDER BY f.id, s.seat",
                (guild_id, game),
            ).fetchall()
        )
        return group_results(game, rows)

    async def set_aside(self, channel_id: int, *, expected_version: int, reason: str) -> None:
        """Move the session stored at ``expected_version`` into ``set_aside_games``."""

        def move(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO set_aside_games (channel_id, guild_id, game, version, data, reason)"
                " SELECT channel_id, guild_id, game, version, data, ? FROM active_games"
                " WHERE channel_id = ? AND version = ?",
                (reason, channel_id, expected_version),
            )
            _delete_active(db, channel_id, expected_version)

        await self._run(lambda db: _transaction(db, move))

    async def set_aside_games(self) -> list[SetAside]:
        """Every record set aside, oldest first."""
        rows = await self._run(
            lambda db: db.execute(
                "SELECT channel_id, guild_id, game, version, data, reason FROM set_aside_games"
                " ORDER BY id"
            ).fetchall()
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
        row = await self._run(lambda db: db.execute(settings_select("?"), (guild_id,)).fetchone())
        allowed = None if row is None or row[3] is None else json.loads(row[3])
        return settings_from_row(guild_id, row, allowed)

    async def _write_guild_settings(self, settings: GuildSettings) -> None:
        allowed = None if settings.allowed_games is None else json.dumps(settings.allowed_games)
        values = settings_row(settings, allowed)
        await self._run(lambda db: db.execute(settings_upsert(["?"] * len(values)), values))

    async def member_stats(self, guild_id: int, member_id: int) -> MemberStats:
        """Played/won/lost/drawn and points per game for one member in one guild."""
        rows = await self._run(
            lambda db: db.execute(
                "SELECT f.game, s.outcome, count(*), sum(s.score), f.seeded FROM seat_results s"
                " JOIN finished_games f ON f.id = s.finished_id"
                " WHERE f.guild_id = ? AND s.member_id = ?"
                " GROUP BY f.game, s.outcome, f.seeded",
                (guild_id, member_id),
            ).fetchall()
        )
        return fold_stats(
            member_id, ((row[0], row[1], row[2], row[3], bool(row[4])) for row in rows)
        )


def _transaction(db: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """``BEGIN IMMEDIATE`` … ``COMMIT``, all or nothing. SQLite may answer a COMMIT with
    busy, full or an I/O error and leave the transaction open; it is rolled back then
    too, or the next autocommit write would silently join it and be lost."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = work(db)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return result


def _waiting(
    db: sqlite3.Connection, seconds: float, inline: bool, work: Callable[[sqlite3.Connection], T]
) -> T:
    """``work`` on the worker thread, SQLite waiting up to ``seconds`` for another process's
    lock; back on the loop afterwards, the connection answers busy at once again."""
    db.execute(f"PRAGMA busy_timeout = {round(seconds * 1000)}")
    try:
        return work(db)
    finally:
        if inline:
            db.execute("PRAGMA busy_timeout = 0")


def _insert_active(db: sqlite3.Connection, game: ActiveGame, data: str) -> None:
    db.execute(
        "INSERT INTO active_games (channel_id, guild_id, game, version, data)"
        " VALUES (?, ?, ?, ?, ?)",
        (game.channel_id, game.guild_id, game.game, game.version, data),
    )


def _delete_active(db: sqlite3.Connection, channel_id: int, expected_version: int) -> None:
    cursor = db.execute(
        "DELETE FROM active_games WHERE channel_id = ? AND version = ?",
        (channel_id, expected_version),
    )
    expect_one(cursor.rowcount, channel_id, expected_version)


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
