"""The ``game`` cog: what works the same for every game (status, list, end, kick, settings).

``/game status|list|end|kick|settings`` and ``/rules`` (``/stats`` and ``/leaderboard`` are
in :mod:`cogs.stats`). Like every cog it only parses, asks the session registry or the store,
and answers.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.games import GameCatalog
from bot.i18n import DEFAULT, LANGUAGES, catalog, describe, echo, t
from bot.sessions import Session, SessionError
from bot.store._common import SEEDING
from bot.text.fit import pages
from bot.text.listing import lines_for
from bot.text.names import markdown_name
from bot.verify import VerifyError, matches, parse_options, parse_seed, replay
from cogs.common import answer, ephemeral, guarded, install, locale_of
from cogs.common.buttons import GameButton
from cogs.common.respond import deckhand, is_moderator, permissions_in

__all__ = ["GAMES", "GAME_CHOICES", "GameCog", "channel_of", "parse_games", "setup", "table_list"]

log = logging.getLogger(__name__)

# Every game Deckhand has, for /rules and /leaderboard (whether or not its cog is loaded).
GAMES = tuple(GameCatalog.discover().names())
GAME_CHOICES = [
    app_commands.Choice(name=_(t(f"game.{game}"), key=f"game.{game}"), value=game) for game in GAMES
]
LANGUAGE_CHOICES = [
    app_commands.Choice(
        name=_(t("choice.language.auto"), key="choice.language.auto"), value="auto"
    ),
    # Each language by its own name, as language pickers do.
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name="한국어", value="ko"),
]
# What ``reset`` can put back to its default: a GuildSettings field, or all of them.
RESETTABLE = (
    "turn_seconds",
    "language",
    "moderator_role_id",
    "allowed_games",
    "seeding",
    "lobby_minutes",
)
# Who may deal a seeded (practice) game: bot.store._common.SEEDING.
SEEDING_CHOICES = [
    app_commands.Choice(name=_(t(f"choice.seeding.{who}"), key=f"choice.seeding.{who}"), value=who)
    for who in SEEDING
]
RESET_CHOICES = [
    app_commands.Choice(name=_(t(f"choice.reset.{name}"), key=f"choice.reset.{name}"), value=name)
    for name in (*RESETTABLE, "all")
]
MIN_TURN, MAX_TURN = 10, 600
MAX_LOBBY_MINUTES = 1440  # a day
# The options a final table reveals, as JSON: an Uno table's six take up to about 120.
VERIFY_OPTIONS_LENGTH = 300
MAX_LISTED = 25  # End buttons in one message: five rows of five
MAX_LIST_TEXT = 1900  # the list's text, with room for its last line under Discord's 2,000


def _game_words() -> dict[str, str]:
    """Every word a member may type for a game, in any language (``uno``, ``우노``), and
    for all of them (``all``, ``모두``: ``"all"``)."""
    words = {game: game for game in GAMES}
    for lang in LANGUAGES:
        words[catalog(lang)["word.all"].casefold()] = "all"
        for game in GAMES:
            words[catalog(lang)[f"name.{game}"].casefold()] = game
    return words


def parse_games(text: str) -> tuple[str, ...] | None:
    """``"blackjack, uno"`` (or ``"블랙잭, 우노"``) → those games; ``"all"`` (``"모두"``) →
    ``None`` (every game allowed)."""
    words = _game_words()
    typed = [name.strip().casefold() for name in text.replace(" ", ",").split(",")]
    names = [words.get(name, name) for name in typed if name]
    if names == ["all"]:
        return None
    unknown = [name for name in names if name not in GAMES]
    if unknown or not names:
        raise SessionError("error.unknown_games", names=", ".join(unknown) or text, games=GAMES)
    return tuple(dict.fromkeys(names))


def table_list(sessions: list[Session], now: float, locale: str) -> tuple[str, discord.ui.View]:
    """The list's text (within Discord's 2,000 characters) and an End button per table it
    shows (at most 25: five rows of five). Each button names its table's own channel."""
    shown: list[str] = []
    title = t("list.title", locale, n=len(sessions))
    for line in lines_for(sessions[:MAX_LISTED], now, locale):
        if len("\n".join([title, *shown, line])) > MAX_LIST_TEXT:
            break
        shown.append(line)
    lines = [title, *shown]
    if len(shown) < len(sessions):
        lines.append(t("list.more", locale, n=len(sessions) - len(shown), shown=len(shown)))
    view = discord.ui.View(timeout=None)
    for number, session in enumerate(sessions[: len(shown)], 1):
        view.add_item(
            GameButton(
                session.channel_id,
                session.version,
                "end_listed",
                label=t("button.end_n", locale, n=number),
                style=discord.ButtonStyle.danger,
            )
        )
    return "\n".join(lines), view


