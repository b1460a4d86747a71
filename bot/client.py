"""The Discord client: builds the bot around a store and loads every game's cog.

Dependencies come in through the constructor (``discord.py``'s ``advanced_startup``
example): :func:`create_bot` takes the :class:`~bot.settings.Settings` and a not yet opened
:class:`~bot.store.base.GameStore`; :meth:`DeckhandBot.setup_hook` opens the store, builds
the session registry, loads the cogs, restores running games and syncs the slash commands.

One process is a plain :class:`DeckhandBot` unless ``SHARD_COUNT`` is set, in which case it
is a :class:`ShardedDeckhandBot` serving ``SHARD_IDS`` (docs/design.md §7).
"""

from __future__ import annotations

import importlib
import logging
import pkgutil
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot.budget import RequestBudget, budget_trace, share_of
from bot.i18n import language, t
from bot.sessions import SessionRegistry
from bot.settings import Settings
from bot.store.base import GameStore
from bot.translator import DeckhandTranslator
from bot.webhooks import WebhookLimits, watch_webhooks

__all__ = [
    "COGS_PACKAGE",
    "CommandsRefused",
    "DeckhandBot",
    "DeckhandTree",
    "ShardedDeckhandBot",
    "SnowflakeMentions",
    "create_bot",
    "extension_names",
    "point_at_api",
    "request_rate",
    "sync_refusal",
]

log = logging.getLogger(__name__)

COGS_PACKAGE = "cogs"


