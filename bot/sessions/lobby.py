"""The lobby verbs: open a table, take a seat, start early.

A lobby is a session without a game (``state is None``). Taking its last seat deals the game
at once, so a lobby is never full; the host may start earlier with at least the game's
minimum of seats (empty ones are dropped). Leaving and ending, which also work in a running
game, are in :mod:`.play`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import t
from bot.sessions.core import LiveSessions
from bot.sessions.model import Player, Reply, Seat, Session, SessionError
from bot.text.names import markdown_name
from rules.engine import Event
from rules.levels import Level

__all__ = ["MAX_LOBBIES", "LobbyVerbs"]

MAX_LOBBIES = 3  # open lobbies a member may host in one server


class LobbyVerbs(LiveSessions):
    """``/<game> start``, ``join`` and the host's **Start**."""

    async def open_lobby(
        self,
        channel_id: int,
        guild_id: int | None,
        game: str,
        host: Player,
        *,
        players: int | None = None,
        bots: int = 0,
        member_seed: int | None = None,
        options: dict[str, Any] | None = None,
        locale: str = "en",
        level: str = Level.NORMAL.value,
    ) -> Reply:
        """Open a lobby with the host in seat 1; it starts at once when nobody else is needed.

        ``level``: how well the computer seats play (``easy``, ``normal``, ``hard``)."""
        adapter = self.games.get(game)
        try:
            chosen = Level(level)
        except ValueError:
            levels = ", ".join(known.value for known in Level)
            raise SessionError("error.level", levels=levels) from None
        players = adapter.min_seats if players is None else players
        if not adapter.min_seats <= players <= adapter.max_seats:
            raise SessionError("error.players_range", low=adapter.min_seats, high=adapter.max_seats)
        if not 0 <= bots < players:
            raise SessionError("error.bots_range", high=players - 1)
        async with self.lock(channel_id):
            existing = self.get(channel_id)
            if existing is not None:
                raise SessionError("error.already_here", game=existing.game)
            self.check_host(guild_id, host.id)
            session = Session(
                channel_id=channel_id,
                guild_id=guild_id,
                game=game,
                host_id=host.id,
                locale=locale,
                players=players,
                bots=bots,
                level=chosen,
                member_seed=member_seed,
                options=dict(options or {}),
                turn_seconds=await self.turn_seconds(guild_id, adapter),
                seats=[Seat(host.id, host.name)],
            )
            session.deadline = self.clock() + await self.lobby_seconds(guild_id)
            reply = await self.create(session, adapter)
            if session.is_lobby and self.get(channel_id) is session:
                self.turns.arm(session, keep_deadline=True)  # it closes if nobody joins
            return reply

    def check_host(self, guild_id: int | None, member_id: int) -> None:
        """A member opens a lobby at most every ``start_cooldown_seconds`` and hosts at most
        :data:`MAX_LOBBIES` at once in a server: nobody can hold every channel."""
        hosted = [
            s
            for s in self.sessions()
            if s.guild_id == guild_id and s.is_lobby and s.host_id == member_id
        ]
        if len(hosted) >= MAX_LOBBIES:
            raise SessionError("error.lobby_cap", most=MAX_LOBBIES)
        wait = self.opened.get((guild_id, member_id), -1e18) + self.settings.start_cooldown_seconds
        if self.clock() < wait:
            raise SessionError("error.start_cooldown", seconds=max(1, round(wait - self.clock())))
        # Taken now, before anything is awaited: starts in other channels at the same moment
        # (each under its own channel's lock) meet the cooldown too.
        self.opened[guild_id, member_id] = self.clock()

    async def join(self, channel_id: int, member: Player, *, version: int | None = None) -> Reply:
        """Take a free seat in the lobby; the game starts when the last seat is taken.

        ``version`` comes from a button, as for every verb: an older message's is refused.
        """
        async with self.lock(channel_id):
            self.check_version(channel_id, version)
            session = self.lobby(channel_id)
            if any(seat.member_id == member.id for seat in session.seats):
                raise SessionError("error.already_seated")
            # A lobby is never full: taking its last seat deals the game (see below).
            session.seats.append(Seat(member.id, member.name))
            session.deadline = self.clock() + await self.lobby_seconds(session.guild_id)
            notices = [t("lobby.joined", session.locale, name=markdown_name(member.name))]
            events: Sequence[Event] = ()
            if self.lobby_full(session):
                events = self.deal_or_restore(session)
            return await self.commit(session, events, notices)

    async def start(self, channel_id: int, member_id: int, *, version: int | None = None) -> Reply:
        """The host starts early; empty seats are dropped (at least the minimum must remain)."""
        async with self.lock(channel_id):
            self.check_version(channel_id, version)
            session = self.lobby(channel_id)
            if member_id != session.host_id:
                raise SessionError("error.host_only")
            adapter = self.adapter(session)
            seated = len(session.seats) + session.bots
            if seated < adapter.min_seats:
                raise SessionError("error.not_enough", low=adapter.min_seats)
            session.players = seated
            return await self.commit(session, self.deal_or_restore(session), [])

    def deal_or_restore(self, session: Session) -> list[Event]:
        """Deal the full lobby; if the engine refuses (options or a level it does not take),
        the lobby goes back to what is stored, without the seat just taken, and the refusal
        propagates to the member."""
        try:
            return self.deal(session, self.adapter(session))
        except BaseException:
            self.rollback(session.channel_id)
            raise
