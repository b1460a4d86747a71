"""Configuration from the environment and ``.env`` (README lists every setting)."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

__all__ = ["Settings"]


class Settings(BaseSettings):
    """Everything a server owner can set; the token is a ``SecretStr`` so it never prints."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = SecretStr("")
    database_url: str = "sqlite:///data/deckhand.db"
    dev_guild_id: int | None = None
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    log_level: str = "INFO"
    default_turn_seconds: float = Field(default=90.0, gt=0)
    blackjack_turn_seconds: float = Field(default=45.0, gt=0)
    computer_delay_seconds: float = Field(default=1.0, ge=0)
    # A lobby nobody joins for this long closes (a server's /game settings may change it).
    default_lobby_seconds: float = Field(default=900.0, gt=0)
    # How soon a member may open another lobby after opening one.
    start_cooldown_seconds: float = Field(default=10.0, ge=0)
    # A Discord-compatible API (a local fake, a sandbox); None: Discord itself.
    discord_api_url: str | None = None
    # Post the tables the bot makes itself (computer moves, timeouts) through members'
    # interactions, which Discord does not count against the bot's global rate limit; off:
    # with the bot's token (the ceiling benchmark measures both).
    speak_through_interactions: bool = True
    # This process's share of Discord's 50 requests a second per bot (all its processes
    # together); None: 50 times the share of the shards it serves.
    global_requests_per_second: float | None = Field(default=None, gt=0)

    @field_validator("discord_api_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if not value.startswith(("http://", "https://")):
            raise ValueError("DISCORD_API_URL must start with http:// or https://")
        return value.rstrip("/")

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_shard_ids(cls, value: object) -> object:
        """``SHARD_IDS=0,1`` in the environment means ``[0, 1]``."""
        if isinstance(value, str):
            return [int(part) for part in value.split(",") if part.strip()] or None
        return value

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level
