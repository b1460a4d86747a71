"""The client: intents, sharding, extension discovery, start-up order and shutdown."""

from __future__ import annotations

import importlib
import logging
import pkgutil
import uuid
from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

import discord
import pytest
from pydantic import ValidationError

import cogs
from bot.client import (
    DeckhandBot,
    DeckhandTree,
    ShardedDeckhandBot,
    create_bot,
    extension_names,
    intents,
    point_at_api,
)
from bot.i18n import t
from bot.sessions import SessionRegistry
from bot.settings import Settings
from bot.store import open_store
from bot.store.memory import MemoryStore

TOKEN = "MTIz.secret-token-never-logged"


def settings(**overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "discord_token": TOKEN,
        "database_url": "memory://",
        "dev_guild_id": None,
        "shard_count": None,
        "shard_ids": None,
        **overrides,
    }
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


class Recorder:
    """Stands in for the command tree's network calls and notes the order of start-up."""

    def __init__(self, bot: DeckhandBot, monkeypatch: pytest.MonkeyPatch) -> None:
        self.events: list[str] = []
        self.synced_guilds: list[int | None] = []
        self.copied_to: list[int] = []
        store_open = bot.store.open
        restore_all = SessionRegistry.restore_all
        copy_global_to = bot.tree.copy_global_to

        async def opened() -> None:
            self.events.append("store.open")
            await store_open()

        async def restored(registry: SessionRegistry) -> int:
            self.events.append(f"restore after {len(bot.extensions)} extension(s)")
            return await restore_all(registry)

        async def sync(*, guild: discord.abc.Snowflake | None = None) -> list[Any]:
            self.events.append("sync")
            self.synced_guilds.append(None if guild is None else guild.id)
            return []

        def copy(*, guild: discord.abc.Snowflake) -> None:
            self.copied_to.append(guild.id)
            copy_global_to(guild=guild)

        monkeypatch.setattr(bot.store, "open", opened)
        monkeypatch.setattr(SessionRegistry, "restore_all", restored)
        monkeypatch.setattr(bot.tree, "sync", sync)
        monkeypatch.setattr(bot.tree, "copy_global_to", copy)


def test_intents_are_guilds_only() -> None:
    wanted = intents()
    assert wanted.guilds
    assert wanted.value == discord.Intents(guilds=True).value
    assert not wanted.message_content
    assert not wanted.members
    assert not wanted.presences


async def test_unsharded_settings_make_a_plain_bot() -> None:
    store = MemoryStore()
    bot = create_bot(settings(), store)
    assert type(bot) is DeckhandBot
    assert not isinstance(bot, discord.AutoShardedClient)
    assert bot.store is store
    assert bot.intents.value == intents().value


