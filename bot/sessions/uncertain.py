"""A write whose answer was lost (:class:`~bot.store.StoreUncertain`): it may or may not
have landed, so nothing else is written in its channel until what the store holds is read back.

The member is told the change may not have been saved; :class:`UncertainWrites` reads the
store in the background until it answers. Not landed: the session as rolled back stands.
Landed: the session becomes what the store holds and its table (or notice) is posted, as the
write would have done.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.sessions.model import STORE_RETRY_SECONDS, Post, Reply, SessionError
from bot.store import StoreUnavailable
from bot.timers import ChannelTasks

if TYPE_CHECKING:
    from bot.sessions.core import LiveSessions

__all__ = ["Attempt", "UncertainWrites"]

log = logging.getLogger(__name__)


@dataclass
class Attempt:
    """A write of a channel's session under way: the version the store holds once it is
    made (``None``: nothing, the session ended) and what it announces, kept in case its
    answer is lost."""

    makes: int | None
    post: Post | None = None
    notice: str | None = None


class UncertainWrites:
    """Each channel's write whose answer was lost, and the task reading it back."""

    def __init__(self, sessions: LiveSessions) -> None:
        self.sessions = sessions
        self._pending: dict[int, Attempt] = {}
        self.settles = ChannelTasks()  # reading it back in the background until it answers

    def read_back(self, channel_id: int, attempt: Attempt) -> None:
        """``attempt``'s answer was lost: read the store back before anything else is
        written in the channel, in the background until the store answers."""
        self._pending[channel_id] = attempt
        self.settles.replace(channel_id, self._settle_later(channel_id), f"settle-{channel_id}")

    async def settle(self, channel_id: int) -> None:
        """If the channel's last write may or may not have landed, read what the store holds
        (under the channel's lock). Not landed: the session as rolled back is the store's.
        Landed: the session becomes what the store holds, its table (or notice) is posted,
        and :class:`SessionError` refuses the change at hand, made on the older game.
        :class:`StoreUnavailable` while the store still does not answer."""
        attempt = self._pending.get(channel_id)
        if attempt is None:
            return
        sessions = self.sessions
        records = await sessions.store.load_active()
        stored = next((r for r in records if r.channel_id == channel_id), None)
        if (None if stored is None else stored.version) != attempt.makes:
            del self._pending[channel_id]
            self.settles.cancel(channel_id)
            return  # not written: what the member was told ("maybe") resolved to "no"
        # Built before anything changes: a record that cannot be read leaves all as it was.
        adopted = None
        if stored is not None:
            adopted = sessions.revive(stored)
        del self._pending[channel_id]
        self.settles.cancel(channel_id)
        log.warning("channel %d: the write whose answer was lost had landed", channel_id)
        live = sessions.get(channel_id)
        kept = sessions.finished.discard(channel_id)
        shown = next((s.message_id for s in (live, kept) if s is not None), None)
        if live is not None:
            sessions.forget(live, strip=False)  # its version retired: no button of it acts again
        sessions.tasks.cancel(channel_id)
        if adopted is not None:
            adopted.message_id = shown
            adopted.published.set()
            if adopted.finished_at is not None:
                await sessions.finished.restore(adopted)
            else:
                sessions.add(adopted)
                sessions.turns.arm(adopted, keep_deadline=True)
        if attempt.post is not None:
            await sessions.turns.post(Reply(attempt.post))  # it retires the table before it
        elif attempt.notice is not None:
            owner = live or kept
            locale = "en" if owner is None else owner.locale
            await sessions.poster.post(Post(channel_id, 0, attempt.notice, (), locale))
            if shown is not None:
                await sessions.poster.strip(channel_id, shown)
        raise SessionError("error.saved_meanwhile")

    async def _settle_later(self, channel_id: int) -> None:
        """Read an uncertain write back once the store answers (the member was told its
        table shows up if it was saved), trying again a while after each refusal."""
        sessions = self.sessions
        while channel_id in self._pending:
            await sessions.sleep(STORE_RETRY_SECONDS)
            async with sessions.lock(channel_id):
                try:
                    await self.settle(channel_id)
                except StoreUnavailable:
                    continue
                except SessionError:
                    return  # landed, and announced
