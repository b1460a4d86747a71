"""Pieces every store shares: argument checks, JSON encoding and folding result rows."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from bot.store.base import (
    ActiveGame,
    GameRecord,
    GuildSettings,
    MemberStats,
    SeatResult,
    VersionConflict,
)

SEEDING = ("anyone", "moderators", "off")

__all__ = [
    "OUTCOMES",
    "SEEDING",
    "SETTINGS_SECONDS",
    "SettingsCache",
    "check_finish",
    "check_save",
    "decode",
    "encode",
    "expect_one",
    "fold_stats",
    "group_results",
    "settings_from_row",
    "settings_row",
    "settings_select",
    "settings_upsert",
    "text_of",
]

OUTCOMES = ("win", "lose", "draw")
# How long a guild's settings read from the database are used before they are read again.
SETTINGS_SECONDS = 60.0


class SettingsCache:
    """Guild settings read recently, so that a move does not ask the database for them: a
    move reads them up to four times (the turn limit, the lobby's time, the server's
    language, who may seed a deal), about a third of a move's database round trips.

    A guild's settings change through ``/game settings``, which the process serving the
    guild (its shard) saves through this cache, so that process sees the change at once;
    a change made behind its back (another tool, SQL by hand) is seen within
    :data:`SETTINGS_SECONDS`.
    """

    def __init__(self, seconds: float = SETTINGS_SECONDS) -> None:
        self._seconds = seconds
        self._kept: dict[int, tuple[float, GuildSettings]] = {}

    async def get(
        self, guild_id: int, read: Callable[[int], Awaitable[GuildSettings]]
    ) -> GuildSettings:
        """``guild_id``'s settings: kept ones while fresh, else ``read(guild_id)``'s."""
        now = time.monotonic()
        kept = self._kept.get(guild_id)
        if kept is not None and now - kept[0] < self._seconds:
            return kept[1]
        settings = await read(guild_id)
        self._kept[guild_id] = (now, settings)
        return settings

    async def save(
        self, settings: GuildSettings, write: Callable[[GuildSettings], Awaitable[None]]
    ) -> None:
        """``write(settings)``, then keep them; a write that failed (it may have been made:
        its answer lost) leaves them to be read again."""
        self._kept.pop(settings.guild_id, None)
        await write(settings)
        self._kept[settings.guild_id] = (time.monotonic(), settings)


# ORDER BY of the leaderboard query, by wins or by points (ties: fewer games, then member id).


def encode(data: dict[str, Any]) -> str:
    """The session snapshot as compact JSON; refuses what is not JSON-safe, like every store."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def text_of(game: ActiveGame) -> str:
    """``game``'s snapshot as JSON: the text it carries, or ``data`` encoded."""
    return game.text if game.text is not None else encode(game.data)


def decode(text: str) -> dict[str, Any]:
    """The inverse of :func:`encode`."""
    data: dict[str, Any] = json.loads(text)
    return data


def check_save(game: ActiveGame, expected_version: int) -> None:
    """A save must move the version forward; anything else is a bug in the caller."""
    if game.version <= expected_version:
        raise ValueError(
            f"channel {game.channel_id}: saving version {game.version} over "
            f"{expected_version} does not move the version forward"
        )


def check_finish(seats: Sequence[SeatResult]) -> None:
    """Outcomes are the ``rules.engine.Outcome`` values; anything else would corrupt stats."""
    for seat in seats:
        if seat.outcome not in OUTCOMES:
            raise ValueError(f"seat {seat.seat}: unknown outcome {seat.outcome!r}")


def fold_stats(member_id: int, rows: Iterable[tuple[str, str, int, int, bool]]) -> MemberStats:
    """``(game, outcome, count, points, seeded)`` rows into per-game played/win/lose/draw
    counts and points; seeded rows only count as practice games played."""
    games: dict[str, dict[str, int]] = {}
    practice: dict[str, int] = {}
    for game, outcome, count, points, seeded in rows:
        if seeded:
            practice[game] = practice.get(game, 0) + count
            continue
        record = games.setdefault(game, {"played": 0, "win": 0, "lose": 0, "draw": 0, "points": 0})
        record[outcome] += count
        record["played"] += count
        record["points"] += points
    return MemberStats(
        member_id=member_id,
        games=dict(sorted(games.items())),
        practice=dict(sorted(practice.items())),
    )


def expect_one(rowcount: int, channel_id: int, expected_version: int) -> None:
    """A versioned write touched no row: the game moved on or is gone."""
    if rowcount != 1:
        raise VersionConflict(f"channel {channel_id} has no game at version {expected_version}")


def group_results(game: str, rows: Iterable[Sequence[Any]]) -> list[GameRecord]:
    """``(finished id, seat, member, outcome, score, rank)`` rows, ordered by game then
    seat, as one :class:`GameRecord` per finished game."""
    records: list[GameRecord] = []
    current: int | None = None
    seats: list[SeatResult] = []
    for finished, seat, member, outcome, score, rank in rows:
        if finished != current and seats:
            records.append(GameRecord(game, tuple(seats)))
            seats = []
        current = finished
        seats.append(SeatResult(seat, member, outcome, score, rank))
    if seats:
        records.append(GameRecord(game, tuple(seats)))
    return records


# A guild's settings as both stores keep them: one column each, allowed_games as the store's
# own list type (PostgreSQL's TEXT[], SQLite's JSON text).
_SETTINGS_COLUMNS = (
    "turn_seconds",
    "language",
    "moderator_role_id",
    "allowed_games",
    "seeding",
    "lobby_minutes",
)


def settings_select(mark: str) -> str:
    """The query of one guild's settings; ``mark``: the store's placeholder (``?``, ``$1``)."""
    return f"SELECT {', '.join(_SETTINGS_COLUMNS)} FROM guild_settings WHERE guild_id = {mark}"


def settings_upsert(marks: Sequence[str]) -> str:
    """The statement inserting or replacing a guild's settings (:func:`settings_row`'s order)."""
    columns = ", ".join(("guild_id", *_SETTINGS_COLUMNS))
    updates = ", ".join(f"{name} = excluded.{name}" for name in _SETTINGS_COLUMNS)
    return (
        f"INSERT INTO guild_settings ({columns}) VALUES ({', '.join(marks)})"
        f" ON CONFLICT (guild_id) DO UPDATE SET {updates}"
    )


def settings_row(settings: GuildSettings, allowed: object) -> tuple[object, ...]:
    """The values of :func:`settings_upsert`, ``allowed`` being the allowed games as stored."""
    return (
        settings.guild_id,
        settings.turn_seconds,
        settings.language,
        settings.moderator_role_id,
        allowed,
        settings.seeding,
        settings.lobby_minutes,
    )


def settings_from_row(
    guild_id: int, row: Sequence[Any] | None, allowed: Sequence[str] | None
) -> GuildSettings:
    """The settings a :func:`settings_select` row holds (the defaults if none), ``allowed``
    being its allowed games read back from the store's list type."""
    if row is None:
        return GuildSettings(guild_id=guild_id)
    games = None if allowed is None else tuple(allowed)
    return GuildSettings(guild_id, row[0], row[1], row[2], games, row[4], row[5])
