"""Blackjack on Discord: ``/blackjack ...`` commands, buttons and the table's text."""

from __future__ import annotations

from discord.ext import commands

from bot.games.blackjack import BlackjackAdapter
from cogs.blackjack.cog import BlackjackCog
from cogs.common import install

__all__ = ["BlackjackAdapter", "BlackjackCog", "setup"]


async def setup(bot: commands.Bot) -> None:
    """Register the game with the sessions and load its commands."""
    deckhand = install(bot)
    deckhand.sessions.games.register(BlackjackAdapter())
    await bot.add_cog(BlackjackCog(bot))


async def teardown(bot: commands.Bot) -> None:
    """Forget the game when the extension is unloaded."""
    install(bot).sessions.games.unregister(BlackjackAdapter.name)
