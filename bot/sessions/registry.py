"""The session registry: the one object the cogs and the bot talk to.

:class:`SessionRegistry` is :class:`~bot.sessions.core.LiveSessions` (the live sessions of the
process and their commit path) with the verbs of :mod:`.lobby` and :mod:`.play`, plus the
restart (:meth:`SessionRegistry.restore_all`) and the shutdown. It owns nothing else: each
concern lives in its own module (the turn clock and the finished tables are parts of
``LiveSessions``), and this class only puts them together.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import time
from collections.abc import Awaitable, Callable, Iterator

from bot.games import GameCatalog, UnknownGame
from bot.sessions.lobby import LobbyVerbs
from bot.sessions.model import Host, Post, Poster, Session
from bot.sessions.play import PlayVerbs
from bot.settings import Settings
from bot.store.base import GameStore

__all__ = ["SessionRegistry"]

log = logging.getLogger(__name__)


def _serves_every_guild(guild_id: int | None) -> bool:
    return True


@contextlib.contextmanager
def collections_paused() -> Iterator[None]:
    """No cyclic garbage collection in the block: restoring 10,000 tables allocates objects
    by the million, each thousand of which would start a collection scanning every table
    restored so far (measured: 9.1 s to restore 10,000 tables with it, 3.6 s without).
    Nothing restored is garbage, and reference counting still frees what is."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def give_back_freed_memory() -> None:
    """Hand the heap a bulk restore freed back to the system (glibc's ``malloc_trim``).

    Parsing 10,000 stored records leaves some 100 MB of freed blocks that glibc keeps for
    the process; the tables themselves need a tenth of that (restart at scale counts the
    resident memory per table). Elsewhere (musl, macOS) there is no such call and nothing happens.
    """
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).malloc_trim(0)


class SessionRegistry(LobbyVerbs, PlayVerbs):
    """Every session of this process, by channel id, with a lock per channel.

    ``SessionRegistry(bot)`` takes the store, settings and shard ownership from the bot;
    tests pass them (and a fake ``poster``, ``clock`` and ``sleep``) by keyword instead.
    """

    def __init__(
        self,
        bot: Host | None = None,
        *,
        store: GameStore | None = None,
        settings: Settings | None = None,
        poster: Poster | None = None,
        games: GameCatalog | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        owns_guild: Callable[[int | None], bool] | None = None,
    ) -> None:
        if store is None or settings is None:
            if bot is None:
                raise TypeError("SessionRegistry needs a bot or both store and settings")
            store = store or bot.store
            settings = settings or bot.settings
        super().__init__(
            store=store, settings=settings, poster=poster, games=games, clock=clock, sleep=sleep
        )
        self.bot = bot
        if owns_guild is None:
            owns_guild = bot.owns_guild if bot is not None else _serves_every_guild
        self.owns_guild = owns_guild

    async def published(self, post: Post, message_id: int | None) -> None:
        """The table ``post`` was posted as ``message_id``: strip the one before it.

        ``None``: it could not be posted; it is posted again later, until one gets through.
        """
        await self.turns.published(post, message_id)

    def clicked_live(self, channel_id: int, version: int, message_id: int) -> bool:
        """A member clicked public message ``message_id`` with a component of ``version``:
        whether that is the channel's live table, lobby or finished table (Deal again). If so,
        it is the one to retire when the next move replaces it: a session restored after a
        restart may name the table before it, since a table's id is saved with the move after
        it. A table not published yet (its answer still on its way) is left to
        :meth:`published`, which retires the one before it."""
        session = self.get(channel_id) or self.finished.get(channel_id)
        if session is None or session.version != version or not session.published.is_set():
            return False
        session.message_id = message_id
        return True

    # -- restart and shutdown -----------------------------------------------------------

    async def restore_all(self) -> int:
        """Load the stored lobbies and games of the guilds this process serves and re-arm
        their timers; how many were restored.

        Several processes share one store, each serving some shards: a game of another
        shard's guild is left to that shard's process, which alone receives its clicks.
        """
        with collections_paused():
            restored = await self._restore_all()
        give_back_freed_memory()
        return restored

    async def _restore_all(self) -> int:
        restored = 0
        records = await self.store.load_active()
        records.reverse()
        while records:
            # Each record's parsed snapshot is garbage once its session holds the text.
            stored = records.pop()
            if not self.owns_guild(stored.guild_id):
                continue
            try:
                session = self.revive(stored)
            except UnknownGame:
                log.error("channel %d: game %r has no cog loaded", stored.channel_id, stored.game)
                continue
            except Exception as error:  # not even its seats can be read
                session = self.unrestorable.stand_in(stored, error)
            try:
                live = await self._resume(session)
            except Exception as error:  # a record no timer can run: set aside, not the bot
                self.tasks.cancel(session.channel_id)
                live = await self._resume(self.unrestorable.stand_in(stored, error))
            restored += live
        return restored

    async def _resume(self, session: Session) -> bool:
        """Hold a restored session again and re-arm its timer (or its finished table's);
        whether it is a lobby or a game (not a finished table)."""
        session.published.set()
        if session.finished_at is not None:
            await self.finished.restore(session)
            return False
        if session.deadline is not None:
            half = session.deadline - session.turn_seconds / 2
            session.pinged = self.clock() >= half
        self.add(session)
        self.turns.arm(session, keep_deadline=True)
        return True

    async def close(self) -> None:
        """Stop every timer (the sessions stay in the store)."""
        await self.uncertain.settles.close()  # first: a read-back may arm a timer
        await self.unrestorable.tasks.close()
        await self.tasks.close()
        await self.reposts.close()
