"""The bot as a child process: ``python -m bot run`` pointed at the fake Discord, killed with
SIGKILL and started again, and its log read for what went wrong."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from bot.fakediscord import FakeDiscord
from bot.settings import Settings

__all__ = ["READY_SECONDS", "ROOT", "BotProcess", "log_conflicts", "log_errors", "log_stalls"]

ROOT = Path(__file__).resolve().parent.parent
READY_SECONDS = 60.0
ANSI = re.compile(r"\x1b\[[0-9;]*m")
RECORD = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d (?P<level>[A-Z]+) ")
CONFLICT = "version conflict; reloading"
# The bot's own settings (bot/settings.py), never taken from the caller's environment: a
# developer's DEV_GUILD_ID or SPEAK_THROUGH_INTERACTIONS would change what is measured.
SETTINGS = frozenset(name.upper() for name in Settings.model_fields)


class BotProcess:
    """``python -m bot run`` against the fake; killed with SIGKILL, started again.

    ``settings``: the bot's settings beyond the fake's address, token and ``database_url``
    (``COMPUTER_DELAY_SECONDS``, ``SHARD_IDS`` ...), as environment variables.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        database_url: str,
        log_path: Path,
        settings: Mapping[str, str] | None = None,
    ) -> None:
        self.fake = fake
        self.database_url = database_url
        self.log_path = log_path
        self.settings = dict(settings or {})
        self.process: asyncio.subprocess.Process | None = None
        self.readies = 0

    def env(self) -> dict[str, str]:
        """The caller's environment without the bot's settings, then the bot's own."""
        env = {
            k: v
            for k, v in os.environ.items()
            if k.upper() not in SETTINGS and not k.startswith("DISCORD")
        }
        env.update(
            DISCORD_TOKEN=self.fake.token,
            DISCORD_API_URL=self.fake.base_url,
            DATABASE_URL=self.database_url,
            LOG_LEVEL="INFO",
            PYTHONPATH=str(ROOT),
            **self.settings,
        )
        return env

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    async def start(self) -> None:
        """Start the bot and wait until it says it is ready."""
        before = self.log_text().count(" ready as ") if self.log_path.exists() else 0
        log = self.log_path.open("ab")
        # Its own folder, so no .env of the repository is read.
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            "run",
            cwd=self.log_path.parent,
            env=self.env(),
            stdout=log,
            stderr=log,
        )
        log.close()
        deadline = time.monotonic() + READY_SECONDS
        while self.log_text().count(" ready as ") <= before:
            if self.process.returncode is not None:
                raise RuntimeError(f"the bot stopped at start-up; see {self.log_path}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot was not ready within {READY_SECONDS} s")
            await asyncio.sleep(0.1)
        self.readies += 1

    async def kill(self) -> None:
        """SIGKILL: no close hook, no flush, sockets gone."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()
        self.process = None

    async def stop(self) -> None:
        """SIGTERM, as a server owner stops it."""
        if self.process is not None:
            self.process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.process.wait(), 20)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
            self.process = None


def log_conflicts(text: str) -> list[str]:
    """The bot's records of a save meeting a version conflict (``bot/sessions/core.py``)."""
    return [ANSI.sub("", line) for line in text.splitlines() if CONFLICT in ANSI.sub("", line)]


STALL = re.compile(r"a table stalled (?P<seconds>[\d.]+) s before it went out")


def log_stalls(text: str) -> list[tuple[str, float, float]]:
    """The poster's lines for a table that stalled over 5 s before it went out
    (``cogs.common.poster.STALLED_SECONDS``): each line, when it was logged
    (``time.time()``) and how long the table waited."""
    found = []
    for raw in text.splitlines():
        line = ANSI.sub("", raw)
        stalled = STALL.search(line)
        if stalled is None:
            continue
        stamp = time.mktime(time.strptime(line[:19], "%Y-%m-%d %H:%M:%S"))
        found.append((line, stamp + 1.0, float(stalled["seconds"])))  # the log's whole second
    return found


def log_errors(text: str) -> list[str]:
    """ERROR and CRITICAL records, and tracebacks no handled record (a WARNING with the
    failure it survived) owns: an uncaught exception printed by Python."""
    found = []
    level = None
    for raw in text.splitlines():
        line = ANSI.sub("", raw)
        record = RECORD.match(line)
        if record:
            level = record["level"]
            if level in ("ERROR", "CRITICAL"):
                found.append(line)
        elif line.startswith("Traceback") and level not in ("DEBUG", "INFO", "WARNING"):
            found.append(line)
    return found
