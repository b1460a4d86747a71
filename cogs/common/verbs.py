"""The verbs every game's command group shares: start, join, leave, hand, a move, and the
autocomplete of the member's own legal moves.

Each is parse → session → answer: the session decides, this module only speaks Discord. A
game's cog calls these for its shared verbs and adds only its own.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.games import MAX_OPTIONS
from bot.i18n import t
from bot.sessions import Reply, SessionError, SessionRegistry
from cogs.common.buttons import LEAVE_CONFIRMED, GameButton, answer, send_hand
from cogs.common.respond import (
    deckhand,
    ephemeral,
    guarded,
    is_moderator,
    locale_of,
    member_of,
    public_locale,
)
from rules.engine import Action
from rules.levels import Level

__all__ = [
    "LEVEL_CHOICES",
    "LEVEL_DESCRIPTION",
    "SEED_MAX",
    "act",
    "hand",
    "join",
    "leave",
    "move",
    "own_view",
    "start",
    "suggest",
]

# The largest ``seed`` a ``/<game> start`` takes: Discord's integer options are 53-bit, and
# its description (Int53Type) refuses a max_value of 2**53 in the command sync at start-up.
SEED_MAX = 2**53 - 1

# The ``level`` option of every ``/<game> start``: how well the computer seats play.
LEVEL_DESCRIPTION = _("How well the computer seats play (default: normal)", key="param.level")
LEVEL_CHOICES = [
    app_commands.Choice(name=_("easy", key="choice.level.easy"), value=Level.EASY.value),
    app_commands.Choice(name=_("normal", key="choice.level.normal"), value=Level.NORMAL.value),
    app_commands.Choice(name=_("hard", key="choice.level.hard"), value=Level.HARD.value),
]


def _registry(interaction: discord.Interaction[Any], game: str) -> tuple[SessionRegistry, int]:
    """The registry and channel; refuses outside servers and where another game runs."""
    channel_id = interaction.channel_id
    if interaction.guild_id is None or channel_id is None:
        raise SessionError("error.guild_only")
    registry = deckhand(interaction).sessions
    session = registry.get(channel_id)
    if session is not None and session.game != game:
        raise SessionError("error.other_game", game=session.game)
    return registry, channel_id


async def _run(
    interaction: discord.Interaction[Any],
    game: str,
    verb: str,
    step: Callable[[SessionRegistry, int], Awaitable[Reply]],
) -> None:
    async def work() -> None:
        registry, channel_id = _registry(interaction, game)
        reply = await step(registry, channel_id)
        await answer(interaction, reply)

    await guarded(interaction, work, what=f"/{game} {verb}")


async def start(
    interaction: discord.Interaction[Any],
    game: str,
    *,
    players: int | None,
    bots: int,
    seed: int | None,
    options: dict[str, Any] | None = None,
    level: str = Level.NORMAL.value,
) -> None:
    """``/<game> start``: open a lobby here with the member as host; its computer seats
    play at ``level``."""

    async def step(registry: SessionRegistry, channel_id: int) -> Reply:
        if seed is not None:
            await _may_seed(interaction)
        return await registry.open_lobby(
            channel_id,
            interaction.guild_id,
            game,
            member_of(interaction),
            players=players,
            bots=bots,
            member_seed=seed,
            options=options,
            locale=await public_locale(interaction),
            level=level,
        )

    await _run(interaction, game, "start", step)


async def _may_seed(interaction: discord.Interaction[Any]) -> None:
    """A seeded deal needs the server's leave (``/game settings seeding``): anyone, by
    default; moderators only; or nobody."""
    if interaction.guild_id is None:
        return
    allowed = (await deckhand(interaction).store.guild_settings(interaction.guild_id)).seeding
    if allowed == "off":
        raise SessionError("error.seeding_off")
    if allowed == "moderators" and not await is_moderator(interaction):
        raise SessionError("error.seeding_moderators")


async def join(interaction: discord.Interaction[Any], game: str) -> None:
    """``/<game> join``: take a seat in the lobby."""
    await _run(interaction, game, "join", lambda r, c: r.join(c, member_of(interaction)))


async def leave(interaction: discord.Interaction[Any], game: str) -> None:
    """``/<game> leave``: give up a seat. A lobby seat is freed at once; a running game's
    seat is given up (forfeited by the game's rule, or a computer plays it on) only once the
    member confirms with the button this answers with, which says what leaving costs."""

    async def work() -> None:
        registry, channel_id = _registry(interaction, game)
        session = registry.get(channel_id)
        member_id = interaction.user.id
        if session is None or session.is_lobby or session.seat_of(member_id) is None:
            await answer(interaction, await registry.leave(channel_id, member_id))
            return
        locale = locale_of(interaction)
        adapter = registry.adapter(session)
        key = "leave.confirm_forfeit" if adapter.forfeits else "leave.confirm_computer"
        button = GameButton(
            channel_id,
            session.version,
            LEAVE_CONFIRMED,
            label=t("button.leave_confirmed", locale),
            style=discord.ButtonStyle.danger,
        )
        view = discord.ui.View(timeout=None)
        view.add_item(button)
        game_name = t(f"game.{game}", locale)
        await ephemeral(interaction, t(key, locale, game=game_name), view=view)

    await guarded(interaction, work, what=f"/{game} leave")


async def act(interaction: discord.Interaction[Any], game: str, action: Action) -> None:
    """A move typed as a command (``/blackjack hit``)."""
    await _run(
        interaction,
        game,
        type(action).__name__.lower(),
        lambda r, c: r.act(c, interaction.user.id, action, locale=locale_of(interaction)),
    )


async def move(
    interaction: discord.Interaction[Any], game: str, verb: str, arg: str | None
) -> None:
    """A move named as text (``/onecard play card:♠7 suit:♥``); the game's adapter parses it
    after the session's turn check, so "not your turn" comes first."""
    locale = locale_of(interaction)
    await _run(
        interaction,
        game,
        verb,
        lambda r, c: r.act(c, interaction.user.id, (verb, arg), locale=locale),
    )


def own_view(interaction: discord.Interaction[Any], game: str) -> Any | None:
    """The member's own view of this channel's ``game``, to read a number of their hand
    against the hand they were shown; ``None`` when they hold no seat here (the session
    says why when the move is tried)."""
    session = deckhand(interaction).sessions.get(interaction.channel_id or 0)
    if session is None or session.game != game:
        return None
    state = session.state_if_restorable()
    seat = session.seat_of(interaction.user.id)
    return None if state is None or seat is None else state.view(seat)


async def hand(interaction: discord.Interaction[Any], game: str) -> None:
    """``/<game> hand``: the member's own hand, ephemeral, with controls on their turn."""

    async def work() -> None:
        _, channel_id = _registry(interaction, game)
        await send_hand(interaction, channel_id)

    await guarded(interaction, work, what=f"/{game} hand")


def suggest(
    interaction: discord.Interaction[Any], game: str, option: str, typed: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete of ``option``: the member's own legal moves in this channel's ``game``
    (:meth:`bot.games.GameAdapter.suggest`); nothing for anyone else, or out of a game."""
    registry = deckhand(interaction).sessions
    session = registry.get(interaction.channel_id or 0)
    if session is None or session.game != game:
        return []
    state = session.state_if_restorable()
    seat = session.seat_of(interaction.user.id)
    if state is None or seat is None:
        return []
    view = state.view(seat)
    found = registry.adapter(session).suggest(view, option, typed, locale_of(interaction))
    return [
        app_commands.Choice(name=choice.label[:100], value=choice.value[:100])
        for choice in list(found)[:MAX_OPTIONS]
    ]
