"""The verbs of a table in play: moves, leaving, kicks, ending, dealing again, the hand.

Each runs under the channel's lock, checks who may do it (the seat's member, the host, a
moderator) and whether the button that asked is still current, then changes the session
through :meth:`~bot.sessions.core.LiveSessions.commit`, which saves before anything is
answered.
"""

from __future__ import annotations

import dataclasses
import logging

from bot.i18n import t
from bot.sessions.core import LiveSessions
from bot.sessions.model import Post, Reply, Seat, Session, SessionError, compose
from bot.sessions.render import fairness
from bot.text.names import markdown_name
from rules.engine import Action, Event
from rules.levels import Level

__all__ = ["PlayVerbs"]

log = logging.getLogger(__name__)


class PlayVerbs(LiveSessions):
    """``act``, ``leave``, ``forfeit``, ``kick``, ``end``, ``deal_again`` and ``hand``."""

    async def act(
        self,
        channel_id: int,
        member_id: int,
        action: Action | tuple[str, str | None],
        *,
        version: int | None = None,
        locale: str | None = None,
    ) -> Reply:
        """Apply a member's move (an action, or a ``(verb, arg)`` the adapter parses).

        ``version`` comes from a button: a button of an older table is refused. The move is
        saved before this returns. What the game tells the member alone about it comes back
        as :attr:`Reply.private`, in ``locale`` (their language; the table's if not given).
        """
        async with self.lock(channel_id):
            self.check_version(channel_id, version)
            session = self.game(channel_id)
            seat = session.seat_of(member_id)
            if seat is None:
                raise SessionError("error.not_seated")
            state = session.state
            assert state is not None
            # Out of turn only what the engine offers that seat (Uno's jump-in, UNO! or a
            # catch); the engine still refuses anything else with its reason.
            if state.current_seat != seat and not state.legal_actions(seat):
                raise SessionError("error.not_your_turn")
            adapter = self.adapter(session)
            if isinstance(action, tuple):
                action = adapter.parse(*action)
            events = await self.apply(session, seat, action)
            session.seats[seat].timeouts = 0
            locale = locale or session.locale
            note = adapter.private(state.view(seat), events, session.names, locale)
            if adapter.private_step(events):
                reply = await self.save_step(session)
            else:
                reply = await self.commit(session, events, [])
            if note is None:
                return reply
            private = Post(
                channel_id,
                session.version,
                compose(note, locale=locale),
                note.controls,
                locale,
                session.game,
                menu=note.menu,
            )
            return dataclasses.replace(reply, private=private)

    async def leave(
        self,
        channel_id: int,
        member_id: int,
        *,
        version: int | None = None,
        asked_at: int | None = None,
    ) -> Reply:
        """Give up a seat: in a lobby it is freed; in a game it is forfeited by the game's
        rule where it has one (:attr:`~bot.games.GameAdapter.forfeits`), else a computer
        plays it on. ``asked_at``: the version the member confirmed leaving at; it holds
        while the same game goes on (moves since do not matter), not for a later one."""
        async with self.lock(channel_id):
            self.check_version(channel_id, version)
            session = self.require(channel_id)
            if asked_at is not None and session.opened > asked_at:
                raise SessionError("error.stale_button")
            seat = session.seat_of(member_id)
            if seat is None:
                raise SessionError("error.not_seated")
            name = session.seats[seat].name
            if session.is_lobby:
                if member_id == session.host_id:
                    return await self.drop(session, t("lobby.host_left", session.locale))
                del session.seats[seat]
                return await self.commit(
                    session, [], [t("lobby.left", session.locale, name=markdown_name(name))]
                )
            names = session.names  # "bob left the game", not "bob (left) left the game"
            events = await self.give_up(session, seat)
            if self.adapter(session).forfeits:
                return await self.commit(session, events, [], names=names)
            notice = t("game.left", session.locale, name=markdown_name(name))
            return await self.commit(session, events, [notice], names=names)

    async def give_up(self, session: Session, seat: int) -> list[Event]:
        """A member gives up their seat in a running game: forfeited by the game's rule where
        it has one (:attr:`~bot.games.GameAdapter.forfeits`), else a computer plays it on;
        the seat is a computer's from now on. ``IllegalAction`` if the rule refuses."""
        adapter = self.adapter(session)
        if not adapter.forfeits:
            return self.to_computer(session, seat)
        state = session.state
        events = list(await self.change(session, lambda: adapter.forfeit(state, seat)))
        session.seats[seat].computer = True
        return events

    async def kick(self, channel_id: int, member_id: int, *, by: int | None = None) -> Reply:
        """A moderator (``by``) hands ``member_id``'s seat to a computer player."""
        async with self.lock(channel_id):
            session = self.require(channel_id)
            seat = session.seat_of(member_id)
            if seat is None:
                raise SessionError("error.member_not_seated")
            name = session.seats[seat].name
            if session.is_lobby:
                if member_id == session.host_id:
                    raise SessionError("error.kick_host")
                del session.seats[seat]
                reply = await self.commit(
                    session, [], [t("lobby.left", session.locale, name=markdown_name(name))]
                )
            else:
                events = self.to_computer(session, seat)
                reply = await self.commit(
                    session, events, [t("game.kicked", session.locale, name=markdown_name(name))]
                )
            log.info(
                "channel %d (%s): member %d's seat kicked by member %s",
                channel_id,
                session.game,
                member_id,
                by,
            )
            return reply

    async def end(
        self, channel_id: int, member_id: int, *, moderator: bool, version: int | None = None
    ) -> Reply:
        """Cancel a lobby (its host, or a moderator) or end a game (a moderator).

        An ended game is recorded with ``ended_by`` and no results.
        """
        async with self.lock(channel_id):
            self.check_version(channel_id, version)
            session = self.require(channel_id)
            if session.is_lobby:
                if member_id != session.host_id and not moderator:
                    raise SessionError("error.host_only")
                # The channel, and the lobby message retired with it, say who closed it.
                notice = t("lobby.cancelled_by", session.locale, member=f"<@{member_id}>")
                reply = await self.drop(session, notice)
                log.info(
                    "channel %d (%s): lobby closed by member %d",
                    channel_id,
                    session.game,
                    member_id,
                )
                return reply
            if not moderator:
                raise SessionError("error.moderator_only")
            if any(seat.member_id == member_id for seat in session.seats):
                return await self._end_seated(session, member_id)
            ended = t("game.ended_by", session.locale, member=f"<@{member_id}>")
            notice = "\n".join([ended, *fairness(session, end=True)])
            async with self.writing(channel_id, None) as attempt:
                attempt.notice = notice
                await self.store.finish(
                    channel_id,
                    expected_version=session.version,
                    game=session.game,
                    guild_id=session.guild_id,
                    seats=[],
                    ended_by=member_id,
                    seeded=session.seeded,
                )
            # Once written: a refused end ended nothing.
            log.info("channel %d (%s): ended by member %d", channel_id, session.game, member_id)
            self.forget(session)
            return Reply(None, notice)

    async def _end_seated(self, session: Session, member_id: int) -> Reply:
        """A moderator who plays at the table cannot end it: their /game end gives up their
        own seat as leaving does (the game's forfeit rule, or a computer plays it on), and
        the game goes on by its rules, every result recorded when it ends. So no moderator
        can wipe a game going badly, or an opponent's win. A moderator whose seat is already
        given up (they left, or kicked themselves) is refused: the game is not theirs to end."""
        seat = session.seat_of(member_id)
        if seat is None:
            raise SessionError("error.end_own_game")
        notice = t("game.ended_forfeit", session.locale, member=f"<@{member_id}>")
        events = await self.give_up(session, seat)
        log.info(
            "channel %d (%s): member %d forfeited by /game end",
            session.channel_id,
            session.game,
            member_id,
        )
        return await self.commit(session, events, [notice])

    async def deal_again(
        self, channel_id: int, member_id: int, *, version: int, table_id: int | None = None
    ) -> Reply:
        """After a game ends, deal a new one to the same seats (the final table's button).

        ``table_id``: the message whose button was clicked, retired when the new table is
        posted (after a restart the store does not know the final table's id).
        """
        async with self.lock(channel_id):
            if self.get(channel_id) is not None:
                raise SessionError("error.stale_button")
            last = self.finished.get(channel_id)
            if last is None or last.version != version:
                raise SessionError("error.stale_button")
            if last.seat_of(member_id) is None:  # never seated, or kicked, or left
                raise SessionError("error.not_seated")
            adapter = self.games.get(last.game)
            # Like a new /<game> start: the guild may have disallowed the game or changed
            # its turn time since.
            turn_seconds = await self.turn_seconds(last.guild_id, adapter)
            key = "seat.computer" if last.level is Level.NORMAL else "seat.computer_short"
            session = Session(
                channel_id=channel_id,
                guild_id=last.guild_id,
                game=last.game,
                host_id=last.host_id,
                locale=last.locale,
                players=last.players,
                bots=last.bots,
                level=last.level,
                member_seed=None,
                options=dict(last.options),
                turn_seconds=turn_seconds,
                # A member who left (or was handed to a computer) is not dealt in again: an
                # unnamed computer takes the seat, and nothing more is recorded for them.
                seats=[
                    Seat(None, t(key, last.locale, n=number), True)
                    if s.computer
                    else Seat(s.member_id, s.name)
                    for number, s in enumerate(last.seats, 1)
                ],
                version=last.version + 1,
                # The new table strips the old one's button.
                message_id=last.message_id if table_id is None else table_id,
            )
            return await self.create(session, adapter)

    async def hand(self, channel_id: int, member_id: int, locale: str | None = None) -> Post:
        """The member's private hand in ``locale`` (their own language; the table's if not
        given), with the buttons and menu its game offers that seat now."""
        session = self.game(channel_id)
        seat = session.seat_of(member_id)
        if seat is None:
            raise SessionError("error.not_seated")
        state = session.state
        assert state is not None
        locale = locale or session.locale
        adapter = self.adapter(session)
        table = adapter.hand(state.view(seat), session.names, locale)
        return Post(
            channel_id,
            session.version,
            compose(table, locale=locale),
            table.controls,
            locale,
            session.game,
            menu=table.menu,
        )
