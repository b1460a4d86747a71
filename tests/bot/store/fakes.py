"""Stand-ins for a store (bot/store/): ones that fail as a real one can (unreachable, cut
after a number of writes, losing the answer to a write), and a watch on what a store is
asked to write. Every test that needs a failing or watched store uses these.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from bot.store import StoreUnavailable, StoreUncertain
from bot.store.base import ActiveGame, GameStore, GuildSettings
from bot.store.memory import MemoryStore


class DownStore(MemoryStore):
    """A memory store that can be made unreachable, as a database server that went away."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.reads_up = False  # down for writes only (a full disk, a read-only replica)
        self.refused = 0

    def _check(self, *, read: bool = False) -> None:
        if self.down and not (read and self.reads_up):
            self.refused += 1
            raise StoreUnavailable("cannot use the test database: it is down")

    async def load_active(self) -> list[ActiveGame]:
        self._check(read=True)
        return await super().load_active()

    def _before_write(self) -> None:
        self._check()

    async def create(self, game: ActiveGame) -> None:
        self._before_write()
        await super().create(game)

    async def save(self, game: ActiveGame, *, expected_version: int) -> None:
        self._before_write()
        await super().save(game, expected_version=expected_version)

    async def finish(self, channel_id: int, **kwargs: Any) -> None:
        self._before_write()
        await super().finish(channel_id, **kwargs)

    async def delete(self, channel_id: int, *, expected_version: int) -> None:
        self._before_write()
        await super().delete(channel_id, expected_version=expected_version)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        self._check(read=True)
        return await super().guild_settings(guild_id)

    async def set_aside(self, channel_id: int, **kwargs: Any) -> None:
        self._before_write()
        await super().set_aside(channel_id, **kwargs)


class WriteCountingStore(DownStore):
    """A store that counts its writes of a channel's session, and goes down after
    ``cut_after`` of them if given (the cut can fall between two writes of one change)."""

    def __init__(self, cut_after: int | None = None) -> None:
        super().__init__()
        self.writes = 0
        self.cut_after = cut_after

    def _before_write(self) -> None:
        if self.cut_after is not None and self.writes >= self.cut_after:
            self.down = True
        self._check()
        self.writes += 1


class AnswerLosingStore(DownStore):
    """A store whose next write loses its answer (StoreUncertain) when ``lose`` is set:
    True if the write was made before the answer was lost (a server that committed it)."""

    def __init__(self) -> None:
        super().__init__()
        self.lose: bool | None = None  # the next write's fate: landed (True) or not (False)

    async def _maybe_lose(self, write: Coroutine[Any, Any, None]) -> None:
        lose, self.lose = self.lose, None
        if lose is False:
            write.close()  # never sent
        else:
            await write
        if lose is not None:
            raise StoreUncertain("cannot use the test database: connection lost mid-write")

    async def create(self, game: ActiveGame) -> None:
        await self._maybe_lose(super().create(game))

    async def save(self, game: ActiveGame, *, expected_version: int) -> None:
        await self._maybe_lose(super().save(game, expected_version=expected_version))

    async def finish(self, channel_id: int, **kwargs: Any) -> None:
        await self._maybe_lose(super().finish(channel_id, **kwargs))


def watch_writes(
    store: GameStore,
    written: Callable[[ActiveGame], None],
    finishing: Callable[[int], None],
) -> None:
    """Have ``written`` see every game ``store`` is about to create or save, and
    ``finishing`` every channel whose game it is about to finish, before the store does: how
    an end-to-end test keeps each position the bot saved (hidden cards included) to check
    what was public at the time. The store is the test's own, so it is changed in place."""
    create, save, finish = store.create, store.save, store.finish

    async def creating(game: ActiveGame) -> None:
        written(game)  # a game dealt at once is stored with its first table
        await create(game)

    async def saving(game: ActiveGame, *, expected_version: int) -> None:
        written(game)
        await save(game, expected_version=expected_version)

    async def finished(channel_id: int, **kwargs: Any) -> None:
        finishing(channel_id)
        await finish(channel_id, **kwargs)

    store.create = creating  # type: ignore[method-assign]
    store.save = saving  # type: ignore[method-assign]
    store.finish = finished  # type: ignore[method-assign]
