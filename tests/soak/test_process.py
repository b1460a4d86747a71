"""The bot process of the soak (soak/process.py): its log read for errors and refused saves,
and an environment of the soak's own."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.fakediscord import FakeDiscord
from soak.process import ROOT, BotProcess, log_conflicts, log_errors


def test_the_log_counts_errors_and_stray_tracebacks_not_survived_failures() -> None:
    log = "\n".join(
        [
            "2026-11-25 08:51:39 \x1b[33;1mWARNING \x1b[0m cogs.common.buttons posting it instead",
            "Traceback (most recent call last):",
            '  File "x", line 1',
            "2026-11-25 08:51:40 INFO     bot.client ready",
            "2026-11-25 08:51:41 ERROR    bot.sessions channel 1: failed",
            "Traceback (most recent call last):",
        ]
    )
    assert len(log_errors(log)) == 2  # the ERROR record and its traceback
    assert log_errors("Traceback (most recent call last):\nboom") == [
        "Traceback (most recent call last):"
    ]


def test_a_version_conflict_in_the_log_is_a_refused_save_that_was_written() -> None:
    log = (
        "2026-11-25 10:41:39 WARNING  bot.sessions.core channel 5: not saved, the store is"
        " unavailable\n"
        "2026-11-25 10:41:40 \x1b[33mWARNING\x1b[0m  bot.sessions.core channel 5: version"
        " conflict; reloading the game\n"
    )
    found = log_conflicts(log)
    assert len(found) == 1 and "channel 5" in found[0] and "\x1b" not in found[0]
    assert log_conflicts(log.splitlines()[0]) == []


def test_the_bot_takes_no_setting_from_the_callers_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A developer's own settings (a development guild, a token, a design switch) would
    change what a run measures: the bot gets the fake's and the run's settings only."""
    monkeypatch.setenv("DEV_GUILD_ID", "123")
    monkeypatch.setenv("SPEAK_THROUGH_INTERACTIONS", "false")
    monkeypatch.setenv("DISCORD_TOKEN", "the developer's own")
    monkeypatch.setenv("SOMETHING_ELSE", "kept")
    fake = FakeDiscord()
    bot = BotProcess(fake, "sqlite:///x.db", tmp_path / "bot.log", {"SHARD_IDS": "1"})
    env = bot.env()
    assert "DEV_GUILD_ID" not in env and "SPEAK_THROUGH_INTERACTIONS" not in env
    assert env["DISCORD_TOKEN"] == fake.token
    assert env["DISCORD_API_URL"] == fake.base_url
    assert env["DATABASE_URL"] == "sqlite:///x.db"
    assert env["SHARD_IDS"] == "1"
    assert env["PYTHONPATH"] == str(ROOT)
    assert env["SOMETHING_ELSE"] == "kept"


def test_the_poster_s_stalled_tables_are_found_in_the_log() -> None:
    import time

    from soak.process import log_stalls

    text = (
        "2026-12-05 10:00:00 INFO bot: ready\n"
        "2026-12-05 10:00:09 WARNING cogs.common.poster: channel 5: a table stalled 6.2 s"
        " before it went out\n"
        "2026-12-05 10:00:10 WARNING cogs.common.poster: could not post the table\n"
    )
    [(line, when, waited)] = log_stalls(text)
    assert line == text.splitlines()[1] and waited == 6.2
    assert when == time.mktime(time.strptime("2026-12-05 10:00:09", "%Y-%m-%d %H:%M:%S")) + 1
