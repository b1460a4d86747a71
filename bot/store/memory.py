"""A store in process memory, for tests and ``DATABASE_URL=memory://``.

It behaves like the database stores where callers can tell: data is copied through JSON on
the way in and out (so a caller can neither keep a live reference nor store something a
database would refuse), versions are checked the same way, and closing keeps the data, so a
test can "restart" a bot on the same instance and see its games again.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from bot.store._common import check_finish, check_save, decode, fold_stats, text_of
from bot.store.base import (
    ActiveGame,
    GameRecord,
    GuildSettings,
    MemberStats,
    SeatResult,
    SetAside,
    VersionConflict,
)

__all__ = ["FinishedGame", "MemoryStore"]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A recorded result, kept in order so tests can inspect what was written."""

    channel_id: int
    guild_id: int | None
    game: str
    seats: tuple[SeatResult, ...]
    ended_by: int | None
    seeded: bool = False


class MemoryStore:
    """:class:`bot.store.base.GameStore` in dictionaries."""

    def __init__(self) -> None:
        self._active: dict[int, tuple[ActiveGame, str]] = {}
        self._guilds: dict[int, GuildSettings] = {}
        self.finished: list[FinishedGame] = []
        self._set_aside: list[tuple[ActiveGame, str, str]] = []
        self.is_open = False

    @classmethod
    def from_url(cls, url: str) -> MemoryStore:
        """``memory://``: a new, empty store."""
        return cls()

    async def open(self) -> None:
        """Nothing to connect; marks the store open."""
        self.is_open = True

    async def close(self) -> None:
        """Marks the store closed; the data stays for the next :meth:`open`."""
        self.is_open = False

    async def load_active(self) -> list[ActiveGame]:
        """Every stored session, by channel id."""
        return [self._copy(stored) for _, stored in sorted(self._active.items())]

    async def create(self, game: ActiveGame) -> None:
        """Store a new session; :class:`VersionConflict` if the channel has one."""
        if game.channel_id in self._active:
            raise VersionConflict(f"channel {game.channel_id} already has a game")
        self._active[game.channel_id] = (game, text_of(game))

    async def save(self, game: ActiveGame, *, expected_version: int) -> None:
        """Replace the session stored at ``expected_version``."""
        check_save(game, expected_version)
        self._expect(game.channel_id, expected_version)
        self._active[game.channel_id] = (game, text_of(game))

    async def delete(self, channel_id: int, *, expected_version: int) -> None:
        """Drop the session stored at ``expected_version``."""
        self._expect(channel_id, expected_version)
        del self._active[channel_id]

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
        """Drop the session, record its result and store ``keep``, all or nothing."""
        check_finish(seats)
        if expected_version is None:
            if channel_id in self._active:
                raise VersionConflict(f"channel {channel_id} already has a game")
        else:
            self._expect(channel_id, expected_version)
        kept = None if keep is None else (keep, text_of(keep))  # may refuse: before any change
        self._active.pop(channel_id, None)
        self.finished.append(
            FinishedGame(channel_id, guild_id, game, tuple(seats), ended_by, seeded)
        )
        if kept is not None:
            self._active[channel_id] = kept

    async def game_results(self, guild_id: int, game: str) -> list[GameRecord]:
        """Every counted result of ``game`` in the guild, oldest first."""
        return [
            GameRecord(f.game, tuple(sorted(f.seats, key=lambda seat: seat.seat)))
            for f in self.finished
            if f.guild_id == guild_id and f.game == game and not f.seeded
        ]

    async def set_aside(self, channel_id: int, *, expected_version: int, reason: str) -> None:
        """Move the session stored at ``expected_version`` into the records set aside."""
        self._expect(channel_id, expected_version)
        game, text = self._active.pop(channel_id)
        self._set_aside.append((game, text, reason))

    async def set_aside_games(self) -> list[SetAside]:
        """Every record set aside, oldest first."""
        return [SetAside(self._copy((game, text)), why) for game, text, why in self._set_aside]

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        """The guild's settings, or the defaults."""
        return self._guilds.get(guild_id, GuildSettings(guild_id=guild_id))

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """Insert or replace the guild's settings."""
        allowed = None if settings.allowed_games is None else tuple(settings.allowed_games)
        self._guilds[settings.guild_id] = replace(settings, allowed_games=allowed)

    async def member_stats(self, guild_id: int, member_id: int) -> MemberStats:
        """Played/won/lost/drawn and points per game for one member in one guild."""
        counts: Counter[tuple[str, str, bool]] = Counter()
        points: Counter[tuple[str, str, bool]] = Counter()
        for finished in self.finished:
            if finished.guild_id != guild_id:
                continue
            for seat in finished.seats:
                if seat.member_id == member_id:
                    key = (finished.game, seat.outcome, finished.seeded)
                    counts[key] += 1
                    points[key] += seat.score
        return fold_stats(
            member_id,
            ((g, o, n, points[g, o, seeded], seeded) for (g, o, seeded), n in counts.items()),
        )

    def _expect(self, channel_id: int, expected_version: int) -> None:
        stored = self._active.get(channel_id)
        if stored is None:
            raise VersionConflict(f"channel {channel_id} has no game")
        if stored[0].version != expected_version:
            raise VersionConflict(
                f"channel {channel_id} is at version {stored[0].version}, not {expected_version}"
            )

    @staticmethod
    def _copy(stored: tuple[ActiveGame, str]) -> ActiveGame:
        game, text = stored
        return replace(game, data=decode(text))
