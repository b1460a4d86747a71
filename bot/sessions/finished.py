"""Finished tables kept for "Deal again": each channel's last one, for an hour.

When a game ends its result is recorded and the session leaves the live map, but its seats
stay (in memory, and in the store as a record without a game, marked ``finished_at``) so
the final table's **Deal again** button works, across a restart too, until it expires after
:data:`~bot.sessions.model.DEAL_AGAIN_SECONDS` or a new game in the channel replaces it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.sessions.model import DEAL_AGAIN_SECONDS, STORE_RETRY_SECONDS, Session
from bot.store import StoreUnavailable
from bot.store.base import VersionConflict

if TYPE_CHECKING:
    from bot.sessions.core import LiveSessions

__all__ = ["FinishedTables"]


class FinishedTables:
    """Each channel's last finished table and its expiry timer (in the channel's task slot)."""

    def __init__(self, sessions: LiveSessions) -> None:
        self.sessions = sessions
        self._finished: dict[int, Session] = {}

    def get(self, channel_id: int) -> Session | None:
        """The channel's finished table still offering "Deal again", if any."""
        return self._finished.get(channel_id)

    def discard(self, channel_id: int) -> Session | None:
        """Forget the channel's finished table, if any (its expiry timer, in the channel's
        task slot, is the caller's to cancel)."""
        return self._finished.pop(channel_id, None)

    def keep(self, session: Session) -> None:
        """Offer "Deal again" at a finished table for a while (its record was stored with
        the game's result: :meth:`~bot.store.base.GameStore.finish`'s ``keep``)."""
        self._finished[session.channel_id] = session
        self._arm_expiry(session)

    async def store_in_place_of(self, session: Session) -> None:
        """Store a new session in its channel, replacing the finished table kept there.

        :class:`VersionConflict` if another writer holds the channel.
        """
        channel_id = session.channel_id
        last = self._finished.get(channel_id)
        store = self.sessions.store
        if last is None:
            record = session.stored()
            await store.create(record)
            session.remember(record)
            return
        session.version = max(session.version, last.version + 1)
        record = session.stored()
        try:
            await store.save(record, expected_version=last.version)
        except VersionConflict:
            # Its record was never written (see keep) or has expired.
            await store.create(record)
        session.remember(record)
        del self._finished[channel_id]
        self.sessions.tasks.cancel(channel_id)  # its expiry timer

    async def restore(self, session: Session) -> None:
        """A stored finished table after a restart (or read back): keep offering it until it
        expires. One already expired is dropped by its expiry at once, which waits for a
        store that does not answer: dropped here, its record would hold the channel."""
        assert session.finished_at is not None
        self._finished[session.channel_id] = session
        self._arm_expiry(session)

    def _arm_expiry(self, session: Session) -> None:
        assert session.finished_at is not None
        left = session.finished_at + DEAL_AGAIN_SECONDS - self.sessions.clock()
        channel_id = session.channel_id
        work = self._expire(channel_id, session.version, left)
        self.sessions.tasks.replace(channel_id, work, f"expire-{channel_id}")

    async def _expire(self, channel_id: int, version: int, delay: float) -> None:
        sessions = self.sessions
        await sessions.sleep(max(0.0, delay))
        async with sessions.lock(channel_id):
            last = self._finished.get(channel_id)
            if last is None or last.version != version:
                return
            try:
                await sessions.store.delete(channel_id, expected_version=version)
            except VersionConflict:
                pass  # gone already
            except StoreUnavailable:
                # Kept, and dropped later: a record left in the store would hold the channel
                # against every new game (a new one is stored where nothing is).
                work = self._expire(channel_id, version, STORE_RETRY_SECONDS)
                sessions.tasks.replace(channel_id, work, f"expire-{channel_id}")
                return
            del self._finished[channel_id]
        if last.message_id is not None:
            await sessions.poster.strip(channel_id, last.message_id)
