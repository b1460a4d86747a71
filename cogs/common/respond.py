"""Answering interactions: the member's language, ephemeral refusals and guarded handlers.

:func:`guarded` is the one place where refusals become sentences: a
:class:`~bot.sessions.SessionError` or :class:`~rules.engine.IllegalAction` is answered
ephemerally in the member's language and changes nothing, as is a database that cannot be
reached ("nothing changed, try again"); anything else is logged with the channel and game
(never a hand) and answered "Something went wrong; the game is unchanged".
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, cast

import discord

from bot.i18n import echo, language, refusal, t
from bot.sessions import Player, SessionError, SessionRegistry
from bot.settings import Settings
from bot.store import StoreUnavailable
from bot.store.base import GameStore
from bot.text.names import clean_name
from rules.engine import IllegalAction

__all__ = [
    "Deckhand",
    "deckhand",
    "ephemeral",
    "guarded",
    "is_moderator",
    "locale_of",
    "member_of",
    "permissions_in",
    "public_locale",
    "quietly",
    "refused",
    "tell",
]

log = logging.getLogger(__name__)


class Deckhand(Protocol):
    """What the cogs use of :class:`bot.client.DeckhandBot`."""

    sessions: SessionRegistry
    settings: Settings
    store: GameStore


def deckhand(interaction: discord.Interaction[Any]) -> Deckhand:
    """The bot behind ``interaction``."""
    return cast(Deckhand, interaction.client)


def locale_of(interaction: discord.Interaction[Any]) -> str:
    """The language to answer this member in: theirs, else the guild's, else English."""
    return language(interaction.locale, interaction.guild_locale)


async def public_locale(interaction: discord.Interaction[Any]) -> str:
    """The language of public tables here: the guild's setting, else the guild's locale."""
    configured = None
    if interaction.guild_id is not None:
        configured = (
            await deckhand(interaction).store.guild_settings(interaction.guild_id)
        ).language
    return language(configured, interaction.guild_locale)


def member_of(interaction: discord.Interaction[Any]) -> Player:
    """The member who clicked or typed, as a seat holder."""
    user = interaction.user
    return Player(user.id, clean_name(user.display_name))


def permissions_in(interaction: discord.Interaction[Any], channel_id: int) -> discord.Permissions:
    """The member's permissions in ``channel_id``: the interaction's own where it was made,
    else resolved for that channel from the cached guild (its roles and the channel's
    overwrites, a thread's from its parent); the server-wide ones for a channel the bot's
    cache does not hold."""
    if channel_id == interaction.channel_id:
        return interaction.permissions
    guild, member = interaction.guild, interaction.user
    if not isinstance(member, discord.Member):
        return discord.Permissions.none()
    channel = None if guild is None else guild.get_channel_or_thread(channel_id)
    try:
        if channel is not None:
            return channel.permissions_for(member)
    except discord.ClientException:  # a thread whose parent is not cached
        pass
    # Not in the cache (an archived thread, a deleted channel): the server-wide rights, so
    # its table stays listed and endable by those who moderate the whole server.
    return member.guild_permissions


async def is_moderator(
    interaction: discord.Interaction[Any], channel_id: int | None = None
) -> bool:
    """Manage Messages in the table's channel (``channel_id``; by default where the member
    acts), or the guild's configured moderator role."""
    where = interaction.channel_id if channel_id is None else channel_id
    if where is not None and permissions_in(interaction, where).manage_messages:
        return True
    user = interaction.user
    if interaction.guild_id is None or not isinstance(user, discord.Member):
        return False
    role_id = (
        await deckhand(interaction).store.guild_settings(interaction.guild_id)
    ).moderator_role_id
    return role_id is not None and any(role.id == role_id for role in user.roles)


async def ephemeral(
    interaction: discord.Interaction[Any],
    text: str,
    *,
    view: discord.ui.View | None = None,
) -> None:
    """Answer only the member who asked (a follow-up if the interaction was answered)."""
    extra: dict[str, Any] = {} if view is None else {"view": view}
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True, **extra)
    else:
        await interaction.response.send_message(text, ephemeral=True, **extra)


