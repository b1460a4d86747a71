"""The Discord poster: what a refused table costs in the log."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.sessions import Post
from cogs.common.poster import DiscordPoster


class Channel:
    """A channel whose sends answer with the statuses given, in turn (200: posted)."""

    def __init__(self, statuses: list[int]) -> None:
        self.statuses = statuses

    async def send(self, content: str, **_: Any) -> SimpleNamespace:
        status = self.statuses.pop(0)
        if status == 200:
            return SimpleNamespace(id=9)
        response = SimpleNamespace(status=status, reason="refused")
        raise discord.HTTPException(response, {"code": 50013, "message": "Missing Permissions"})


async def test_a_channel_refusing_tables_for_good_is_one_error_until_a_table_gets_through(
    caplog: pytest.LogCaptureFixture,
) -> None:
    channel = Channel([403, 403, 403, 200, 403, 502])
    client = SimpleNamespace(get_partial_messageable=lambda channel_id: channel)
    poster = DiscordPoster(client)  # type: ignore[arg-type]
    post = Post(5, 1, "table", (), "en")
    with caplog.at_level(logging.WARNING):
        found = [await poster.post(post) for _ in range(6)]
    assert found == [None, None, None, 9, None, None]
    levels = [record.levelname for record in caplog.records]
    # The first refusal, and the first again after a table got through; the reposts between
    # them and Discord's own failure (502) are warnings. Each says what Discord answered, in
    # one line, without a traceback.
    assert levels == ["ERROR", "WARNING", "WARNING", "ERROR", "WARNING"]
    assert not any(record.exc_info for record in caplog.records)
    assert all("HTTP 403" in r.getMessage() for r in caplog.records[:4])
    assert "HTTP 502" in caplog.records[4].getMessage()
