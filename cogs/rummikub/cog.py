"""``/rummikub``: start, join, leave, hand, the staged turn (put, add, move, split, undo,
reset, done, draw) and hint.

Like every cog this one only declares its commands: the shared verbs of
:mod:`cogs.common.verbs` do the rest. A staging step is saved and answered to the member
alone with the preview; Done and Draw end the turn at the public table. The Arrange button
of the preview opens the edit box (:class:`cogs.common.buttons.EditBox`). ``hint`` runs the
solver off the event loop with a time limit, its answer deferred (rule 16).
"""

from __future__ import annotations

import asyncio
from typing import Any, Final, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.games.rummikub import ADAPTER, NEW
from bot.sessions import SessionError
from bot.text import rummikub as render
from cogs.common import install, verbs
from cogs.common.respond import Deckhand, deckhand, guarded, locale_of
from rules.levels import Level
from rules.rummikub import RummikubView
from rules.rummikub.ai import hint as solver_hint

__all__ = ["HINT_SECONDS", "RummikubCog"]

GAME: Final = "rummikub"
TILE_TEXT: Final = 100  # Discord's most for a string option; 30 tiles and their spaces
HINT_SECONDS: Final = 1.5  # the most the solver runs for a hint
HINT_CHOICES: Final = [
    app_commands.Choice(name=_("on", key="choice.rummikub.hints.on"), value="on"),
    app_commands.Choice(name=_("off", key="choice.rummikub.hints.off"), value="off"),
]


