"""The persistence contract: what sessions need from a database (docs/design.md §3).

Two implementations follow it, SQLite (sqlite3) and PostgreSQL (asyncpg), and the same
tests run on both. Every write of an active game names the version it expects to replace,
so two processes can never both write one game: the loser gets :class:`VersionConflict`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

__all__ = [
    "ActiveGame",
    "GameRecord",
    "GameStore",
    "GuildSettings",
    "MemberStats",
    "SeatResult",
    "SetAside",
    "VersionConflict",
]


class VersionConflict(RuntimeError):
    """The stored game is not at the version the writer expected (or is gone, or exists)."""


@dataclass(frozen=True, slots=True)
class ActiveGame:
    """A lobby or running game as stored: ``data`` is the session's JSON-safe snapshot.

    ``text`` is the same snapshot as JSON when it is already at hand (read from a store, or
    encoded once by the session to save it and to keep as its rollback copy), so nothing
    encodes one snapshot twice; ``None``: the store encodes ``data``.
    """

    channel_id: int
    guild_id: int | None
    game: str
    version: int
    data: dict[str, Any]
    text: str | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat ended; ``member_id`` is ``None`` for a computer seat."""

    seat: int
    member_id: int | None
    outcome: str  # "win" | "lose" | "draw" (rules.engine.Outcome values)
    score: int
    rank: int  # 1 = best


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One counted game's result as stored: its game and its seats in seat order."""

    game: str
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True)
class SetAside:
    """A stored game its engine could not restore, moved out of the channel's way as it was."""

    game: ActiveGame
    reason: str


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild configuration set with ``/game settings``."""

    guild_id: int
    turn_seconds: int | None = None  # None: each game's default
    language: str | None = None  # None: follow each member's locale
    moderator_role_id: int | None = None
    allowed_games: tuple[str, ...] | None = None  # None: all games
    seeding: str | None = None  # who may seed a deal: anyone, moderators or off; None: anyone
    lobby_minutes: int | None = None  # how long a lobby waits for a join; None: the default


@dataclass(frozen=True, slots=True)
class MemberStats:
    """One member's record in one guild, per game."""

    member_id: int
    # game -> played/win/lose/draw and points (the sum of the seat's scores); seeded games
    # are not in it: they are practice, counted apart as games played in ``practice``.
    games: dict[str, dict[str, int]] = field(default_factory=dict)
    practice: dict[str, int] = field(default_factory=dict)


class GameStore(Protocol):
    """Where sessions live between restarts and where results are counted."""

    async def open(self) -> None:
        """Connect and apply pending migrations."""

    async def close(self) -> None:
        """Release connections."""

    async def load_active(self) -> list[ActiveGame]:
        """Every lobby and running game, for restoring after a restart."""

    async def create(self, game: ActiveGame) -> None:
        """Store a new session; :class:`VersionConflict` if the channel already has one."""

    async def save(self, game: ActiveGame, *, expected_version: int) -> None:
        """Replace the stored session at ``expected_version`` with ``game`` (a newer version)."""

    async def delete(self, channel_id: int, *, expected_version: int) -> None:
        """Drop a session without a result (a cancelled lobby)."""

    async def finish(
        self,
        channel_id: int,
        *,
        expected_version: int | None,
        game: str,
        guild_id: int | None,
        seats: Sequence[SeatResult],
        ended_by: int | None = None,
        seeded: bool = False,
        keep: ActiveGame | None = None,
    ) -> None:
        """Atomically drop the active session and record its result (``ended_by``: a moderator;
        ``seeded``: a practice deal, never counted); with ``keep``, store that record in the
        session's place in the same transaction (the finished table kept for "Deal again":
        one write per finishing move). ``expected_version=None``: the channel must hold no
        session (a game over the moment it was dealt, never stored live), else
        :class:`VersionConflict`."""

    async def game_results(self, guild_id: int, game: str) -> list[GameRecord]:
        """Every counted (not seeded) result of ``game`` in the guild, oldest first: what
        the ratings are computed from, so they survive restarts and can be recomputed."""

    async def set_aside(self, channel_id: int, *, expected_version: int, reason: str) -> None:
        """Move the session stored at ``expected_version`` out of the channel's way, as it
        is, into the records set aside (a game its engine cannot restore), in one
        transaction: the channel is free for a new game and nothing of the record is lost."""

    async def set_aside_games(self) -> list[SetAside]:
        """Every record set aside, oldest first."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings (defaults when never set)."""

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """Insert or replace the guild's settings."""

    async def member_stats(self, guild_id: int, member_id: int) -> MemberStats:
        """Played/won/lost/drawn and points per game for one member in one guild."""
