"""Each process keeps to its share of Discord's 50 requests a second."""

from __future__ import annotations

import pytest

from bot.budget import DISCORD_GLOBAL_PER_SECOND, RequestBudget, counted_request, share_of
from bot.client import request_rate
from bot.settings import Settings


class Clock:
    """Time that moves only when a request waits."""

    def __init__(self) -> None:
        self.now = 0.0
        self.waits: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


async def test_a_budget_keeps_every_second_under_its_share() -> None:
    """A share of 25 a second: a small burst, then 20 a second (a fifth below the share), so
    no one-second window, however it falls, holds 25, even when the requests reach Discord
    up to 0.15 s later than the budget let them go (bunched by the loop or the network)."""
    clock = Clock()
    budget = RequestBudget(25, clock=clock, sleep=clock.sleep)
    stamps = []
    for _ in range(500):
        await budget.take()
        stamps.append(clock.now)
    assert stamps[:2] == [0.0, 0.0] and budget.waited == 498  # a burst of 2: two at once
    assert stamps[-1] == pytest.approx((500 - 2) / 20)  # the burst, then the pace
    for start in stamps:
        assert sum(start <= s < start + 1.15 for s in stamps) < 25


async def test_a_quiet_budget_fills_up_to_a_tenth_of_a_second_only() -> None:
    clock = Clock()
    budget = RequestBudget(50, clock=clock, sleep=clock.sleep)
    clock.now = 3600.0  # an hour of silence saves no more than a small burst
    for _ in range(4):
        await budget.take()
    assert budget.waited == 0
    await budget.take()
    assert budget.waited == 1


def test_the_processes_of_one_bot_share_the_50_by_the_shards_they_serve() -> None:
    assert share_of(None, None) == DISCORD_GLOBAL_PER_SECOND == 50
    assert share_of(1, 2) == 25.0 and share_of(3, 4) == 37.5
    base = {"discord_token": "x", "_env_file": None}
    assert request_rate(Settings(**base)) == 50  # type: ignore[arg-type]
    two = Settings(shard_count=4, shard_ids="0,1", **base)  # type: ignore[arg-type]
    assert request_rate(two) == 25
    chosen = Settings(global_requests_per_second=10, **base)  # type: ignore[arg-type]
    assert request_rate(chosen) == 10
    with pytest.raises(ValueError):
        RequestBudget(0)


@pytest.mark.parametrize(
    ("path", "counted"),
    [
        ("/api/v10/channels/5/messages", True),
        ("/api/v10/channels/5/messages/6", True),
        ("/api/v10/applications/77/commands", True),
        ("/api/v10/users/@me", True),
        ("/api/v10/webhooks/12/sometoken", True),  # another application's webhook
        ("/api/v10/webhooks/77", True),  # a webhook by id, with the bot's token
        ("/api/v10/interactions/9/tok/callback", False),
        ("/api/v10/webhooks/77/tok", False),  # an interaction's follow-up
        ("/api/v10/webhooks/77/tok/messages/6", False),  # its edit
        ("/api/v10/webhooks/77/tok/messages/@original", False),
        ("/", False),  # the gateway's websocket (the fake serves it at its root)
        ("/?v=10&encoding=json", False),
    ],
)
def test_only_the_interaction_endpoints_are_free(path: str, counted: bool) -> None:
    """Discord: "interaction endpoints are not bound to the bot's Global Rate Limit"."""
    assert counted_request(path, 77) is counted
