"""``/blackjack start|join|leave|hand|hit|stand|double|split``: parse, hand to the session,
answer. ``/blackjack start rules:casino`` opens a casino table (double, split, 3 to 2)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.games.blackjack import table_options
from cogs.common import verbs
from rules.blackjack.events import Double, Hit, Split, Stand
from rules.blackjack.state import CASINO, SEED_PROGRAM_RULES
from rules.levels import Level

__all__ = ["GAME", "RULES_CHOICES", "BlackjackCog"]

GAME = "blackjack"
MAX_SEATS = 7  # rule 14
SEED_MAX = 2**31 - 1  # the seed program's srand() takes an unsigned int; Discord's ints are 53-bit
RULES_CHOICES = [
    app_commands.Choice(
        name=_("classic: hit or stand", key="choice.blackjack.seed"), value=SEED_PROGRAM_RULES
    ),
    app_commands.Choice(
        name=_("casino: double, split, 3 to 2", key="choice.blackjack.casino"), value=CASINO
    ),
]


class BlackjackCog(commands.Cog):
    """The Blackjack command group; the rules live in ``rules/blackjack``."""

    blackjack = app_commands.Group(
        name=GAME,
        description=_("Blackjack against the House", key="cmd.blackjack"),
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @blackjack.command(
        name="start",
        description=_("Open a Blackjack table in this channel", key="cmd.blackjack.start"),
    )
    @app_commands.describe(
        players=_("Seats at the table, members and computers (1-7)", key="param.players"),
        bots=_("How many of the seats computer players take", key="param.bots"),
        seed=_("Deal a reproducible game from this number", key="param.seed"),
        level=verbs.LEVEL_DESCRIPTION,
        rules=_(
            "classic (the default) or casino: double, split, Blackjack pays 3 to 2",
            key="param.blackjack_rules",
        ),
    )
    @app_commands.choices(level=verbs.LEVEL_CHOICES, rules=RULES_CHOICES)
    async def start(  # noqa: PLR0917 - Discord passes each slash option as a parameter
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, 1, MAX_SEATS] = 1,
        bots: app_commands.Range[int, 0, MAX_SEATS - 1] = 0,
        seed: app_commands.Range[int, 0, SEED_MAX] | None = None,
        level: str = Level.NORMAL.value,
        rules: str = SEED_PROGRAM_RULES,
    ) -> None:
        """Open a table (classic or casino rules); with nobody else to wait for it deals at
        once."""
        await verbs.start(
            interaction,
            GAME,
            players=players,
            bots=bots,
            seed=seed,
            options=table_options(rules),
            level=level,
        )

    @blackjack.command(
        name="join", description=_("Take a seat at the Blackjack table", key="cmd.blackjack.join")
    )
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Take a free seat in the lobby."""
        await verbs.join(interaction, GAME)

    @blackjack.command(
        name="leave",
        description=_("Leave the table (a computer plays your hand on)", key="cmd.blackjack.leave"),
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Give up the seat."""
        await verbs.leave(interaction, GAME)

    @blackjack.command(
        name="hand", description=_("Your hand, only for you", key="cmd.blackjack.hand")
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """The member's hand and total, ephemeral, with Hit/Stand on their turn."""
        await verbs.hand(interaction, GAME)

    @blackjack.command(name="hit", description=_("Take another card", key="cmd.blackjack.hit"))
    async def hit(self, interaction: discord.Interaction[Any]) -> None:
        """Hit."""
        await verbs.act(interaction, GAME, Hit())

    @blackjack.command(
        name="stand", description=_("Keep your total and end your turn", key="cmd.blackjack.stand")
    )
    async def stand(self, interaction: discord.Interaction[Any]) -> None:
        """Stand."""
        await verbs.act(interaction, GAME, Stand())

    @blackjack.command(
        name="double",
        description=_(
            "Casino table: double your bet, take one card and stop", key="cmd.blackjack.double"
        ),
    )
    async def double(self, interaction: discord.Interaction[Any]) -> None:
        """Double down (a casino table's move)."""
        await verbs.act(interaction, GAME, Double())

    @blackjack.command(
        name="split",
        description=_("Casino table: split a pair into two hands", key="cmd.blackjack.split"),
    )
    async def split(self, interaction: discord.Interaction[Any]) -> None:
        """Split a pair (a casino table's move)."""
        await verbs.act(interaction, GAME, Split())
