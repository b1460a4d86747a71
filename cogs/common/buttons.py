"""Components that survive restarts, and answering with them.

Every button Deckhand posts is a :class:`GameButton` and every select of moves a
:class:`MoveMenu`: ``DynamicItem``s rebuilt from their custom ids (:mod:`cogs.common.ids`)
on each click, so a table posted before a restart keeps working. The click is checked on
the server: the channel must be this one, and every component but Hand carries the version
of the message it came with (the session refuses an older one, "this button is out of
date"), lobby buttons included. A menu is any game's: the game's adapter says what a pick
means (:meth:`bot.games.GameAdapter.picked`), a move or a second menu.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.games import MAX_OPTIONS, Menu
from bot.i18n import t
from bot.sessions import Post, Reply, SessionError, SessionRegistry
from bot.webhooks import posting
from cogs.common.ids import BUTTON_TEMPLATE, MENU_TEMPLATE, button_id, menu_id
from cogs.common.respond import (
    deckhand,
    ephemeral,
    guarded,
    is_moderator,
    locale_of,
    member_of,
    quietly,
    refused,
)
from cogs.common.voices import voices_of

__all__ = [
    "NO_PINGS",
    "GameButton",
    "MoveMenu",
    "answer",
    "answer_post",
    "build_view",
    "mentions",
    "menu_select",
    "send_hand",
]

# Tables name players but never ping them; only the member whose turn starts is mentioned.
NO_PINGS = discord.AllowedMentions.none()
# The button of "leave this game?" (``/<game> leave`` in a running game).
LEAVE_CONFIRMED = "leave_confirmed"
log = logging.getLogger(__name__)
_STYLES = {style.name: style for style in discord.ButtonStyle}
_ROW = 5  # buttons in an action row
_ROWS = 5  # action rows in a message


def mentions(member_id: int | None) -> discord.AllowedMentions:
    """Ping ``member_id`` alone (nobody when ``None``), whatever else the text mentions."""
    if member_id is None:
        return NO_PINGS
    return discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(member_id)], replied_user=False
    )


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
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
                label=label, style=style, custom_id=button_id(channel_id, version, action, arg)
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
        if self.action == "end_listed":  # /game list: ends a table of another channel
            await _end_listed(interaction, self.channel_id, self.version)
            return
        if interaction.channel_id != self.channel_id:
            raise SessionError("error.wrong_channel")
        if self.action != EDIT:  # an edit box is a modal: the click's first answer
            await _adopt_live_table(interaction, self.version, speak=self.action == "hand")
        registry = deckhand(interaction).sessions
        member = member_of(interaction)
        channel = self.channel_id
        if self.action == "hand":
            await send_hand(interaction, channel)
            return
        if self.action == EDIT:
            await _open_edit(interaction, channel, self.version)
            return
        # Every button carries its message's version: an older lobby's Leave or Cancel must
        # not reach the game that followed it.
        version = self.version
        if self.action == "join":
            reply = await registry.join(channel, member, version=version)
        elif self.action == "leave":
            reply = await registry.leave(channel, member.id, version=version)
        elif self.action == LEAVE_CONFIRMED:  # /<game> leave, confirmed: moves since count not
            reply = await registry.leave(channel, member.id, asked_at=version)
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
                channel,
                member.id,
                (self.action, self.arg),
                version=self.version,
                locale=locale_of(interaction),
            )
        await answer(interaction, reply)


async def _adopt_live_table(
    interaction: discord.Interaction[Any], version: int, *, speak: bool = False
) -> None:
    """A click on the channel's live table (its component of the live ``version``) that the
    bot posted with its own token (no member interaction lived: 15 minutes of silence, a
    restart) is acknowledged so that its own token retires that table when the move
    replaces it: a member's move costs nothing against the global limit
    (:meth:`cogs.common.voices.Voices.adopt`). ``speak``: a Hand click, which becomes a
    voice too when the channel's voices are getting old."""
    voices = voices_of(interaction.client)
    message = interaction.message
    channel_id = interaction.channel_id
    if voices is None or message is None or channel_id is None or message.flags.ephemeral:
        return
    if deckhand(interaction).sessions.clicked_live(channel_id, version, message.id):
        await voices.adopt(interaction, speak=speak)


