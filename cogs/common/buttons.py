"""Buttons that survive restarts: ``dh:<channel>:<version>:<action>[:arg]`` custom ids.

Every button Deckhand posts is a :class:`GameButton`, a ``DynamicItem`` rebuilt from its
custom id on each click, so a table posted before a restart keeps working. The click is
checked on the server: the channel must be this one, and every button but Hand carries the
version of the message it came with (the session refuses an older one, "this button is out of
date"), lobby buttons included.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.i18n import t
from bot.sessions import Post, SessionError
from cogs.common.respond import (
    deckhand,
    ephemeral,
    guarded,
    is_moderator,
    locale_of,
    member_of,
    quietly,
)

__all__ = [
    "CUSTOM_ID_LIMIT",
    "NO_PINGS",
    "GameButton",
    "answer_post",
    "build_view",
    "custom_id",
    "parse_custom_id",
]

CUSTOM_ID_LIMIT = 100  # Discord's limit
TEMPLATE = (
    r"dh:(?P<channel>[0-9]{1,20}):(?P<version>[0-9]{1,12}):(?P<action>[a-z_]{1,20})"
    r"(?::(?P<arg>[^:]{1,40}))?"
)
# Tables name players but never ping them; only the turn reminder mentions a member.
NO_PINGS = discord.AllowedMentions.none()
log = logging.getLogger(__name__)
_STYLES = {style.name: style for style in discord.ButtonStyle}


def custom_id(channel_id: int, version: int, action: str, arg: str | None = None) -> str:
    """The custom id of a button; ``ValueError`` if it would not fit Discord's 100 chars."""
    text = f"dh:{channel_id}:{version}:{action}" + ("" if arg is None else f":{arg}")
    if len(text) > CUSTOM_ID_LIMIT or re.fullmatch(TEMPLATE, text) is None:
        raise ValueError(f"not a valid button id: {text!r}")
    return text


def parse_custom_id(text: str) -> tuple[int, int, str, str | None]:
    """``(channel, version, action, arg)`` from a custom id; ``ValueError`` if it is not ours."""
    match = re.fullmatch(TEMPLATE, text)
    if match is None:
        raise ValueError(f"not a Deckhand button id: {text!r}")
    return int(match["channel"]), int(match["version"]), match["action"], match["arg"]


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """One button of a table, lobby or hand; what it does is in its custom id."""

    def __init__(
        self,
        channel_id: int,
        version: int,
        action: str,
        arg: str | None = None,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=custom_id(channel_id, version, action, arg)
            )
        )
        self.channel_id = channel_id
        self.version = version
        self.action = action
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GameButton:
        """Rebuild the button from a click (also after a restart)."""
        return cls(int(match["channel"]), int(match["version"]), match["action"], match["arg"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Route the click to the session; no rule is decided here."""
        await guarded(interaction, lambda: self._click(interaction), what=f"button {self.action}")

    async def _click(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.channel_id != self.channel_id:
            raise SessionError("error.wrong_channel")
        registry = deckhand(interaction).sessions
        member = member_of(interaction)
        channel = self.channel_id
        if self.action == "hand":
            post = await registry.hand(channel, member.id)
            await ephemeral(interaction, post.content, view=build_view(post))
            return
        # Every button carries its message's version: an older lobby's Leave or Cancel must
        # not reach the game that followed it.
        version = self.version
        if self.action == "join":
            reply = await registry.join(channel, member, version=version)
        elif self.action == "leave":
            reply = await registry.leave(channel, member.id, version=version)
        elif self.action == "start":
            reply = await registry.start(channel, member.id, version=version)
        elif self.action == "cancel":
            moderator = await is_moderator(interaction)
            reply = await registry.end(channel, member.id, moderator=moderator, version=version)
        elif self.action == "again":
            table = interaction.message
            reply = await registry.deal_again(
                channel,
                member.id,
                version=self.version,
                table_id=None if table is None else table.id,
            )
        else:
            reply = await registry.act(
                channel, member.id, (self.action, self.arg), version=self.version
            )
        await answer_post(interaction, reply.post, reply.notice)


def build_view(post: Post) -> discord.ui.View | None:
    """The buttons of ``post`` (``None`` when it has none)."""
    if not post.controls:
        return None
    view = discord.ui.View(timeout=None)
    for control in post.controls:
        view.add_item(
            GameButton(
                post.channel_id,
                post.version,
                control.action,
                control.arg,
                label=t(control.label, post.locale)[:80],
                style=_STYLES.get(control.style, discord.ButtonStyle.secondary),
            )
        )
    return view


async def answer_post(
    interaction: discord.Interaction[Any], post: Post | None, notice: str | None = None
) -> None:
    """Answer with the new public table (after the session saved it), then retire the old one.

    The change is saved by now, so if Discord will not take the answer the table (or notice)
    goes to the channel as a plain message instead, and the member is told their change
    stands: never that the game is unchanged.
    """
    registry = deckhand(interaction).sessions
    if post is None:
        post = Post(interaction.channel_id or 0, 0, notice or "", (), locale_of(interaction))
        try:
            await interaction.response.send_message(post.content, allowed_mentions=NO_PINGS)
        except Exception:
            log.warning("could not answer in channel %d; posting instead", post.channel_id)
            await registry.poster.post(post)
            await _tell_saved(interaction)
        return
    message_id: int | None = None
    try:
        message_id = await _send_table(interaction, post)
    except Exception:
        log.warning(
            "could not answer with the table of channel %d (version %d); posting it instead",
            post.channel_id,
            post.version,
            exc_info=True,
        )
        message_id = await registry.poster.post(post)
        await _tell_saved(interaction)
    finally:
        # Even if Discord refused the post, computer moves after it must not wait for it.
        await registry.published(post.channel_id, post.version, message_id)


async def _send_table(interaction: discord.Interaction[Any], post: Post) -> int:
    """The table as the interaction's answer; its message id."""
    view = build_view(post)
    if view is None:
        sent = await interaction.response.send_message(post.content, allowed_mentions=NO_PINGS)
    else:
        sent = await interaction.response.send_message(
            post.content, view=view, allowed_mentions=NO_PINGS
        )
    # Discord returns the message it created; ask for it only if it did not.
    if sent.message_id is not None:
        return sent.message_id
    return (await interaction.original_response()).id


async def _tell_saved(interaction: discord.Interaction[Any]) -> None:
    """The member's change was saved though their answer failed; tell them if Discord lets us."""
    await quietly(ephemeral(interaction, t("error.answer_failed", locale_of(interaction))))
