"""``/uno``: start, join, leave, hand, play, draw, pass, uno, catch and challenge.

Like every cog this one only declares its commands: the shared verbs of
:mod:`cogs.common.verbs` do the rest, and Uno's adapter (:mod:`bot.games.uno`) says what a
move means, draws the table and the hand, and offers the menus (a wild asks for its colour,
a 7 under ``seven_zero`` for the seat it swaps with).
"""

from __future__ import annotations

from typing import Any, Final, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.games.uno import ADAPTER, play_arg
from bot.text.uno import COLOURS
from cogs.common import install, verbs
from cogs.common.respond import Deckhand
from rules.levels import Level

__all__ = ["UnoCog"]

GAME: Final = "uno"
CARD_TEXT: Final = 30  # the longest way to type a card ("wild draw four yellow") fits
COLOUR_CHOICES: Final = [
    app_commands.Choice(name=_(colour, key=f"uno.colour.{colour}"), value=colour)
    for colour in COLOURS
]
RULESET_CHOICES: Final = [
    app_commands.Choice(name=_("official", key="choice.uno.official"), value="official"),
    app_commands.Choice(
        name=_("classroom (a wrong card costs a penalty card)", key="choice.uno.seed"), value="seed"
    ),
]


class UnoCog(commands.Cog):
    """``/uno start|join|leave|hand|play|draw|pass|uno|catch|challenge``."""

    group = app_commands.Group(
        name=GAME, description=_("Play Uno (우노)", key="cmd.uno"), guild_only=True
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @group.command(name="start", description=_("Open an Uno table here", key="cmd.uno.start"))
    @app_commands.describe(
        players=_("Seats at the table, members and computers (2-10)", key="param.uno_players"),
        bots=_("How many of the seats computer players take", key="param.bots"),
        seed=_("Deal a reproducible game from this number", key="param.seed"),
        level=verbs.LEVEL_DESCRIPTION,
        ruleset=_("official, or the classroom variant", key="param.uno_ruleset"),
        stacking=_("+2 on +2 and +4 on +4 pass the sum on", key="param.uno_stacking"),
        draw_until_playable=_("Draw until a card can be played", key="param.uno_draw_until"),
        jump_in=_("Play a card identical to the top card out of turn", key="param.uno_jump_in"),
        seven_zero=_("7 swaps hands with a player, 0 passes them on", key="param.uno_seven_zero"),
        uno_call=_("Press UNO! yourself, or be caught for 2 cards", key="param.uno_uno_call"),
    )
    @app_commands.choices(ruleset=RULESET_CHOICES)
    @app_commands.choices(level=verbs.LEVEL_CHOICES)
    async def start(  # noqa: PLR0917 - Discord passes each slash option as a parameter
        self,
        interaction: discord.Interaction[Any],
        players: app_commands.Range[int, 2, 10] | None = None,
        bots: app_commands.Range[int, 0, 9] = 0,
        seed: app_commands.Range[int, 0, verbs.SEED_MAX] | None = None,
        level: str = Level.NORMAL.value,
        ruleset: str = "official",
        stacking: bool = False,
        draw_until_playable: bool = False,
        jump_in: bool = False,
        seven_zero: bool = False,
        uno_call: bool = False,
    ) -> None:
        """Open a lobby with the ruleset and house rules; the host takes the first seat."""
        options = {
            "ruleset": ruleset,
            "stacking": stacking,
            "draw_until_playable": draw_until_playable,
            "jump_in": jump_in,
            "seven_zero": seven_zero,
            "uno_call": uno_call,
        }
        await verbs.start(
            interaction, GAME, players=players, bots=bots, seed=seed, options=options, level=level
        )

    @group.command(name="join", description=_("Take a seat at the Uno table", key="cmd.uno.join"))
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Take a free seat in the lobby."""
        await verbs.join(interaction, GAME)

    @group.command(
        name="leave",
        description=_(
            "Leave the table (in a game: forfeit, your cards go under the pile)",
            key="cmd.uno.leave",
        ),
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """In the lobby free the seat; in a game forfeit it: its cards go under the pile."""
        await verbs.leave(interaction, GAME)

    @group.command(name="hand", description=_("Your hand, only for you", key="cmd.uno.hand"))
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """The member's hand, ephemeral, with the menu of their legal plays."""
        await verbs.hand(interaction, GAME)

    @group.command(name="play", description=_("Play a card", key="cmd.uno.play"))
    @app_commands.describe(
        card=_("One of your playable cards, or its number in your hand", key="param.uno_card"),
        colour=_("After a wild: the colour to match next", key="param.uno_colour"),
        target=_("After a 7 (seven_zero): the seat number to swap with", key="param.uno_target"),
    )
    @app_commands.choices(colour=COLOUR_CHOICES)
    async def play(
        self,
        interaction: discord.Interaction[Any],
        card: app_commands.Range[str, 1, CARD_TEXT],
        colour: str | None = None,
        target: app_commands.Range[int, 1, 10] | None = None,
    ) -> None:
        """Play ``card`` (or the card its number names in the member's hand); the engine
        refuses (or, seed rules, penalises) what is not legal."""
        seat = None if target is None else target - 1
        view = verbs.own_view(interaction, GAME)
        shown = None if view is None else ADAPTER.shown_card(view, card)
        await verbs.move(interaction, GAME, "play", play_arg(shown or card, colour, seat))

    @play.autocomplete("card")
    async def play_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The member's own legal plays (a jump-in too); nothing when they have none."""
        return verbs.suggest(interaction, GAME, "card", current)

    @group.command(
        name="draw", description=_("Draw a card, or take the pending cards", key="cmd.uno.draw")
    )
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        """Draw (rule 6), or take the +2/+4 cards waiting for you."""
        await verbs.move(interaction, GAME, "draw", None)

    @group.command(
        name="pass",
        description=_("Pass: keep the card you drew and end your turn", key="cmd.uno.pass"),
    )
    async def pass_(self, interaction: discord.Interaction[Any]) -> None:
        """After a draw: pass, keeping the drawn card (the Pass button does the same)."""
        await verbs.move(interaction, GAME, "pass", None)

    @group.command(name="uno", description=_("Call UNO!", key="cmd.uno.uno"))
    async def uno(self, interaction: discord.Interaction[Any]) -> None:
        """Say UNO before going down to one card, or just after (house rule uno_call)."""
        await verbs.move(interaction, GAME, "uno", None)

    @group.command(
        name="catch", description=_("Call out a player who did not say UNO", key="cmd.uno.catch")
    )
    async def catch(self, interaction: discord.Interaction[Any]) -> None:
        """The one-card player who did not call UNO draws two (house rule uno_call)."""
        registry = install(self.bot).sessions
        session = registry.get(interaction.channel_id or 0)
        exposed = None
        state = None if session is None or session.game != GAME else session.state_if_restorable()
        if state is not None:
            exposed = state.view(None).uno_exposed
        arg = "" if exposed is None else str(exposed)
        await verbs.move(interaction, GAME, "catch", arg or None)

    @group.command(
        name="challenge",
        description=_("Challenge the Wild Draw Four played on you", key="cmd.uno.challenge"),
    )
    async def challenge(self, interaction: discord.Interaction[Any]) -> None:
        """Rule 8: a bluff draws four; an honest Wild Draw Four costs you six."""
        await verbs.move(interaction, GAME, "challenge", None)


async def setup(bot: commands.Bot) -> None:
    """Register Uno with the sessions and load ``/uno``."""
    install(bot).sessions.games.register(ADAPTER)
    await bot.add_cog(UnoCog(bot))


async def teardown(bot: commands.Bot) -> None:
    """Unload: new Uno games are no longer offered."""
    cast(Deckhand, bot).sessions.games.unregister(GAME)
