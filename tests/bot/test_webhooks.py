"""The bot's own count of Discord's interaction-webhook limits (``bot/webhooks.py``), and its
trace: a 429 on a webhook is raised at once, never slept on; a 10015 retires the token."""

from __future__ import annotations

import logging
import time
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web

from bot.webhooks import (
    CHANNEL_MESSAGES,
    TOKEN_REQUESTS,
    WebhookLimits,
    WebhookRefused,
    posting,
    watch_webhooks,
)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_token_has_room_until_the_bot_used_three_of_its_five_in_two_seconds() -> None:
    """Two of the bucket's five are left for the member's own answers on the same token, so
    discord.py never sees Remaining reach 0 (it would sleep on it holding the lock)."""
    clock = Clock()
    limits = WebhookLimits(clock)
    limits.bind("tok", 7)
    for _ in range(3):
        assert limits.room("tok")
        limits.request("tok", message=False)
    assert not limits.room("tok") and limits.usable("tok")
    assert TOKEN_REQUESTS == (5, 2.0)
    clock.now += 2.01  # the window has slid past them
    assert limits.room("tok")


def test_a_channel_has_room_for_webhook_messages_below_its_limit_and_edits_do_not_count() -> None:
    clock = Clock()
    limits = WebhookLimits(clock)
    tokens = [f"t{i}" for i in range(30)]
    for token in tokens:
        limits.bind(token, 1)
    limits.bind("other", 2)
    for token in tokens[:24]:
        limits.request(token, message=False)  # edits: no message
    assert limits.channel_room(1)
    for token in tokens[:24]:
        limits.request(token, message=True)
        clock.now += 0.1
    assert not limits.channel_room(1) and not limits.room("t25")  # 24 of 30: the rest is theirs
    assert limits.channel_room(2) and limits.room("other")  # another channel is untouched
    clock.now += CHANNEL_MESSAGES[1]
    assert limits.channel_room(1)


def test_a_refused_token_rests_for_its_retry_after_and_a_shared_429_rests_its_channel() -> None:
    clock = Clock()
    limits = WebhookLimits(clock)
    for token in ("a", "b", "c"):
        limits.bind(token, 1)
    limits.bind("d", 2)
    assert limits.limited("a", 1.5, shared=False)
    assert not limits.limited("a", 1.0, shared=False)  # known already: no second WARNING
    assert not limits.usable("a") and limits.room("b")
    clock.now += 1.6
    assert limits.usable("a") and limits.room("a")
    assert limits.limited("b", 40.0, shared=True)  # past the channel's webhook messages
    assert not limits.room("c") and not limits.channel_room(1)
    assert limits.room("d")
    clock.now += 40.1
    assert limits.room("c")


def test_a_token_discord_no_longer_knows_is_never_used_again() -> None:
    limits = WebhookLimits(Clock())
    limits.bind("gone", 1)
    assert limits.gone("gone") and not limits.gone("gone")  # news once
    assert not limits.alive("gone") and not limits.usable("gone") and not limits.room("gone")
    assert limits.unknown == 1


def test_old_tokens_are_forgotten_by_a_sweep_a_minute_that_reads_only_the_expired() -> None:
    """Tokens are kept in the order they arrived: the sweep, once a minute, stops at the
    first one still alive (sweeping every token on every interaction past a size cost
    seconds of CPU a minute at a few hundred interactions a second)."""
    clock = Clock()
    limits = WebhookLimits(clock)
    for i in range(100):
        limits.bind(f"old{i}", i % 7)
    clock.now += 15 * 60 + 1
    for i in range(100):
        limits.bind(f"new{i}", i % 7)  # the first of these swept the hundred expired ones
    assert set(limits._tokens) == {f"new{i}" for i in range(100)}
    swept_at = clock.now
    clock.now += 30
    limits.bind("later", 1)
    assert "later" in limits._tokens and limits._next_prune == swept_at + 60

    class Counting(dict[str, Any]):
        read = 0

        def items(self) -> Any:
            for item in super().items():
                Counting.read += 1
                yield item

    limits._tokens = Counting(limits._tokens)
    clock.now = swept_at + 61
    limits.bind("next", 1)  # a sweep: nothing expired, it reads one entry and stops
    assert Counting.read == 1 and len(limits._tokens) == 102


def test_an_edit_may_take_the_token_to_four_of_its_five_never_to_the_last() -> None:
    clock = Clock()
    limits = WebhookLimits(clock)
    limits.bind("tok", 7)
    for _ in range(3):
        limits.request("tok", message=True)
    assert not limits.room("tok") and limits.edit_room("tok")  # no post, but the retire
    limits.request("tok", message=False)
    assert not limits.edit_room("tok")
    clock.now += 2.01
    assert limits.edit_room("tok")
    limits.limited("tok", 40.0, shared=False)
    assert not limits.edit_room("tok")


