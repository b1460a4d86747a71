"""``deckhand run``: a set-up mistake is one line on stderr and exit code 1, no traceback."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import app
from bot.cli import main
from bot.client import DeckhandBot, ShardedDeckhandBot

TOKEN = "MTIz.secret-token-never-shown"


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[int]:
    """No .env, no inherited settings, and logging set-up recorded instead of installed."""
    monkeypatch.chdir(tmp_path)
    for name in os.environ:
        if name in {
            "DISCORD_TOKEN",
            "DATABASE_URL",
            "DEV_GUILD_ID",
            "SHARD_COUNT",
            "SHARD_IDS",
            "LOG_LEVEL",
        }:
            monkeypatch.delenv(name)
    levels: list[int] = []
    monkeypatch.setattr(discord.utils, "setup_logging", lambda *, level: levels.append(level))
    return levels


@pytest.fixture(autouse=True)
def payload_loggers() -> Any:
    """The discord.py loggers ``run`` caps, put back as they were after each test."""
    names = ("discord.gateway", "discord.http", "discord.webhook")
    before = {name: logging.getLogger(name).level for name in names}
    yield names
    for name, level in before.items():
        logging.getLogger(name).setLevel(level)  # setLevel, not the attribute: it clears caches


def one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert "Traceback" not in err
    assert TOKEN not in err
    return err.strip()


def started_bots(monkeypatch: pytest.MonkeyPatch, login: Any) -> list[DeckhandBot]:
    """Replace Discord's login with ``login(bot)``; returns the bots that tried to log in."""
    bots: list[DeckhandBot] = []

    async def fake_login(self: DeckhandBot, token: str) -> None:
        assert token == TOKEN
        bots.append(self)
        await login(self)

    monkeypatch.setattr(discord.Client, "login", fake_login)
    return bots


def test_missing_token_says_how_to_set_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run"]) == 1
    line = one_line(capsys)
    assert line.startswith("deckhand: DISCORD_TOKEN is not set")
    assert ".env.example" in line
    assert "README" in line


def test_blank_token_in_dotenv_is_missing_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=   \n")
    assert app.run(argparse.Namespace()) == 1
    assert "DISCORD_TOKEN is not set" in one_line(capsys)


