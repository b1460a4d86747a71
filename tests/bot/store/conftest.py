"""Every store test runs on each backend: memory, SQLite and (when configured) PostgreSQL.

PostgreSQL needs ``TEST_DATABASE_URL``; each test gets its own schema so parallel workers
never see each other's tables, and the schema is dropped afterwards.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from bot.store import open_store
from bot.store.base import GameStore
from bot.store.memory import MemoryStore

Opener = Callable[[], Awaitable[GameStore]]


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def reopen(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Opener]:
    """Opens a store on this test's storage; calling it again "restarts" onto the same data."""
    backend: str = request.param
    schema = None
    if backend == "memory":
        shared = MemoryStore()
        make: Callable[[], GameStore] = lambda: shared  # noqa: E731
    elif backend == "sqlite":
        url = f"sqlite:///{tmp_path / 'nested' / 'deckhand.db'}"
        make = lambda: open_store(url)  # noqa: E731
    else:
        base = os.environ.get("TEST_DATABASE_URL")
        if not base:
            pytest.skip("PostgreSQL store tests need TEST_DATABASE_URL=postgresql://...")
        schema = f"test_{uuid.uuid4().hex[:16]}"
        await _postgres(base, f'CREATE SCHEMA "{schema}"')
        separator = "&" if "?" in base else "?"
        schema_url = f"{base}{separator}search_path={schema}"
        make = lambda: open_store(schema_url)  # noqa: E731

    opened: list[GameStore] = []

    async def opener() -> GameStore:
        store = make()
        await store.open()
        opened.append(store)
        return store

    yield opener
    for store in opened:
        await store.close()
    if schema is not None:
        await _postgres(os.environ["TEST_DATABASE_URL"], f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
async def store(reopen: Opener) -> GameStore:
    """One open store."""
    return await reopen()


async def _postgres(url: str, statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()
