"""SQLite specifics: the file's directory is created, WAL mode, migrations recorded once."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.store import StoreUnavailable, open_store
from bot.store.base import ActiveGame, VersionConflict
from bot.store.migrations import migrations
from bot.store.sqlite import SQLiteStore, _statements


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("sqlite:///data/deckhand.db", "data/deckhand.db"),
        ("sqlite:////var/lib/deckhand.db", "/var/lib/deckhand.db"),
        ("sqlite:///:memory:", ":memory:"),
    ],
)
def test_url_to_path(url: str, path: str) -> None:
    store = open_store(url)
    assert isinstance(store, SQLiteStore)
    assert store.path == path


@pytest.mark.parametrize(
    ("url", "pragma"),
    [
        ("sqlite:///{path}", 1),  # NORMAL: commits survive a crash of the bot, no fsync each
        ("sqlite:///{path}?synchronous=full", 2),
        ("sqlite:///{path}?synchronous=FULL", 2),
    ],
)
async def test_synchronous_from_the_url(tmp_path: Path, url: str, pragma: int) -> None:
    store = open_store(url.format(path=tmp_path / "deckhand.db"))
    assert isinstance(store, SQLiteStore)
    await store.open()
    try:
        async with store._conn.execute("PRAGMA synchronous") as cursor:
            assert await cursor.fetchone() == (pragma,)
    finally:
        await store.close()


@pytest.mark.parametrize(
    ("query", "says"),
    [("synchronous=off", "normal or full"), ("journal=delete", "unknown SQLite option")],
)
def test_bad_sqlite_options_are_refused(query: str, says: str) -> None:
    with pytest.raises(StoreUnavailable, match=says):
        open_store(f"sqlite:///data/deckhand.db?{query}")


def test_url_without_a_path_is_refused() -> None:
    with pytest.raises(StoreUnavailable, match="sqlite:///"):
        open_store("sqlite:///")


async def test_open_creates_the_directory_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "deckhand.db"
    store = open_store(f"sqlite:///{path}")
    await store.open()
    await store.close()
    assert path.exists()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        recorded = db.execute("SELECT version, name FROM schema_migrations").fetchall()
    assert recorded == [(m.version, m.name) for m in migrations("sqlite")]


async def test_reopen_applies_nothing_twice(tmp_path: Path) -> None:
    path = tmp_path / "deckhand.db"
    for _ in range(2):
        store = open_store(f"sqlite:///{path}")
        await store.open()
        await store.close()
    with sqlite3.connect(path) as db:
        (count,) = db.execute("SELECT count(*) FROM schema_migrations").fetchone()
    assert count == len(migrations("sqlite"))


async def test_a_file_that_is_not_a_database_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "deckhand.db"
    path.write_bytes(b"this is not a database, " * 100)
    store = open_store(f"sqlite:///{path}")
    with pytest.raises(StoreUnavailable, match=r"cannot use SQLite database .*deckhand\.db"):
        await store.open()


async def test_a_directory_that_cannot_be_created_is_one_clear_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    store = open_store(f"sqlite:///{blocker / 'sub' / 'deckhand.db'}")
    with pytest.raises(StoreUnavailable, match="cannot use SQLite database"):
        await store.open()


async def test_two_stores_on_one_file_see_each_others_versions(tmp_path: Path) -> None:
    """Two processes on one file: the version check still stops the second writer."""
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    first, second = open_store(url), open_store(url)
    await first.open()
    await second.open()
    try:
        await first.create(ActiveGame(1, 2, "uno", 1, {}))
        await first.save(ActiveGame(1, 2, "uno", 2, {"by": "first"}), expected_version=1)
        with pytest.raises(VersionConflict):
            await second.save(ActiveGame(1, 2, "uno", 2, {"by": "second"}), expected_version=1)
        (stored,) = await second.load_active()
        assert stored.data == {"by": "first"}
    finally:
        await first.close()
        await second.close()


async def test_two_processes_starting_together_migrate_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'race.db'}"
    stores = [open_store(url) for _ in range(4)]
    try:
        await asyncio.gather(*(store.open() for store in stores))
        await stores[0].create(ActiveGame(1, 2, "uno", 1, {}))
        assert len(await stores[3].load_active()) == 1
    finally:
        for store in stores:
            await store.close()
    with sqlite3.connect(tmp_path / "race.db") as db:
        (count,) = db.execute("SELECT count(*) FROM schema_migrations").fetchone()
    assert count == len(migrations("sqlite"))


def test_statements_split_where_sqlite_says() -> None:
    script = (
        "-- a comment; with a semicolon\nCREATE TABLE a (x TEXT DEFAULT ';');\n\n"
        "SELECT 1;\n-- end\n"
    )
    assert _statements(script) == [
        "-- a comment; with a semicolon\nCREATE TABLE a (x TEXT DEFAULT ';');",
        "SELECT 1;",
    ]
    with pytest.raises(RuntimeError, match="inside a statement"):
        _statements("CREATE TABLE b (x INTEGER")
