"""``deckhand sandbox``: the real bot against a local imitation of Discord, played in a browser.

No token and no internet: the imitation (``bot.sandbox`` serves its page) listens on
127.0.0.1, the bot connects to it through the same code as ``deckhand run`` (only the REST
base and the gateway address differ), and a web page lets a visitor be any member of one
server. Games are kept in ``data/sandbox.db`` (SQLite) unless ``--database-url`` says
otherwise, so a restart of the sandbox restores them as a restart of the bot would.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Final

from aiohttp import web
from pydantic import SecretStr

from bot import app
from bot.app import SetupError, configure_logging
from bot.fakediscord import FakeDiscord
from bot.fakediscord.model import MANAGE_GUILD, MANAGE_MESSAGES, MEMBER_PERMISSIONS
from bot.sandbox.server import Sandbox
from bot.settings import Settings

__all__ = ["MANAGER", "MEMBERS", "MODERATOR", "add_arguments", "populate", "run"]

DEFAULT_PORT: Final = 8765
DEFAULT_DATABASE: Final = "sqlite:///data/sandbox.db"
CHANNELS: Final = ("games", "more-games", "lounge")
MODERATOR: Final = "moderator"  # the imitation's Moderator role: Manage Messages
MANAGER: Final = "manager"  # Manage Server, with Manage Messages as a server's admins have
# (name, language, role): four players, one of them Korean, a moderator who may end games
# and kick, and dana, who may also change the server's settings (/game settings).
MEMBERS: Final = (
    ("alice", "en-US", ""),
    ("bob", "en-US", ""),
    ("지민", "ko", ""),
    ("dave", "en-US", ""),
    ("mod", "en-US", MODERATOR),
    ("dana", "en-US", MANAGER),
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--port`` of the page, ``--database-url`` of the games."""
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"the page's port (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--database-url",
        default=DEFAULT_DATABASE,
        help=f"where games are kept (default {DEFAULT_DATABASE})",
    )


def run(args: argparse.Namespace) -> int:
    """Serve the sandbox until stopped (Ctrl-C); 1 with one line on stderr if it cannot."""
    if not 0 <= args.port <= 65535:
        print(f"deckhand sandbox: --port {args.port} is not a port (0-65535)", file=sys.stderr)
        return 2
    configure_logging("INFO")
    try:
        return asyncio.run(serve(args.port, args.database_url))
    except SetupError as error:
        print(f"deckhand sandbox: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # the port is taken
        print(f"deckhand sandbox: cannot listen on 127.0.0.1:{args.port}: {error.strerror}",
              file=sys.stderr)  # fmt: skip
        return 1


def populate(fake: FakeDiscord) -> None:
    """The sandbox server: its channels, roles and members (the imitation made ``games``)."""
    for name in CHANNELS[1:]:
        fake.add_channel(name)
    managers = fake.guild.add_role(
        fake.ids.next(), "Server manager", MEMBER_PERMISSIONS | MANAGE_GUILD | MANAGE_MESSAGES
    )
    for name, locale, role in MEMBERS:
        member = fake.add_member(name, locale=locale, moderator=role == MODERATOR)
        if role == MANAGER:
            member.role_ids.append(managers.id)


async def serve(port: int, database_url: str) -> int:
    """The imitation, the page and the bot, until cancelled."""
    async with FakeDiscord(guild_name="Deckhand Sandbox") as fake:
        populate(fake)
        runner = web.AppRunner(Sandbox(fake).app(), access_log=None, handle_signals=False)
        await runner.setup()
        try:
            await web.TCPSite(runner, "127.0.0.1", port).start()
            shown = runner.addresses[0][1]
            print(f"Deckhand sandbox: open http://127.0.0.1:{shown} (Ctrl-C stops)", flush=True)
            settings = Settings(  # type: ignore[call-arg]
                _env_file=None,
                discord_token=SecretStr(fake.token),
                database_url=database_url,
                dev_guild_id=fake.guild.id,
                discord_api_url=fake.base_url,  # as DISCORD_API_URL would point deckhand run
            )
            return await app.serve(settings)
        finally:
            await runner.cleanup()
