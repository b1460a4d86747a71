"""``deckhand run``: start the Discord bot with the settings from the environment and ``.env``.

What a server owner can get wrong (no token, a token Discord refuses, a database that
cannot be reached, a setting out of range) ends with ONE line on stderr saying what to do
and exit code 1, never a traceback. Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable

import aiohttp
import discord
from pydantic import ValidationError

from bot.client import CommandsRefused, create_bot
from bot.settings import Settings
from bot.store import StoreUnavailable, UnsupportedDatabaseURL, open_store

if sys.platform != "win32":
    import uvloop

__all__ = ["CONFIG_ERROR", "SetupError", "add_arguments", "configure_logging", "run", "serve"]

log = logging.getLogger(__name__)

CONFIG_ERROR = 1

NO_TOKEN = (
    "DISCORD_TOKEN is not set: copy .env.example to .env and put your bot's token "
    "there (README: 'Running the bot in your own server')"
)


class SetupError(Exception):
    """A mistake in the set-up, told to the owner in one line."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``deckhand run`` takes no arguments: everything comes from the environment or .env."""


def run(args: argparse.Namespace) -> int:
    """Run the bot until it is stopped; 0 on a clean stop, 1 on a set-up mistake."""
    try:
        settings = load_settings()
        configure_logging(settings.log_level)
        with asyncio.Runner(loop_factory=event_loop_factory()) as runner:
            return runner.run(serve(settings))
    except SetupError as error:
        print(f"deckhand: {error}", file=sys.stderr)
        return CONFIG_ERROR


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop (a dependency: a move's CPU is what limits a deployment,
    docs/design.md §8), except on Windows, which it is not made for: asyncio's own there."""
    if sys.platform == "win32":
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


# discord.py logs whole payloads at DEBUG: every gateway event (a card named in
# `/onecard play card:`, interaction tokens), HTTP bodies (ephemeral hands) and webhook URLs
# (tokens). Hidden cards and tokens never reach a log, so these stay at INFO or quieter.
PAYLOAD_LOGGERS = ("discord.gateway", "discord.http", "discord.webhook")


def configure_logging(level_name: str) -> None:
    """Log at ``level_name`` through discord.py's handler, the payload loggers at INFO at most."""
    level: int = logging.getLevelName(level_name)
    discord.utils.setup_logging(level=level)
    for name in PAYLOAD_LOGGERS:
        logging.getLogger(name).setLevel(max(level, logging.INFO))


def load_settings() -> Settings:
    """The settings, checked for what would only fail later and less clearly."""
    try:
        settings = Settings()
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]).upper() or "settings"
        # Only the name and the reason: the input may be a secret.
        raise SetupError(f"{where}: {first['msg']} (see .env.example)") from None
    if not settings.discord_token.get_secret_value().strip():
        raise SetupError(NO_TOKEN)
    if settings.shard_ids is not None:
        if settings.shard_count is None:
            raise SetupError("SHARD_IDS needs SHARD_COUNT, the total number of shards")
        wrong = [shard for shard in settings.shard_ids if not 0 <= shard < settings.shard_count]
        if wrong:
            raise SetupError(
                f"SHARD_IDS {wrong} must be between 0 and {settings.shard_count - 1} "
                "(SHARD_COUNT - 1)"
            )
    return settings


async def serve(settings: Settings) -> int:
    """Run the bot with ``settings`` until cancelled or stopped by SIGTERM (also the
    sandbox's bot, connected to its imitation of Discord)."""
    try:
        store = open_store(settings.database_url)
    except (UnsupportedDatabaseURL, StoreUnavailable) as error:
        raise SetupError(str(error)) from None
    bot = create_bot(settings, store)
    stopping = False
    current = asyncio.current_task()
    closing: list[asyncio.Task[None]] = []

    def stop() -> None:
        nonlocal stopping
        if stopping:
            return
        stopping = True
        # Both: the cancel stops the bot wherever it waits, and closing the client ends its
        # connect loop should the cancel be swallowed (on Python 3.11 a timeout racing it
        # inside aiohttp's websocket receive can eat it: the sandbox test saw the process
        # ignore SIGTERM one time in four).
        closing.append(asyncio.get_running_loop().create_task(bot.close()))
        if current is not None:
            current.cancel()

    with contextlib.suppress(NotImplementedError):  # no signal handlers on Windows
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop)
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value())
    except CommandsRefused as error:
        raise SetupError(str(error)) from None
    except discord.LoginFailure as error:
        raise SetupError(
            f"Discord refused DISCORD_TOKEN ({error}): reset the token in the Developer "
            "Portal (your application, Bot tab) and put the new one in .env"
        ) from None
    except StoreUnavailable as error:
        raise SetupError(f"{error} (check DATABASE_URL)") from None
    except aiohttp.ClientConnectorError as error:
        raise SetupError(f"cannot reach Discord: {error}") from None
    except asyncio.CancelledError:
        if not stopping:
            raise
    if stopping:
        await asyncio.gather(*closing, return_exceptions=True)
        log.info("stopped by SIGTERM")
    return 0
