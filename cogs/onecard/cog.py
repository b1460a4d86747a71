"""``/onecard``: start, join, leave, hand, play and take.

Like every cog this one only declares its commands: the shared verbs of
:mod:`cogs.common.verbs` do the rest, the session registry applies the move (and saves it)
and the engine decides what is legal. The Hand's menu of legal cards (a 7 asks for the suit
next, rule 9), the autocomplete of ``/onecard play`` and forfeiting on leave come from One
Card's adapter (:mod:`bot.games.onecard`) through the shared pieces.
"""

from __future__ import annotations

from typing import Any, Final, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.games.onecard import ADAPTER, TAKE, play_arg
from cogs.common import install, verbs
from cogs.common.respond import Deckhand
from rules.cards import SUITS
from rules.levels import Level

__all__ = ["OneCardCog"]

GAME: Final = "onecard"
SUIT_CHOICES: Final = [app_commands.Choice(name=s.value, value=s.value) for s in SUITS]


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
        level=verbs.LEVEL_DESCRIPTION,
    )
    @app_commands.choices(level=verbs.LEVEL_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, 2, 4] | None = None,
        bots: app_commands.Range[int, 0, 3] = 0,
        seed: app_commands.Range[int, 0, verbs.SEED_MAX] | None = None,
        level: str = Level.NORMAL.value,
    ) -> None:
        """Open a lobby; the host takes seat A."""
        await verbs.start(interaction, GAME, players=players, bots=bots, seed=seed, level=level)

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
        await verbs.leave(interaction, GAME)

    @group.command(name="hand", description=_("Your hand, only for you", key="cmd.onecard.hand"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """The member's hand, ephemeral; on their turn with the menu of legal cards."""
        await verbs.hand(interaction, GAME)

    @group.command(name="play", description=_("Play a card", key="cmd.onecard.play"))
    @app_commands.describe(
        card=_("One of your playable cards, or its number in your hand", key="param.onecard_card"),
        suit=_("After a 7: the suit to match next", key="param.onecard_suit"),
    )
    @app_commands.choices(suit=SUIT_CHOICES)
    async def play(
        self,
        interaction: discord.Interaction[Any],
        card: app_commands.Range[str, 1, 30],
        suit: str | None = None,
    ) -> None:
        """Play ``card`` (or what its number names in the member's hand, the last number
        being Take); the engine refuses a card that is not yours or does not fit."""
        view = verbs.own_view(interaction, GAME)
        shown = None if view is None else ADAPTER.shown_card(view, card)
        if shown == TAKE:
            await verbs.move(interaction, GAME, TAKE, None)
            return
        await verbs.move(interaction, GAME, "play", play_arg(shown or card, suit))

    @play.autocomplete("card")
    async def play_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The member's own legal cards; nothing when it is not their turn."""
        return verbs.suggest(interaction, GAME, "card", current)

    @group.command(
        name="take", description=_("Take a card, or the attack's cards", key="cmd.onecard.take")
    )
    async def take(self, interaction: discord.Interaction[Any]) -> None:
        """Take one card, or under attack all of the penalty (rules 11, 16)."""
        await verbs.move(interaction, GAME, TAKE, None)


async def setup(bot: commands.Bot) -> None:
    """Register One Card with the sessions and load ``/onecard``."""
    install(bot).sessions.games.register(ADAPTER)
    await bot.add_cog(OneCardCog(bot))


async def teardown(bot: commands.Bot) -> None:
    """Unload: new One Card games are no longer offered."""
    cast(Deckhand, bot).sessions.games.unregister(GAME)
