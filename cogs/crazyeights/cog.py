"""``/crazyeights``: start, join, leave, hand, play, draw and pass.

Like every cog this one only declares its commands: the shared verbs of
:mod:`cogs.common.verbs` do the rest, the session registry applies the move (and saves it)
and the engine decides what is legal. The Hand's menu of the cards that fit (an 8 asks for
the suit next, rule 10), the autocomplete of ``/crazyeights play`` and forfeiting on leave
come from Crazy Eights' adapter (:mod:`bot.games.crazyeights`) through the shared pieces.
"""

from __future__ import annotations

from typing import Any, Final, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.games.crazyeights import ADAPTER, DRAW, PASS, play_arg
from cogs.common import install, verbs
from cogs.common.respond import Deckhand
from rules.cards import SUITS
from rules.crazyeights import MAX_PLAYERS, MIN_PLAYERS
from rules.levels import Level

__all__ = ["CrazyEightsCog"]

GAME: Final = "crazyeights"
SUIT_CHOICES: Final = [app_commands.Choice(name=s.value, value=s.value) for s in SUITS]


class CrazyEightsCog(commands.Cog):
    """``/crazyeights start|join|leave|hand|play|draw|pass``."""

    group = app_commands.Group(
        name=GAME,
        description=_("Play Crazy Eights (크레이지 에이트)", key="cmd.crazyeights"),
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @group.command(
        name="start",
        description=_("Open a Crazy Eights table in this channel", key="cmd.crazyeights.start"),
    )
    @app_commands.describe(
        players=_(
            "Seats at the table, members and computers (2-6)", key="param.crazyeights_players"
        ),
        bots=_("How many of the seats computer players take", key="param.bots"),
        seed=_("Deal a reproducible game from this number", key="param.seed"),
        level=verbs.LEVEL_DESCRIPTION,
    )
    @app_commands.choices(level=verbs.LEVEL_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, MIN_PLAYERS, MAX_PLAYERS] | None = None,
        bots: app_commands.Range[int, 0, MAX_PLAYERS - 1] = 0,
        seed: app_commands.Range[int, 0, verbs.SEED_MAX] | None = None,
        level: str = Level.NORMAL.value,
    ) -> None:
        """Open a lobby; the host takes the first seat."""
        await verbs.start(interaction, GAME, players=players, bots=bots, seed=seed, level=level)

    @group.command(
        name="join",
        description=_("Take a seat at the Crazy Eights table", key="cmd.crazyeights.join"),
    )
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Take a free seat in the lobby."""
        await verbs.join(interaction, GAME)

    @group.command(
        name="leave",
        description=_(
            "Leave the table (in a game: forfeit, your cards are shuffled into the stock)",
            key="cmd.crazyeights.leave",
        ),
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """In the lobby free the seat; in a game forfeit it: its cards are shuffled into the
        stock (rule 19)."""
        await verbs.leave(interaction, GAME)

    @group.command(
        name="hand", description=_("Your hand, only for you", key="cmd.crazyeights.hand")
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """The member's hand, ephemeral; on their turn with the menu of their moves."""
        await verbs.hand(interaction, GAME)

    @group.command(
        name="play",
        description=_(
            "Play a card (with an 8, name the suit to follow)", key="cmd.crazyeights.play"
        ),
    )
    @app_commands.describe(
        card=_("One of your cards that fits", key="param.crazyeights_card"),
        suit=_("With an 8: the suit to follow", key="param.crazyeights_suit"),
    )
    @app_commands.choices(suit=SUIT_CHOICES)
    async def play(
        self,
        interaction: discord.Interaction[Any],
        card: app_commands.Range[str, 1, 30],
        suit: str | None = None,
    ) -> None:
        """Play ``card``; the engine refuses a card that is not yours or does not fit, and
        an 8 without a suit."""
        await verbs.move(interaction, GAME, "play", play_arg(card, suit))

    @play.autocomplete("card")
    async def play_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The member's own cards that fit; nothing when it is not their turn."""
        return verbs.suggest(interaction, GAME, "card", current)

    @group.command(
        name="draw", description=_("Draw a card from the stock", key="cmd.crazyeights.draw")
    )
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        """Draw one card; the turn goes on (rule 11)."""
        await verbs.move(interaction, GAME, DRAW, None)

    @group.command(
        name="pass",
        description=_(
            "Pass, when nothing fits and nothing is left to draw", key="cmd.crazyeights.pass"
        ),
    )
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        """Pass, only with nothing to draw and nothing that fits (rule 13)."""
        await verbs.move(interaction, GAME, PASS, None)


async def setup(bot: commands.Bot) -> None:
    """Register Crazy Eights with the sessions and load ``/crazyeights``."""
    install(bot).sessions.games.register(ADAPTER)
    await bot.add_cog(CrazyEightsCog(bot))


async def teardown(bot: commands.Bot) -> None:
    """Unload: new Crazy Eights games are no longer offered."""
    cast(Deckhand, bot).sessions.games.unregister(GAME)
