"""Stored games that cannot be restored: a record its engine refuses (found when the game is
first read) or one that does not even rebuild a session (found at the restart).

Such a table could never be played or ended and would hold its channel for good, so it is
said once in the log, its record moved aside in the store as it is (nothing of it lost),
the channel freed and told. Until then a stand-in session holds the channel.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.i18n import t
from bot.sessions.model import STORE_RETRY_SECONDS, Post, Session, restore_failure
from bot.store import StoreUnavailable
from bot.store.base import ActiveGame, VersionConflict
from bot.timers import ChannelTasks

if TYPE_CHECKING:
    from bot.sessions.core import LiveSessions

__all__ = ["UnrestorableGames"]

log = logging.getLogger(__name__)


class UnrestorableGames:
    """The tables being set aside, each in its channel's task slot here."""

    def __init__(self, sessions: LiveSessions) -> None:
        self.sessions = sessions
        self.tasks = ChannelTasks()
        # The version of each channel's unrestorable game already logged (one ERROR each).
        self._reported: dict[int, int] = {}

    def stand_in(self, stored: ActiveGame, error: Exception) -> Session:
        """A stored record that does not even rebuild a session: a stand-in that holds the
        channel (a game nobody can play) until :meth:`set_aside` has moved the record."""
        sessions = self.sessions
        data = stored.data if isinstance(stored.data, dict) else {}
        locale = data.get("locale") if isinstance(data.get("locale"), str) else "en"
        shown = data.get("message_id")
        session = Session(
            channel_id=stored.channel_id,
            guild_id=stored.guild_id,
            game=stored.game,
            host_id=0,
            locale=str(locale),
            players=0,
            bots=0,
            member_seed=None,
            options={},
            turn_seconds=0.0,
            seats=[],
            version=stored.version,
            unloaded=sessions.games.get(stored.game),
            broken=restore_failure(error),
            message_id=shown if type(shown) is int else None,  # its buttons are stripped
        )
        session.published.set()
        self.set_aside(session)
        return session

    def set_aside(self, session: Session) -> None:
        """``session``'s stored game cannot be restored: say so once in the log, and in the
        background move its record aside, free the channel and tell it (a table nobody could
        play or end would otherwise hold the channel for good)."""
        channel_id = session.channel_id
        if self._reported.get(channel_id) != session.version:  # once, whoever meets it again
            self._reported[channel_id] = session.version
            log.error(
                "channel %d (%s, version %d): the stored game cannot be restored (%s);"
                " its record is set aside and the channel freed",
                channel_id,
                session.game,
                session.version,
                session.broken,
            )
        self.tasks.replace(channel_id, self._move(session), f"set-aside-{channel_id}")

    async def _move(self, session: Session) -> None:
        sessions = self.sessions
        channel_id = session.channel_id
        while True:
            async with sessions.lock(channel_id):
                # By version, not by object: a rollback rebuilds the session from the same
                # record, and a stand-in never saved is dropped by one while its record stays.
                live = sessions.get(channel_id)
                if live is not None and live.version != session.version:
                    return  # another game holds the channel now
                try:
                    await sessions.store.set_aside(
                        channel_id, expected_version=session.version, reason=session.broken or ""
                    )
                except VersionConflict:
                    # Ended, changed by another writer, or set aside by a write whose answer
                    # was lost: what the store holds now is the truth.
                    await sessions.reload(channel_id)
                    if live is None or sessions.get(channel_id) is not None:
                        return
                    break
                except StoreUnavailable as error:
                    log.warning(
                        "channel %d: the record to set aside waits, the store is unavailable: %s",
                        channel_id,
                        error,
                    )
                else:
                    sessions.forget(live or session)
                    break
            await sessions.sleep(STORE_RETRY_SECONDS)
        self._reported.pop(channel_id, None)
        locale = session.locale
        notice = t("game.set_aside", locale, game=t(f"game.{session.game}", locale))
        await sessions.poster.post(Post(channel_id, 0, notice, (), locale))
