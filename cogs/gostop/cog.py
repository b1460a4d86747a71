"""``/gostop``: start, join, leave, hand, play, choose, go, stop and chongtong.

Like every cog this one only declares its commands: the shared verbs of
:mod:`cogs.common.verbs` do the rest, the session registry applies the move (and saves it)
and the engine decides what is legal. The Hand's menus (a card, then which floor card, a
shake or a bomb when the rules offer one), the autocomplete of ``/gostop play`` and
``/gostop choose`` and forfeiting on leave come from Go-Stop's adapter
(:mod:`bot.games.gostop`) through the shared pieces.
"""

from __future__ import annotations

from typing import Any, Final, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.games.gostop import ADAPTER, CHONGTONG_END, CHONGTONG_PLAY
from cogs.common import install, verbs
from cogs.common.respond import Deckhand
from rules.levels import Level

__all__ = ["GostopCog"]

GAME: Final = "gostop"
CARD_TEXT: Final = 40  # the longest move text: "jan bright > jan junk shake" and room to spare
BONUS_CHOICES: Final = [
    app_commands.Choice(name=_("none", key="choice.gostop.bonus.0"), value=0),
    app_commands.Choice(
        name=_("2: two bonus doubles (2 junk each)", key="choice.gostop.bonus.2"), value=2
    ),
    app_commands.Choice(
        name=_("3: and a bonus triple (3 junk)", key="choice.gostop.bonus.3"), value=3
    ),
]
CHONGTONG_CHOICES: Final = [
    app_commands.Choice(
        name=_("Win now with 10 points", key="choice.gostop.chongtong.end"), value=CHONGTONG_END
    ),
    app_commands.Choice(
        name=_("Play on", key="choice.gostop.chongtong.play"), value=CHONGTONG_PLAY
    ),
]


class GostopCog(commands.Cog):
    """``/gostop start|join|leave|hand|play|choose|go|stop|chongtong``."""

    group = app_commands.Group(
        name=GAME,
        description=_("Play Go-Stop, two-player Matgo", key="cmd.gostop"),
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @group.command(
        name="start",
        description=_(
            "Open a Matgo table here: against a member, or the computer", key="cmd.gostop.start"
        ),
    )
    @app_commands.describe(
        bots=_(
            "1: play against the computer; 0: wait for a member to join", key="param.gostop_bots"
        ),
        seed=_("Deal a reproducible game from this number", key="param.seed"),
        level=verbs.LEVEL_DESCRIPTION,
        bonus_cards=_("Bonus cards in the deck (worth 2 or 3 junk)", key="param.gostop_bonus"),
    )
    @app_commands.choices(bonus_cards=BONUS_CHOICES)
    @app_commands.choices(level=verbs.LEVEL_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction[Any],
        bots: app_commands.Range[int, 0, 1] = 0,
        seed: app_commands.Range[int, 0, verbs.SEED_MAX] | None = None,
        level: str = Level.NORMAL.value,
        bonus_cards: int = 0,
    ) -> None:
        """Open a table of two: the host, and a member or the computer."""
        options = {"bonus_cards": bonus_cards}
        await verbs.start(
            interaction, GAME, players=2, bots=bots, seed=seed, options=options, level=level
        )

    @group.command(
        name="join", description=_("Take the other seat at the Matgo table", key="cmd.gostop.join")
    )
    async def join(self, interaction: discord.Interaction[Any]) -> None:
        """Take the free seat; the game is dealt at once."""
        await verbs.join(interaction, GAME)

    @group.command(
        name="leave",
        description=_(
            "Leave the table (in a game: you forfeit, the other player wins)",
            key="cmd.gostop.leave",
        ),
    )
    async def leave(self, interaction: discord.Interaction[Any]) -> None:
        """In the lobby free the seat; in a game forfeit it: the other seat wins."""
        await verbs.leave(interaction, GAME)

    @group.command(
        name="hand",
        description=_(
            "Your hand and what each card would take, only for you", key="cmd.gostop.hand"
        ),
    )
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        """The member's hand, ephemeral; on their turn with the choice the game asks."""
        await verbs.hand(interaction, GAME)

    @group.command(name="play", description=_("Play a card from your hand", key="cmd.gostop.play"))
    @app_commands.describe(card=_("One of your playable cards", key="param.gostop_card"))
    async def play(
        self, interaction: discord.Interaction[Any], card: app_commands.Range[str, 1, CARD_TEXT]
    ) -> None:
        """Play ``card`` (with its target, a shake or a bomb), or the card its number names in
        the member's hand; the engine refuses what is not legal with its reason."""
        view = verbs.own_view(interaction, GAME)
        shown = None if view is None else ADAPTER.shown_card(view, card)
        await verbs.move(interaction, GAME, "play", shown or card)

    @play.autocomplete("card")
    async def play_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The member's own legal moves; nothing when it is not their turn."""
        return verbs.suggest(interaction, GAME, "card", current)

    @group.command(
        name="choose",
        description=_("After a flip: which of two floor cards it takes", key="cmd.gostop.choose"),
    )
    @app_commands.describe(
        card=_("One of the two floor cards the flipped card can take", key="param.gostop_choose")
    )
    async def choose(
        self, interaction: discord.Interaction[Any], card: app_commands.Range[str, 1, CARD_TEXT]
    ) -> None:
        """What the flipped card takes (rule 7)."""
        await verbs.move(interaction, GAME, "choose", card)

    @choose.autocomplete("card")
    async def choose_card(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        """The two floor cards, for the member who must choose."""
        return verbs.suggest(interaction, GAME, "choose", current)

    @group.command(name="go", description=_("Go: play on for more points", key="cmd.gostop.go"))
    async def go(self, interaction: discord.Interaction[Any]) -> None:
        """Go (rule 22)."""
        await verbs.move(interaction, GAME, "go", None)

    @group.command(
        name="stop", description=_("Stop: end the game and win your points", key="cmd.gostop.stop")
    )
    async def stop(self, interaction: discord.Interaction[Any]) -> None:
        """Stop (rule 22)."""
        await verbs.move(interaction, GAME, "stop", None)

    @group.command(
        name="chongtong",
        description=_("Chongtong: win now with 10 points, or play on", key="cmd.gostop.chongtong"),
    )
    @app_commands.describe(
        choice=_("End the game now with 10 points, or play on", key="param.gostop_chongtong")
    )
    @app_commands.choices(choice=CHONGTONG_CHOICES)
    async def chongtong(self, interaction: discord.Interaction[Any], choice: str) -> None:
        """A chongtong's choice (rule 5), asked at the start of its holder's first turn."""
        await verbs.move(interaction, GAME, "chongtong", choice)


async def setup(bot: commands.Bot) -> None:
    """Register Go-Stop with the sessions and load ``/gostop``."""
    install(bot).sessions.games.register(ADAPTER)
    await bot.add_cog(GostopCog(bot))


async def teardown(bot: commands.Bot) -> None:
    """Unload: new Go-Stop games are no longer offered."""
    cast(Deckhand, bot).sessions.games.unregister(GAME)