async def guarded(
    interaction: discord.Interaction[Any],
    work: Callable[[], Awaitable[None]],
    *,
    what: str,
) -> None:
    """Run a command or click; refusals and failures are answered, never "interaction failed"."""
    await _answered(interaction, work, what)


async def _answered(
    interaction: discord.Interaction[Any], work: Callable[[], Awaitable[None]], what: str
) -> None:
    locale = locale_of(interaction)
    try:
        await work()
    except SessionError as error:
        params = {name: echo(value) for name, value in error.params.items()}
        if isinstance(error.params.get("game"), str):  # a game's name, in the member's language
            params["game"] = t(f"game.{error.params['game']}", locale)
        if isinstance(games := error.params.get("games"), tuple):  # as the member types them
            params["games"] = ", ".join(t(f"name.{game}", locale) for game in games)
        await tell(interaction, t(error.key, locale, **params), locale)
    except IllegalAction as error:
        session = deckhand(interaction).sessions.get(interaction.channel_id or 0)
        game = None if session is None else session.game
        await tell(interaction, refusal(error, locale, game), locale)
    except StoreUnavailable as error:
        # A read (settings, stats) with the database down; writes come as SessionError.
        log.warning("%s: the store is unavailable: %s", what, error)
        await tell(interaction, t("error.storage", locale), locale)
    except discord.HTTPException as error:
        # Discord refused an answer the handler sent (a 400 is a bug of ours): one ERROR that
        # names the route and the field, and the member is told something went wrong.
        level = logging.ERROR if error.status == 400 else logging.WARNING
        log.log(level, "%s: Discord refused an answer: %s", what, refused(error))
        await quietly(ephemeral(interaction, t("error.unexpected", locale)))
    except Exception:
        if interaction.client.is_closed():
            # The bot is shutting down under this answer (its HTTP session closed): what
            # was saved stands and is posted again at the restart; no bug to report.
            log.warning("%s was cut short: the bot is shutting down", what)
            return
        session = deckhand(interaction).sessions.get(interaction.channel_id or 0)
        log.exception(
            "%s failed in channel %s (guild %s, game %s, version %s)",
            what,
            interaction.channel_id,
            interaction.guild_id,
            None if session is None else session.game,
            None if session is None else session.version,
        )
        await quietly(ephemeral(interaction, t("error.unexpected", locale)))


async def tell(interaction: discord.Interaction[Any], text: str, locale: str) -> None:
    """Answer the member alone with ``text``. If Discord refuses it as malformed (a bug of
    ours, an ERROR naming the field), the plain "something went wrong" goes instead, so the
    member never meets a silent "This interaction failed"."""
    try:
        await ephemeral(interaction, text)
    except discord.HTTPException as error:
        if error.status != 400:
            log.warning("could not answer an interaction: %s", refused(error))
            return
        log.error("Discord refused an answer: %s", refused(error))
        await quietly(ephemeral(interaction, t("error.unexpected", locale)))


async def quietly(reply: Awaitable[None]) -> None:
    """Send an answer that may fail (an error, a notice); if Discord refuses it, only log it:
    a request Discord calls malformed (400) is a bug of ours, an ERROR naming the field."""
    try:
        await reply
    except discord.HTTPException as error:
        if error.status == 400:
            log.error("Discord refused an answer: %s", refused(error))
        else:
            log.warning("could not answer an interaction: %s", refused(error))


# An interaction's token or a webhook's in a route: never written to a log.
_TOKEN_IN_ROUTE = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/?]+")


def refused(error: discord.HTTPException) -> str:
    """What Discord refused, on one line for the log: the route (its token masked), the
    status and Discord's own words for each field (never the body sent)."""
    response = error.response
    method = getattr(response, "method", "?")
    url = getattr(response, "url", None)
    path = _TOKEN_IN_ROUTE.sub(r"\1…", str(getattr(url, "path", "?")))
    words = " | ".join(line for line in str(error.text).splitlines() if line)
    return f"{method} {path}: HTTP {error.status} (code {error.code}): {words}"
