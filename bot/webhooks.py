"""Discord's limits on interaction webhooks, as this process counts its own use of them.

An interaction's webhook (its follow-ups, and the edits of the messages it posted) is not
counted against the bot's global limit, but "Interactions webhooks share the same rate limit
properties as normal webhooks" (discord-api-docs ``topics/rate-limits.mdx``): a bucket per
interaction, measured at 5 requests per 2 seconds (discord-api-docs#2701, Discord's staff:
"identical to webhook rate limits"), and about 30 webhook messages a minute in one channel
("the 30/60 was added as a limit to the channel itself", discord-api-docs#367). Past the
channel's limit Discord answers 429 with a Retry-After of about 40 seconds and no bucket
headers to have warned of it (discord-api-docs#1454, #4043).

discord.py sleeps out a webhook's 429 and tries again, up to five times, holding that
webhook's lock: a table, the next member's mention and that member's own answers would wait
behind it while the turn clock runs. So every request through an interaction's token is
counted here as aiohttp starts it (:func:`watch_webhooks`), the bot uses a token or a
channel only while it has room to spare (:meth:`WebhookLimits.room`), and a 429 on an
interaction route is raised at once as :class:`WebhookRefused`, never slept on: the caller
posts through another voice or with the bot's token, and the refused token (or channel) is
left alone until its Retry-After has passed. A 404 with code 10015 (Unknown Webhook) marks
the token dead: "If a webhook returns a 404 status you should not attempt to use it again"
(rate-limits.mdx). Each refusal is logged once, at WARNING, with its route. While the bot
posts by itself (:func:`posting`), a 5xx there is raised at once too: the post goes another
way instead of waiting out discord.py's retries on the token's lock.

Tokens are secrets: they are kept in memory only, and a route in a log line masks them.
"""

from __future__ import annotations

import logging
import re
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, Final

import aiohttp
import discord

__all__ = [
    "CHANNEL_MESSAGES",
    "TOKEN_REQUESTS",
    "UNKNOWN_WEBHOOK",
    "WebhookLimits",
    "WebhookRefused",
    "posting",
    "watch_webhooks",
]

log = logging.getLogger(__name__)

TOKEN_REQUESTS: Final = (5, 2.0)  # requests per seconds on one interaction's webhook (#2701)
CHANNEL_MESSAGES: Final = (30, 60.0)  # webhook messages per seconds in one channel (#367)
UNKNOWN_WEBHOOK: Final = 10015  # Discord's error code for a webhook (a token) it no longer knows
# What the bot leaves of each limit for the members' own answers on the same token (a private
# answer after a table, a hand) and in the same channel: the bot's own posts take a voice only
# below these, so discord.py never sees a bucket's Remaining reach 0 (it would sleep on it).
_TOKEN_ROOM: Final = 3
_CHANNEL_ROOM: Final = 24
# An edit (retiring a table) may take the token one request further, never to its last.
_EDIT_ROOM: Final = TOKEN_REQUESTS[0] - 1
_CALLBACK_WAIT: Final = 1.0  # the longest 429 on an interaction's answer discord.py may wait
_TOKEN_SECONDS: Final = 15 * 60.0  # an interaction's token lives 15 minutes (then forgotten)
_PRUNE_EVERY: Final = 60.0  # seconds between sweeps of the expired tokens and quiet channels

# /api/v10/webhooks/<application>/<token>[/messages/<id>] and an interaction's callback.
_WEBHOOK_ROUTE = re.compile(r"/api/v\d+/webhooks/\d+/(?P<token>[^/]+)(?P<rest>/.*)?$")
_CALLBACK_ROUTE = re.compile(r"/api/v\d+/interactions/\d+/(?P<token>[^/]+)/callback$")
_TOKEN_IN_PATH = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/?]+")

# Set while the bot posts or edits a table by itself (:func:`posting`): a 5xx on a webhook
# is then raised at once too, since discord.py would retry it for 25 s holding the token's
# lock, and the post has other ways to go. A member's own answer keeps discord.py's retries.
_POSTING: ContextVar[bool] = ContextVar("deckhand_posting", default=False)


@contextmanager
def posting() -> Iterator[None]:
    """Within it, a request through an interaction's token that Discord fails (5xx) is
    raised at once as :class:`discord.DiscordServerError` instead of retried."""
    reset = _POSTING.set(True)
    try:
        yield
    finally:
        _POSTING.reset(reset)