async def _end_listed(interaction: discord.Interaction[Any], channel_id: int, version: int) -> None:
    """A moderator ends a table from ``/game list``: a table of this server only, at the
    version listed; its channel is told who ended it, the moderator is answered privately."""
    registry = deckhand(interaction).sessions
    session = registry.get(channel_id)
    if session is None or session.guild_id != interaction.guild_id:
        raise SessionError("error.stale_button")
    # The rights that count are the member's in the table's channel, not where the list is.
    if not await is_moderator(interaction, channel_id):
        raise SessionError("error.moderator_only")
    reply = await registry.end(channel_id, interaction.user.id, moderator=True, version=version)
    # The moderator first: posting in the other channel may wait (the budget, a bucket,
    # Discord's retries), and Discord takes the answer only within 3 seconds.
    locale = locale_of(interaction)
    game = t(f"game.{session.game}", locale)
    await ephemeral(interaction, t("list.ended", locale, game=game, channel=f"<#{channel_id}>"))
    await _post_for(registry, channel_id, reply, session.locale)


async def _post_for(registry: SessionRegistry, channel_id: int, reply: Reply, locale: str) -> None:
    """The public part of ``reply`` as the bot's own post in ``channel_id`` (the
    interaction was answered in private): the new table, retiring the one before it, or
    the notice."""
    if reply.post is not None:
        await registry.published(reply.post, await registry.poster.post(reply.post))
    elif reply.notice is not None:
        await registry.poster.post(Post(channel_id, 0, reply.notice, (), locale))


EDIT = "arrange"  # the button that opens the turn's edit box (Rummikub's Arrange)
EDIT_LIMIT = 4000  # Discord's most characters in a text input


class EditBox(discord.ui.Modal):
    """The turn's edit box: one paragraph prefilled by the game
    (:meth:`bot.games.GameAdapter.edit_text`); submitting it is the move ``("arrange", text)``
    at the version the box was opened at, answered like any move (a staged step: privately)."""

    def __init__(self, channel_id: int, version: int, title: str, label: str, text: str) -> None:
        super().__init__(title=title[:45], custom_id=f"dh-edit:{channel_id}:{version}")
        self.channel_id = channel_id
        self.version = version
        self.box: discord.ui.TextInput[EditBox] = discord.ui.TextInput(
            label=label[:45],
            style=discord.TextStyle.paragraph,
            default=text[:EDIT_LIMIT],
            max_length=EDIT_LIMIT,
            required=False,
            custom_id="table",
        )
        self.add_item(self.box)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        """Stage what the member wrote (the game parses and checks it)."""

        async def work() -> None:
            reply = await deckhand(interaction).sessions.act(
                self.channel_id,
                interaction.user.id,
                (EDIT, self.box.value),
                version=self.version,
                locale=locale_of(interaction),
            )
            await answer(interaction, reply)

        await guarded(interaction, work, what="edit box")


async def _open_edit(interaction: discord.Interaction[Any], channel_id: int, version: int) -> None:
    """Open the edit box of the member's turn, prefilled by the game."""
    registry = deckhand(interaction).sessions
    registry.check_version(channel_id, version)
    session = registry.game(channel_id)
    seat = session.seat_of(interaction.user.id)
    if seat is None:
        raise SessionError("error.not_seated")
    state = session.state
    assert state is not None
    if state.current_seat != seat:
        raise SessionError("error.not_your_turn")
    locale = locale_of(interaction)
    text = registry.adapter(session).edit_text(state.view(seat), locale)
    if text is None:
        raise SessionError("error.stale_button")
    title = t(f"edit.{session.game}.title", locale)
    label = t(f"edit.{session.game}.label", locale)
    await interaction.response.send_modal(EditBox(channel_id, version, title, label, text))


class MoveMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=MENU_TEMPLATE):
    """A select of moves from a private hand (or its second step), for any game."""

    def __init__(self, item: discord.ui.Select[Any]) -> None:
        super().__init__(item)
        match = re.fullmatch(MENU_TEMPLATE, item.custom_id)
        assert match is not None
        self.channel_id = int(match["channel"])
        self.version = int(match["version"])
        self.game = match["game"]
        self.step = match["step"]

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> MoveMenu:
        """Rebuild the menu from a pick (also after a restart)."""
        assert isinstance(item, discord.ui.Select)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Ask the game what the pick means; make the move or offer the next menu."""
        await guarded(interaction, lambda: self._pick(interaction), what=f"{self.game} menu")

    async def _pick(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.channel_id != self.channel_id:
            raise SessionError("error.wrong_channel")
        await _adopt_live_table(interaction, self.version)
        registry = deckhand(interaction).sessions
        session = registry.get(self.channel_id)
        if (
            session is None
            or session.game != self.game
            or session.version != self.version
            or session.state is None
        ):
            raise SessionError("error.stale_button")
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise SessionError("error.not_seated")
        locale = locale_of(interaction)
        value = self.item.values[0] if self.item.values else ""
        view = session.state.view(seat)
        adapter = registry.adapter(session)
        picked = adapter.picked(view, self.step, value, locale, session.names)
        if isinstance(picked, Menu):
            holder = discord.ui.View(timeout=None)
            holder.add_item(MoveMenu(menu_select(self.channel_id, self.version, self.game, picked)))
            await ephemeral(interaction, picked.prompt or picked.placeholder, view=holder)
            return
        reply = await registry.act(
            self.channel_id, interaction.user.id, picked, version=self.version, locale=locale
        )
        await answer(interaction, reply)


def menu_select(channel_id: int, version: int, game: str, menu: Menu) -> discord.ui.Select[Any]:
    """The select component of a game's menu: at most 25 options, as Discord allows (an
    adapter says what it left out, :func:`bot.games.fit_options`; the cut here is a guard)."""
    return discord.ui.Select[Any](
        custom_id=menu_id(channel_id, version, game, menu.step),
        placeholder=menu.placeholder[:150],
        options=[
            discord.SelectOption(
                label=option.label[:100],
                value=option.value[:100],
                description=None if option.description is None else option.description[:100],
            )
            for option in menu.options[:MAX_OPTIONS]
        ],
    )


class Components(discord.ui.View):
    """A post's components as Discord takes them, built straight from the post.

    Sending needs only this payload: a click is routed by its custom id and its item rebuilt
    there (:meth:`GameButton.from_custom_id`), so building a view of items for every table
    (a button object each, every move) was work thrown away.
    """

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        super().__init__(timeout=None)
        self.rows = rows

    def to_components(self) -> list[dict[str, Any]]:
        """The action rows, as built."""
        return self.rows


def build_view(post: Post) -> Components | None:
    """The components of ``post``: its menu of moves (a row of its own, first) and its
    buttons, five to a row, laid out as discord.py lays out a view of those items."""
    if not post.controls and post.menu is None:
        return None
    rows: list[dict[str, Any]] = []
    if post.menu is not None and post.menu.options:
        select = menu_select(post.channel_id, post.version, post.game, post.menu)
        rows.append({"type": 1, "components": [select.to_component_dict()]})
    buttons = [
        {
            "type": 2,
            "style": _STYLES.get(control.style, discord.ButtonStyle.secondary).value,
            "disabled": False,
            "label": t(control.label, post.locale)[:80],
            "custom_id": button_id(post.channel_id, post.version, control.action, control.arg),
        }
        for control in post.controls
    ]
    rows += [
        {"type": 1, "components": buttons[start : start + _ROW]}
        for start in range(0, len(buttons), _ROW)
    ]
    if len(rows) > _ROWS:
        raise ValueError(f"{len(rows)} rows of components; Discord takes at most {_ROWS}")
    return Components(rows)


async def send_hand(interaction: discord.Interaction[Any], channel_id: int) -> None:
    """A fresh ephemeral hand in the member's language (a new one each time, so the
    15-minute token limit never bites), with its menu and buttons on their turn."""
    registry = deckhand(interaction).sessions
    post = await registry.hand(channel_id, interaction.user.id, locale_of(interaction))
    await ephemeral(interaction, _hand_text(post), view=build_view(post))


def _hand_text(post: Post) -> str:
    """A hand's message: its menu's note (what the menu left out), then the hand."""
    if post.menu is not None and post.menu.note:
        return f"{post.menu.note}\n{post.content}"
    return post.content


async def answer(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """Answer an accepted command: the public table (or notice). A move made from a private
    message, or with something to tell the member alone, is answered in private instead,
    and its table posted (:func:`_answer_in_private`)."""
    public = reply.post is not None or bool(reply.notice)
    if public and (_from_private_message(interaction) or reply.private is not None):
        await _answer_in_private(interaction, reply)
        return
    if reply.post is None and reply.notice is None and reply.private is not None:
        # A private step of a turn (Rummikub's staging): the member alone is answered, by
        # editing the private message whose button (or edit box) made the step, so a staged
        # turn stays one message; a slash command has none and gets a new one.
        if _from_private_message(interaction):
            await interaction.response.edit_message(
                content=reply.private.content, view=build_view(reply.private)
            )
            return
        await ephemeral(interaction, reply.private.content, view=build_view(reply.private))
        return
    await answer_post(interaction, reply.post, reply.notice)


async def _answer_in_private(interaction: discord.Interaction[Any], reply: Reply) -> None:
    """A move made from a private message (a pick in a hand's menu, a button or a form of a
    private answer): Discord would draw a public answer to it as a reply to that private
    message, which nobody else can open (discord-api-docs ``resources/message.mdx``: a
    component's answer names the message the component was on, ``interacted_message_id``).
    So the private message itself becomes the member's answer (what the game tells them
    alone, else their hand as it is now), first, within Discord's 3 seconds; then the table
    goes to the channel as the bot's own post, through one of the channel's voices (free)
    or the bot's token, drawn as a reply to an earlier table.

    A move with something to tell the member alone (a drawn card to play or keep) is
    answered so too, wherever it was made: that answer then never waits on, or is lost to,
    a webhook limit (a follow-up after the table would be one more webhook message in the
    channel, refused for about 40 s once the channel's are spent), and the table goes
    through the poster, which gets past any refusal."""
    registry = deckhand(interaction).sessions
    channel_id = interaction.channel_id or 0
    locale = locale_of(interaction)
    private = reply.private
    if private is None:
        try:
            private = await registry.hand(channel_id, interaction.user.id, locale)
        except SessionError:  # no seat (left) or no game (it ended) any more
            private = None
    content = t("answer.on_table", locale) if private is None else _hand_text(private)
    view = None if private is None else build_view(private)
    try:
        if _from_private_message(interaction):
            await interaction.response.edit_message(content=content, view=view)
        else:
            await ephemeral(interaction, content, view=view)
    except discord.HTTPException as error:  # the move stands; its table is posted below
        log.warning("could not answer a move in private: %s", refused(error))
    session = registry.get(channel_id) or registry.finished.get(channel_id)
    await _post_for(registry, channel_id, reply, locale if session is None else session.locale)


def _from_private_message(interaction: discord.Interaction[Any]) -> bool:
    """Whether the interaction came from a component of an ephemeral message not answered
    yet, which an UPDATE_MESSAGE response (type 7) edits in place."""
    message = interaction.message
    return (
        message is not None
        and message.flags.ephemeral
        and interaction.type
        in (discord.InteractionType.component, discord.InteractionType.modal_submit)
        and not interaction.response.is_done()
    )


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
            if interaction.response.is_done():  # acknowledged already (an adopted table)
                # A voice now: a 5xx retried on its token would hold the bot's posts behind it;
                # the notice goes out with the bot's token instead (below).
                with posting():
                    await interaction.followup.send(post.content, allowed_mentions=NO_PINGS)
            else:
                await interaction.response.send_message(post.content, allowed_mentions=NO_PINGS)
            _spoke(interaction)
        except Exception:
            log.warning("could not answer in channel %d; posting instead", post.channel_id)
            await registry.poster.post(post)
            await _tell_saved(interaction)
        return
    message_id: int | None = None
    try:
        message_id = await _send_table(interaction, post)
        _spoke(interaction, message_id)  # it can retire this table without counting
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
        await registry.published(post, message_id)


def _spoke(interaction: discord.Interaction[Any], message_id: int | None = None) -> None:
    """The interaction was answered with a public message: one of its channel's voices."""
    voices = voices_of(interaction.client)
    if voices is not None:
        voices.spoke(interaction, message_id)


async def _send_table(interaction: discord.Interaction[Any], post: Post) -> int:
    """The table as the interaction's answer; its message id."""
    view = build_view(post)
    pings = mentions(post.mention)
    if interaction.response.is_done():  # acknowledged already (an adopted table)
        extra: dict[str, Any] = {} if view is None else {"view": view}
        with posting():  # as above: the table is posted with the bot's token instead
            followup = await interaction.followup.send(
                post.content, allowed_mentions=pings, wait=True, **extra
            )
        return followup.id
    if view is None:
        sent = await interaction.response.send_message(post.content, allowed_mentions=pings)
    else:
        sent = await interaction.response.send_message(
            post.content, view=view, allowed_mentions=pings
        )
    # Discord returns the message it created; ask for it only if it did not.
    if sent.message_id is not None:
        return sent.message_id
    return (await interaction.original_response()).id


async def _tell_saved(interaction: discord.Interaction[Any]) -> None:
    """The member's change was saved though their answer failed; tell them if Discord lets us."""
    await quietly(ephemeral(interaction, t("error.answer_failed", locale_of(interaction))))
