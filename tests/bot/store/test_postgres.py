"""PostgreSQL specifics; the shared contract runs in test_contract.py."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import time
import uuid
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot.store import (
    STORE_RETRY_WAIT_SECONDS,
    STORE_WAIT_SECONDS,
    StoreUnavailable,
    StoreUncertain,
    open_store,
)
from bot.store import _common as common_module
from bot.store import postgres as postgres_module
from bot.store.base import ActiveGame
from bot.store.migrations import migrations
from bot.store.postgres import PostgresStore
from soak.faults import Relay


@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
def test_both_schemes_choose_postgres(scheme: str) -> None:
    store = open_store(f"{scheme}://deckhand:pw@db.example:6543/games")
    assert isinstance(store, PostgresStore)
    assert store.where == "db.example:6543/games"


async def test_an_unreachable_server_is_one_clear_error_without_the_password() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    store = open_store(f"postgresql://deckhand:hunter2@127.0.0.1:{port}/games")
    with pytest.raises(StoreUnavailable) as refused:
        await store.open()
    message = str(refused.value)
    assert f"127.0.0.1:{port}/games" in message
    assert "hunter2" not in message


async def test_a_missing_database_is_one_clear_error() -> None:
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        pytest.skip("PostgreSQL store tests need TEST_DATABASE_URL=postgresql://...")
    url = base.rsplit("/", 1)[0] + "/deckhand_no_such_database"
    store = open_store(url)
    with pytest.raises(StoreUnavailable, match="deckhand_no_such_database"):
        await store.open()


async def test_processes_starting_together_migrate_once() -> None:
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        pytest.skip("PostgreSQL store tests need TEST_DATABASE_URL=postgresql://...")
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(base)
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        separator = "&" if "?" in base else "?"
        stores = [open_store(f"{base}{separator}search_path={schema}") for _ in range(4)]
        try:
            await asyncio.gather(*(store.open() for store in stores))
        finally:
            for store in stores:
                await store.close()
        count = await admin.fetchval(f'SELECT count(*) FROM "{schema}".schema_migrations')
        assert count == len(migrations("postgres"))
    finally:
        await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        await admin.close()


async def test_the_server_gone_is_store_unavailable_and_the_store_reconnects_by_itself() -> None:
    """The database going away (a restart, a network cut) makes each statement
    StoreUnavailable, never a hang or a raw driver error; once it is back the pool
    reconnects by itself, with nothing written in between."""
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        pytest.skip("PostgreSQL store tests need TEST_DATABASE_URL=postgresql://...")
    schema = f"test_{uuid.uuid4().hex[:16]}"
    cable = Relay(base)  # the soak's own relay to the server, which it cuts the same way
    await cable.open()
    relayed = cable.url
    admin = await asyncpg.connect(base)
    separator = "&" if "?" in relayed else "?"
    store = open_store(f"{relayed}{separator}search_path={schema}")
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        await store.open()
        await store.create(ActiveGame(1, 2, "uno", 1, {"n": 1}))
        await cable.close()
        # The connection it had: the write went out and no answer came back, so whether the
        # server holds it is open (it does not: the relay was cut before it).
        with pytest.raises(StoreUncertain, match="cannot use PostgreSQL at"):
            await store.save(ActiveGame(1, 2, "uno", 2, {"n": 2}), expected_version=1)
        # A new connection refused: nothing was sent, so nothing was written.
        with pytest.raises(StoreUnavailable, match="cannot use PostgreSQL at") as refused:
            await store.save(ActiveGame(1, 2, "uno", 2, {"n": 2}), expected_version=1)
        assert not isinstance(refused.value, StoreUncertain)
        with pytest.raises(StoreUnavailable) as refused:
            await store.load_active()
        assert not isinstance(refused.value, StoreUncertain)  # a read is never in doubt
        await cable.open()
        await store.save(ActiveGame(1, 2, "uno", 2, {"n": 2}), expected_version=1)
        assert [g.data for g in await store.load_active()] == [{"n": 2}]
    finally:
        await store.close()
        await cable.close()
        await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        await admin.close()


async def test_a_locked_table_is_refused_before_discord_stops_waiting() -> None:
    """A statement waiting on a lock (another connection's LOCK TABLE, as the soak holds)
    gives up as StoreUnavailable under Discord's 3 s, and the store works once it is free."""
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        pytest.skip("PostgreSQL store tests need TEST_DATABASE_URL=postgresql://...")
    schema = f"test_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(base)
    separator = "&" if "?" in base else "?"
    store = open_store(f"{base}{separator}search_path={schema}")
    try:
        await admin.execute(f'CREATE SCHEMA "{schema}"')
        await store.open()
        await store.create(ActiveGame(1, 2, "uno", 1, {"n": 1}))
        async with admin.transaction():
            await admin.execute(f'LOCK TABLE "{schema}".active_games IN ACCESS EXCLUSIVE MODE')
            started = time.monotonic()
            with pytest.raises(StoreUnavailable) as refused:
                await store.save(ActiveGame(1, 2, "uno", 2, {"n": 2}), expected_version=1)
            assert time.monotonic() - started < STORE_WAIT_SECONDS + 0.5 < 3.0
            # The server gave the write up: certainly not written. Had we only stopped
            # waiting (a TimeoutError), the write could still land once the lock is gone.
            assert isinstance(refused.value.__cause__, asyncpg.LockNotAvailableError)
            assert not isinstance(refused.value, StoreUncertain)
            # Right after a refusal (a click queued behind it), a short wait only.
            started = time.monotonic()
            with pytest.raises(StoreUnavailable) as refused:
                await store.save(ActiveGame(1, 2, "uno", 2, {"n": 2}), expected_version=1)
            assert time.monotonic() - started < STORE_RETRY_WAIT_SECONDS + 0.5
            assert isinstance(refused.value.__cause__, asyncpg.LockNotAvailableError)
        await store.save(ActiveGame(1, 2, "uno", 2, {"n": 2}), expected_version=1)
        assert [g.data for g in await store.load_active()] == [{"n": 2}]
    finally:
        await store.close()
        await admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        await admin.close()


async def test_after_a_refusal_only_the_wait_for_a_connection_is_cut_short() -> None:
    """Right after a refusal the store stops waiting for a connection early, but a statement
    already sent runs to its end (or to the server's own limits): cancelling it from the
    client would race its commit, and a move reported as not saved could land anyway."""
    base = os.environ.get("TEST_DATABASE_URL")
    if not base:
        pytest.skip("PostgreSQL store tests need TEST_DATABASE_URL=postgresql://...")
    store = PostgresStore(base, max_size=1)
    await store.open()
    try:
        store._refused_at = time.monotonic()  # as if a save had just been refused
        slow = STORE_RETRY_WAIT_SECONDS * 2
        async with store._using() as conn:  # the one connection: held until the sleep ends
            sleeping = asyncio.ensure_future(conn.fetchval("SELECT pg_sleep($1)::text", slow))
            started = time.monotonic()
            with pytest.raises(StoreUnavailable):  # no connection free: a short wait only
                await store.load_active()
            assert time.monotonic() - started < STORE_RETRY_WAIT_SECONDS + 0.5
            assert await sleeping == ""  # the statement in flight was not cut
    finally:
        await store.close()


def test_the_store_leaves_no_session_state_on_a_pooled_connection() -> None:
    # The pool gives connections back without asyncpg's reset query (a round trip per
    # operation): that is only safe while nothing sets, locks, listens or opens a cursor
    # beyond a transaction.
    sources = [
        Path(module.__file__).read_text(encoding="utf-8")
        for module in (postgres_module, common_module)
    ]
    sources += [step.sql for step in migrations("postgres")]
    text = "\n".join(sources)
    # "SET x = ..." outside UPDATE sets a session variable; SET LOCAL ends with its transaction.
    session_sets = re.findall(r"^(?:(?!UPDATE).)*?\bSET (?!LOCAL\b)\w+", text, re.M)
    assert session_sets == []
    assert re.findall(r"\b(LISTEN|DECLARE|WITH HOLD|PREPARE)\b", text) == []
    assert re.findall(r"pg_advisory_(?!xact_)\w*lock", text) == []