class WebhookRefused(discord.HTTPException):
    """Discord answered a request through an interaction's token with 429. Raised as the
    answer arrives, so discord.py does not sleep on it: ``retry_after`` seconds before that
    token (``shared``: that channel's webhooks) may be used again."""

    def __init__(self, response: aiohttp.ClientResponse, data: dict[str, Any]) -> None:
        super().__init__(response, data)
        self.retry_after = _seconds(data.get("retry_after"), response.headers.get("Retry-After"))
        self.shared = response.headers.get("X-RateLimit-Scope") == "shared"


@dataclass(slots=True)
class _Token:
    channel_id: int | None
    seen: float
    requests: deque[float] = field(default_factory=deque)
    blocked_until: float = 0.0
    dead: bool = False


@dataclass(slots=True)
class _Channel:
    messages: deque[float] = field(default_factory=deque)
    blocked_until: float = 0.0


class WebhookLimits:
    """This process's use of each interaction token and each channel's webhook messages, in
    sliding windows, and the refusals Discord answered: what :meth:`room` decides on."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        # In the order first seen, so the expired ones are at the front.
        self._tokens: dict[str, _Token] = {}
        self._channels: dict[int, _Channel] = {}
        self._next_prune = clock() + _PRUNE_EVERY
        self.refused = 0  # 429s on interaction routes
        self.unknown = 0  # tokens Discord no longer knew (10015) inside their 15 minutes

    def bind(self, token: str, channel_id: int | None) -> None:
        """An interaction arrived: its webhook posts in ``channel_id``."""
        if self.clock() >= self._next_prune:
            self._prune()
        known = self._tokens.get(token)
        if known is None:
            self._tokens[token] = _Token(channel_id, self.clock())
        elif known.channel_id is None:
            known.channel_id = channel_id

    def request(self, token: str, *, message: bool) -> None:
        """One request through ``token`` is on its way; ``message``: it makes a new message
        in the token's channel (a follow-up), which the channel's limit counts."""
        now = self.clock()
        entry = self._token(token, now)
        entry.requests.append(now)
        if message and entry.channel_id is not None:
            self._channel(entry.channel_id).messages.append(now)

    def room(self, token: str) -> bool:
        """Whether the bot may post or edit through ``token`` now: known alive, not refused
        within its Retry-After, below its share of the token's bucket and, where it posts,
        of its channel's webhook messages."""
        spent = self._spent(token)
        if spent is None or spent >= _TOKEN_ROOM:
            return False
        entry = self._tokens.get(token)
        return entry is None or entry.channel_id is None or self.channel_room(entry.channel_id)

    def edit_room(self, token: str) -> bool:
        """Whether the bot may edit a message through ``token`` now: usable, and the edit
        leaves the token's bucket a request (so discord.py never sees it empty)."""
        spent = self._spent(token)
        return spent is not None and spent < _EDIT_ROOM

    def _spent(self, token: str) -> int | None:
        """Requests through ``token`` in the bucket's last 2 s; ``None`` when it may not be
        used at all now (gone, or inside a Retry-After)."""
        entry = self._tokens.get(token)
        if entry is None:
            return 0
        now = self.clock()
        if entry.dead or now < entry.blocked_until:
            return None
        return _count(entry.requests, now, TOKEN_REQUESTS[1])

    def channel_room(self, channel_id: int) -> bool:
        """Whether the bot may make one more webhook message in ``channel_id`` now."""
        channel = self._channels.get(channel_id)
        if channel is None:
            return True
        now = self.clock()
        if now < channel.blocked_until:
            return False
        return _count(channel.messages, now, CHANNEL_MESSAGES[1]) < _CHANNEL_ROOM

    def alive(self, token: str) -> bool:
        """Whether Discord may still know ``token`` (it has not answered 10015 for it)."""
        entry = self._tokens.get(token)
        return entry is None or not entry.dead

    def usable(self, token: str) -> bool:
        """Whether ``token`` may be tried at all (alive, not inside a Retry-After)."""
        return self._spent(token) is not None

    def limited(self, token: str, retry_after: float, *, shared: bool) -> bool:
        """Discord refused ``token`` for ``retry_after`` seconds (``shared``: its whole
        channel). Whether this is news (not already known refused): worth one WARNING."""
        self.refused += 1
        now = self.clock()
        entry = self._token(token, now)
        until = now + retry_after
        if shared and entry.channel_id is not None:
            channel = self._channel(entry.channel_id)
            news = now >= channel.blocked_until
            channel.blocked_until = max(channel.blocked_until, until)
            entry.blocked_until = max(entry.blocked_until, until)
            return news
        news = now >= entry.blocked_until
        entry.blocked_until = max(entry.blocked_until, until)
        return news

    def gone(self, token: str) -> bool:
        """Discord no longer knows ``token`` (10015): never use it again. Whether this is
        news."""
        entry = self._token(token, self.clock())
        news = not entry.dead
        if news:
            self.unknown += 1
        entry.dead = True
        return news

    def _token(self, token: str, now: float) -> _Token:
        entry = self._tokens.get(token)
        if entry is None:
            entry = self._tokens[token] = _Token(None, now)
        return entry

    def _channel(self, channel_id: int) -> _Channel:
        channel = self._channels.get(channel_id)
        if channel is None:
            channel = self._channels[channel_id] = _Channel()
        return channel

    def _prune(self) -> None:
        now = self.clock()
        self._next_prune = now + _PRUNE_EVERY
        expired = []
        for token, entry in self._tokens.items():
            if now - entry.seen < _TOKEN_SECONDS:
                break
            expired.append(token)
        for token in expired:
            del self._tokens[token]
        quiet = now - CHANNEL_MESSAGES[1]
        self._channels = {
            c: ch
            for c, ch in self._channels.items()
            if (ch.messages and ch.messages[-1] > quiet) or ch.blocked_until > now
        }


