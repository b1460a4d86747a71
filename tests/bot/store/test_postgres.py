"""PostgreSQL specifics; the shared contract runs in test_contract.py."""

from __future__ import annotations

import asyncio
import os
import socket
import uuid

import asyncpg  # type: ignore[import-untyped]
import pytest

from bot.store import StoreUnavailable, open_store
from bot.store.migrations import migrations
from bot.store.postgres import PostgresStore


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
