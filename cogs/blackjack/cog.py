"""``/blackjack start|join|leave|hand|hit|stand``: parse, hand to the session, answer."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from cogs.common import table
from rules.blackjack.events import Hit, Stand
from rules.levels import Level

__all__ = ["GAME", "BlackjackCog"]

GAME = "blackjack"
MAX_SEATS = 7  # rule 14
SEED_MAX = 2**31 - 1  # the seed program's srand() takes an unsigned int; Discord's ints are 53-bit


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
        level=table.LEVEL_DESCRIPTION,
    )
    @app_commands.choices(level=table.LEVEL_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, 1, MAX_SEATS] = 1,
        bots: app_commands.Range[int, 0, MAX_SEATS - 1] = 0,
        seed: app_commands.Range[int, 0, SEED_MAX] | None = None,
        level: str = Level.NORMAL.value,
    ) -> None:
        """Open a table; with nobody else to wait for it deals at once."""
        await table.start(interaction, GAME, players=players, bots=bots, seed=seed, level=level)

    @blackjack.command(
        name="join", description=_("Take a seat at the Blackjack table", key="cmd.blackjack.join")
    )
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Take a free seat in the lobby."""
        await table.join(interaction, GAME)

    @blackjack.command(
        name="leave",
        description=_("Leave the table (a computer plays your hand on)", key="cmd.blackjack.leave"),
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """Give up the seat."""
        await table.leave(interaction, GAME)

    @blackjack.command(
        name="hand", description=_("Your hand, only for you", key="cmd.blackjack.hand")
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """The member's hand and total, ephemeral, with Hit/Stand on their turn."""
        await table.hand(interaction, GAME)

    @blackjack.command(name="hit", description=_("Take another card", key="cmd.blackjack.hit"))
    async def hit(self, interaction: discord.Interaction[Any]) -> None:
        """Hit."""
        await table.act(interaction, GAME, Hit())

    @blackjack.command(
        name="stand", description=_("Keep your total and end your turn", key="cmd.blackjack.stand")
    )
    async def stand(self, interaction: discord.Interaction[Any]) -> None:
        """Stand."""
        await table.act(interaction, GAME, Stand())