class RummikubCog(commands.Cog):
    """``/rummikub start|join|leave|hand|put|add|move|split|undo|reset|done|draw|hint``."""

    group = app_commands.Group(
        name=GAME,
        description=_("Play Rummikub: runs and groups of tiles", key="cmd.rummikub"),
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @group.command(
        name="start",
        description=_("Open a Rummikub table here (2-4 seats)", key="cmd.rummikub.start"),
    )
    @app_commands.describe(
        players=_("Seats at the table, members and computers (2-4)", key="param.rummikub_players"),
        bots=_("How many of the seats computer players take", key="param.bots"),
        seed=_("Deal a reproducible game from this number", key="param.seed"),
        level=verbs.LEVEL_DESCRIPTION,
        hints=_("Whether /rummikub hint may show the best play", key="param.rummikub_hints"),
    )
    @app_commands.choices(hints=HINT_CHOICES)
    @app_commands.choices(level=verbs.LEVEL_CHOICES)
    async def start(  # noqa: PLR0917 - Discord passes each slash option as a parameter
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, 2, 4] | None = None,
        bots: app_commands.Range[int, 0, 3] = 0,
        seed: app_commands.Range[int, 0, verbs.SEED_MAX] | None = None,
        level: str = Level.NORMAL.value,
        hints: str = "off",
    ) -> None:
        """Open a table of 2 to 4 seats, some of them computers; hints only if asked for."""
        options = {"hints": hints == "on"}
        await verbs.start(
            interaction, GAME, players=players, bots=bots, seed=seed, options=options, level=level
        )

    @group.command(name="join", description=_("Take a seat at the table", key="cmd.rummikub.join"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Take a free seat."""
        await verbs.join(interaction, GAME)

    @group.command(
        name="leave",
        description=_(
            "Leave the table (in a game: your rack goes back to the pool)",
            key="cmd.rummikub.leave",
        ),
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """In the lobby free the seat; in a game forfeit it: the rack goes back to the pool."""
        await verbs.leave(interaction, GAME)

    @group.command(
        name="hand",
        description=_("Your rack and your staged turn, only for you", key="cmd.rummikub.hand"),
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """The turn view, ephemeral, with its buttons on the member's turn."""
        await verbs.hand(interaction, GAME)

    @group.command(
        name="put", description=_("Put a new set from your rack", key="cmd.rummikub.put")
    )
    @app_commands.describe(tiles=_("Tiles of your rack, e.g. R5 R6 R7", key="param.rummikub_tiles"))
    async def put(
        self, interaction: discord.Interaction[Any], tiles: app_commands.Range[str, 1, TILE_TEXT]
    ) -> None:
        """Stage a new set (not committed until Done)."""
        await verbs.move(interaction, GAME, "put", tiles)

    @put.autocomplete("tiles")
    async def put_tiles(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """Valid sets of the member's rack, best first."""
        return verbs.suggest(interaction, GAME, "tiles", current)

    @group.command(
        name="add",
        description=_(
            "Add tiles to a set: from your rack, or 3:K9 from set 3", key="cmd.rummikub.add"
        ),
    )
    @app_commands.describe(
        set=_("The set's number on the table", key="param.rummikub_set"),
        tiles=_("Rack tiles, or 3:K9 for a tile of set 3", key="param.rummikub_add"),
    )
    async def add(
        self,
        interaction: discord.Interaction[Any],
        set: app_commands.Range[int, 1, 200],
        tiles: app_commands.Range[str, 1, TILE_TEXT],
    ) -> None:
        """Stage tiles added to ``set``."""
        await verbs.move(interaction, GAME, "add", f"{set} {tiles}")

    @group.command(
        name="move",
        description=_("Move tiles between sets: 3:K9 2:J", key="cmd.rummikub.move"),
    )
    @app_commands.describe(
        tiles=_("Tiles with their set: 3:K9 2:J", key="param.rummikub_move"),
        to=_("The set's number, or new", key="param.rummikub_to"),
    )
    async def move(
        self,
        interaction: discord.Interaction[Any],
        tiles: app_commands.Range[str, 1, TILE_TEXT],
        to: app_commands.Range[str, 1, 8],
    ) -> None:
        """Stage tiles moved to set ``to`` or a new set."""
        # "new" in the member's words (새) is the adapter's to read, as in any move.
        await verbs.move(interaction, GAME, "move", f"{to.strip() or NEW} {tiles}")

    @group.command(name="split", description=_("Split a set in two", key="cmd.rummikub.split"))
    @app_commands.describe(
        set=_("The set's number on the table", key="param.rummikub_set"),
        at=_("The tile that starts the second part (2 = the second tile)", key="param.rummikub_at"),
    )
    async def split(
        self,
        interaction: discord.Interaction[Any],
        set: app_commands.Range[int, 1, 200],
        at: app_commands.Range[int, 2, 13],
    ) -> None:
        """Stage a split before tile ``at``."""
        await verbs.move(interaction, GAME, "split", f"{set} {at}")

    @group.command(name="undo", description=_("Undo your last step", key="cmd.rummikub.undo"))
    async def undo(self, interaction: discord.Interaction[Any]) -> None:
        """Back one staging step."""
        await verbs.move(interaction, GAME, "undo", None)

    @group.command(
        name="reset",
        description=_(
            "Back to the table as it was at the start of your turn", key="cmd.rummikub.reset"
        ),
    )
    async def reset(self, interaction: discord.Interaction[Any]) -> None:
        """Throw every staged step away."""
        await verbs.move(interaction, GAME, "reset", None)

    @group.command(name="done", description=_("Play your staged turn", key="cmd.rummikub.done"))
    async def done(self, interaction: discord.Interaction[Any]) -> None:
        """Commit the staged table; refused with what is still wrong."""
        await verbs.move(interaction, GAME, "done", None)

    @group.command(
        name="draw", description=_("Draw a tile and end your turn", key="cmd.rummikub.draw")
    )
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        """Draw (staged changes are undone)."""
        await verbs.move(interaction, GAME, "draw", None)

    @group.command(
        name="hint",
        description=_("The best play for your rack, only for you", key="cmd.rummikub.hint"),
    )
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        """Rule 16, at a table started with hints on: the next meld of the solver's best play
        from the member's staged table, deferred and off the event loop, time-limited."""

        async def work() -> None:
            registry = deckhand(interaction).sessions
            session = registry.game(interaction.channel_id or 0)
            if session.game != GAME:
                raise SessionError("error.other_game", game=session.game)
            seat = session.seat_of(interaction.user.id)
            if seat is None:
                raise SessionError("error.not_seated")
            state = session.state
            assert state is not None
            view = state.view(seat)
            assert isinstance(view, RummikubView)
            # The dealt game says whether hints are on, as its public table does.
            if not view.hints:
                raise SessionError("error.rummikub_hints_off")
            locale = locale_of(interaction)
            await interaction.response.defer(ephemeral=True, thinking=True)
            try:
                play = await asyncio.wait_for(asyncio.to_thread(solver_hint, view), HINT_SECONDS)
            except TimeoutError:
                play = None
            text = render.hint_text(view, play, locale, HINT_SECONDS)
            await interaction.followup.send(text, ephemeral=True)

        await guarded(interaction, work, what="/rummikub hint")


async def setup(bot: commands.Bot) -> None:
    """Register Rummikub with the sessions and load ``/rummikub``."""
    install(bot).sessions.games.register(ADAPTER)
    await bot.add_cog(RummikubCog(bot))


async def teardown(bot: commands.Bot) -> None:
    """Unload: new Rummikub games are no longer offered."""
    cast(Deckhand, bot).sessions.games.unregister(GAME)
