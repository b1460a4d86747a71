"""``/stats`` and ``/leaderboard``: results in this server, per member and per game.

Games whose scores are points (:data:`POINTS_GAMES`) show their sums and rank by them; the
other games' scores (a Blackjack total, One Card's cards left) do not add up to anything.
Seeded games are practice: shown apart, never counted.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.i18n import t
from cogs.common import ephemeral, guarded, install, locale_of
from cogs.common.buttons import NO_PINGS
from cogs.common.respond import deckhand
from cogs.game import GAME_CHOICES, channel_of

__all__ = ["POINTS_GAMES", "StatsCog", "setup"]

# Uno: the cards left in the others' hands, Go-Stop: the score sheet, Rummikub: the racks
# (negative for a loser).
POINTS_GAMES = frozenset({"uno", "gostop", "rummikub"})


class StatsCog(commands.Cog):
    """``/stats [member]`` and ``/leaderboard [game]``."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="stats", description=_("A member's results in this server", key="cmd.stats")
    )
    @app_commands.describe(member=_("Whose results (you if empty)", key="param.stats_member"))
    @app_commands.guild_only()
    async def stats(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        """Played/won/lost/drawn per game (ephemeral)."""

        async def work() -> None:
            channel_of(interaction)
            guild_id = interaction.guild_id
            assert guild_id is not None
            who = member or interaction.user
            locale = locale_of(interaction)
            record = await deckhand(interaction).store.member_stats(guild_id, who.id)
            mention = f"<@{who.id}>"
            if not record.games and not record.practice:
                await ephemeral(interaction, t("stats.none", locale, member=mention))
                return
            lines = [t("stats.title", locale, member=mention)]
            lines += [
                t(
                    "stats.row_points" if game in POINTS_GAMES else "stats.row",
                    locale,
                    game=t(f"game.{game}", locale),
                    **counts,
                )
                for game, counts in record.games.items()
            ]
            if record.practice:  # seeded deals: shown apart, never counted above
                played = ", ".join(
                    t("stats.practice_game", locale, game=t(f"game.{game}", locale), played=n)
                    for game, n in record.practice.items()
                )
                lines.append(t("stats.practice", locale, games=played))
            await ephemeral(interaction, "\n".join(lines))

        await guarded(interaction, work, what="/stats")

    @app_commands.command(
        name="leaderboard", description=_("Most wins in this server", key="cmd.leaderboard")
    )
    @app_commands.describe(game=_("Only this game", key="param.game"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        """The top ten by wins, public, without pinging anyone."""

        async def work() -> None:
            channel_of(interaction)
            guild_id = interaction.guild_id
            assert guild_id is not None
            locale = locale_of(interaction)
            name = None if game is None else game.value
            by_points = name in POINTS_GAMES
            rows = await deckhand(interaction).store.leaderboard(
                guild_id, name, by_points=by_points
            )
            if not rows:
                await ephemeral(interaction, t("leaderboard.none", locale))
                return
            if name is None:
                title = t("leaderboard.title", locale)
            else:
                heading = "leaderboard.title_points" if by_points else "leaderboard.title_game"
                title = t(heading, locale, game=t(f"game.{name}", locale))
            lines = [title] + [
                t(
                    "leaderboard.row_points" if by_points else "leaderboard.row",
                    locale,
                    rank=rank,
                    member=f"<@{row.member_id}>",
                    wins=row.wins,
                    played=row.played,
                    points=row.points,
                )
                for rank, row in enumerate(rows, 1)
            ]
            await interaction.response.send_message("\n".join(lines), allowed_mentions=NO_PINGS)

        await guarded(interaction, work, what="/leaderboard")


async def setup(bot: commands.Bot) -> None:
    """Load ``/stats`` and ``/leaderboard``."""
    install(bot)
    await bot.add_cog(StatsCog(bot))
