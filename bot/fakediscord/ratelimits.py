"""Discord's rate limits as the fake enforces them (discord-api-docs ``topics/rate-limits.mdx``).

- The **global** limit: "All bots can make up to 50 requests per second to our API" (line
  122), over every route but the interaction endpoints, which "are not bound to the bot's
  Global Rate Limit" (line 128): an interaction's callback and its webhook (follow-ups and
  edits through its token).
- **Per-route buckets**, one per route and major parameter (a channel, a guild, a webhook):
  Discord does not publish their sizes ("rate limits should not be hard coded into your
  app", line 11); :data:`DISCORD_ROUTE_LIMITS` holds what bots meet in practice, 5 messages
  per 5 seconds in a channel.

Every bucketed answer carries the ``X-RateLimit-*`` headers discord.py reads (and waits on
when ``Remaining`` is 0); a request over a limit gets Discord's 429 body and headers. Every
request is counted by bucket, and each 429 by kind, for the soak and the ceiling benchmark.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

__all__ = [
    "DISCORD_ROUTE_LIMITS",
    "GLOBAL_PER_SECOND",
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


def counted(route: str) -> bool:
    """Whether ``route`` counts against the global limit: all but the interaction endpoints
    (its callback, and its webhook: the fake's webhooks are all interactions')."""
    path = route.partition(" ")[2]
    return not path.startswith(("/interactions/", "/webhooks/{app_id}/{token}"))


class RateLimits:
    """The global limit (on unless ``global_per_second`` is ``None``) and the per-route
    buckets in ``route_limits`` (none unless set: a test or the soak turns them on)."""

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
        self._global = _Window()
        self._buckets: dict[tuple[str, str], _Window] = {}

    def reset(self) -> None:
        """Empty every window and count, as if the bot had been quiet for a while."""
        self.requests.clear()
        self.bucket_requests.clear()
        self.global_requests = self.global_429 = 0
        self.route_429.clear()
        self.limited.clear()
        self._global = _Window()
        self._buckets.clear()

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

    def report(self) -> dict[str, int]:
        """Requests by route, global-limit requests and 429s, for a benchmark's table."""
        found = {f"requests {route}": n for route, n in sorted(self.requests.items())}
        found["requests against the global limit"] = self.global_requests
        found["global 429s"] = self.global_429
        found |= {f"429s {route}": n for route, n in sorted(self.route_429.items())}
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


def _body(seconds: float, *, is_global: bool) -> dict[str, Any]:
    return {"message": "You are being rate limited.", "retry_after": seconds, "global": is_global}