def intents() -> discord.Intents:
    """Only guild events: slash commands and buttons need no privileged intent."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


def extension_names(package: str = COGS_PACKAGE) -> list[str]:
    """Every module or package directly in ``package`` that has a ``setup`` function.

    Helper packages without one (``cogs/common``) are skipped, so adding a game is adding
    its package; nothing else lists the cogs.
    """
    root = importlib.import_module(package)
    found = []
    for info in pkgutil.iter_modules(root.__path__, f"{package}."):
        if info.name.rpartition(".")[2].startswith("_"):
            continue
        module = importlib.import_module(info.name)
        if callable(getattr(module, "setup", None)):
            found.append(info.name)
    return sorted(found)


# Discord's reasons to refuse an autocomplete answer that are no fault of ours: the member
# typed on, so the interaction is gone (10062 "Unknown interaction"), or it was answered
# already (40060); or Discord itself failed (5xx, 429).
_EXPIRED_CODES = frozenset({10062, 40060})


class ExpiredAutocomplete(logging.Filter):
    """discord.py logs an ERROR with a traceback when Discord will not take an autocomplete
    answer. Discord drops an autocomplete interaction as soon as the member types on (404,
    "Unknown interaction") or when it answers too late under load: routine, not a bug, so
    one WARNING line instead (the soak counts ERROR lines). Any other refusal (a 400 for a
    suggestion over Discord's limits, say) is a bug of ours and stays an ERROR."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Let every record through; an autocomplete answer Discord refused, as a WARNING."""
        failure = record.exc_info[1] if record.exc_info else None
        if (
            isinstance(failure, discord.HTTPException)
            and (failure.code in _EXPIRED_CODES or failure.status >= 500 or failure.status == 429)
            and record.levelno >= logging.ERROR
            and str(record.msg).startswith("Ignoring exception in autocomplete")
        ):
            record.msg = f"{record.msg}: Discord refused the answer (HTTP %s)"
            record.args = (*(record.args or ()), failure.status)
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True


EXPIRED_AUTOCOMPLETE = ExpiredAutocomplete()


class DeckhandTree(app_commands.CommandTree[Any]):
    """The command tree, with a last line of defence for errors no cog answered."""

    def __init__(self, client: discord.Client, **options: Any) -> None:
        super().__init__(client, **options)
        # The logger discord.py's tree writes to; adding the same filter twice keeps one.
        logging.getLogger(app_commands.tree.__name__).addFilter(EXPIRED_AUTOCOMPLETE)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Log with context and answer the member, so Discord never says "interaction failed".

        The command's options are not logged: they can name a card from a hand.
        """
        command = interaction.command.qualified_name if interaction.command else "?"
        if isinstance(error, app_commands.NoPrivateMessage):
            key = "error.guild_only"
        else:
            key = "error.unexpected"
            log.error(
                "/%s failed in guild %s, channel %s, for member %s",
                command,
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                exc_info=error,
            )
        text = t(key, language(interaction.locale, interaction.guild_locale))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("/%s: could not tell the member about the failure", command)


class CommandsRefused(Exception):
    """Discord refused the slash commands at start-up; the message says where, in one line."""


def sync_refusal(error: discord.HTTPException, sent: list[dict[str, Any]]) -> str:
    """One line naming the command, the option and the field Discord refused in a command
    sync, and why: ``/gostop start, option seed: max_value: Int53 (NUMBER_TYPE_MAX: ...)``.

    ``sent`` is the list of commands as synced; Discord's errors name places in it by index.
    """
    found: list[str] = []

    def walk(node: dict[str, Any], where: list[str], item: Any) -> None:
        for key, inner in node.items():
            if key == "_errors":
                reasons = "; ".join(f"{e.get('code')}: {e.get('message')}" for e in inner)
                found.append(f"{' '.join(where) or 'the commands'}: {reasons}")
                continue
            if not isinstance(inner, dict):
                continue
            if key.isdigit() and isinstance(item, list) and int(key) < len(item):
                child = item[int(key)]
                named = child.get("name", key) if isinstance(child, dict) else key
                label = f"/{named}" if not where else str(named)
                walk(inner, [*where, label], child)
            elif key == "options":
                walk(inner, where, item.get("options") if isinstance(item, dict) else None)
            else:
                walk(inner, [*where, f"field {key}"], None)

    errors = getattr(error, "_errors", None)
    if isinstance(errors, dict):
        walk(errors, [], sent)
    detail = " | ".join(found) or str(error).splitlines()[0]
    return (
        f"Discord refused the slash commands (HTTP {error.status}): {detail}. "
        "Nothing was registered; this is a bug in Deckhand, please report it"
    )


class SnowflakeMentions(discord.AllowedMentions):
    """discord.py's allowed mentions with the ids as strings: Discord's API description types
    every snowflake as a string (``SnowflakeType``), and discord.py would send integers. Set
    as the bot's default, every message's own mentions are merged into this class."""

    def to_dict(self) -> Any:
        """The payload, ids as strings."""
        data: dict[str, Any] = dict(super().to_dict())
        for key in ("users", "roles"):
            if key in data:
                data[key] = [str(snowflake) for snowflake in data[key]]
        return data

    def merge(self, other: discord.AllowedMentions) -> SnowflakeMentions:
        """As discord.py merges, keeping this class."""
        merged = super().merge(other)
        return SnowflakeMentions(
            everyone=merged.everyone,
            users=merged.users,
            roles=merged.roles,
            replied_user=merged.replied_user,
        )


class DeckhandBot(commands.Bot):
    """The bot: ``settings``, ``store`` and, once set up, ``sessions``."""

    sessions: SessionRegistry

    def __init__(self, settings: Settings, store: GameStore, **options: Any) -> None:
        # Deckhand never joins voice: the missing voice libraries are not worth a warning.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        self.budget = RequestBudget(request_rate(settings))
        self.webhooks = WebhookLimits()
        super().__init__(
            # Every request through the bot's own token (discord.py's HTTP client, each of
            # its tries) waits for this process's share of Discord's global limit;
            # interactions' answers and follow-ups share the session but are not counted
            # there: their own limits are counted by ``webhooks``, and their 429s raised.
            http_trace=watch_webhooks(
                budget_trace(self.budget, lambda: self.application_id), self.webhooks
            ),
            # Prefix commands are unused; a mention prefix needs no message-content intent.
            command_prefix=commands.when_mentioned,
            intents=intents(),
            tree_cls=DeckhandTree,
            help_command=None,
            allowed_mentions=SnowflakeMentions(everyone=False, roles=False, users=True),
            **options,
        )
        self.settings = settings
        self.store = store
        self._sessions_ready = False

    async def setup_hook(self) -> None:
        """Open the store, load the cogs, restore games, then sync the commands."""
        await self.store.open()
        log.info("store open: %s", type(self.store).__name__)
        self.sessions = SessionRegistry(self)
        self._sessions_ready = True
        await self.tree.set_translator(DeckhandTranslator())
        for name in extension_names():
            await self.load_extension(name)
            log.info("loaded extension %s", name)
        restored = await self.sessions.restore_all()
        log.info("restored %d game(s) from the store", restored)
        await self._sync_commands()

    async def _sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        guild = None if guild_id is None else discord.Object(id=guild_id)
        if guild is not None:
            # A guild's commands update at once; global ones can take Discord a while.
            self.tree.copy_global_to(guild=guild)
        try:
            synced = await self.tree.sync(guild=guild)
        except app_commands.CommandSyncFailure as error:
            sent = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
            raise CommandsRefused(sync_refusal(error, sent)) from None
        if guild_id is not None:
            log.info("synced %d command(s) to guild %d", len(synced), guild_id)
        else:
            log.info("synced %d command(s) globally", len(synced))

    async def on_ready(self) -> None:
        """Log who we are once connected (again after every resume-less reconnect)."""
        user = self.user
        log.info(
            "ready as %s (id %s) in %d guild(s), shard(s) %s",
            user,
            user.id if user else "?",
            len(self.guilds),
            self.describe_shards(),
        )

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every interaction's token posts in its channel: the channel's limit on webhook
        messages counts what goes through it (:mod:`bot.webhooks`)."""
        if interaction.type is not discord.InteractionType.autocomplete:  # no webhook of its own
            self.webhooks.bind(interaction.token, interaction.channel_id)

    def describe_shards(self) -> str:
        """Which shards this process serves, for logs."""
        return "none (unsharded)"

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process serves the guild's games (restore only those; docs/design.md §7)."""
        return True

    async def close(self) -> None:
        """Stop the sessions' timers, disconnect, then close the store."""
        try:
            if self._sessions_ready:
                await self.sessions.close()
        finally:
            try:
                await super().close()
            finally:
                await self.store.close()
                log.info("closed")


class ShardedDeckhandBot(DeckhandBot, commands.AutoShardedBot):
    """The same bot serving several shards of one ``SHARD_COUNT`` in one process."""

    def describe_shards(self) -> str:
        """Which shards this process serves, for logs."""
        served = "all" if self.shard_ids is None else ",".join(map(str, self.shard_ids))
        return f"{served} of {self.shard_count}"

    def owns_guild(self, guild_id: int | None) -> bool:
        """Discord's rule: a guild is on shard ``(guild_id >> 22) % shard_count``.

        Games outside a guild (``guild_id`` ``None``) belong to shard 0, where Discord
        sends direct messages.
        """
        if self.shard_ids is None or self.shard_count is None:
            return True
        shard = 0 if guild_id is None else (guild_id >> 22) % self.shard_count
        return shard in self.shard_ids


def request_rate(settings: Settings) -> float:
    """Requests a second this process may make with the bot's token: the configured
    share, else Discord's 50 split by the shards it serves."""
    if settings.global_requests_per_second is not None:
        return settings.global_requests_per_second
    served = None if settings.shard_ids is None else len(settings.shard_ids)
    return share_of(served, settings.shard_count)


def point_at_api(base_url: str) -> None:
    """Send this process's REST calls and gateway connections to a Discord-compatible API at
    ``base_url`` (``http://host:port``): REST under ``/api/v10``, the gateway at ``ws://host:port/``.

    discord.py keeps both as class attributes, so this holds for every client of the process.
    """
    url = yarl.URL(base_url)
    discord.http.Route.BASE = str(url / "api" / "v10")
    scheme = "wss" if url.scheme == "https" else "ws"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = url.with_scheme(scheme).with_path("/")


def create_bot(settings: Settings, store: GameStore) -> DeckhandBot:
    """A sharded bot when ``SHARD_COUNT`` is set, else a plain one (pointed at
    ``DISCORD_API_URL`` when that is set)."""
    if settings.discord_api_url is not None:
        point_at_api(settings.discord_api_url)
    if settings.shard_count is None:
        return DeckhandBot(settings, store)
    return ShardedDeckhandBot(
        settings, store, shard_count=settings.shard_count, shard_ids=settings.shard_ids
    )