async def _serve(handler: Any) -> tuple[web.AppRunner, str]:
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    return runner, f"http://127.0.0.1:{port}"


async def test_the_trace_counts_each_try_and_raises_a_webhook_429_before_anyone_sleeps_on_it(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Discord's channel limit answered (429, Retry-After 40, shared): the request raises at
    once with the wait, the token and its channel rest, one WARNING names the route with the
    token masked; a 10015 marks the token gone; an interaction's answer may wait a short 429
    out, and raises past a second."""
    answers = {
        "/api/v10/webhooks/1/secret-a": (429, {"retry_after": 40.0, "global": False}, "shared"),
        "/api/v10/webhooks/1/secret-b/messages/5": (404, {"code": 10015}, None),
        "/api/v10/interactions/9/secret-c/callback": (429, {"retry_after": 3.0}, "user"),
        "/api/v10/webhooks/1/secret-d": (200, {"id": "1"}, None),
    }

    async def handler(request: web.Request) -> web.Response:
        status, body, scope = answers[request.path]
        headers = {"Via": "1.1 google", "Retry-After": "40"}
        if scope is not None:
            headers["X-RateLimit-Scope"] = scope
        return web.json_response(body, status=status, headers=headers)

    runner, base = await _serve(handler)
    limits = WebhookLimits()
    for token in ("secret-a", "secret-b", "secret-d", "secret-e"):
        limits.bind(token, 3)
    trace = watch_webhooks(aiohttp.TraceConfig(), limits)
    try:
        async with aiohttp.ClientSession(trace_configs=[trace]) as session:
            caplog.set_level(logging.WARNING, logger="bot.webhooks")
            started = time.monotonic()
            with pytest.raises(WebhookRefused) as refused:
                async with session.post(f"{base}/api/v10/webhooks/1/secret-a?wait=true"):
                    pass
            assert time.monotonic() - started < 1.0  # nobody slept on it
            assert refused.value.status == 429 and refused.value.retry_after == 40.0
            assert refused.value.shared
            assert not limits.usable("secret-a") and not limits.room("secret-e")  # the channel
            async with session.patch(f"{base}/api/v10/webhooks/1/secret-b/messages/5") as r:
                assert r.status == 404  # discord.py raises NotFound itself
            assert not limits.alive("secret-b")
            with pytest.raises(WebhookRefused):
                async with session.post(f"{base}/api/v10/interactions/9/secret-c/callback"):
                    pass
            async with session.post(f"{base}/api/v10/webhooks/1/secret-d") as r:
                assert r.status == 200
            assert limits._tokens["secret-d"].requests  # counted as it started
            assert len(limits._channels[3].messages) == 2  # a and d posted; b was an edit
    finally:
        await runner.cleanup()
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 3, warnings
    assert all("secret" not in w for w in warnings), warnings
    assert "POST /api/v10/webhooks/1/…" in warnings[0] and "40.0 s" in warnings[0]
    assert "10015" in warnings[1]


async def test_a_short_429_on_an_interactions_answer_is_left_to_discord_py() -> None:
    calls = 0

    async def handler(request: web.Request) -> web.Response:
        nonlocal calls
        calls += 1
        return web.json_response({"retry_after": 0.05}, status=429, headers={"Via": "x"})

    runner, base = await _serve(handler)
    trace = watch_webhooks(aiohttp.TraceConfig(), WebhookLimits())
    try:
        async with (
            aiohttp.ClientSession(trace_configs=[trace]) as session,
            session.post(f"{base}/api/v10/interactions/9/tok/callback") as r,
        ):
            assert r.status == 429  # not raised: discord.py waits 0.05 s and tries again
    finally:
        await runner.cleanup()
    assert calls == 1


async def test_a_5xx_on_a_webhook_is_raised_at_once_only_while_the_bot_posts_by_itself() -> None:
    """discord.py retries a 5xx for 1 + 3 + 5 + 7 + 9 s holding the token's lock; a table has
    other ways to go, so within ``posting()`` it is raised at once. A member's own answer
    outside it keeps discord.py's retries (the trace leaves the response to it)."""
    calls = 0

    async def handler(request: web.Request) -> web.Response:
        nonlocal calls
        calls += 1
        return web.Response(status=502, text="<html>bad gateway</html>")

    runner, base = await _serve(handler)
    trace = watch_webhooks(aiohttp.TraceConfig(), WebhookLimits())
    url = f"{base}/api/v10/webhooks/1/tok"
    try:
        async with aiohttp.ClientSession(trace_configs=[trace]) as session:
            async with session.post(url) as r:
                assert r.status == 502  # left to discord.py
            with posting(), pytest.raises(discord.DiscordServerError) as failed:
                async with session.post(url):
                    pass
            assert failed.value.status == 502
            async with session.post(url) as r:  # posting() is over
                assert r.status == 502
    finally:
        await runner.cleanup()
    assert calls == 3