def _count(times: deque[float], now: float, seconds: float) -> int:
    """How many of ``times`` fall in the last ``seconds`` (older ones are dropped)."""
    while times and times[0] <= now - seconds:
        times.popleft()
    return len(times)


def _seconds(body: object, header: str | None) -> float:
    """A 429's wait: the body's ``retry_after``, else the header's, else a second."""
    for value in (body, header):
        try:
            return max(0.0, float(value))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            continue
    return 1.0


def _masked(path: str) -> str:
    return _TOKEN_IN_PATH.sub(r"\1…", path)


def watch_webhooks(trace: aiohttp.TraceConfig, limits: WebhookLimits) -> aiohttp.TraceConfig:
    """Count every request through an interaction's token as aiohttp starts it, and turn a
    429 on an interaction route into :class:`WebhookRefused` as it arrives (before
    discord.py can sleep on it); note a 10015. Adds to ``trace`` (the bot's HTTP session
    takes one) and returns it."""

    async def on_start(
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        found = _WEBHOOK_ROUTE.search(params.url.path)
        if found is not None:
            message = params.method == "POST" and not found["rest"]
            limits.request(found["token"], message=message)

    async def on_end(
        _session: aiohttp.ClientSession,
        _context: SimpleNamespace,
        params: aiohttp.TraceRequestEndParams,
    ) -> None:
        status = params.response.status
        if status not in (404, 429) and not (status >= 500 and _POSTING.get()):
            return
        path = params.url.path
        found = _WEBHOOK_ROUTE.search(path)
        callback = found is None and _CALLBACK_ROUTE.search(path) is not None
        if found is None and not callback:
            return
        try:
            data = await params.response.json(content_type=None)
        except (ValueError, aiohttp.ClientError):
            data = {}
        data = data if isinstance(data, dict) else {}
        route = f"{params.method} {_masked(path)}"
        if callback:
            # An interaction has no other way to be answered: a short wait, within its 3
            # seconds, is left to discord.py; a longer one would miss them anyway.
            if status == 429:
                refused = WebhookRefused(params.response, data)
                if refused.retry_after > _CALLBACK_WAIT:
                    log.warning("%s: HTTP 429, %.1f s", route, refused.retry_after)
                    raise refused
            return
        assert found is not None
        if status >= 500:
            log.info("%s: HTTP %d; posting another way", route, status)
            raise discord.DiscordServerError(params.response, data)
        if status == 429:
            refused = WebhookRefused(params.response, data)
            if limits.limited(found["token"], refused.retry_after, shared=refused.shared):
                log.warning(
                    "%s: HTTP 429 (%s), %.1f s; posting another way meanwhile",
                    route,
                    "the channel's webhook messages" if refused.shared else "this interaction",
                    refused.retry_after,
                )
            raise refused
        if data.get("code") == UNKNOWN_WEBHOOK and limits.gone(found["token"]):
            log.warning("%s: HTTP 404 (code 10015): the interaction's token is gone", route)

    trace.on_request_start.append(on_start)
    trace.on_request_end.append(on_end)
    return trace