def channel_of(interaction: discord.Interaction[Any]) -> int:
    if interaction.guild_id is None or interaction.channel_id is None:
        raise SessionError("error.guild_only")
    return interaction.channel_id


class GameCog(commands.Cog):
    """Commands shared by every game."""

    game = app_commands.Group(
        name="game",
        description=_("Manage the game in this channel", key="cmd.game"),
        guild_only=True,
    )

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @game.command(
        name="status",
        description=_("What is running here and whose turn it is", key="cmd.game.status"),
    )
    async def status(self, interaction: discord.Interaction[Any]) -> None:
        """Who plays, whose turn, how long is left (ephemeral)."""

        async def work() -> None:
            channel_id = channel_of(interaction)
            registry = deckhand(interaction).sessions
            locale = locale_of(interaction)
            session = registry.get(channel_id)
            if session is None:
                await ephemeral(interaction, t("status.none", locale))
                return
            name = t(f"game.{session.game}", locale)
            state = session.state
            if state is None:
                text = t(
                    "status.lobby",
                    locale,
                    game=name,
                    host=f"<@{session.host_id}>",
                    seated=len(session.seats) + session.bots,
                    players=session.players,
                )
            elif state.current_seat is None:
                text = t("status.over", locale, game=name)
            elif session.seats[state.current_seat].computer or session.deadline is None:
                text = t("status.computer", locale, game=name)
            else:
                left = max(0, round(session.deadline - registry.clock()))
                seat = session.seats[state.current_seat]
                text = t(
                    "status.turn", locale, game=name, name=markdown_name(seat.name), seconds=left
                )
            await ephemeral(interaction, text)

        await guarded(interaction, work, what="/game status")

    @game.command(
        name="list",
        description=_(
            "Every table in this server, with End buttons (moderators)", key="cmd.game.list"
        ),
    )
    async def list_tables(self, interaction: discord.Interaction[Any]) -> None:
        """Moderators: every lobby and game of this server, idle longest first, with End."""

        async def work() -> None:
            channel_of(interaction)
            if not await is_moderator(interaction):
                raise SessionError("error.moderator_only")
            registry = deckhand(interaction).sessions
            locale = locale_of(interaction)
            here = [
                s
                for s in registry.sessions()
                if s.guild_id == interaction.guild_id
                and permissions_in(interaction, s.channel_id).view_channel
            ]
            if not here:
                await ephemeral(interaction, t("list.none", locale))
                return
            here.sort(key=lambda s: (s.touched or 0.0, s.channel_id))
            text, view = table_list(here, registry.clock(), locale)
            await ephemeral(interaction, text, view=view)

        await guarded(interaction, work, what="/game list")

    @game.command(
        name="end", description=_("End the game or lobby in this channel", key="cmd.game.end")
    )
    async def end(self, interaction: discord.Interaction[Any]) -> None:
        """The host closes a lobby; a moderator ends a running game (and is recorded)."""

        async def work() -> None:
            channel_id = channel_of(interaction)
            moderator = await is_moderator(interaction)
            reply = await deckhand(interaction).sessions.end(
                channel_id, interaction.user.id, moderator=moderator
            )
            await answer(interaction, reply)

        await guarded(interaction, work, what="/game end")

    @game.command(
        name="kick", description=_("Hand a member's seat to a computer player", key="cmd.game.kick")
    )
    @app_commands.describe(
        member=_("The member whose seat a computer takes", key="param.kick_member")
    )
    async def kick(self, interaction: discord.Interaction[Any], member: discord.Member) -> None:
        """Moderators only: the seat plays on as a computer."""

        async def work() -> None:
            channel_id = channel_of(interaction)
            if not await is_moderator(interaction):
                raise SessionError("error.moderator_only")
            reply = await deckhand(interaction).sessions.kick(
                channel_id, member.id, by=interaction.user.id
            )
            await answer(interaction, reply)

        await guarded(interaction, work, what="/game kick")

    @game.command(
        name="settings",
        description=_(
            "Turn time, language, moderator role, allowed games", key="cmd.game.settings"
        ),
    )
    @app_commands.describe(
        turn_seconds=_("Seconds per turn for new games", key="param.turn_seconds"),
        language=_("Language of the tables in this server", key="param.language"),
        moderator_role=_(
            "Members with this role may end games and kick", key="param.moderator_role"
        ),
        allowed_games=_("Games allowed here, comma-separated, or all", key="param.allowed_games"),
        seeding=_(t("param.seeding"), key="param.seeding"),
        lobby_minutes=_(t("param.lobby_minutes"), key="param.lobby_minutes"),
        reset=_(t("param.reset"), key="param.reset"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES, seeding=SEEDING_CHOICES, reset=RESET_CHOICES)
    async def settings(  # noqa: PLR0917 - one parameter per Discord option
        self,
        interaction: discord.Interaction[Any],
        turn_seconds: app_commands.Range[int, MIN_TURN, MAX_TURN] | None = None,
        language: app_commands.Choice[str] | None = None,
        moderator_role: discord.Role | None = None,
        allowed_games: app_commands.Range[str, 1, 100] | None = None,
        seeding: app_commands.Choice[str] | None = None,
        lobby_minutes: app_commands.Range[int, 1, MAX_LOBBY_MINUTES] | None = None,
        reset: app_commands.Choice[str] | None = None,
    ) -> None:
        """Manage Server only: change the guild's settings; shows them (ephemeral).

        Not the moderator role: its holders could otherwise give it to everyone. Discord can
        only hide a whole top-level command (``default_permissions``), and ``/game`` holds
        commands for everyone, so the check is here.
        """

        async def work() -> None:
            channel_of(interaction)
            guild_id = interaction.guild_id
            assert guild_id is not None
            if not interaction.permissions.manage_guild:
                raise SessionError("error.manage_server_only")
            store = deckhand(interaction).store
            current = await store.guild_settings(guild_id)
            changes: dict[str, Any] = {}
            if reset is not None:  # first, so a value given beside it wins
                names = RESETTABLE if reset.value == "all" else (reset.value,)
                changes.update(dict.fromkeys(names))
            if turn_seconds is not None:
                changes["turn_seconds"] = turn_seconds
            if language is not None:
                changes["language"] = None if language.value == "auto" else language.value
            if moderator_role is not None:
                changes["moderator_role_id"] = moderator_role.id
            if allowed_games is not None:
                changes["allowed_games"] = parse_games(allowed_games)
            if seeding is not None:
                changes["seeding"] = seeding.value
            if lobby_minutes is not None:
                changes["lobby_minutes"] = lobby_minutes
            updated = dataclasses.replace(current, **changes)
            if changes:
                await store.save_guild_settings(updated)
                log.info(
                    "guild %d: settings changed by member %d: %s",
                    guild_id,
                    interaction.user.id,
                    ", ".join(f"{name}={value!r}" for name, value in changes.items()),
                )
            locale = locale_of(interaction)
            default = t("settings.default", locale)
            await ephemeral(
                interaction,
                t(
                    "settings.saved",
                    locale,
                    turn=default
                    if updated.turn_seconds is None
                    else t("settings.seconds", locale, seconds=updated.turn_seconds),
                    language=updated.language or default,
                    role=default
                    if updated.moderator_role_id is None
                    else f"<@&{updated.moderator_role_id}>",
                    games=t("settings.all_games", locale)
                    if updated.allowed_games is None
                    else ", ".join(t(f"game.{g}", locale) for g in updated.allowed_games),
                    seeding=t(f"choice.seeding.{updated.seeding or 'anyone'}", locale),
                    lobby=default
                    if updated.lobby_minutes is None
                    else t("settings.minutes", locale, minutes=updated.lobby_minutes),
                ),
            )

        await guarded(interaction, work, what="/game settings")

    @game.command(
        name="verify",
        description=_(
            "Check a fair deal with what its final table revealed", key="cmd.game.verify"
        ),
    )
    @app_commands.describe(
        game=_("Which game", key="param.rules_game"),
        seed=_("The seed the final table revealed", key="param.verify_seed"),
        salt=_("The salt the final table revealed", key="param.verify_salt"),
        players=_("How many seats were dealt", key="param.verify_players"),
        options=_(
            "The table's options, as the final table showed them", key="param.verify_options"
        ),
        commitment=_(
            "The commitment the first table showed: says whether it matches",
            key="param.verify_commitment",
        ),
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def verify(  # noqa: PLR0917 - one parameter per Discord option
        self,
        interaction: discord.Interaction[Any],
        game: app_commands.Choice[str],
        seed: app_commands.Range[str, 1, 20],
        salt: app_commands.Range[str, 1, 32],
        players: app_commands.Range[int, 1, 10] | None = None,
        options: app_commands.Range[str, 2, VERIFY_OPTIONS_LENGTH] | None = None,
        commitment: app_commands.Range[str, 1, 70] | None = None,
    ) -> None:
        """The commitment of the revealed seed and salt, and the deal again (ephemeral)."""

        async def work() -> None:
            locale = locale_of(interaction)
            try:
                dealt = parse_seed(seed)
                if dealt in deckhand(interaction).sessions.seeds_in_play(interaction.guild_id):
                    raise VerifyError("that deal is still being played here", "running")
                shown, lines = replay(
                    game.value,
                    dealt,
                    salt.strip(),
                    players,
                    options=parse_options(options),
                    locale=locale,
                )
            except VerifyError as error:
                reason = t(f"verify.{error.key}", locale, **error.params)
                await ephemeral(interaction, t("verify.refused", locale, reason=reason))
                return
            head = t("verify.result", locale, commitment=shown)
            matched = matches(shown, commitment)
            if matched is not None:
                given = echo(commitment or "")
                head += "\n" + t(
                    "verify.match" if matched else "verify.no_match", locale, given=given
                )
            # ansi: a game's deal may be in colour (Uno, One Card); plain text reads the same.
            # A deal longer than a message (ten Uno seats) goes on in follow-ups, each line
            # whole and every seat shown.
            for page in pages(head, [line.replace("`", "'") for line in lines], "ansi"):
                await ephemeral(interaction, page)

        await guarded(interaction, work, what="/game verify")

    @app_commands.command(name="rules", description=_("How a game is played", key="cmd.rules"))
    @app_commands.describe(game=_("Which game", key="param.rules_game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(
        self, interaction: discord.Interaction[Any], game: app_commands.Choice[str]
    ) -> None:
        """The rules from the message catalog, ephemeral."""

        async def work() -> None:
            await ephemeral(
                interaction, t(rules_key(interaction, game.value), locale_of(interaction))
            )

        await guarded(interaction, work, what="/rules")


def rules_key(interaction: discord.Interaction[Any], game: str) -> str:
    """``rules.<game>``, or the rules of the ruleset this channel's table plays when the
    catalog has them (``rules.uno.seed``)."""
    session = deckhand(interaction).sessions.get(interaction.channel_id or 0)
    if session is not None and session.game == game:
        ruleset = session.options.get("ruleset")
        if ruleset and describe(f"rules.{game}.{ruleset}", DEFAULT) is not None:
            return f"rules.{game}.{ruleset}"
    return f"rules.{game}"


async def setup(bot: commands.Bot) -> None:
    """Load the shared commands and install the buttons and poster."""
    install(bot)
    await bot.add_cog(GameCog(bot))