def test_token_refused_by_discord_is_one_line(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", "memory://")

    async def refuse(http: Any, token: str) -> None:
        raise discord.LoginFailure("Improper token has been passed.")

    # The real login path, stopped where Discord answers 401.
    monkeypatch.setattr(discord.http.HTTPClient, "static_login", refuse)
    assert main(["run"]) == 1
    line = one_line(capsys)
    assert "Discord refused DISCORD_TOKEN" in line
    assert "Improper token" in line
    assert TOKEN not in caplog.text


def test_log_level_and_shards_come_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    clean_environment: list[int],
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", "memory://")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "1,3")

    async def refuse(bot: DeckhandBot) -> None:
        raise discord.LoginFailure("no")

    bots = started_bots(monkeypatch, refuse)
    assert app.run(argparse.Namespace()) == 1
    (bot,) = bots
    assert isinstance(bot, ShardedDeckhandBot)
    assert (bot.shard_count, bot.shard_ids) == (4, [1, 3])
    assert clean_environment == [logging.DEBUG]
    one_line(capsys)


def test_unknown_database_scheme_is_one_line_without_the_password(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", "mysql://root:hunter2@db/deckhand")
    assert app.run(argparse.Namespace()) == 1
    line = one_line(capsys)
    assert "DATABASE_URL" in line
    assert "hunter2" not in line


def test_unusable_database_is_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("")
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{blocker}/deckhand.db")

    async def set_up(bot: DeckhandBot) -> None:
        await bot.setup_hook()  # what login does once Discord accepts the token

    started_bots(monkeypatch, set_up)
    assert app.run(argparse.Namespace()) == 1
    line = one_line(capsys)
    assert "cannot use SQLite database" in line
    assert "check DATABASE_URL" in line


def test_unreachable_postgres_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", "postgresql://deckhand:hunter2@127.0.0.1:1/games")

    async def set_up(bot: DeckhandBot) -> None:
        await bot.setup_hook()

    started_bots(monkeypatch, set_up)
    assert app.run(argparse.Namespace()) == 1
    line = one_line(capsys)
    assert "127.0.0.1:1/games" in line
    assert "hunter2" not in line


@pytest.mark.parametrize(
    ("variables", "named"),
    [
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"SHARD_IDS": "0,1"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_IDS": "0,4", "SHARD_COUNT": "4"}, "SHARD_IDS [4]"),
        ({"LOG_LEVEL": "loud"}, "LOG_LEVEL"),
        ({"DEFAULT_TURN_SECONDS": "soon"}, "DEFAULT_TURN_SECONDS"),
    ],
)
def test_bad_settings_are_one_line(
    variables: dict[str, str],
    named: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)
    assert app.run(argparse.Namespace()) == 1
    line = one_line(capsys)
    assert named in line
    assert line.startswith("deckhand: ")


def test_sigterm_stops_cleanly_and_closes_the_store(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("DATABASE_URL", "memory://")

    async def accept(bot: DeckhandBot) -> None:
        await bot.store.open()

    async def connect(self: DeckhandBot, *, reconnect: bool = True) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.sleep(30)

    bots = started_bots(monkeypatch, accept)
    monkeypatch.setattr(discord.Client, "connect", connect)
    assert app.run(argparse.Namespace()) == 0
    (bot,) = bots
    assert bot.is_closed()
    assert not bot.store.is_open  # type: ignore[attr-defined]
    assert capsys.readouterr().err == ""


def test_python_m_bot_run_without_a_token_prints_one_line(tmp_path: Path) -> None:
    """What `make run` does on a fresh clone: a real process, no .env, exit code 1."""
    keep = {"PATH", "HOME", "LANG", "SYSTEMROOT"}
    environment = {name: value for name, value in os.environ.items() if name in keep}
    environment["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    finished = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert finished.returncode == 1
    assert finished.stdout == ""
    assert finished.stderr.count("\n") == 1
    assert finished.stderr.startswith("deckhand: DISCORD_TOKEN is not set")


async def test_debug_logs_never_show_a_played_card_or_an_interaction_token(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """discord.py logs whole gateway events and HTTP bodies at DEBUG; not in Deckhand's log."""
    from bot.client import create_bot
    from bot.fakediscord import FakeDiscord, running_client
    from bot.settings import Settings
    from bot.store import open_store

    caplog.set_level(logging.DEBUG)
    app.configure_logging("DEBUG")
    database = f"sqlite:///{tmp_path / 'deckhand.db'}"
    async with FakeDiscord() as fake:
        alice = fake.add_member("alice")
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None,
            discord_token=fake.token,
            database_url=database,
            dev_guild_id=fake.guild.id,
        )
        async with running_client(create_bot(settings, open_store(database)), fake):
            played = await fake.slash(alice, fake.channel, "onecard play", card="♠7")
            assert played.ephemeral
            hand = await fake.slash(alice, fake.channel, "blackjack hand")
            assert hand.ephemeral
    assert "Dispatching event interaction" in caplog.text  # DEBUG logging was on
    assert "♠7" not in caplog.text
    tokens = [interaction.token for interaction in fake.interactions.values()]
    assert len(tokens) == 2
    for token in tokens:
        assert token not in caplog.text


def test_the_payload_loggers_follow_a_quieter_log_level(payload_loggers: tuple[str, ...]) -> None:
    app.configure_logging("WARNING")
    assert [logging.getLogger(name).level for name in payload_loggers] == [logging.WARNING] * 3
    app.configure_logging("DEBUG")
    assert [logging.getLogger(name).level for name in payload_loggers] == [logging.INFO] * 3
