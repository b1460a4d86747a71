"""The registry's own public messages (timeouts, computer moves, pings) through discord.py.

They go out through one of the channel's voices (a member's interaction answered in public)
where one lives and has room in Discord's webhook limits, which costs nothing against
Discord's global rate limit (:mod:`.voices`), else with the bot's token.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import aiohttp
import discord
from discord.http import handle_message_parameters

from bot.sessions import Post
from bot.webhooks import UNKNOWN_WEBHOOK, WebhookLimits, WebhookRefused, posting
from cogs.common.buttons import NO_PINGS, GameButton, MoveMenu, build_view, mentions
from cogs.common.respond import Deckhand, refused
from cogs.common.voices import Voice, Voices

__all__ = ["STALLED_SECONDS", "DiscordPoster", "install"]

log = logging.getLogger(__name__)

STALLED_SECONDS = 5.0  # a table slower than this to go out is a stalled table (logged)


# What leaves a voice for the next post when it failed: a 429 (it rests until its
# Retry-After), Discord's own failure (5xx), a lost connection. Anything else silences it.
_PASSING = (
    WebhookRefused,
    discord.DiscordServerError,
    aiohttp.ClientConnectionError,
    TimeoutError,
)


class DiscordPoster:
    """:class:`bot.sessions.Poster` on a real client; needs no channel cache."""

    def __init__(self, client: discord.Client, voices: Voices | None = None) -> None:
        self.client = client
        self.voices = Voices() if voices is None else voices
        # Channels where Discord refused a table for good (403: the bot lost its permission;
        # 404): that is one ERROR, and the reposts refused the same way after it WARNINGs,
        # until a table gets through (a moderator may give the permission back).
        self._refusing: set[int] = set()

    async def post(self, post: Post) -> int | None:
        """Send a table; its message id, or ``None`` (logged) if Discord refused it.

        Through the channel's voices, newest first, while one has room in Discord's webhook
        limits; a voice refused (a 429 raised at once, a token gone) hands over to the next,
        then to the bot's own token, so a table never waits out a webhook's Retry-After. A
        table that took longer than :data:`STALLED_SECONDS` to go out is logged (WARNING)."""
        started = time.monotonic()
        try:
            return await self._post(post)
        finally:
            waited = time.monotonic() - started
            if waited > STALLED_SECONDS:
                log.warning(
                    "channel %d: a table stalled %.1f s before it went out", post.channel_id, waited
                )

    async def _post(self, post: Post) -> int | None:
        for voice in self.voices.speakers(post.channel_id):
            if not self.voices.limits.room(voice.token):  # refused meanwhile (its channel)
                continue
            spoken = await self._through(voice, post)
            if spoken is not None:
                return spoken
        channel = self.client.get_partial_messageable(post.channel_id)
        try:
            view = build_view(post)
            pings = mentions(post.mention)
            if view is None:
                message = await channel.send(post.content, allowed_mentions=pings)
            else:
                message = await channel.send(post.content, view=view, allowed_mentions=pings)
        except discord.HTTPException as error:
            # Discord failing (5xx, or 429 after discord.py's own waits) is no bug of ours:
            # the session posts the table again later. Anything else is worth an ERROR.
            transient = error.status >= 500 or error.status == 429
            news = not transient and post.channel_id not in self._refusing
            if not transient:
                self._refusing.add(post.channel_id)
            log.log(
                logging.ERROR if news else logging.WARNING,
                "could not post the table in channel %d (%s); it is posted again later",
                post.channel_id,
                refused(error),
            )
            return None
        except ValueError:  # components discord.py refuses
            log.exception("could not post the table in channel %d", post.channel_id)
            return None
        self._refusing.discard(post.channel_id)
        return message.id

    async def _through(self, voice: Voice, post: Post) -> int | None:
        """``post`` as a follow-up of a member's interaction; ``None`` if Discord would not
        take it that way (a webhook limit, a token gone early: the next way is tried)."""
        try:
            view = build_view(post)
            extra: dict[str, Any] = {} if view is None else {"view": view}
            with posting():
                message = await voice.webhook.send(
                    post.content, allowed_mentions=mentions(post.mention), wait=True, **extra
                )
        except (discord.HTTPException, aiohttp.ClientError, ValueError) as error:
            self._refused_voice(voice, error, f"channel {post.channel_id}: could not post")
            return None
        self.voices.posted(message.id, voice)
        self._refusing.discard(post.channel_id)
        return message.id

    def _refused_voice(self, voice: Voice, error: Exception, what: str) -> None:
        """A voice Discord would not take: a 429 rests it (:mod:`bot.webhooks` logged it and
        knows until when), Discord's own failure (5xx) or a lost connection leaves it for the
        next post; anything else silences it for good."""
        if isinstance(error, _PASSING):
            return
        self.voices.silenced(voice)
        # An aiohttp error's text may hold the URL, and so the token: its kind is enough.
        if isinstance(error, discord.HTTPException):
            reason = refused(error)
        else:
            reason = type(error).__name__
        log.info("%s through an interaction (%s)", what, reason)

    async def strip(self, channel_id: int, message_id: int, note: str | None = None) -> None:
        """Remove an older table's buttons (and with ``note``, say that instead of the old
        text: a retired lobby); a deleted message is no loss.

        Through the voice that posted it while Discord would take it (else the bot's own
        token, which counts), straight through discord.py's HTTP client: the edited message
        Discord sends back is of no use here, and building a ``Message`` from it cost a
        parse on every move.
        """
        changes: dict[str, Any] = {"view": None}
        if note is not None:
            changes.update(content=note, allowed_mentions=NO_PINGS)
        author = self.voices.author(message_id)
        if author is not None:
            try:
                with posting():
                    if author.adopted is not None:  # the click's original is the table
                        await author.adopted.edit_original_response(**changes)
                    else:
                        await author.webhook.edit_message(message_id, **changes)
                return
            except discord.NotFound as error:
                if error.code != UNKNOWN_WEBHOOK:
                    return  # the message was deleted
                self._refused_voice(author, error, f"could not retire message {message_id}")
            except (discord.HTTPException, aiohttp.ClientError) as error:
                # The bot's own token may still do it (below).
                self._refused_voice(author, error, f"could not retire message {message_id}")
        try:
            with handle_message_parameters(**changes) as params:
                await self.client.http.edit_message(channel_id, message_id, params=params)
        except discord.NotFound:
            pass
        except discord.HTTPException as error:
            _refused(error, f"could not remove the buttons of message {message_id}")

    async def ping(self, channel_id: int, member_id: int, text: str) -> None:
        """Mention one member (and nobody else): a turn's half-time reminder.

        Through one of the channel's voices, which costs nothing. With none that can speak
        (nobody at the table has acted for 15 minutes, the bot restarted, a webhook limit)
        there is no reminder: the table that began the turn mentioned the member already,
        and a second ping with the bot's token would spend the global budget on a table
        whose members are away (a timeout then costs its table and retiring the one before
        it: two requests).
        """
        for voice in self.voices.speakers(channel_id):
            if not self.voices.limits.room(voice.token):
                continue
            try:
                with posting():
                    await voice.webhook.send(text, allowed_mentions=mentions(member_id))
                return
            except (discord.HTTPException, aiohttp.ClientError) as error:
                self._refused_voice(voice, error, f"channel {channel_id}: could not ping")
        if self.voices.enabled:
            log.debug("channel %d: no live interaction to remind member %d", channel_id, member_id)
            return
        channel = self.client.get_partial_messageable(channel_id)
        try:
            await channel.send(text, allowed_mentions=mentions(member_id))
        except discord.HTTPException as error:
            _refused(error, f"could not ping in channel {channel_id}")


def _refused(error: discord.HTTPException, what: str) -> None:
    """Log what Discord refused: an ERROR for a malformed request (400, a bug of ours), a
    WARNING for anything else."""
    level = logging.ERROR if error.status == 400 else logging.WARNING
    log.log(level, "%s: %s", what, refused(error))


def install(bot: Any) -> Deckhand:
    """Register the buttons, menus and the Discord poster once; every game's ``setup``
    calls it."""
    deckhand: Deckhand = bot
    if not isinstance(deckhand.sessions.poster, DiscordPoster):
        settings = getattr(deckhand, "settings", None)  # a test's stand-in bot may have none
        speak = getattr(settings, "speak_through_interactions", True)
        limits = getattr(bot, "webhooks", None)  # counted by the bot's HTTP session
        if not isinstance(limits, WebhookLimits):
            limits = WebhookLimits()
        deckhand.sessions.poster = DiscordPoster(bot, Voices(enabled=speak, limits=limits))
        bot.add_dynamic_items(GameButton, MoveMenu)
    return deckhand
