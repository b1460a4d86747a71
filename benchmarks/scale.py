"""Many tables: how long the bot takes to come back with N active tables, and what one costs.

``populate`` (its own process) deals N games through the session registry into a store, a
mix of every game with a Discord adapter, each with its host and one computer seat. Then a
fresh process starts the real bot against the project's fake Discord on that store and
measures the time from start to ready with every table restored and its timers armed, the
bot's memory per active table (resident memory after minus before, over N) and the stored
snapshot size per game.

    python benchmarks/scale.py --tables 10000 [--database-url URL] [--json OUT.json]

Targets (restart at scale, docs/design.md §8): ready within 2 s for 10,000 tables; at most
20 KB per table. There is no peer to run: the figures stand against the targets, which the
JSON names as baselines.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import logging
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

# benchmarks/bot.py is named like the ``bot`` package: keep this folder off the import path.
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import Report
from bot.fakediscord import FakeDiscord, running_client
from bot.games import GameCatalog
from bot.sessions import Player, SessionRegistry
from bot.settings import Settings
from bot.store import open_store

READY_TARGET_SECONDS = 2.0
MEMORY_TARGET_BYTES = 20 * 1024
TARGET = "target (restart at scale)"  # the baselines' name in the report
FIRST_CHANNEL = 10**15  # channel ids of the benchmark's tables, far from the fake's own
GUILD = 4242


def settings(database_url: str, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "discord_token": "unused",
        "database_url": database_url,
        # No computer moves while measuring: a restored table whose turn is a computer's
        # would play into a channel the fake does not have.
        "computer_delay_seconds": 3600.0,
        "log_level": "WARNING",
        **overrides,
    }
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


async def populate(database_url: str, tables: int) -> dict[str, int]:
    """Deal ``tables`` games (every game in turn) into the store; how many of each."""
    store = open_store(database_url)
    await store.open()
    games = GameCatalog.discover()
    registry = SessionRegistry(store=store, settings=settings(database_url), games=games)
    made: dict[str, int] = defaultdict(int)
    names = games.names()
    try:
        for number in range(tables):
            game = names[number % len(names)]
            seats = max(2, games.get(game).min_seats)
            host = Player(10_000 + number, f"player {number}")
            await registry.open_lobby(
                FIRST_CHANNEL + number, GUILD, game, host, players=seats, bots=seats - 1
            )
            made[game] += 1
    finally:
        await registry.close()
        await store.close()
    return dict(made)


def resident_bytes() -> int:
    """This process's resident memory now (Linux)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * 4096


async def measure(database_url: str) -> dict[str, float]:
    """Start the real bot on the populated store; seconds to ready, bytes per table."""
    from bot.client import create_bot

    async with FakeDiscord() as fake:
        gc.collect()
        before = resident_bytes()
        store = open_store(database_url)
        bot = create_bot(settings(database_url, dev_guild_id=fake.guild.id), store)
        started = time.perf_counter()
        async with running_client(bot, fake):
            ready = time.perf_counter() - started
            sessions = bot.sessions
            active = len(sessions.sessions())
            armed = len(sessions.tasks)
            gc.collect()
            after = resident_bytes()
        return {
            "ready_seconds": ready,
            "active": active,
            "armed": armed,
            "bytes_per_table": (after - before) / max(active, 1),
        }


async def snapshot_sizes(database_url: str) -> dict[str, float]:
    """Mean stored size (JSON bytes) of one game's session, by game."""
    store = open_store(database_url)
    await store.open()
    try:
        sizes: dict[str, list[int]] = defaultdict(list)
        for stored in await store.load_active():
            sizes[stored.game].append(len(json.dumps(stored.data, separators=(",", ":"))))
    finally:
        await store.close()
    return {game: sum(found) / len(found) for game, found in sorted(sizes.items())}


async def clear(database_url: str) -> None:
    """Drop the benchmark's tables from a shared store (PostgreSQL)."""
    store = open_store(database_url)
    await store.open()
    try:
        for stored in await store.load_active():
            if stored.channel_id >= FIRST_CHANNEL:
                await store.delete(stored.channel_id, expected_version=stored.version)
    finally:
        await store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--database-url", help="default: a new SQLite file")
    parser.add_argument("--json", metavar="OUT.json", help="also write the report as JSON")
    parser.add_argument("--phase", choices=["populate", "measure"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    if args.phase == "populate":
        print(json.dumps(asyncio.run(populate(args.database_url, args.tables))))
        return 0
    if args.phase == "measure":
        print(json.dumps(asyncio.run(measure(args.database_url))))
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'scale.db'}"
        if args.database_url:
            asyncio.run(clear(url))
        try:
            made = _phase("populate", url, args.tables)
            figures = _phase("measure", url, args.tables)
            sizes = asyncio.run(snapshot_sizes(url))
        finally:
            if args.database_url:
                asyncio.run(clear(url))
    store = "PostgreSQL" if url.startswith("postgres") else "SQLite"
    case = f"{args.tables:,} tables on {store}"
    report = Report(benchmark="scale")
    report.add(case, "start to ready, all restored", figures["ready_seconds"], "s")
    report.add(case, "memory per active table", figures["bytes_per_table"] / 1024, "KB")
    report.add(case, "tables restored", figures["active"], "tables")
    report.add(case, "timers armed", figures["armed"], "timers")
    for game, size in sizes.items():
        report.add(f"{game} ({made.get(game, 0):,} tables)", "stored snapshot", size, "bytes")
    report.add_baseline(TARGET, case, "start to ready, all restored",
                        READY_TARGET_SECONDS, "s")  # fmt: skip
    report.add_baseline(TARGET, case, "memory per active table",
                        MEMORY_TARGET_BYTES / 1024, "KB")  # fmt: skip
    report.set_ratio(TARGET, READY_TARGET_SECONDS / figures["ready_seconds"])
    report.note("no peer bot restores tables; the ratio is the ready-time target over ours")
    report.print_table()
    if args.json:
        report.write_json(args.json)
    return 0


def _phase(phase: str, url: str, tables: int) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--phase", phase, "--database-url", url,
         "--tables", str(tables)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


if __name__ == "__main__":
    sys.exit(main())
