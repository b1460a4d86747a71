"""``/onecard``: start, join, leave, hand, play and take, plus the hand's select menus.

Like every cog this one only parses and answers: the session registry applies the move (and
saves it) and the engine decides what is legal. What One Card adds to the shared helpers:

- the **Hand** answer carries a select menu of exactly the member's legal cards plus Take on
  their turn, and a 7 asks for the suit in a second menu (rule 9). Those menus are
  ``DynamicItem`` selects with ``dh:<channel>:<version>:oc-play`` / ``oc-suit-<card>`` ids
  (the hyphen keeps them apart from the shared buttons' ids), so they survive restarts and
  the session refuses an out-of-date one;
- ``/onecard leave`` in a running game forfeits the seat (its cards go back to the main deck)
  instead of handing it to a computer.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, Final, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.games.onecard import ADAPTER, play_arg, take_label
from bot.i18n import t
from bot.sessions import SessionError, SessionRegistry
from bot.text import onecard as render
from cogs.common import answer_post, ephemeral, guarded, install, locale_of
from cogs.common import table as verbs
from cogs.common.buttons import GameButton
from cogs.common.respond import Deckhand, deckhand
from rules import onecard
from rules.cards import SUITS, Card, Rank, parse_card

__all__ = [
    "MAX_OPTIONS",
    "MENU_TEMPLATE",
    "HandMenu",
    "OneCardCog",
    "hand_view",
    "legal_choices",
    "with_hand_menu",
]

GAME: Final = "onecard"
MAX_OPTIONS: Final = 25  # Discord's limit of options in one select menu
MAX_CHOICES: Final = 25  # Discord's limit of autocomplete choices
TAKE: Final = "take"
MENU_TEMPLATE: Final = (
    r"dh:(?P<channel>[0-9]{1,20}):(?P<version>[0-9]{1,12}):oc-(?P<what>play|suit)"
    r"(?:-(?P<card>[^:]{1,8}))?"
)
SUIT_CHOICES: Final = [app_commands.Choice(name=s.value, value=s.value) for s in SUITS]


def _menu_id(channel_id: int, version: int, what: str, card: str | None = None) -> str:
    return f"dh:{channel_id}:{version}:oc-{what}" + ("" if card is None else f"-{card}")


def _card_option(card: Card, locale: str) -> discord.SelectOption:
    description = t("onecard.seven_hint", locale) if card.rank is Rank.SEVEN else None
    return discord.SelectOption(
        label=render.card_text(card), value=card.code, description=description
    )


def hand_view(
    channel_id: int, version: int, view: onecard.OneCardView, locale: str
) -> tuple[discord.ui.View | None, str | None]:
    """The hand's controls on the seat's turn, and a note when some cards did not fit.

    One select menu: the legal cards (each once; a 7 asks for its suit next) and Take. A
    hand never reaches 20 cards (rule 22), but should more legal cards than fit come up, the
    menu shows the first 24 and the note points to ``/onecard play``.
    """
    if view.current is None or view.current != view.seat:
        return None, None
    cards = list(view.playable)
    note = None
    if len(cards) > MAX_OPTIONS - 1:
        note = t("onecard.more_cards", locale, n=len(cards) - (MAX_OPTIONS - 1))
        cards = cards[: MAX_OPTIONS - 1]
    options = [_card_option(card, locale) for card in cards]
    options.append(discord.SelectOption(label=take_label(view.offense, locale), value=TAKE))
    menu = discord.ui.Select[Any](
        custom_id=_menu_id(channel_id, version, "play"),
        placeholder=t("onecard.pick", locale),
        options=options,
    )
    holder = discord.ui.View(timeout=None)
    holder.add_item(HandMenu(menu))
    return holder, note


def suit_view(channel_id: int, version: int, card: Card, locale: str) -> discord.ui.View:
    """The suit choice after picking a 7 (rule 9)."""
    menu = discord.ui.Select[Any](
        custom_id=_menu_id(channel_id, version, "suit", card.code),
        placeholder=t("onecard.pick_suit", locale, card=render.card_text(card)),
        options=[discord.SelectOption(label=s.value, value=s.value) for s in SUITS],
    )
    holder = discord.ui.View(timeout=None)
    holder.add_item(HandMenu(menu))
    return holder


def legal_choices(
    view: onecard.OneCardView, typed: str, locale: str = "en"
) -> list[app_commands.Choice[str]]:
    """Autocomplete for ``/onecard play card``: only this seat's legal cards, on its turn.

    A 7 says that the ``suit`` option is wanted too (rule 9).
    """
    wanted = typed.strip().lower()
    choices = []
    for card in view.playable:
        name = render.card_text(card)
        if wanted and wanted not in f"{name} {card.code}".lower():
            try:
                if parse_card(typed) is not card:
                    continue
            except ValueError:
                continue
        if card.rank is Rank.SEVEN:
            name = f"{name} - {t('onecard.seven_hint', locale)}"
        choices.append(app_commands.Choice(name=name, value=card.code))
    return choices[:MAX_CHOICES]


def _registry(interaction: discord.Interaction[Any]) -> tuple[SessionRegistry, int]:
    """The registry and channel; refused outside servers and where another game runs."""
    channel_id = interaction.channel_id
    if interaction.guild_id is None or channel_id is None:
        raise SessionError("error.guild_only")
    registry = deckhand(interaction).sessions
    session = registry.get(channel_id)
    if session is not None and session.game != GAME:
        game = t(f"game.{session.game}", locale_of(interaction))
        raise SessionError("error.other_game", game=game)
    return registry, channel_id


async def send_hand(interaction: discord.Interaction[Any], channel_id: int) -> None:
    """A fresh ephemeral hand (so the 15-minute token limit never bites), menu on the turn."""
    registry = deckhand(interaction).sessions
    member_id = interaction.user.id
    post = await registry.hand(channel_id, member_id)
    session = registry.get(channel_id)
    seat = None if session is None else session.seat_of(member_id)
    if session is None or session.state is None or seat is None:
        raise SessionError("error.not_seated")
    view, note = hand_view(
        channel_id, post.version, session.state.view(seat), locale_of(interaction)
    )
    content = post.content if note is None else f"{note}\n{post.content}"
    await ephemeral(interaction, content, view=view)


Click = Callable[[GameButton, discord.Interaction[Any]], Awaitable[None]]


def with_hand_menu(shared: Click) -> Click:
    """The shared button's click, except that One Card's **Hand** answers with the menu.

    ``cogs.common`` builds every table button as a :class:`GameButton` whose Hand answer can
    carry buttons only; One Card's needs a select menu. Its class is what discord.py
    dispatches clicks to (it re-registers the class with every posted table), so One Card
    wraps that one method; every other click, and every other game's, goes to ``shared``.
    """

    async def click(button: GameButton, interaction: discord.Interaction[Any]) -> None:
        session = deckhand(interaction).sessions.get(button.channel_id)
        if (
            button.action == "hand"
            and interaction.channel_id == button.channel_id
            and session is not None
            and session.game == GAME
        ):
            await send_hand(interaction, button.channel_id)
            return
        await shared(button, interaction)

    click.shared = shared  # type: ignore[attr-defined]
    return click


class HandMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=MENU_TEMPLATE):
    """The hand's select menus: pick a card or Take, then (after a 7) the suit."""

    def __init__(self, item: discord.ui.Select[Any]) -> None:
        super().__init__(item)
        match = re.fullmatch(MENU_TEMPLATE, item.custom_id)
        assert match is not None
        self.channel_id = int(match["channel"])
        self.version = int(match["version"])
        self.what = match["what"]
        self.card = match["card"]

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HandMenu:
        """Rebuild the menu from a pick (also after a restart)."""
        assert isinstance(item, discord.ui.Select)
        return cls(item)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Route the pick to the session; the engine decides whether it is legal."""
        await guarded(interaction, lambda: self._pick(interaction), what=f"onecard {self.what}")

    async def _pick(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.channel_id != self.channel_id:
            raise SessionError("error.wrong_channel")
        registry = deckhand(interaction).sessions
        value = self.item.values[0] if self.item.values else ""
        if self.what == "suit":
            arg = play_arg(self.card or "", value)
        elif value == TAKE:
            arg = None
        else:
            card = parse_card(value)
            if card.rank is Rank.SEVEN:
                await self._ask_suit(interaction, registry, card)
                return
            arg = value
        verb = "play" if arg is not None else TAKE
        reply = await registry.act(
            self.channel_id, interaction.user.id, (verb, arg), version=self.version
        )
        await answer_post(interaction, reply.post, reply.notice)

    async def _ask_suit(
        self, interaction: discord.Interaction[Any], registry: SessionRegistry, card: Card
    ) -> None:
        session = registry.get(self.channel_id)
        if session is None or session.version != self.version:
            raise SessionError("error.stale_button")
        view = suit_view(self.channel_id, self.version, card, locale_of(interaction))
        await ephemeral(interaction, t("onecard.choose_suit", locale_of(interaction)), view=view)


class OneCardCog(commands.Cog):
    """``/onecard start|join|leave|hand|play|take``."""

    group = app_commands.Group(
        name=GAME, description=_("Play One Card (원카드)", key="cmd.onecard"), guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @group.command(
        name="start",
        description=_("Open a One Card table in this channel", key="cmd.onecard.start"),
    )
    @app_commands.describe(
        players=_("Seats at the table, members and computers (2-4)", key="param.onecard_players"),
        bots=_("How many of the seats computer players take", key="param.bots"),
        seed=_("Deal a reproducible game from this number", key="param.seed"),
    )
    async def start(
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, 2, 4] | None = None,
        bots: app_commands.Range[int, 0, 3] = 0,
        seed: app_commands.Range[int, 0, 2**53] | None = None,
    ) -> None:
        """Open a lobby; the host takes seat A."""
        await verbs.start(interaction, GAME, players=players, bots=bots, seed=seed)

    @group.command(
        name="join", description=_("Take a seat at the One Card table", key="cmd.onecard.join")
    )
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Take a free seat in the lobby."""
        await verbs.join(interaction, GAME)

    @group.command(
        name="leave",
        description=_("Leave the table (in a game: forfeit)", key="cmd.onecard.leave"),
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """In the lobby free the seat; in a game forfeit it: its cards go back to the deck."""

        async def work() -> None:
            registry, channel_id = _registry(interaction)
            session = registry.get(channel_id)
            if session is None or session.is_lobby:
                await verbs.leave(interaction, GAME)
                return
            reply = await registry.forfeit(channel_id, interaction.user.id, ADAPTER.forfeit)
            await answer_post(interaction, reply.post, reply.notice)

        await guarded(interaction, work, what="/onecard leave")

    @group.command(name="hand", description=_("Your hand, only for you", key="cmd.onecard.hand"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """The member's hand, ephemeral; on their turn with the menu of legal cards."""

        async def work() -> None:
            _, channel_id = _registry(interaction)
            await send_hand(interaction, channel_id)

        await guarded(interaction, work, what="/onecard hand")

    @group.command(name="play", description=_("Play a card", key="cmd.onecard.play"))
    @app_commands.describe(
        card=_("One of your playable cards", key="param.onecard_card"),
        suit=_("After a 7: the suit to match next", key="param.onecard_suit"),
    )
    @app_commands.choices(suit=SUIT_CHOICES)
    async def play(
        self,
        interaction: discord.Interaction[Any],
        card: app_commands.Range[str, 1, 30],
        suit: str | None = None,
    ) -> None:
        """Play ``card``; the engine refuses a card that is not yours or does not fit."""

        async def work() -> None:
            registry, channel_id = _registry(interaction)
            # Parsed by the session after its turn check: "not your turn" comes first.
            move = ("play", play_arg(card, suit))
            reply = await registry.act(channel_id, interaction.user.id, move)
            await answer_post(interaction, reply.post, reply.notice)

        await guarded(interaction, work, what="/onecard play")

    @play.autocomplete("card")
    async def play_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The member's own legal cards; nothing when it is not their turn."""
        session = deckhand(interaction).sessions.get(interaction.channel_id or 0)
        if session is None or session.game != GAME or session.state is None:
            return []
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            return []
        return legal_choices(session.state.view(seat), current, locale_of(interaction))

    @group.command(
        name="take", description=_("Take a card, or the attack's cards", key="cmd.onecard.take")
    )
    async def take(self, interaction: discord.Interaction[Any]) -> None:
        """Take one card, or under attack all of the penalty (rules 11, 16)."""
        await verbs.act(interaction, GAME, onecard.Take())


async def setup(bot: commands.Bot) -> None:
    """Register One Card with the sessions, its buttons and menus, and ``/onecard``."""
    host = install(bot)
    host.sessions.games.register(ADAPTER)
    if not hasattr(GameButton._click, "shared"):
        GameButton._click = with_hand_menu(GameButton._click)  # type: ignore[method-assign]
    bot.add_dynamic_items(HandMenu)
    await bot.add_cog(OneCardCog(bot))


async def teardown(bot: commands.Bot) -> None:
    """Unload: the shared button is back, and new One Card games are no longer offered."""
    bot.remove_dynamic_items(HandMenu)
    shared = getattr(GameButton._click, "shared", None)
    if shared is not None:
        GameButton._click = shared  # type: ignore[method-assign]
    cast(Deckhand, bot).sessions.games.unregister(GAME)
