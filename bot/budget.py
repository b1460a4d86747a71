"""This process's share of Discord's global rate limit.

Discord allows a bot 50 requests a second in all, across every shard and process of one
token, and answers more with 429 (10,000 refused requests in 10 minutes ban the IP for an
hour; discord-api-docs ``topics/rate-limits.mdx``). discord.py keeps to each route's bucket
and waits out a 429, but it cannot know what the bot's other processes send. So each
process takes a fixed share of the 50 and spaces every request it sends with the bot's own
token to stay within it: each attempt, so discord.py's own second tries (after a 429 or a
5xx) wait their turn too (:func:`budget_trace`). What goes through interactions is not
counted by Discord, and not here (:func:`counted_request`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from types import SimpleNamespace
from typing import Final

import aiohttp

__all__ = [
    "DISCORD_GLOBAL_PER_SECOND",
    "RequestBudget",
    "budget_trace",
    "counted_request",
    "share_of",
]

DISCORD_GLOBAL_PER_SECOND: Final = 50  # requests a second, every process of a bot together


def share_of(served_shards: int | None, shard_count: int | None) -> float:
    """Requests a second this process may make: the 50 split by the shards it serves
    (``None``: all of them, one process)."""
    if served_shards is None or not shard_count:
        return float(DISCORD_GLOBAL_PER_SECOND)
    return DISCORD_GLOBAL_PER_SECOND * served_shards / shard_count


# Discord counts its window its own way (the fake: fixed one-second windows), and a request
# reaches it a little after the budget let it go (the loop, the connection pool, the network),
# so requests let go over a little more than a second can land in one window. A process keeps
# a fifth below its share and holds a tenth of a second's worth: requests let go over any
# 1.15 s number at most share x 0.8 x 1.15 + share x 0.08 = share (a share under 12.5 a second
# holds one request, a little more than a tenth of a second's worth, so up to one more). A
# tenth below was not enough: two processes of the ceiling benchmark at full budget met a few
# global 429s.
_MARGIN: Final = 0.8
_BURST_SECONDS: Final = 0.1


class RequestBudget:
    """A token bucket of ``per_second`` requests a second (less a fifth) holding a tenth of
    a second's worth: a request waits until the bucket has a token for it."""

    def __init__(
        self,
        per_second: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        if per_second <= 0:
            raise ValueError("a request budget needs a positive rate")
        self.per_second = per_second * _MARGIN
        self.capacity = max(1.0, self.per_second * _BURST_SECONDS)
        self.clock = clock
        self.sleep = sleep
        self._tokens = self.capacity
        self._stamp = clock()
        self.spent = 0  # requests made
        self.waited = 0  # of them, those that had to wait (for logs and benchmarks)

    def _refill(self) -> None:
        now = self.clock()
        self._tokens = min(self.capacity, self._tokens + (now - self._stamp) * self.per_second)
        self._stamp = now

    async def take(self) -> None:
        """Wait until one more request fits the budget, and spend it."""
        self.spent += 1
        self._refill()
        if self._tokens >= 1:
            self._tokens -= 1
            return
        self.waited += 1
        # Spent now, paid for by waiting: requests behind it queue up in turn.
        self._tokens -= 1
        await self.sleep(-self._tokens / self.per_second)


def counted_request(path: str, application_id: int | None) -> bool:
    """Whether Discord counts a request to ``path`` against the bot's global limit: every
    REST request but the interaction endpoints, an interaction's callback
    (``/interactions/{id}/{token}/callback``) and its webhook's follow-ups and edits
    (``/webhooks/{application_id}/{token}/...``). The gateway's websocket is no REST request."""
    _, api, rest = path.partition("/api/v")
    if not api:
        return False
    rest = rest.partition("/")[2]  # past the version
    if rest.startswith("interactions/"):
        return False
    return application_id is None or not rest.startswith(f"webhooks/{application_id}/")


def budget_trace(
    budget: RequestBudget, application_id: Callable[[], int | None]
) -> aiohttp.TraceConfig:
    """An aiohttp trace for the bot's HTTP session: each counted request waits for
    ``budget`` as aiohttp starts it, so a retry discord.py makes inside one call (after a 429
    or a 5xx) is spent like a first try. ``application_id`` is read at each request (it is
    known once the bot has logged in; an interaction cannot come before)."""

    async def on_start(
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        if counted_request(params.url.path, application_id()):
            await budget.take()

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_start)
    return trace
