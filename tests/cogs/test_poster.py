"""The Discord poster: what a refused table costs in the log."""

from __future__ import annotations

import logging
import time
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.sessions import Post
from bot.webhooks import WebhookRefused
from cogs.common.poster import DiscordPoster
from cogs.common.voices import Voice, Voices


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


class Webhook:
    """An interaction's follow-up webhook whose sends answer with the statuses given, in
    turn (200: posted; 429: Discord's refusal as the bot's trace raises it, at once)."""

    def __init__(self, statuses: list[int]) -> None:
        self.statuses = statuses
        self.sent: list[str] = []

    async def send(self, content: str, **_: Any) -> SimpleNamespace:
        status = self.statuses.pop(0)
        self.sent.append(content)
        if status == 200:
            return SimpleNamespace(id=100 + len(self.sent))
        response = SimpleNamespace(status=status, reason="refused", headers={})
        if status == 429:
            refused = WebhookRefused.__new__(WebhookRefused)
            discord.HTTPException.__init__(refused, response, {"retry_after": 40.0})  # type: ignore[arg-type]
            refused.retry_after, refused.shared = 40.0, True
            raise refused
        raise discord.NotFound(response, {"code": 10015, "message": "Unknown Webhook"})  # type: ignore[arg-type]


def voice(webhook: Webhook, token: str, expires: float) -> Voice:
    return Voice(webhook, expires, token)  # type: ignore[arg-type]


async def test_a_refused_voice_hands_the_table_to_the_next_voice_then_to_the_bots_token() -> None:
    """The newest voice answers 429 (raised at once, not slept on): the same table goes
    through the next voice; when every voice is refused, with the bot's token. A voice gone
    for good (10015) is dropped; one refused for a while only rests."""
    channel = Channel([200])
    client = SimpleNamespace(get_partial_messageable=lambda channel_id: channel)
    poster = DiscordPoster(client)  # type: ignore[arg-type]
    voices = poster.voices
    newest, older = Webhook([429]), Webhook([200, 404])
    now = time.time()
    voices._speak(5, voice(newest, "new", now + 600))
    voices._speak(5, voice(older, "old", now + 300))
    post = Post(5, 1, "table", (), "en")
    assert await poster.post(post) == 101  # through the older voice
    assert newest.sent == older.sent == ["table"]
    assert [v.token for v in voices._live(5)] == ["new", "old"]  # the refused one rests
    voices.limits.limited("new", 40.0, shared=False)  # as the trace records it
    assert [v.token for v in voices.speakers(5)] == ["old"]
    assert await poster.post(post) == 9  # the older one's token is gone: the bot's own
    assert [v.token for v in voices._live(5)] == ["new"]


def test_a_channel_keeps_its_three_newest_voices_and_knows_when_they_grow_old() -> None:
    voices = Voices()
    now = time.time()
    for i in range(5):
        voices._speak(5, voice(Webhook([]), f"t{i}", now + 60 * i))
    assert [v.token for v in voices.speakers(5)] == ["t4", "t3", "t2"]
    assert voices.speakers(6) == []
    assert not voices.fresh(5)  # the newest has four minutes left: a Hand click speaks
    voices._speak(5, voice(Webhook([]), "t9", now + 11 * 60))
    assert voices.fresh(5)


class Click:
    """A click on a public table posted with the bot's token: its deferred update makes the
    table its original response; its follow-ups are messages of their own."""

    def __init__(self, table_id: int) -> None:
        self.message = SimpleNamespace(id=table_id, flags=discord.MessageFlags())
        self.channel_id, self.token = 5, "click"
        self.created_at = discord.utils.utcnow()
        self.followup = Webhook([200])
        self.edited: list[tuple[str, int]] = []
        self.deferred = False
        self.response = SimpleNamespace(is_done=lambda: self.deferred, defer=self._defer)
        self.followup.edit_message = self._edit_followup  # type: ignore[attr-defined]

    async def _defer(self) -> None:
        self.deferred = True

    async def _edit_followup(self, message_id: int, **_: Any) -> None:
        self.edited.append(("follow-up", message_id))

    async def edit_original_response(self, **_: Any) -> None:
        self.edited.append(("original", self.message.id))


async def test_an_adopted_clicks_follow_up_is_retired_as_itself_and_its_table_as_the_original() -> (
    None
):
    """A table the click adopted is its original response; a table it then posts is a
    follow-up, retired by its own id (editing ``@original`` there retired the older table
    twice and left the newer one's buttons live)."""
    poster = DiscordPoster(SimpleNamespace())  # type: ignore[arg-type]
    click = Click(table_id=7)
    await poster.voices.adopt(click)  # type: ignore[arg-type]
    assert click.deferred
    newer = await poster.post(Post(5, 1, "table", (), "en"))
    assert newer == 101 and click.followup.sent == ["table"]
    await poster.strip(5, newer)
    await poster.strip(5, 7)
    assert click.edited == [("follow-up", 101), ("original", 7)]
