"""Settings come from the environment; the token never shows in text."""

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
