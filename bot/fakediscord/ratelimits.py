"""Discord's rate limits as the fake enforces them (discord-api-docs ``topics/rate-limits.mdx``).

- The **global** limit: "All bots can make up to 50 requests per second to our API" (line
  122), over every route but the interaction endpoints, which "are not bound to the bot's
  Global Rate Limit" (line 128): an interaction's callback and its webhook (follow-ups and
  edits through its token).
- **Per-route buckets**, one per route and major parameter (a channel, a guild, a webhook):
  Discord does not publish their sizes ("rate limits should not be hard coded into your
  app", line 11); :data:`DISCORD_ROUTE_LIMITS` holds what bots meet in practice, 5 messages
  per 5 seconds in a channel.
- An interaction's **webhook**: "Interactions webhooks share the same rate limit properties
  as normal webhooks" (``interactions/receiving-and-responding.mdx:429``), a bucket per token
  over its follow-ups and their reads, edits and deletes (:data:`WEBHOOK_TOKEN_LIMIT`), and
  the hidden limit of webhook messages in a channel (:data:`WEBHOOK_CHANNEL_LIMIT`), answered
  with a ``shared`` 429 no header warned of. Both are on unless ``webhook_limits`` is off.
- **Invalid requests**: "An invalid request is one that results in 401, 403, or 429
  statuses" (line 132), "10,000 per 10 minutes", but "429 errors returned with
  ``X-RateLimit-Scope: shared`` are not counted against you" (line 138); every answer the
  fake gives passes :meth:`RateLimits.answered`, which counts them in a sliding ten minutes.

Every bucketed answer carries the ``X-RateLimit-*`` headers discord.py reads (and waits on
when ``Remaining`` is 0); a request over a limit gets Discord's 429 body and headers. Every
request is counted by bucket, and each 429 by kind, for the soak and the ceiling benchmark.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping
from typing import Any

__all__ = [
    "DISCORD_ROUTE_LIMITS",
    "GLOBAL_PER_SECOND",
    "INVALID_REQUEST_LIMIT",
    "WEBHOOK_CHANNEL_LIMIT",
    "WEBHOOK_CHANNEL_RETRY_AFTER",
    "WEBHOOK_ROUTES",
    "WEBHOOK_TOKEN_LIMIT",
    "RateLimits",
    "counted",
]

GLOBAL_PER_SECOND = 50
# Route -> (requests, seconds) per major parameter; what bots meet on Discord.
DISCORD_ROUTE_LIMITS: dict[str, tuple[int, float]] = {
    "POST /channels/{channel_id}/messages": (5, 5.0),
    "PATCH /channels/{channel_id}/messages/{message_id}": (5, 5.0),
    "DELETE /channels/{channel_id}/messages/{message_id}": (5, 5.0),
}
_MAJOR = ("channel_id", "guild_id", "token")

# An interaction's webhook routes, one bucket per token (the callback is not among them). Its
# size is not published; measured "5/2s per interaction" (discord-api-docs#2701, where staff
# answer "The rate limits used are identical to webhook rate limits"), as staff said of
# webhooks on #367: "it should be reporting 5/2".
WEBHOOK_ROUTES = frozenset(
    {
        "POST /webhooks/{app_id}/{token}",
        "GET /webhooks/{app_id}/{token}/messages/{message_id}",
        "PATCH /webhooks/{app_id}/{token}/messages/{message_id}",
        "DELETE /webhooks/{app_id}/{token}/messages/{message_id}",
    }
)
WEBHOOK_TOKEN_LIMIT = (5, 2.0)
_WEBHOOK_BUCKET = "webhooks/{app_id}/{token}"  # one X-RateLimit-Bucket for the four routes
# Webhook messages a channel takes in any 60 s: "the 30/60 was added as a limit to the channel
# itself" (staff on discord-api-docs#367); "Spam a webhook message 30 times. The next one will
# return 429 with a "retry_after" of 40 or more seconds" (#4043; #1454: "typically between
# 40-45 seconds"). Ephemeral follow-ups count too ("ephemeral messages have the channel-level
# webhook ratelimit applied to them", #3763).
WEBHOOK_CHANNEL_LIMIT = (30, 60.0)
WEBHOOK_CHANNEL_RETRY_AFTER = 40.0
# topics/rate-limits.mdx:132: "Currently, this limit is 10,000 per 10 minutes. An invalid
# request is one that results in 401, 403, or 429 statuses."
INVALID_REQUEST_LIMIT = (10_000, 600.0)
_INVALID_STATUSES = frozenset({401, 403, 429})
_PRUNE_AT = 4096  # token buckets kept before the ended ones are swept out


def counted(route: str) -> bool:
    """Whether ``route`` counts against the global limit: all but the interaction endpoints
    (its callback, and its webhook: the fake's webhooks are all interactions')."""
    path = route.partition(" ")[2]
    return not path.startswith(("/interactions/", "/webhooks/{app_id}/{token}"))


class RateLimits:
    """The global limit (on unless ``global_per_second`` is ``None``), the per-route buckets
    in ``route_limits`` (none unless set: a test or the soak turns them on) and an
    interaction webhook's two limits (on unless ``webhook_limits`` is ``False``)."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.global_per_second: int | None = GLOBAL_PER_SECOND
        self.route_limits: dict[str, tuple[int, float]] = {}
        self.requests: Counter[str] = Counter()  # by route, every request
        self.bucket_requests: Counter[str] = Counter()  # by bucket: "route @ major parameter"
        self.global_requests = 0  # requests that count against the global limit
        self.global_429 = 0
        self.route_429: Counter[str] = Counter()
        self.limited: list[tuple[str, str]] = []  # (route, major parameter) per route 429
        self.webhook_limits = True
        self.webhook_429: Counter[str] = Counter()  # "token" (its bucket), "channel" (shared)
        self.invalid_requests_peak = 0  # the most invalid requests any 10 minutes held
        self._global = _Window()
        self._buckets: dict[tuple[str, str], _Window] = {}
        self._tokens: dict[str, _Window] = {}
        self._channel_posts: dict[int, deque[float]] = {}
        self._invalid: deque[float] = deque()

    def reset(self) -> None:
        """Empty every window and count, as if the bot had been quiet for a while."""
        self.requests.clear()
        self.bucket_requests.clear()
        self.global_requests = self.global_429 = 0
        self.route_429.clear()
        self.limited.clear()
        self.webhook_429.clear()
        self.invalid_requests_peak = 0
        self._global = _Window()
        self._buckets.clear()
        self._tokens.clear()
        self._channel_posts.clear()
        self._invalid.clear()

    def take(
        self, route: str, params: dict[str, str]
    ) -> tuple[dict[str, str], dict[str, Any] | None]:
        """Count one request: the headers to answer it with, and a 429 body if it is over a
        limit (then it is not served, and not counted against the limits)."""
        now = self.clock()
        self.requests[route] += 1
        if counted(route) and self.global_per_second is not None:
            retry = self._global.full(now, self.global_per_second, 1.0)
            if retry is not None:
                self.global_429 += 1
                scope = {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
                return scope | _retry(retry), _body(retry, is_global=True)
        if self.webhook_limits and route in WEBHOOK_ROUTES:
            return self._take_webhook(now, params["token"])
        limit = self.route_limits.get(route)
        headers: dict[str, str] = {}
        if limit is not None:
            count, seconds = limit
            major = next((params[key] for key in _MAJOR if key in params), "")
            self.bucket_requests[f"{route} @ {major}"] += 1
            bucket = self._buckets.setdefault((route, major), _Window())
            retry = bucket.full(now, count, seconds)
            if retry is not None:
                self.route_429[route] += 1
                self.limited.append((route, major))
                headers = _bucket(route, count, 0, retry) | {"X-RateLimit-Scope": "user"}
                return headers | _retry(retry), _body(retry, is_global=False)
            bucket.used += 1
            headers = _bucket(route, count, count - bucket.used, bucket.resets - now)
        if counted(route):
            self.global_requests += 1
            self._global.used += 1
        return headers, None

    def _take_webhook(self, now: float, token: str) -> tuple[dict[str, str], dict[str, Any] | None]:
        """One request on an interaction's webhook, in its token's bucket."""
        if len(self._tokens) > _PRUNE_AT:
            self._tokens = {key: w for key, w in self._tokens.items() if w.resets > now}
        count, seconds = WEBHOOK_TOKEN_LIMIT
        bucket = self._tokens.setdefault(token, _Window())
        retry = bucket.full(now, count, seconds)
        if retry is not None:
            self.webhook_429["token"] += 1
            headers = _bucket(_WEBHOOK_BUCKET, count, 0, retry) | {"X-RateLimit-Scope": "user"}
            return headers | _retry(retry), _body(retry, is_global=False)
        bucket.used += 1
        return _bucket(_WEBHOOK_BUCKET, count, count - bucket.used, bucket.resets - now), None

    def webhook_message(
        self, channel_id: int, token: str
    ) -> tuple[dict[str, str], dict[str, Any]] | None:
        """Count a new message a webhook (``token``'s) posts in ``channel_id``; or, when the
        channel took :data:`WEBHOOK_CHANNEL_LIMIT` in the last 60 s, the headers and body of
        Discord's ``shared`` 429 instead (the request is given back to its token's bucket:
        refused, it counts in neither)."""
        if not self.webhook_limits:
            return None
        now = self.clock()
        count, seconds = WEBHOOK_CHANNEL_LIMIT
        posts = self._channel_posts.setdefault(channel_id, deque())
        while posts and posts[0] <= now - seconds:
            posts.popleft()
        if len(posts) < count:
            posts.append(now)
            return None
        self.webhook_429["channel"] += 1
        headers: dict[str, str] = {}
        bucket = self._tokens.get(token)
        if bucket is not None:
            bucket.used = max(0, bucket.used - 1)
            # "The normal rate limit headers track your per-user usage" (staff on #4043, whose
            # 429 showed the token's 5-request bucket); rate-limits.mdx:61: "normal route
            # rate-limiting headers will also be sent in this response" (its shared example,
            # lines 85-102, has Remaining 9 of 10). Retry-After alone says when to retry.
            limit = WEBHOOK_TOKEN_LIMIT[0]
            headers = _bucket(_WEBHOOK_BUCKET, limit, limit - bucket.used, bucket.resets - now)
        retry = WEBHOOK_CHANNEL_RETRY_AFTER
        headers |= {"X-RateLimit-Scope": "shared"} | _retry(retry)
        # The message of rate-limits.mdx's "Exceeded Resource Rate Limit Response" (line 98).
        return headers, _body(retry, is_global=False, message="The resource is being rate limited.")

    def answered(self, status: int, headers: Mapping[str, str]) -> None:
        """Count one answer the fake gave (every one passes here): an invalid request is a
        401, 403 or 429 (rate-limits.mdx:132), but "429 errors returned with
        ``X-RateLimit-Scope: shared`` are not counted against you" (line 138)."""
        if status not in _INVALID_STATUSES:
            return
        if status == 429 and headers.get("X-RateLimit-Scope") == "shared":
            return
        self._invalid.append(self.clock())
        in_window = self.invalid_requests_in_window()
        self.invalid_requests_peak = max(self.invalid_requests_peak, in_window)

    def invalid_requests_in_window(self) -> int:
        """Invalid requests in the last 10 minutes (Discord restricts an IP past 10,000)."""
        since = self.clock() - INVALID_REQUEST_LIMIT[1]
        while self._invalid and self._invalid[0] <= since:
            self._invalid.popleft()
        return len(self._invalid)

    def report(self) -> dict[str, int]:
        """Requests by route, global-limit requests and 429s, webhook 429s and the most
        invalid requests in 10 minutes, for a benchmark's table."""
        found = {f"requests {route}": n for route, n in sorted(self.requests.items())}
        found["requests against the global limit"] = self.global_requests
        found["global 429s"] = self.global_429
        found |= {f"429s {route}": n for route, n in sorted(self.route_429.items())}
        found["webhook 429s (token)"] = self.webhook_429["token"]
        found["webhook 429s (channel)"] = self.webhook_429["channel"]
        found["invalid requests (peak per 10 min)"] = self.invalid_requests_peak
        return found


class _Window:
    """A bucket as Discord runs one: a window opens at its first request and holds ``limit``
    requests; when it ends, the next request opens a fresh one (discord.py models it so,
    from ``Remaining`` and ``Reset-After``)."""

    def __init__(self) -> None:
        self.resets = 0.0
        self.used = 0

    def full(self, now: float, limit: int, seconds: float) -> float | None:
        """Seconds until the window resets if it is full, else ``None`` (opening a new
        window when the last one has ended)."""
        if now >= self.resets:
            self.resets, self.used = now + seconds, 0
        if self.used >= limit:
            return round(self.resets - now, 3)
        return None


def _bucket(route: str, limit: int, remaining: int, reset_after: float) -> dict[str, str]:
    return {
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": str(max(0, remaining)),
        "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
        "X-RateLimit-Reset-After": f"{max(0.0, reset_after):.3f}",
        "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16],
    }


def _retry(seconds: float) -> dict[str, str]:
    # "Via" marks a 429 from Discord's API rather than from Cloudflare, as discord.py checks.
    return {"Retry-After": str(max(1, round(seconds))), "Via": "1.1 google"}


def _body(
    seconds: float, *, is_global: bool, message: str = "You are being rate limited."
) -> dict[str, Any]:
    return {"message": message, "retry_after": seconds, "global": is_global}
