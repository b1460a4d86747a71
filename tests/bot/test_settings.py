"""Settings come from the environment; the token never shows in text."""

import logging
import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings


def test_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    monkeypatch.chdir(tmp_path)  # type: ignore[arg-type]
    monkeypatch.delenv("DATABASE_URL", raising=False)
    settings = Settings()
    assert settings.database_url == "sqlite:///data/deckhand.db"
    assert settings.default_turn_seconds == 90
    assert settings.blackjack_turn_seconds == 45
    assert settings.shard_count is None


def test_environment_values_and_hidden_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token-value")
    monkeypatch.setenv("SHARD_IDS", "0,2")
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    settings = Settings()
    assert settings.discord_token.get_secret_value() == "secret-token-value"
    assert "secret-token-value" not in repr(settings)
    assert "secret-token-value" not in str(settings)
    assert settings.shard_ids == [0, 2]
    assert settings.shard_count == 4
    assert settings.log_level == "DEBUG"


def test_bad_values_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LOG_LEVEL", "loud")
    with pytest.raises(ValidationError, match="LOG_LEVEL"):
        Settings()


ENV_EXAMPLE = Path(__file__).resolve().parents[2] / ".env.example"


def _clear_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)


def test_env_example_documents_every_setting() -> None:
    text = ENV_EXAMPLE.read_text(encoding="utf-8")
    named = set(re.findall(r"^#? ?([A-Z][A-Z_]+)=", text, flags=re.MULTILINE))
    assert named == {name.upper() for name in Settings.model_fields}
    for name in named:  # each setting has a comment right above it
        lines = text.splitlines()
        index = next(i for i, line in enumerate(lines) if re.match(rf"^#? ?{name}=", line))
        assert lines[index - 1].startswith("#"), name


def test_env_example_with_a_token_is_a_working_configuration(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _clear_environment(monkeypatch)
    text = ENV_EXAMPLE.read_text(encoding="utf-8").replace(
        "DISCORD_TOKEN=\n", "DISCORD_TOKEN=from-dotenv\n"
    )
    (tmp_path / ".env").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    settings = Settings()
    assert settings.discord_token.get_secret_value() == "from-dotenv"
    defaults = Settings(_env_file=None, discord_token="x")  # type: ignore[call-arg]
    assert settings.model_dump(exclude={"discord_token"}) == defaults.model_dump(
        exclude={"discord_token"}
    )


def test_environment_wins_over_dotenv(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    _clear_environment(monkeypatch)
    (tmp_path / ".env").write_text("DATABASE_URL=sqlite:///from-file.db\nDEV_GUILD_ID=5\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "memory://")
    settings = Settings()
    assert settings.database_url == "memory://"
    assert settings.dev_guild_id == 5


def test_token_is_hidden_in_dumps_and_logs(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "secret-token-value")
    settings = Settings()
    logging.getLogger("test").warning("settings: %s %r", settings, settings)
    assert "secret-token-value" not in caplog.text
    assert "secret-token-value" not in str(settings.model_dump())
    assert "secret-token-value" not in settings.model_dump_json()
