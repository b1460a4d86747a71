"""``/stats`` and ``/leaderboard``: results in this server, per member and per game.

The board ranks members by a rating over games between members (:mod:`bot.ratings`), never
by a count of wins anyone can farm at a table of computers; games against computers are
shown apart, and Blackjack, played against the House, by the share of hands won. Games whose
scores are points (:data:`POINTS_GAMES`) show their sums in ``/stats``. Seeded games are
practice: shown apart, never counted.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.games import GameCatalog, Scores
from bot.i18n import t
from bot.ratings import HOUSE_GAMES, MIN_HOUSE_HANDS, Standing, leaderboard, practice, standings
from bot.store.base import GameStore
from cogs.common import ephemeral, guarded, install, locale_of, public_locale
from cogs.common.buttons import NO_PINGS
from cogs.common.respond import deckhand
from cogs.game import GAME_CHOICES, GAMES, channel_of

__all__ = ["POINTS_GAMES", "StatsCog", "setup"]

# Games whose results carry points (Uno: the cards left in the others' hands, Rummikub: the
# racks, negative for a loser), as each game's adapter says.
POINTS_GAMES = frozenset(
    game.name for game in GameCatalog.discover() if game.scores is Scores.POINTS
)


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
            store = deckhand(interaction).store
            for game in record.games:
                found = await rated(store, guild_id, game)
                if who.id in found:
                    lines.append(standing_line(game, found[who.id], locale))
            if record.practice:  # seeded deals: shown apart, never counted above
                played = ", ".join(
                    t("stats.practice_game", locale, game=t(f"game.{game}", locale), played=n)
                    for game, n in record.practice.items()
                )
                lines.append(t("stats.practice", locale, games=played))
            await ephemeral(interaction, "\n".join(lines))

        await guarded(interaction, work, what="/stats")

    @app_commands.command(
        name="leaderboard",
        description=_("Ratings in this server, per game", key="cmd.leaderboard"),
    )
    @app_commands.describe(game=_("Only this game", key="param.game"))
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str] | None = None,
    ) -> None:
        """Each game's best rated members (one game: its top ten and who played only against
        computers), public, without pinging anyone."""

        async def work() -> None:
            channel_of(interaction)
            guild_id = interaction.guild_id
            assert guild_id is not None
            # The board is public, so it speaks the server's language; "no games yet" is the
            # caller's alone.
            locale = await public_locale(interaction)
            store = deckhand(interaction).store
            lines: list[str] = []
            for name in GAMES if game is None else (game.value,):
                found = await rated(store, guild_id, name)
                lines += board_lines(name, found, locale, limit=3 if game is None else 10)
            if not lines:
                await ephemeral(interaction, t("leaderboard.none", locale_of(interaction)))
                return
            text = "\n".join(lines)
            await interaction.response.send_message(text, allowed_mentions=NO_PINGS)

        await guarded(interaction, work, what="/leaderboard")


def board_lines(game: str, found: dict[int, Standing], locale: str, limit: int) -> list[str]:
    """One game's part of the board: its title, the ranked members, then (apart) those who
    played only against computers; nothing when nobody has finished a game of it."""
    if not found:
        return []
    name = t(f"game.{game}", locale)
    ranked = leaderboard(game, found, limit)
    if game in HOUSE_GAMES:
        lines = [t("leaderboard.title_house", locale, game=name, least=MIN_HOUSE_HANDS)]
        lines += [
            t(
                "leaderboard.row_house",
                locale,
                rank=rank,
                member=f"<@{s.member_id}>",
                share=round(100 * s.win_share),
                played=s.played,
            )
            for rank, s in enumerate(ranked, 1)
        ]
    else:
        lines = [t("leaderboard.title_rating", locale, game=name)]
        lines += [
            t(
                "leaderboard.row_rating",
                locale,
                rank=rank,
                member=f"<@{s.member_id}>",
                rating=f"{s.mu:.1f}",
                spread=f"{s.sigma:.1f}",
                games=s.versus_members,
            )
            for rank, s in enumerate(ranked, 1)
        ]
    if not ranked:
        lines.append(t("leaderboard.nobody_ranked", locale))
    alone = practice(game, found, limit)
    if alone:
        members = ", ".join(
            t("leaderboard.practice_member", locale, member=f"<@{s.member_id}>", games=n)
            for s in alone
            for n in [s.versus_computers]
        )
        lines.append(t("leaderboard.practice", locale, members=members))
    return lines


async def rated(store: GameStore, guild_id: int, game: str) -> dict[int, Standing]:
    """Every member's standing in ``game`` here, computed off the event loop (10,000 games
    take about 0.4 s on this project's test machine: no table may wait for it)."""
    return await asyncio.to_thread(standings, game, await store.game_results(guild_id, game))


def standing_line(game: str, standing: Standing, locale: str) -> str:
    """A member's rating in ``game`` (or share of House hands won) for ``/stats``."""
    name = t(f"game.{game}", locale)
    if game in HOUSE_GAMES:
        share = round(100 * standing.win_share)
        return t("stats.house", locale, game=name, share=share, played=standing.played)
    if not standing.versus_members:
        return t("stats.unrated", locale, game=name, computers=standing.versus_computers)
    return t(
        "stats.rating",
        locale,
        game=name,
        rating=f"{standing.mu:.1f}",
        spread=f"{standing.sigma:.1f}",
        members=standing.versus_members,
        computers=standing.versus_computers,
    )


async def setup(bot: commands.Bot) -> None:
    """Load ``/stats`` and ``/leaderboard``."""
    install(bot)
    await bot.add_cog(StatsCog(bot))
