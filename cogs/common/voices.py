"""Speaking in a channel through members' interactions, which Discord does not count.

Discord allows a bot 50 requests a second in all, across every process of one token, but
"interaction endpoints are not bound to the bot's Global Rate Limit" (discord-api-docs,
``topics/rate-limits.mdx``): an interaction's answer, and its webhook, which can post more
messages in the interaction's channel and edit the ones it posted, for 15 minutes.

So a member's interaction whose own answer is a public message in its channel (a table, a
lobby, a notice) becomes one of that channel's **voices** until its token expires: the
tables the bot posts by itself (computer moves, timeouts, reminders, a move made from a
private hand) go out as follow-ups of the newest one with room, and an old table is retired
through the interaction that posted it. Discord draws a follow-up as a reply to its
interaction's first answer (discord-api-docs#2733), so only an interaction answered in
public may speak: a private hand, a refusal, a pick in a private menu, a form or a deferral
("thinking") never does, or every member would see a reply to a message they cannot open.

Each voice is held to its share of Discord's webhook limits (:mod:`bot.webhooks`): a token
Discord refused is not used again until its Retry-After has passed, a channel near its
limit on webhook messages takes the bot's token instead. Only with no voice that can speak
(15 minutes of silence, a restart, a limit) does the bot speak with its own token, which
counts; a member's click on a table posted that way adopts it (:meth:`Voices.adopt`), so
the move after it is free again.

Tokens are secrets: they live in memory only, never in the store or a log.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

import discord

from bot.webhooks import WebhookLimits

__all__ = ["TOKEN_SECONDS", "Voice", "Voices", "voice_of", "voices_of"]

TOKEN_SECONDS: Final = 15 * 60  # how long an interaction's token works (Discord's docs)
# Not used in its last minute: a post may wait on a rate limit, and clocks drift.
_MARGIN_SECONDS: Final = 60.0
_PRUNE_AT: Final = 4096  # authors kept before the expired ones are swept out
_KEPT: Final = 3  # voices kept per channel: one refused or busy, the next one speaks
# A Hand click makes itself a voice when the channel's newest has less than this left, so
# that a table whose members play from their private hands keeps a voice (docs/design.md §4).
_FRESH_SECONDS: Final = 10 * 60.0


@dataclass(frozen=True, slots=True)
class Voice:
    """An interaction's webhook and when it stops working (``time.time()``). ``adopted``: the
    click whose message is the one this voice may edit, as its original response (a table
    posted with the bot's token, acknowledged by the click with a deferred update)."""

    webhook: discord.Webhook
    expires: float
    token: str
    adopted: discord.Interaction[Any] | None = None

    def live(self, now: float) -> bool:
        """Whether the token still works at ``now``, with a margin."""
        return now < self.expires


def voice_of(interaction: discord.Interaction[Any]) -> Voice:
    """The voice of ``interaction``: its follow-up webhook, until its token expires."""
    created = interaction.created_at.timestamp()
    return Voice(interaction.followup, created + TOKEN_SECONDS - _MARGIN_SECONDS, interaction.token)


class Voices:
    """Each channel's newest voices, which voice posted each live message, and how much of
    Discord's webhook limits each token and channel has left (``limits``)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.time,
        *,
        enabled: bool = True,
        limits: WebhookLimits | None = None,
    ) -> None:
        self.clock = clock
        self.enabled = enabled  # off: the bot speaks with its own token only
        self.limits = WebhookLimits() if limits is None else limits
        self._channels: dict[int, list[Voice]] = {}
        self._authors: dict[int, Voice] = {}

    def spoke(self, interaction: discord.Interaction[Any], message_id: int | None = None) -> None:
        """``interaction`` was answered with a public message in its channel (``message_id``,
        which it can edit while it lives): from now on it may carry the bot's public posts
        there, drawn by Discord as replies to that message."""
        channel_id = interaction.channel_id
        if not self.enabled or channel_id is None:
            return
        voice = voice_of(interaction)
        self._speak(channel_id, voice)
        if message_id is not None:
            self.posted(message_id, voice)

    def _speak(self, channel_id: int, voice: Voice) -> None:
        kept = [v for v in self._channels.get(channel_id, ()) if v.token != voice.token]
        kept.append(voice)
        kept.sort(key=lambda v: v.expires, reverse=True)
        self._channels[channel_id] = kept[:_KEPT]

    def posted(self, message_id: int, voice: Voice) -> None:
        """``voice`` posted ``message_id``: it can edit it while it lives."""
        if not self.enabled:
            return
        if len(self._authors) >= _PRUNE_AT:
            now = self.clock()
            self._authors = {m: v for m, v in self._authors.items() if v.live(now)}
        self._authors[message_id] = voice

    def speakers(self, channel_id: int) -> list[Voice]:
        """The channel's voices that may post now (alive, with room in their token's and
        the channel's webhook limits), newest first; none at all if the channel has no
        room for another webhook message."""
        voices = self._live(channel_id)
        if not self.limits.channel_room(channel_id):
            return []
        return [voice for voice in voices if self.limits.room(voice.token)]

    def fresh(self, channel_id: int) -> bool:
        """Whether the channel has a voice with more than ten minutes to live."""
        later = self.clock() + _FRESH_SECONDS
        return any(voice.expires > later for voice in self._live(channel_id))

    def _live(self, channel_id: int) -> list[Voice]:
        voices = self._channels.get(channel_id)
        if not voices:
            return []
        now = self.clock()
        alive = [v for v in voices if v.live(now) and self.limits.alive(v.token)]
        if len(alive) != len(voices):
            if alive:
                self._channels[channel_id] = alive
            else:
                del self._channels[channel_id]
        return alive

    async def adopt(self, interaction: discord.Interaction[Any], *, speak: bool = False) -> None:
        """A click on a public table no live voice posted (a table posted with the bot's
        token: after 15 minutes of silence, or a restart): acknowledge it with a deferred
        update, which makes that message the click's original response, so the click's
        token can retire it later, for free, and carry the bot's posts (drawn as replies to
        that table). The answer then goes out as follow-ups. ``speak`` (a Hand click): also
        when the channel has no voice with ten minutes left, so that members playing from
        their private hands keep a voice."""
        message = interaction.message
        channel_id = interaction.channel_id
        if (
            not self.enabled
            or message is None
            or channel_id is None
            or message.flags.ephemeral
            or interaction.response.is_done()
        ):
            return
        if not self.limits.channel_room(channel_id):
            return  # the answer would be a follow-up, a webhook message the channel refuses
        current = self._authors.get(message.id)
        orphan = current is None or not current.live(self.clock())
        if not orphan and not (speak and not self.fresh(channel_id)):
            return
        await interaction.response.defer()
        voice = voice_of(interaction)
        if orphan:
            self._authors[message.id] = replace(voice, adopted=interaction)
        # Its posts are follow-ups, edited by their own id: only the table is its original.
        self._speak(channel_id, voice)

    def author(self, message_id: int) -> Voice | None:
        """The live voice that posted ``message_id``, if Discord would take an edit through
        it now with room to spare in its token's bucket (forgotten: a message is retired
        once)."""
        voice = self._authors.pop(message_id, None)
        if voice is None or not voice.live(self.clock()):
            return None
        return voice if self.limits.edit_room(voice.token) else None

    def silenced(self, voice: Voice) -> None:
        """Discord refused ``voice`` for good (its token expired early, or was revoked):
        drop it. (A 429 only rests it: :mod:`bot.webhooks` knows until when.)"""
        for channel_id, voices in list(self._channels.items()):
            kept = [v for v in voices if v.token != voice.token]
            if len(kept) != len(voices):
                if kept:
                    self._channels[channel_id] = kept
                else:
                    del self._channels[channel_id]


def voices_of(client: Any) -> Voices | None:
    """The voices of the bot's Discord poster, if it has one (the cogs installed it)."""
    voices = getattr(getattr(getattr(client, "sessions", None), "poster", None), "voices", None)
    return voices if isinstance(voices, Voices) else None
