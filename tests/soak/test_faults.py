"""The soak's faults (soak/faults.py): a schedule that meets every kind, a relay to
PostgreSQL that cuts, and a store locked while the lock is held."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

from soak.faults import FAULTS, FaultSchedule, Relay, lock_store


def test_faults_come_in_rounds_of_every_kind() -> None:
    """Each round of faults has every kind once (a 1-minute soak meets them all), in an order
    the seed decides."""
    schedule = FaultSchedule(random.Random(15))
    drawn = [schedule.next() for _ in range(3 * len(FAULTS))]
    rounds = [drawn[i : i + len(FAULTS)] for i in range(0, len(drawn), len(FAULTS))]
    assert all(sorted(r) == sorted(FAULTS) for r in rounds)
    assert len({tuple(r) for r in rounds}) > 1  # shuffled anew each round
    again = FaultSchedule(random.Random(15))
    assert [again.next() for _ in drawn] == drawn


async def test_the_relay_to_postgresql_cuts_every_connection_and_comes_back() -> None:
    """What the bot meets on a ``db_cut``: its connections dropped, new ones refused while
    the cut lasts, then the same address working again."""

    async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(100):
            writer.write(data)
            await writer.drain()
        writer.close()

    upstream = await asyncio.start_server(echo, "127.0.0.1", 0)
    port = upstream.sockets[0].getsockname()[1]
    relay = Relay(f"postgresql://deckhand:pw@127.0.0.1:{port}/test?search_path=soak_1")
    await relay.open()
    try:
        assert (
            relay.url == f"postgresql://deckhand:pw@127.0.0.1:{relay.port}/test?search_path=soak_1"
        )
        reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
        writer.write(b"move")
        assert await reader.read(100) == b"move"
        cut = asyncio.create_task(relay.cut(0.5))
        await asyncio.sleep(0.1)
        assert await reader.read(100) == b""  # the connection was dropped
        try:
            await asyncio.open_connection("127.0.0.1", relay.port)
        except OSError:
            pass
        else:
            raise AssertionError("a connection was taken during the cut")
        await cut
        reader, writer = await asyncio.open_connection("127.0.0.1", relay.port)
        writer.write(b"again")
        assert await reader.read(100) == b"again"
        writer.close()
    finally:
        await relay.close()
        upstream.close()


async def test_a_locked_sqlite_store_refuses_writes_until_the_lock_ends(tmp_path: Path) -> None:
    path = tmp_path / "soak.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE active_games (channel_id INTEGER, version INTEGER, data TEXT)")
    lock = asyncio.create_task(lock_store(f"sqlite:///{path}", 0.5))
    await asyncio.sleep(0.1)
    writer = sqlite3.connect(path, timeout=0.05)
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            writer.execute("INSERT INTO active_games VALUES (1, 1, '{}')")
        await lock
        writer.execute("INSERT INTO active_games VALUES (1, 1, '{}')")
        writer.commit()
    finally:
        writer.close()