async def test_shard_settings_make_a_sharded_bot() -> None:
    bot = create_bot(settings(shard_count=4, shard_ids=[0, 2]), MemoryStore())
    assert isinstance(bot, ShardedDeckhandBot)
    assert isinstance(bot, DeckhandBot)
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 4
    assert bot.shard_ids == [0, 2]
    assert bot.describe_shards() == "0,2 of 4"


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def test_extension_names_finds_modules_and_packages_with_setup(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = f"fakecogs_{uuid.uuid4().hex[:8]}"
    root = tmp_path / package
    setup = "async def setup(bot):\n    pass\n"
    _write(root / "__init__.py", "")
    _write(root / "alpha.py", setup)
    _write(root / "beta" / "__init__.py", setup)
    _write(root / "common" / "__init__.py", "HELPER = 1\n")
    _write(root / "common" / "views.py", setup)  # nested: not a top-level extension
    _write(root / "_private.py", setup)
    _write(root / "notes.py", "setup = 'not a function'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert extension_names(package) == [f"{package}.alpha", f"{package}.beta"]


def test_extension_names_lists_every_cog_in_the_repository() -> None:
    """Each top-level module in cogs/ is an extension unless it is a helper without setup."""
    found = set(extension_names())
    for info in pkgutil.iter_modules(cogs.__path__, "cogs."):
        module = importlib.import_module(info.name)
        has_setup = callable(getattr(module, "setup", None))
        private = info.name.rpartition(".")[2].startswith("_")
        assert (info.name in found) == (has_setup and not private), info.name


async def test_setup_hook_opens_loads_restores_then_syncs_globally(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = create_bot(settings(), MemoryStore())
    recorder = Recorder(bot, monkeypatch)
    await bot.setup_hook()
    try:
        loaded = len(extension_names())
        assert recorder.events == [
            "store.open",
            f"restore after {loaded} extension(s)",
            "sync",
        ]
        assert sorted(bot.extensions) == extension_names()
        assert isinstance(bot.sessions, SessionRegistry)
        assert recorder.synced_guilds == [None]
        assert recorder.copied_to == []
    finally:
        await bot.close()


async def test_a_dev_guild_gets_the_commands_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = create_bot(settings(dev_guild_id=4242), MemoryStore())
    recorder = Recorder(bot, monkeypatch)
    await bot.setup_hook()
    try:
        assert recorder.copied_to == [4242]
        assert recorder.synced_guilds == [4242]
    finally:
        await bot.close()


async def test_no_two_cogs_register_the_same_command(monkeypatch: pytest.MonkeyPatch) -> None:
    bot = create_bot(settings(), MemoryStore())
    Recorder(bot, monkeypatch)
    await bot.setup_hook()
    try:
        names = Counter(
            command.name for cog in bot.cogs.values() for command in cog.get_app_commands()
        )
        # Commands added to the tree outside any cog (a Group has no ``binding``: compare ids).
        in_cogs = {id(c) for cog in bot.cogs.values() for c in cog.get_app_commands()}
        names.update(c.name for c in bot.tree.get_commands() if id(c) not in in_cogs)
        assert [name for name, count in names.items() if count > 1] == []
        for command in bot.tree.walk_commands():
            if isinstance(command, discord.app_commands.Group):
                subcommands = Counter(sub.name for sub in command.commands)
                assert max(subcommands.values(), default=1) == 1, command.qualified_name
    finally:
        await bot.close()


async def test_every_command_and_option_name_is_korean_too_and_valid_for_discord(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """What the bot syncs passes Discord's name rules in every locale, with Korean names."""
    from bot.fakediscord.limits import check_commands

    bot = create_bot(settings(), MemoryStore())
    Recorder(bot, monkeypatch)
    await bot.setup_hook()
    try:
        translator = bot.tree.translator
        assert translator is not None
        payloads = [
            await command.get_translated_payload(bot.tree, translator)
            for command in bot.tree.get_commands()
        ]
    finally:
        await bot.close()
    assert check_commands(payloads) == []

    def untranslated(item: dict[str, Any], path: str) -> list[str]:
        here = f"{path} {item['name']}".strip()
        missing = [] if "ko" in (item.get("name_localizations") or {}) else [here]
        for option in item.get("options", []):
            missing += untranslated(option, here)
        return missing

    assert [name for p in payloads for name in untranslated(p, "")] == []
    names = {p["name"]: p["name_localizations"]["ko"] for p in payloads}
    assert names["game"] == "게임"


async def test_close_closes_sessions_then_the_store(monkeypatch: pytest.MonkeyPatch) -> None:
    store = MemoryStore()
    bot = create_bot(settings(), store)
    Recorder(bot, monkeypatch)
    closed: list[str] = []

    async def sessions_closed(registry: SessionRegistry) -> None:
        closed.append("sessions")

    monkeypatch.setattr(SessionRegistry, "close", sessions_closed)
    await bot.setup_hook()
    assert store.is_open
    await bot.close()
    assert closed == ["sessions"]
    assert not store.is_open


async def test_close_before_setup_still_closes_the_store() -> None:
    store = MemoryStore()
    await store.open()
    bot = create_bot(settings(), store)
    await bot.close()
    assert not store.is_open


async def test_the_token_never_reaches_the_logs(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    bot = create_bot(settings(dev_guild_id=7), MemoryStore())
    Recorder(bot, monkeypatch)
    await bot.setup_hook()
    await bot.close()
    assert "loaded extension" in caplog.text or not extension_names()
    assert "synced 0 command(s) to guild 7" in caplog.text
    assert TOKEN not in caplog.text
    assert TOKEN not in repr(bot.settings)


async def test_each_guild_is_owned_by_exactly_one_shard_process() -> None:
    guilds = [None, 81384788765712384, 336642139381301249, 1 << 22, 7 << 22, 123]
    processes = [
        create_bot(settings(shard_count=3, shard_ids=[shard]), MemoryStore()) for shard in (0, 1, 2)
    ]
    for guild in guilds:
        owners = [p.shard_ids for p in processes if p.owns_guild(guild)]
        expected = 0 if guild is None else (guild >> 22) % 3
        assert owners == [[expected]], guild
    assert create_bot(settings(), MemoryStore()).owns_guild(7 << 22)
    assert create_bot(settings(shard_count=3), MemoryStore()).owns_guild(7 << 22)


def fake_interaction(
    *, responded: bool, locale: discord.Locale, guild_locale: discord.Locale | None = None
) -> Any:
    """An interaction mock limited to the real class's attributes (python-discord's way)."""
    group = discord.app_commands.Group(name="onecard", description="One Card")

    @group.command(name="play", description="Play a card")
    async def play(interaction: discord.Interaction) -> None:
        """Never called."""

    interaction = mock.MagicMock(spec_set=discord.Interaction)
    interaction.command = play
    interaction.guild_id, interaction.channel_id = 11, 22
    interaction.user = mock.MagicMock(spec_set=discord.Member)
    interaction.user.id = 33
    interaction.locale = locale
    interaction.guild_locale = guild_locale
    interaction.response = mock.MagicMock(spec_set=discord.InteractionResponse)
    interaction.response.is_done.return_value = responded
    interaction.response.send_message = mock.AsyncMock()
    interaction.followup = mock.MagicMock(spec_set=discord.Webhook)
    interaction.followup.send = mock.AsyncMock()
    return interaction


@pytest.mark.parametrize("responded", [False, True])
async def test_an_unanswered_error_is_logged_and_answered(
    responded: bool, caplog: pytest.LogCaptureFixture
) -> None:
    bot = create_bot(settings(), MemoryStore())
    assert isinstance(bot.tree, DeckhandTree)
    interaction = fake_interaction(responded=responded, locale=discord.Locale.korean)
    error = discord.app_commands.CommandInvokeError(
        interaction.command, RuntimeError("engine exploded")
    )
    await bot.tree.on_error(interaction, error)
    send = interaction.followup.send if responded else interaction.response.send_message
    send.assert_awaited_once_with(t("error.unexpected", "ko"), ephemeral=True)
    assert t("error.unexpected", "ko") != t("error.unexpected", "en")
    (record,) = [r for r in caplog.records if r.name == "bot.client"]
    assert record.levelno == logging.ERROR
    assert "/onecard play failed in guild 11, channel 22, for member 33" in record.getMessage()
    assert record.exc_info is not None


async def test_a_command_used_outside_a_server_gets_a_specific_answer() -> None:
    bot = create_bot(settings(), MemoryStore())
    interaction = fake_interaction(responded=False, locale=discord.Locale.american_english)
    await bot.tree.on_error(interaction, discord.app_commands.NoPrivateMessage())
    interaction.response.send_message.assert_awaited_once_with(
        t("error.guild_only", "en"), ephemeral=True
    )


async def test_an_error_answer_falls_back_to_the_guilds_language() -> None:
    bot = create_bot(settings(), MemoryStore())
    interaction = fake_interaction(
        responded=False, locale=discord.Locale.french, guild_locale=discord.Locale.korean
    )
    await bot.tree.on_error(interaction, discord.app_commands.NoPrivateMessage())
    interaction.response.send_message.assert_awaited_once_with(
        t("error.guild_only", "ko"), ephemeral=True
    )


async def test_a_failed_answer_is_only_logged(caplog: pytest.LogCaptureFixture) -> None:
    bot = create_bot(settings(), MemoryStore())
    interaction = fake_interaction(responded=False, locale=discord.Locale.korean)
    response = mock.MagicMock(status=404, reason="Not Found")
    interaction.response.send_message.side_effect = discord.NotFound(response, "gone")
    await bot.tree.on_error(interaction, discord.app_commands.NoPrivateMessage())
    assert "could not tell the member" in caplog.text


async def test_a_debug_log_of_a_whole_session_never_shows_the_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Log in, identify on the gateway, sync and close against the fake Discord at DEBUG."""
    from bot.fakediscord import FakeDiscord, running_client

    caplog.set_level(logging.DEBUG)
    async with FakeDiscord() as fake:
        bot = create_bot(
            settings(
                discord_token=fake.token,
                database_url=f"sqlite:///{tmp_path / 'deckhand.db'}",
                dev_guild_id=fake.guild.id,
            ),
            open_store(f"sqlite:///{tmp_path / 'deckhand.db'}"),
        )
        async with running_client(bot, fake):
            assert bot.is_ready()
    assert "IDENTIFY" in caplog.text  # the gateway handshake was logged...
    assert fake.token not in caplog.text  # ...without the token
    assert fake.token.split(".", 1)[1] not in caplog.text


def test_discord_api_url_points_rest_and_gateway_at_another_api(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """DISCORD_API_URL (the soak's fake Discord, a sandbox) moves REST and the gateway."""
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket,
        "DEFAULT_GATEWAY",
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
    )
    monkeypatch.setenv("DISCORD_API_URL", "http://127.0.0.1:8080/")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.discord_api_url == "http://127.0.0.1:8080"
    create_bot(settings, MemoryStore())
    assert discord.http.Route.BASE == "http://127.0.0.1:8080/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "ws://127.0.0.1:8080/"
    point_at_api("https://sandbox.example")
    assert discord.http.Route.BASE == "https://sandbox.example/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY) == "wss://sandbox.example/"


def test_without_discord_api_url_the_bot_talks_to_discord(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DISCORD_API_URL", raising=False)
    before = discord.http.Route.BASE
    create_bot(Settings(_env_file=None), MemoryStore())  # type: ignore[call-arg]
    assert before == discord.http.Route.BASE


def test_discord_api_url_must_be_http(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_API_URL", "ftp://nowhere")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)  # type: ignore[call-arg]


def test_an_autocomplete_answer_discord_refused_is_a_warning_not_an_error() -> None:
    import logging
    import sys
    from types import SimpleNamespace

    import discord

    from bot.client import ExpiredAutocomplete

    def record(error: BaseException) -> logging.LogRecord:
        try:
            raise error
        except BaseException:
            exc_info = sys.exc_info()
        return logging.LogRecord(
            "discord.app_commands.tree",
            logging.ERROR,
            __file__,
            1,
            "Ignoring exception in autocomplete for %r (Guild: %s, User: %s)",
            ("uno play", 1, 2),
            exc_info,
        )

    def refused(status: int, code: int) -> discord.HTTPException:
        response = SimpleNamespace(status=status, reason="refused")
        return discord.HTTPException(response, {"code": code, "message": "refused"})

    expired = record(refused(404, 10062))  # the member typed on: Unknown interaction
    assert ExpiredAutocomplete().filter(expired)
    assert expired.levelno == logging.WARNING and expired.exc_info is None
    assert expired.getMessage().endswith("Discord refused the answer (HTTP 404)")
    for status, code in [(400, 40060), (503, 0)]:  # answered already; Discord's own failure
        routine = record(refused(status, code))
        assert ExpiredAutocomplete().filter(routine) and routine.levelno == logging.WARNING
    too_long = record(refused(400, 50035))  # Invalid Form Body: a suggestion of ours too long
    assert ExpiredAutocomplete().filter(too_long)
    assert too_long.levelno == logging.ERROR and too_long.exc_info is not None
    ours = record(ValueError("a bug of ours in the suggestions"))
    assert ExpiredAutocomplete().filter(ours)
    assert ours.levelno == logging.ERROR and ours.exc_info is not None  # still an ERROR
