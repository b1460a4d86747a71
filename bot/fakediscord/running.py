"""Run a discord.py client against a :class:`FakeDiscord` for the length of a ``with`` block."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import discord

from .server import FakeDiscord

__all__ = ["running_client"]

READY_TIMEOUT = 10.0


@contextlib.asynccontextmanager
async def running_client(client: discord.Client, fake: FakeDiscord) -> AsyncIterator[None]:
    """Log ``client`` in to ``fake``, connect it, wait for READY; close it on exit."""
    # Guilds arrive right after READY; don't wait the default two seconds for more.
    client._connection.guild_ready_timeout = 0.05
    # discord.py spaces shard IDENTIFYs 5 s apart for Discord's limit; the fake has none.
    client.before_identify_hook = _identify_at_once  # type: ignore[method-assign]
    await client.login(fake.token)
    connect = asyncio.create_task(client.connect(reconnect=True), name="fake-discord-client")
    ready = asyncio.create_task(client.wait_until_ready())
    try:
        done, _ = await asyncio.wait(
            {connect, ready}, timeout=READY_TIMEOUT, return_when=asyncio.FIRST_COMPLETED
        )
        if connect in done:
            connect.result()  # raises why it stopped
            raise RuntimeError("the client stopped before it was ready")
        if ready not in done:
            raise TimeoutError("the client did not become ready")
        yield
    finally:
        ready.cancel()
        await client.close()
        try:
            await asyncio.wait_for(connect, READY_TIMEOUT)
        except (asyncio.CancelledError, discord.ConnectionClosed):
            pass
        except Exception:
            logging.getLogger(__name__).exception("client stopped with an error")


async def _identify_at_once(shard_id: int | None, *, initial: bool = False) -> None:
    return None
