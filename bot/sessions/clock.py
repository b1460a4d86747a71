"""Turn clocks and computer seats: the one background task each channel may run.

While a member is to move, the channel's task is a turn timer: half-way it reminds them,
at the deadline it makes the game's safe move for them (three in a row hand the seat to a
computer). While a computer is to move, the task is a burst: after a short pause it plays
every computer move in a row and posts one table for them all, so a table of bots never
floods the channel. Both post through the registry's :class:`~bot.sessions.model.Poster`
and retire the table before, as :meth:`TurnClock.published` does for answered commands.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from bot.i18n import t
from bot.sessions.model import (
    MAX_BURST,
    PUBLISH_WAIT,
    REPOST_DELAYS,
    TIMEOUTS_BEFORE_COMPUTER,
    Post,
    Reply,
    Session,
    SessionError,
)
from bot.text.names import markdown_name
from rules.engine import Action, Event, GameState, IllegalAction, TurnAgain

if TYPE_CHECKING:
    from bot.sessions.core import LiveSessions

__all__ = ["TurnClock"]

log = logging.getLogger(__name__)


def computer_rng(session: Session, seat: int, move: int) -> random.Random:
    """The computer's own random choices for ``move`` of a burst: the same on a replay of
    the same version, and never the game's stream, which a fair deal's verifier replays
    from the revealed seed alone."""
    return random.Random(f"{session.channel_id}:{session.version}:{seat}:{move}")


def first_legal(state: GameState[Any, Any], seat: int) -> Action:
    """The first move the engine offers the seat (``IndexError`` if none)."""
    return state.legal_actions(seat)[0]


class TurnClock:
    """Deadlines, reminders, timeouts and computer bursts of every channel's session."""

    def __init__(self, sessions: LiveSessions) -> None:
        self.sessions = sessions

    def new_turn(self, session: Session, events: Sequence[Event] = ()) -> bool:
        """Whether a change (that reported ``events``) gave the turn anew (a whole turn
        time) rather than leaving it where it was (a kick of another seat keeps the current
        player's deadline); a seat that plays again (:class:`~rules.engine.TurnAgain`) has
        a new turn."""
        state = session.state
        seat = None if state is None else state.current_seat
        return (
            seat is None
            or seat != session.deadline_seat
            or any(isinstance(event, TurnAgain) for event in events)
            or session.seats[seat].computer
            or session.deadline is None
            or session.deadline <= self.sessions.clock()  # timed out, yet the turn stays
        )

    def set_deadline(self, session: Session) -> None:
        """A whole turn time for the member to move now (none for a computer)."""
        seat = session.turn
        session.deadline_seat = seat
        if seat is None or session.seats[seat].computer:
            session.deadline = None
        else:
            session.deadline = self.sessions.clock() + session.turn_seconds
            session.pinged = False

    def arm(
        self, session: Session, *, keep_deadline: bool = False, not_before: float = 0.0
    ) -> None:
        """Start the channel's one background task: a turn timer or a computer burst.

        ``not_before`` (a clock time) holds either back: after a save the store refused, a
        timer whose deadline has passed must not try again at once, and again, and again.
        """
        seat = session.turn  # a restored table's state stays unread until it is needed
        channel_id = session.channel_id
        if session.is_lobby:
            self._arm_lobby(session, not_before)
            return
        if seat is None:
            self.sessions.tasks.cancel(channel_id)
            return
        if session.seats[seat].computer:
            work = self._computer_burst(channel_id, session.version, not_before)
            self.sessions.tasks.replace(channel_id, work, f"computer-{channel_id}")
            return
        if not keep_deadline or session.deadline is None:
            self.set_deadline(session)
        self.sessions.tasks.replace(
            channel_id,
            self._turn_timer(channel_id, session.version, not_before),
            f"turn-{channel_id}",
        )

    def _arm_lobby(self, session: Session, not_before: float) -> None:
        """A lobby closes when nobody has joined by its deadline (kept in the store, so a
        restart keeps counting)."""
        channel_id = session.channel_id
        if session.deadline is None:  # stored before lobbies expired: it waits from now
            session.deadline = self.sessions.clock() + self.sessions.settings.default_lobby_seconds
        work = self._expire_lobby(channel_id, session.version, not_before)
        self.sessions.tasks.replace(channel_id, work, f"lobby-{channel_id}")

    async def _expire_lobby(self, channel_id: int, version: int, not_before: float) -> None:
        await self._not_before(not_before)
        session = self.sessions.get(channel_id)
        if session is None or session.deadline is None:
            return
        await self.sessions.sleep(max(0.0, session.deadline - self.sessions.clock()))
        async with self.sessions.lock(channel_id):
            session = self.sessions.get(channel_id)
            if session is None or session.version != version or not session.is_lobby:
                return
            locale = session.locale
            game = t(f"game.{session.game}", locale)
            notice = t("lobby.expired", locale, game=game, host=f"<@{session.host_id}>")
            # The lobby message itself says so when it is retired; only a lobby whose
            # message is unknown (never posted) is told in a message of its own.
            told = session.message_id is not None and session.lobby_shown
            try:
                await self.sessions.drop(session, notice)
            except SessionError:
                return  # the store refused: the lobby is back and its timer tries again
            log.info("channel %d (%s): lobby closed, nobody joined", channel_id, session.game)
        if not told:
            await self.sessions.poster.post(Post(channel_id, 0, notice, (), locale))

    async def _not_before(self, when: float) -> None:
        if when > self.sessions.clock():
            await self.sessions.sleep(when - self.sessions.clock())

    async def _turn_timer(self, channel_id: int, version: int, not_before: float = 0.0) -> None:
        await self._not_before(not_before)
        session = self.sessions.get(channel_id)
        if session is None or session.deadline is None:
            return
        if not session.pinged:
            await self.sessions.sleep(
                max(0.0, session.deadline - session.turn_seconds / 2 - self.sessions.clock())
            )
            await self._ping(channel_id, version)
        session = self.sessions.get(channel_id)
        if session is None or session.version != version or session.deadline is None:
            return
        await self.sessions.sleep(max(0.0, session.deadline - self.sessions.clock()))
        await self._time_out(channel_id, version)

    async def _ping(self, channel_id: int, version: int) -> None:
        session = self.sessions.get(channel_id)
        if session is None or session.version != version or session.state is None:
            return
        seat = session.state.current_seat
        if seat is None or session.deadline is None:
            return
        session.pinged = True
        member_id = session.seats[seat].member_id
        if member_id is None:
            return
        left = max(0, round(session.deadline - self.sessions.clock()))
        text = t("turn.ping", session.locale, member=f"<@{member_id}>", seconds=left)
        await self.sessions.poster.ping(channel_id, member_id, text)

    async def _time_out(self, channel_id: int, version: int) -> None:
        async with self.sessions.lock(channel_id):
            session = self.sessions.get(channel_id)
            if session is None or session.version != version or session.state is None:
                return
            state = session.state
            seat = state.current_seat
            if seat is None or session.seats[seat].computer:
                return
            adapter = self.sessions.adapter(session)
            events = await self._play_for(session, seat, adapter.timeout_action)
            if events is None:
                return  # no move at all; logged, and the game waits for a moderator
            # A safe move may leave the seat a second step of the same turn (Uno: a drawn
            # card to play or keep); the game says how many safe moves end one turn.
            for _ in range(adapter.timeout_moves - 1):
                if state.is_over or state.current_seat != seat:
                    break
                more = await self._play_for(session, seat, adapter.timeout_action)
                if more is None:
                    break
                events += more
            occupant = session.seats[seat]
            occupant.timeouts += 1
            notices = [t("turn.timed_out", session.locale, name=markdown_name(occupant.name))]
            if occupant.timeouts >= TIMEOUTS_BEFORE_COMPUTER:
                events += self.sessions.to_computer(session, seat)
                notices.append(
                    t(
                        "turn.to_computer",
                        session.locale,
                        name=markdown_name(occupant.name),
                        n=TIMEOUTS_BEFORE_COMPUTER,
                    )
                )
            reply = await self._commit(session, events, notices, "timeout")
        if reply is not None:
            await self.post(reply)

    async def _computer_burst(self, channel_id: int, version: int, not_before: float = 0.0) -> None:
        await self._not_before(not_before)
        session = self.sessions.get(channel_id)
        if session is None:
            return
        # Let the table of the move before this burst be posted first, so posts stay in order.
        # Not ``asyncio.wait_for``: on Python 3.11 it swallows a cancel that arrives just as
        # the event is set, and the burst then played on after ``close()`` had cancelled it.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(PUBLISH_WAIT):
                await session.published.wait()
        await self.sessions.sleep(self.sessions.settings.computer_delay_seconds)
        async with self.sessions.lock(channel_id):
            session = self.sessions.get(channel_id)
            if session is None or session.version != version or session.state is None:
                return
            state = session.state
            adapter = self.sessions.adapter(session)
            level = session.level
            limit = adapter.computer_seconds(level)
            events: list[Event] = []
            for move in range(MAX_BURST):
                seat = state.current_seat
                if state.is_over or seat is None or not session.seats[seat].computer:
                    break
                rng = computer_rng(session, seat, move)

                def computer(state: Any, seat: int, rng: random.Random = rng) -> Action:
                    return adapter.computer_action(state, seat, level, rng)

                played = await self._play_for(session, seat, computer, limit=limit)
                if played is None:
                    break
                events += played
            if not events:
                return  # no move at all; a commit would only start this burst again
            reply = await self._commit(session, events, [], "computer moves")
        if reply is not None:
            await self.post(reply)

    async def _commit(
        self, session: Session, events: list[Event], notices: list[str], what: str
    ) -> Reply | None:
        """Commit a change the bot made itself; ``None`` if it could not be saved (the
        session is rolled back and its timer armed again, see ``LiveSessions.writing``)."""
        try:
            return await self.sessions.commit(session, events, notices)
        except SessionError as refused:
            log.warning(
                "channel %d (%s): the %s could not be saved (%s); tried again later",
                session.channel_id,
                session.game,
                what,
                refused.key,
            )
            return None

    async def _play_for(
        self,
        session: Session,
        seat: int,
        choose: Callable[[Any, int], Action],
        *,
        limit: float | None = None,
    ) -> list[Event] | None:
        """Apply the move ``choose`` picks for a seat the bot plays (a computer's, a timed-out
        member's). Should the engine refuse it (a bug in the game's code), the game's safe
        move, else its first legal move, keep the game going; ``None`` if no move is possible.

        With ``limit`` the choice runs off the event loop (a solver on a full Rummikub table
        must not keep the bot from answering Discord within 3 s) and is given up after
        ``limit`` seconds for the safe move.
        """
        state = session.state
        assert state is not None
        adapter = self.sessions.adapter(session)
        picks = [choose, adapter.timeout_action, first_legal]
        for pick in dict.fromkeys(picks):  # the safe move once, if it is the one chosen
            name = getattr(pick, "__name__", "chosen")
            try:
                if limit is not None and pick is choose:
                    action = await asyncio.wait_for(asyncio.to_thread(pick, state, seat), limit)
                else:
                    action = pick(state, seat)
            except TimeoutError:
                log.warning(
                    "channel %d (%s): seat %d's move took over %.1f s; playing the safe one",
                    session.channel_id,
                    session.game,
                    seat,
                    limit,
                )
                continue
            except Exception as error:  # a bug in a player must not stall the table
                self._log_fallback(session, seat, name, "failed", error)
                continue
            try:
                return await self.sessions.apply(session, seat, action)
            except (IllegalAction, IndexError) as error:
                self._log_fallback(session, seat, name, "was refused", error)
        log.error(
            "channel %d (%s, version %d): seat %d has no move; the game waits",
            session.channel_id,
            session.game,
            session.version,
            seat,
        )
        return None

    @staticmethod
    def _log_fallback(session: Session, seat: int, name: str, what: str, error: Exception) -> None:
        # No hand in the log: the error's kind and code, never its text (it may name a card).
        log.error(
            "channel %d (%s, version %d): seat %d's %s move %s (%s: %s); trying a safer one",
            session.channel_id,
            session.game,
            session.version,
            seat,
            name,
            what,
            type(error).__name__,
            getattr(error, "code", ""),
        )

    async def post(self, reply: Reply) -> None:
        """Post a table the registry made itself (no interaction to answer)."""
        if reply.post is None:
            return
        message_id = await self.sessions.poster.post(reply.post)
        await self.published(reply.post, message_id)

    async def published(self, post: Post, message_id: int | None) -> None:
        """The table ``post`` was posted as ``message_id``: strip the one before it.

        ``None``: it could not be posted. The table before it keeps its buttons, which are
        out of date by now, so the same table is posted again later, until one gets through
        or the game moves on (:meth:`_repost`).
        """
        channel_id, version = post.channel_id, post.version
        session = self.sessions.get(channel_id) or self.sessions.finished.get(channel_id)
        if session is None or session.version != version:
            # The game moved on (or ended) before Discord told us this table's id.
            if message_id is not None:
                await self.sessions.poster.strip(channel_id, message_id)
            return
        session.published.set()
        if message_id is None:
            self.sessions.reposts.replace(channel_id, self._repost(post), f"repost-{channel_id}")
            return
        self.sessions.reposts.cancel(channel_id)
        previous, was_lobby = session.message_id, session.lobby_shown
        session.message_id = message_id
        session.lobby_shown = session.is_lobby
        if previous is not None and previous != message_id:
            note = None
            if was_lobby:
                key = "lobby.retired_changed" if session.is_lobby else "lobby.retired_started"
                note = t(key, session.locale)
            await self.sessions.poster.strip(channel_id, previous, note)

    async def _repost(self, post: Post) -> None:
        """Post a table Discord refused again, with growing pauses, while it is current.

        The very same message: one version has one table, and the member whose turn it is
        is mentioned, since the first mention never arrived.
        """
        channel_id, version = post.channel_id, post.version
        for delay in REPOST_DELAYS:
            await self.sessions.sleep(delay)
            session = self.sessions.get(channel_id) or self.sessions.finished.get(channel_id)
            if session is None or session.version != version:
                return  # a newer table (or the end) reached the channel, or will
            message_id = await self.sessions.poster.post(post)
            if message_id is not None:
                log.info("channel %d: the table of version %d is posted", channel_id, version)
                await self.published(post, message_id)
                return
        log.warning(
            "channel %d: gave up posting the table of version %d; the next move posts one",
            channel_id,
            version,
        )
