"""Speaking in a channel through members' interactions, which Discord does not count.

Discord allows a bot 50 requests a second in all, across every process of one token, but
"interaction endpoints are not bound to the bot's Global Rate Limit" (discord-api-docs,
``topics/rate-limits.mdx``): an interaction's answer, and its webhook, which can post more
messages in the interaction's channel and edit the ones it posted, for 15 minutes.

So every member's interaction in a channel becomes that channel's **voice** until its token
expires: the tables the bot posts by itself (computer moves, timeouts, reminders) go out as
follow-ups of the newest one, and an old table is retired through the interaction that
posted it. Only with no live voice (15 minutes of silence, a restart) does the bot speak
with its own token, which counts; a member's click on a table posted that way adopts it
(:meth:`Voices.adopt`), so the move after it is free again.

Tokens are secrets: they live in memory only, never in the store or a log.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

import discord

__all__ = ["TOKEN_SECONDS", "Voice", "Voices", "voices_of"]

TOKEN_SECONDS: Final = 15 * 60  # how long an interaction's token works (Discord's docs)
# Not used in its last minute: a post may wait on a rate limit, and clocks drift.
_MARGIN_SECONDS: Final = 60.0
_PRUNE_AT: Final = 4096  # authors kept before the expired ones are swept out


@dataclass(frozen=True, slots=True)
class Voice:
    """An interaction's webhook and when it stops working (``time.time()``). ``adopted``: the
    click whose message is the one this voice may edit, as its original response (a table
    posted with the bot's token, acknowledged by the click with a deferred update)."""

    webhook: discord.Webhook
    expires: float
    adopted: discord.Interaction[Any] | None = None

    def live(self, now: float) -> bool:
        """Whether the token still works at ``now``, with a margin."""
        return now < self.expires


def voice_of(interaction: discord.Interaction[Any]) -> Voice:
    """The voice of ``interaction``: its follow-up webhook, until its token expires."""
    created = interaction.created_at.timestamp()
    return Voice(interaction.followup, created + TOKEN_SECONDS - _MARGIN_SECONDS)


class Voices:
    """Each channel's newest voice, and which voice posted each live message."""

    def __init__(self, clock: Callable[[], float] = time.time, *, enabled: bool = True) -> None:
        self.clock = clock
        self.enabled = enabled  # off: the bot speaks with its own token only
        self._channels: dict[int, Voice] = {}
        self._authors: dict[int, Voice] = {}

    def heard(self, interaction: discord.Interaction[Any]) -> None:
        """A member's interaction, answered: the channel's voice if it is the newest.
        (A follow-up needs the interaction answered first.)"""
        channel_id = interaction.channel_id
        if not self.enabled or channel_id is None or not interaction.response.is_done():
            return
        voice = voice_of(interaction)
        current = self._channels.get(channel_id)
        if current is None or current.expires < voice.expires:
            self._channels[channel_id] = voice

    def posted(self, message_id: int, voice: Voice) -> None:
        """``voice`` posted ``message_id``: it can edit it while it lives."""
        if not self.enabled:
            return
        if len(self._authors) >= _PRUNE_AT:
            now = self.clock()
            self._authors = {m: v for m, v in self._authors.items() if v.live(now)}
        self._authors[message_id] = voice

    def of_channel(self, channel_id: int) -> Voice | None:
        """The channel's live voice, if any."""
        voice = self._channels.get(channel_id)
        if voice is None or not voice.live(self.clock()):
            self._channels.pop(channel_id, None)
            return None
        return voice

    async def adopt(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a public message no live voice posted (a table posted with the bot's
        token: after 15 minutes of silence, or a restart): acknowledge it with a deferred
        update, which makes that message the click's original response, so the click's
        token can retire it later, for free. The answer then goes out as follow-ups."""
        message = interaction.message
        if (
            not self.enabled
            or message is None
            or message.flags.ephemeral
            or interaction.response.is_done()
        ):
            return
        current = self._authors.get(message.id)
        if current is not None and current.live(self.clock()):
            return
        await interaction.response.defer()
        self._authors[message.id] = replace(voice_of(interaction), adopted=interaction)

    def author(self, message_id: int) -> Voice | None:
        """The live voice that posted ``message_id`` (forgotten: a message is retired once)."""
        voice = self._authors.pop(message_id, None)
        return voice if voice is not None and voice.live(self.clock()) else None

    def silenced(self, voice: Voice) -> None:
        """Discord refused ``voice`` (its token expired early, or was revoked): drop it."""
        for channel_id, current in list(self._channels.items()):
            if current is voice:
                del self._channels[channel_id]


def voices_of(client: Any) -> Voices | None:
    """The voices of the bot's Discord poster, if it has one (the cogs installed it)."""
    voices = getattr(getattr(getattr(client, "sessions", None), "poster", None), "voices", None)
    return voices if isinstance(voices, Voices) else None
