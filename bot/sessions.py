"""Sessions: one lobby or game per channel, its seats, timers and persistence (DESIGN.md §3).

:class:`SessionRegistry` maps a channel id to its :class:`Session` and runs everything that
changes a session under that channel's lock: check-then-create, apply-then-save, end-game.
Every accepted action is saved (with a version one higher than the stored one) *before* the
caller answers Discord, so a crash never loses a move a player saw accepted; a store holding
a different version raises :class:`~bot.store.base.VersionConflict` and the session is
reloaded from the store instead of overwriting it. A finished game leaves its seats behind
(in memory and as a stateless record in the store's active games) for an hour, so its
"Deal again" button works across a restart until a new game replaces it.

The registry never talks to Discord itself: public tables, stripped buttons and pings go
through a :class:`Poster` (``cogs/common/poster.py`` in the bot, a fake in tests), and time
comes from an injected clock and sleep, so all of this is testable without Discord.
Refusals raise :class:`SessionError` with a message-catalog key; the engine's own refusals
come through as :class:`~rules.engine.IllegalAction`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.games import Control, GameAdapter, GameCatalog, Table, UnknownGame
from bot.i18n import t
from bot.settings import Settings
from bot.store.base import ActiveGame, GameStore, SeatResult, VersionConflict
from bot.timers import ChannelTasks
from rules.engine import Action, Event, GameState, IllegalAction

__all__ = [
    "DEAL_AGAIN_SECONDS",
    "MAX_MESSAGE",
    "TIMEOUTS_BEFORE_COMPUTER",
    "Player",
    "Post",
    "Poster",
    "Reply",
    "Seat",
    "Session",
    "SessionError",
    "SessionRegistry",
    "compose",
]

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_COMPUTER = 3
MAX_MESSAGE = 2000  # Discord's limit on a message's content
PUBLISH_WAIT = 5.0  # how long a computer burst waits for the move before it to be posted
MAX_BURST = 500  # computer moves in one burst; a game of bots always ends well before
DEAL_AGAIN_SECONDS = 3600.0  # how long a finished table's "Deal again" keeps working


class SessionError(Exception):
    """A refusal by the session (not by the rules): ``key`` names the catalog message."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(frozen=True, slots=True)
class Player:
    """A Discord member as the session knows them."""

    id: int
    name: str


@dataclass(slots=True)
class Seat:
    """A seat at the table: the member who took it and whether a computer plays it now.

    A seat handed to a computer (kicked, left, timed out) keeps its member id: the result of
    that seat is still theirs.
    """

    member_id: int | None
    name: str
    computer: bool = False
    timeouts: int = 0

    def to_data(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {
            "member": self.member_id,
            "name": self.name,
            "computer": self.computer,
            "timeouts": self.timeouts,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Seat:
        """Inverse of :meth:`to_data`."""
        return cls(data["member"], data["name"], data["computer"], data["timeouts"])


@dataclass(slots=True)
class Session:
    """A lobby (``state is None``) or a running game in one channel."""

    channel_id: int
    guild_id: int | None
    game: str
    host_id: int
    locale: str
    players: int
    bots: int
    seed: int | None
    options: dict[str, Any]
    turn_seconds: float
    seats: list[Seat]
    version: int = 1
    state: GameState[Any, Any] | None = None
    message_id: int | None = None
    deadline: float | None = None
    pinged: bool = False
    finished_at: float | None = None  # a finished table kept for "Deal again"
    deadline_seat: int | None = None  # whose turn ``deadline`` times (not stored: the current)
    published: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def is_lobby(self) -> bool:
        """Whether the game has not started yet."""
        return self.state is None

    def seat_of(self, member_id: int) -> int | None:
        """The seat ``member_id`` holds (and still plays), or ``None``."""
        for index, seat in enumerate(self.seats):
            if seat.member_id == member_id and not seat.computer:
                return index
        return None

    @property
    def names(self) -> list[str]:
        """Seat names in seat order, for rendering."""
        return [seat.name for seat in self.seats]

    @property
    def computer_seats(self) -> list[int]:
        """Seats a computer plays."""
        return [i for i, seat in enumerate(self.seats) if seat.computer]

    def to_data(self) -> dict[str, Any]:
        """What the store keeps: everything but the live objects."""
        return {
            "host": self.host_id,
            "locale": self.locale,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "options": self.options,
            "turn_seconds": self.turn_seconds,
            "seats": [seat.to_data() for seat in self.seats],
            "message_id": self.message_id,
            "deadline": self.deadline,
            "state": None if self.state is None else self.state.snapshot(),
        }

    def stored(self) -> ActiveGame:
        """This session as the store's record."""
        return ActiveGame(self.channel_id, self.guild_id, self.game, self.version, self.to_data())

    def stored_finished(self) -> ActiveGame:
        """This finished game as the store keeps it for "Deal again": its seats, no game."""
        data = self.to_data()
        data["state"] = None
        data["finished_at"] = self.finished_at
        return ActiveGame(self.channel_id, self.guild_id, self.game, self.version, data)

    @classmethod
    def from_stored(cls, stored: ActiveGame, adapter: GameAdapter) -> Session:
        """Rebuild a session (and its engine state) from the store."""
        data = stored.data
        session = cls(
            channel_id=stored.channel_id,
            guild_id=stored.guild_id,
            game=stored.game,
            host_id=data["host"],
            locale=data["locale"],
            players=data["players"],
            bots=data["bots"],
            seed=data["seed"],
            options=dict(data["options"]),
            turn_seconds=data["turn_seconds"],
            seats=[Seat.from_data(seat) for seat in data["seats"]],
            version=stored.version,
            message_id=data["message_id"],
            deadline=data["deadline"],
            finished_at=data.get("finished_at"),
        )
        if data["state"] is not None:
            session.state = adapter.restore(data["state"])
            session.deadline_seat = session.state.current_seat
        return session


@dataclass(frozen=True, slots=True)
class Post:
    """A public message to send: its text, its buttons and the version they belong to."""

    channel_id: int
    version: int
    content: str
    controls: tuple[Control, ...]
    locale: str


@dataclass(frozen=True, slots=True)
class Reply:
    """What an accepted command answers with, after the session has been saved.

    ``post`` is the new public table (or lobby); ``None`` when the session ended without a
    table to show (a cancelled lobby) - then ``notice`` says so.
    """

    post: Post | None
    notice: str | None = None


class Poster(Protocol):
    """Where the registry's own public messages go (timeouts, computer moves, pings)."""

    async def post(self, post: Post) -> int | None:
        """Send a new public message; its id, or ``None`` if it could not be sent."""

    async def strip(self, channel_id: int, message_id: int) -> None:
        """Remove the buttons from an older table message."""

    async def ping(self, channel_id: int, member_id: int, text: str) -> None:
        """Mention a member with a short text (the half-time reminder)."""


class Host(Protocol):
    """What the registry takes from the bot (:class:`bot.client.DeckhandBot`)."""

    store: GameStore
    settings: Settings

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process serves the guild's shard."""


class _NoPoster:
    """Until a cog installs the Discord poster, messages only reach the log."""

    async def post(self, post: Post) -> int | None:
        log.warning("no poster installed; table for channel %d not sent", post.channel_id)
        return None

    async def strip(self, channel_id: int, message_id: int) -> None:
        return None

    async def ping(self, channel_id: int, member_id: int, text: str) -> None:
        return None


def _serves_every_guild(guild_id: int | None) -> bool:
    return True


def _first_legal(state: GameState[Any, Any], seat: int) -> Action:
    """The first move the engine offers the seat (``IndexError`` if none)."""
    return state.legal_actions(seat)[0]


def _is_finished(stored: ActiveGame) -> bool:
    """Whether a stored record is a finished table kept for "Deal again" (not a session)."""
    return stored.data.get("finished_at") is not None


class ChannelLocks:
    """An ``asyncio.Lock`` per channel, kept only while someone holds or awaits it.

    A lock nobody holds or awaits is no different from a new one, so dropping it then is
    safe, and a bot serving many channels does not keep one per channel it ever saw.
    """

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    def __len__(self) -> int:
        return len(self._locks)

    @contextlib.asynccontextmanager
    async def hold(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's lock for the ``async with`` block."""
        held = self._locks.get(channel_id)
        lock, users = (asyncio.Lock(), 0) if held is None else held
        self._locks[channel_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[channel_id]
            if users == 1:
                del self._locks[channel_id]
            else:
                self._locks[channel_id] = (lock, users - 1)


def compose(table: Table, notices: Sequence[str] = ()) -> str:
    """The message text: notices and the move log above the table's code block.

    A long log loses its oldest lines first, so the table always fits in one message.
    """
    block = f"```{table.lang}\n{table.body}\n```"
    lines = [*notices, *table.log]
    while lines and len("\n".join(lines)) + 1 + len(block) > MAX_MESSAGE:
        lines.pop(0)
    text = "\n".join([*lines, block]) if lines else block
    return text[:MAX_MESSAGE]


class SessionRegistry:
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
        self.bot = bot
        self.store = store
        self.settings = settings
        self.poster: Poster = poster or _NoPoster()
        self.games = games or GameCatalog()
        self.clock = clock
        self.sleep = sleep
        if owns_guild is None:
            owns_guild = bot.owns_guild if bot is not None else _serves_every_guild
        self.owns_guild = owns_guild
        self.tasks = ChannelTasks()
        self.locks = ChannelLocks()
        self._sessions: dict[int, Session] = {}
        # Each channel's last finished table, for "Deal again"; each expires after
        # DEAL_AGAIN_SECONDS (a timer in the channel's task slot) or when a new game opens.
        self._finished: dict[int, Session] = {}

    # -- lookup -------------------------------------------------------------------------

    def lock(self, channel_id: int) -> contextlib.AbstractAsyncContextManager[None]:
        """``async with registry.lock(channel_id):`` holds the channel's lock."""
        return self.locks.hold(channel_id)

    def get(self, channel_id: int) -> Session | None:
        """The channel's lobby or game, if any."""
        return self._sessions.get(channel_id)

    def sessions(self) -> list[Session]:
        """Every live session."""
        return list(self._sessions.values())

    def adapter(self, session: Session) -> GameAdapter:
        """The game adapter of ``session``."""
        return self.games.get(session.game)

    # -- lobby --------------------------------------------------------------------------

    async def open_lobby(
        self,
        channel_id: int,
        guild_id: int | None,
        game: str,
        host: Player,
        *,
        players: int | None = None,
        bots: int = 0,
        seed: int | None = None,
        options: dict[str, Any] | None = None,
        locale: str = "en",
    ) -> Reply:
        """Open a lobby with the host in seat 1; it starts at once when nobody else is needed."""
        adapter = self.games.get(game)
        players = adapter.min_seats if players is None else players
        if not adapter.min_seats <= players <= adapter.max_seats:
            raise SessionError("error.players_range", low=adapter.min_seats, high=adapter.max_seats)
        if not 0 <= bots < players:
            raise SessionError("error.bots_range", high=players - 1)
        async with self.lock(channel_id):
            if channel_id in self._sessions:
                raise SessionError("error.already_here", game=self._sessions[channel_id].game)
            session = Session(
                channel_id=channel_id,
                guild_id=guild_id,
                game=game,
                host_id=host.id,
                locale=locale,
                players=players,
                bots=bots,
                seed=seed,
                options=dict(options or {}),
                turn_seconds=await self._turn_seconds(guild_id, adapter),
                seats=[Seat(host.id, host.name)],
            )
            return await self._create(session, adapter)

    async def join(self, channel_id: int, member: Player, *, version: int | None = None) -> Reply:
        """Take a free seat in the lobby; the game starts when the last seat is taken.

        ``version`` comes from a button, as for every verb: an older message's is refused.
        """
        async with self.lock(channel_id):
            self._check_version(channel_id, version)
            session = self._lobby(channel_id)
            if any(seat.member_id == member.id for seat in session.seats):
                raise SessionError("error.already_seated")
            # A lobby is never full: taking its last seat deals the game (see below).
            session.seats.append(Seat(member.id, member.name))
            notices = [t("lobby.joined", session.locale, name=member.name)]
            events: Sequence[Event] = ()
            if self._lobby_full(session):
                events = self._deal(session, self.adapter(session))
            return await self._commit(session, events, notices)

    async def leave(self, channel_id: int, member_id: int, *, version: int | None = None) -> Reply:
        """Give up a seat: in a lobby it is freed; in a game a computer plays it on."""
        async with self.lock(channel_id):
            self._check_version(channel_id, version)
            session = self._require(channel_id)
            seat = session.seat_of(member_id)
            if seat is None:
                raise SessionError("error.not_seated")
            name = session.seats[seat].name
            if session.is_lobby:
                if member_id == session.host_id:
                    return await self._drop(session, t("lobby.host_left", session.locale))
                del session.seats[seat]
                return await self._commit(session, [], [t("lobby.left", session.locale, name=name)])
            events = self._to_computer(session, seat)
            return await self._commit(session, events, [t("game.left", session.locale, name=name)])

    async def forfeit(
        self,
        channel_id: int,
        member_id: int,
        leave: Callable[[Any, int], Sequence[Event]],
    ) -> Reply:
        """Leave a running game by the game's own rule instead of handing the seat to a computer.

        ``leave(state, seat)`` changes the state and returns what happened (One Card: the
        cards go back to the main deck), or raises ``IllegalAction`` having changed nothing.
        Saved like a move; the member no longer holds the seat.
        """
        async with self.lock(channel_id):
            session = self._game(channel_id)
            seat = session.seat_of(member_id)
            if seat is None:
                raise SessionError("error.not_seated")
            state = session.state
            events = await self._change(session, lambda: leave(state, seat))
            session.seats[seat].computer = True
            return await self._commit(session, events, [])

    async def start(self, channel_id: int, member_id: int, *, version: int | None = None) -> Reply:
        """The host starts early; empty seats are dropped (at least the minimum must remain)."""
        async with self.lock(channel_id):
            self._check_version(channel_id, version)
            session = self._lobby(channel_id)
            if member_id != session.host_id:
                raise SessionError("error.host_only")
            adapter = self.adapter(session)
            seated = len(session.seats) + session.bots
            if seated < adapter.min_seats:
                raise SessionError("error.not_enough", low=adapter.min_seats)
            session.players = seated
            return await self._commit(session, self._deal(session, adapter), [])

    async def end(
        self, channel_id: int, member_id: int, *, moderator: bool, version: int | None = None
    ) -> Reply:
        """Cancel a lobby (its host, or a moderator) or end a game (a moderator).

        An ended game is recorded with ``ended_by`` and no results.
        """
        async with self.lock(channel_id):
            self._check_version(channel_id, version)
            session = self._require(channel_id)
            if session.is_lobby:
                if member_id != session.host_id and not moderator:
                    raise SessionError("error.host_only")
                return await self._drop(session, t("lobby.cancelled", session.locale))
            if not moderator:
                raise SessionError("error.moderator_only")
            async with self._writing(channel_id):
                await self.store.finish(
                    channel_id,
                    expected_version=session.version,
                    game=session.game,
                    guild_id=session.guild_id,
                    seats=[],
                    ended_by=member_id,
                )
            self._forget(session)
            return Reply(None, t("game.ended_by", session.locale, member=f"<@{member_id}>"))

    async def kick(self, channel_id: int, member_id: int) -> Reply:
        """A moderator hands ``member_id``'s seat to a computer player."""
        async with self.lock(channel_id):
            session = self._require(channel_id)
            seat = session.seat_of(member_id)
            if seat is None:
                raise SessionError("error.member_not_seated")
            name = session.seats[seat].name
            if session.is_lobby:
                if member_id == session.host_id:
                    raise SessionError("error.kick_host")
                del session.seats[seat]
                return await self._commit(session, [], [t("lobby.left", session.locale, name=name)])
            events = self._to_computer(session, seat)
            return await self._commit(
                session, events, [t("game.kicked", session.locale, name=name)]
            )

    # -- playing ------------------------------------------------------------------------

    async def act(
        self,
        channel_id: int,
        member_id: int,
        action: Action | tuple[str, str | None],
        *,
        version: int | None = None,
    ) -> Reply:
        """Apply a member's move (an action, or a ``(verb, arg)`` the adapter parses).

        ``version`` comes from a button: a button of an older table is refused. The move is
        saved before this returns.
        """
        async with self.lock(channel_id):
            self._check_version(channel_id, version)
            session = self._game(channel_id)
            seat = session.seat_of(member_id)
            if seat is None:
                raise SessionError("error.not_seated")
            state = session.state
            assert state is not None
            if state.current_seat != seat:
                raise SessionError("error.not_your_turn")
            adapter = self.adapter(session)
            if isinstance(action, tuple):
                action = adapter.parse(*action)
            events = await self._apply(session, seat, action)
            session.seats[seat].timeouts = 0
            return await self._commit(session, events, [])

    async def deal_again(
        self, channel_id: int, member_id: int, *, version: int, table_id: int | None = None
    ) -> Reply:
        """After a game ends, deal a new one to the same seats (Blackjack's "Deal again").

        ``table_id``: the message whose button was clicked, retired when the new table is
        posted (after a restart the store does not know the final table's id).
        """
        async with self.lock(channel_id):
            if channel_id in self._sessions:
                raise SessionError("error.stale_button")
            last = self._finished.get(channel_id)
            if last is None or last.version != version:
                raise SessionError("error.stale_button")
            if last.seat_of(member_id) is None:  # never seated, or kicked, or left
                raise SessionError("error.not_seated")
            adapter = self.games.get(last.game)
            # Like a new /<game> start: the guild may have disallowed the game or changed
            # its turn time since.
            turn_seconds = await self._turn_seconds(last.guild_id, adapter)
            session = Session(
                channel_id=channel_id,
                guild_id=last.guild_id,
                game=last.game,
                host_id=last.host_id,
                locale=last.locale,
                players=last.players,
                bots=last.bots,
                seed=None,
                options=dict(last.options),
                turn_seconds=turn_seconds,
                seats=[Seat(s.member_id, s.name, s.computer) for s in last.seats],
                version=last.version + 1,
                # The new table strips the old one's button.
                message_id=last.message_id if table_id is None else table_id,
            )
            return await self._create(session, adapter)

    async def hand(self, channel_id: int, member_id: int) -> Post:
        """The member's private hand, with controls when it is their turn."""
        session = self._game(channel_id)
        seat = session.seat_of(member_id)
        if seat is None:
            raise SessionError("error.not_seated")
        state = session.state
        assert state is not None
        adapter = self.adapter(session)
        table = adapter.hand(state.view(seat), session.names, session.locale)
        controls = table.controls if state.current_seat == seat else ()
        return Post(channel_id, session.version, compose(table), controls, session.locale)

    async def published(self, channel_id: int, version: int, message_id: int | None) -> None:
        """The table of ``version`` was posted as ``message_id``: strip the one before it.

        ``None``: it could not be posted; the table before it keeps its buttons.
        """
        await self._published(channel_id, version, message_id)

    # -- restart ------------------------------------------------------------------------

    async def restore_all(self) -> int:
        """Load the stored lobbies and games of the guilds this process serves and re-arm
        their timers; how many were restored.

        Several processes share one store, each serving some shards: a game of another
        shard's guild is left to that shard's process, which alone receives its clicks.
        """
        restored = 0
        for stored in await self.store.load_active():
            if not self.owns_guild(stored.guild_id):
                continue
            try:
                adapter = self.games.get(stored.game)
                session = Session.from_stored(stored, adapter)
            except UnknownGame:
                log.error("channel %d: game %r has no cog loaded", stored.channel_id, stored.game)
                continue
            except Exception:
                log.exception(
                    "channel %d: cannot restore the %s game", stored.channel_id, stored.game
                )
                continue
            session.published.set()
            if session.finished_at is not None:
                await self._restore_finished(session)
                continue
            if session.deadline is not None:
                half = session.deadline - session.turn_seconds / 2
                session.pinged = self.clock() >= half
            self._sessions[stored.channel_id] = session
            self._arm(session, keep_deadline=True)
            restored += 1
        return restored

    async def _restore_finished(self, session: Session) -> None:
        """A finished table kept for "Deal again": keep offering it, or drop it if expired."""
        assert session.finished_at is not None
        if self.clock() >= session.finished_at + DEAL_AGAIN_SECONDS:
            with contextlib.suppress(VersionConflict):
                await self.store.delete(session.channel_id, expected_version=session.version)
            return
        self._finished[session.channel_id] = session
        self._arm_expiry(session)

    async def close(self) -> None:
        """Stop every timer (the sessions stay in the store)."""
        await self.tasks.close()

    # -- internals ----------------------------------------------------------------------

    async def _turn_seconds(self, guild_id: int | None, adapter: GameAdapter) -> float:
        """The guild's turn time (refusing a game the guild does not allow), else the game's."""
        if guild_id is not None:
            configured = await self.store.guild_settings(guild_id)
            allowed = configured.allowed_games
            if allowed is not None and adapter.name not in allowed:
                raise SessionError("error.game_not_allowed", game=adapter.name)
            if configured.turn_seconds is not None:
                return float(configured.turn_seconds)
        return adapter.turn_seconds(self.settings)

    def _check_version(self, channel_id: int, version: int | None) -> None:
        """A button (``version`` not ``None``) works only on the message of the current version."""
        session = self._sessions.get(channel_id)
        if version is not None and (session is None or session.version != version):
            raise SessionError("error.stale_button")

    def _require(self, channel_id: int) -> Session:
        session = self._sessions.get(channel_id)
        if session is None:
            raise SessionError("error.no_game")
        return session

    def _lobby(self, channel_id: int) -> Session:
        session = self._require(channel_id)
        if not session.is_lobby:
            raise SessionError("error.already_started")
        return session

    def _game(self, channel_id: int) -> Session:
        session = self._require(channel_id)
        if session.is_lobby:
            raise SessionError("error.not_started")
        return session

    @staticmethod
    def _lobby_full(session: Session) -> bool:
        return len(session.seats) + session.bots >= session.players

    async def _create(self, session: Session, adapter: GameAdapter) -> Reply:
        """Store a new session (a lobby, or seats to deal to) and deal if it is full.

        It replaces the channel's finished table, if one is kept for "Deal again".
        """
        channel_id = session.channel_id
        last = self._finished.get(channel_id)
        try:
            if last is None:
                await self.store.create(session.stored())
            else:
                session.version = max(session.version, last.version + 1)
                await self._replace_finished(session, last)
        except VersionConflict:
            # Another process (a mistaken second writer) holds this channel.
            raise SessionError("error.busy_elsewhere") from None
        if last is not None:
            del self._finished[channel_id]
            self.tasks.cancel(channel_id)  # its expiry timer
        self._sessions[channel_id] = session
        if not self._lobby_full(session):
            return Reply(self._render(session, [], []))
        return await self._commit(session, self._deal(session, adapter), [])

    async def _replace_finished(self, session: Session, last: Session) -> None:
        try:
            await self.store.save(session.stored(), expected_version=last.version)
        except VersionConflict:
            # Its record was never written (see _keep_finished) or has expired.
            await self.store.create(session.stored())

    async def _keep_finished(self, session: Session) -> None:
        """Keep a finished table's seats (memory and store) for "Deal again", for a while."""
        channel_id = session.channel_id
        session.finished_at = self.clock()
        self._finished[channel_id] = session
        try:
            await self.store.create(session.stored_finished())
        except Exception:
            # The result is recorded; only "Deal again" after a restart is lost.
            log.warning(
                "channel %d: could not keep the finished %s table",
                channel_id,
                session.game,
                exc_info=True,
            )
        self._arm_expiry(session)

    def _arm_expiry(self, session: Session) -> None:
        assert session.finished_at is not None
        left = session.finished_at + DEAL_AGAIN_SECONDS - self.clock()
        channel_id = session.channel_id
        work = self._expire_finished(channel_id, session.version, left)
        self.tasks.replace(channel_id, work, f"expire-{channel_id}")

    async def _expire_finished(self, channel_id: int, version: int, delay: float) -> None:
        await self.sleep(max(0.0, delay))
        async with self.lock(channel_id):
            last = self._finished.get(channel_id)
            if last is None or last.version != version:
                return
            del self._finished[channel_id]
            with contextlib.suppress(VersionConflict):
                await self.store.delete(channel_id, expected_version=version)
        if last.message_id is not None:
            await self.poster.strip(channel_id, last.message_id)

    def _seat_computers(self, session: Session) -> None:
        for number in range(len(session.seats) + 1, session.players + 1):
            session.seats.append(Seat(None, t("seat.computer", session.locale, n=number), True))

    def _deal(self, session: Session, adapter: GameAdapter) -> list[Event]:
        """Seat the computers and deal the game; what dealing did."""
        self._seat_computers(session)
        session.state, events = adapter.new(
            len(session.seats), session.seed, session.options, session.computer_seats
        )
        return list(events)

    def _to_computer(self, session: Session, seat: int) -> list[Event]:
        session.seats[seat].computer = True
        assert session.state is not None
        return list(self.adapter(session).hand_to_computer(session.state, seat))

    async def _apply(self, session: Session, seat: int, action: Action) -> list[Event]:
        """``state.apply``, guarded as :meth:`_change` guards any change."""
        state = session.state
        assert state is not None
        return await self._change(session, lambda: state.apply(seat, action))

    async def _change(self, session: Session, change: Callable[[], Sequence[Event]]) -> list[Event]:
        """Run an engine change; if it fails with anything but a refusal, the state it leaves
        cannot be trusted, so the session is reloaded from the store first."""
        try:
            return list(change())
        except IllegalAction:
            raise
        except Exception:
            await self._reload(session.channel_id)
            raise

    async def _commit(
        self, session: Session, events: Sequence[Event], notices: Sequence[str]
    ) -> Reply:
        """Save the changed session at the next version (or record its end), then re-arm.

        On any failure the session is rolled back to what the store holds and the error
        propagates: nothing the caller shows can be lost. The table is drawn before the
        save, so nothing after the save can fail and leave a saved change unannounced.
        """
        previous = session.version
        session.version += 1
        state = session.state
        over = state is not None and state.is_over
        if state is not None and not over and self._new_turn(session):
            self._set_deadline(session)
        async with self._writing(session.channel_id):
            post = self._render(session, events, notices)
            if over:
                assert state is not None
                await self.store.finish(
                    session.channel_id,
                    expected_version=previous,
                    game=session.game,
                    guild_id=session.guild_id,
                    seats=self._results(session),
                )
            else:
                await self.store.save(session.stored(), expected_version=previous)
        session.published = asyncio.Event()
        if over:
            self._forget(session, strip=False)  # the final table strips it when posted
            await self._keep_finished(session)
        else:
            self._arm(session, keep_deadline=True)
        return Reply(post)

    @contextlib.asynccontextmanager
    async def _writing(self, channel_id: int) -> AsyncIterator[None]:
        """A write of the channel's session: if it fails, the session is reloaded from the
        store (what the store holds is the truth); a version conflict becomes a refusal."""
        try:
            yield
        except VersionConflict:
            log.warning("channel %d: version conflict; reloading the game", channel_id)
            await self._reload(channel_id)
            raise SessionError("error.conflict") from None
        except BaseException:
            await self._reload(channel_id)
            raise

    async def _reload(self, channel_id: int) -> None:
        """Replace the in-memory session by what the store holds (after a failed write)."""
        self.tasks.cancel(channel_id)
        self._sessions.pop(channel_id, None)
        for stored in await self.store.load_active():
            if stored.channel_id == channel_id and not _is_finished(stored):
                session = Session.from_stored(stored, self.games.get(stored.game))
                session.published.set()
                self._sessions[channel_id] = session
                self._arm(session, keep_deadline=True)
                return

    async def _drop(self, session: Session, notice: str) -> Reply:
        async with self._writing(session.channel_id):
            await self.store.delete(session.channel_id, expected_version=session.version)
        self._forget(session)
        return Reply(None, notice)

    def _forget(self, session: Session, *, strip: bool = True) -> None:
        channel_id = session.channel_id
        self.tasks.cancel(channel_id)
        self._sessions.pop(channel_id, None)
        if strip and session.message_id is not None:
            # After the caller has answered Discord: the channel's slot is free now.
            self.tasks.replace(
                channel_id, self.poster.strip(channel_id, session.message_id), f"strip-{channel_id}"
            )

    @staticmethod
    def _results(session: Session) -> list[SeatResult]:
        state = session.state
        assert state is not None and state.result is not None
        result = state.result
        ranks = {seat: place + 1 for place, seat in enumerate(result.ranking)}
        return [
            SeatResult(
                seat=index,
                member_id=seat.member_id,
                outcome=result.outcomes[index].value,
                score=result.scores[index],
                rank=ranks.get(index, len(session.seats)),
            )
            for index, seat in enumerate(session.seats)
        ]

    def _render(self, session: Session, events: Sequence[Event], notices: Sequence[str]) -> Post:
        adapter = self.adapter(session)
        if session.state is None:
            return Post(
                session.channel_id,
                session.version,
                self._lobby_text(session, notices),
                LOBBY_CONTROLS,
                session.locale,
            )
        table = adapter.table(session.state.view(None), events, session.names, session.locale)
        return Post(
            session.channel_id,
            session.version,
            compose(table, notices),
            table.controls,
            session.locale,
        )

    def _lobby_text(self, session: Session, notices: Sequence[str]) -> str:
        locale = session.locale
        lines = [
            *notices,
            t(
                "lobby.title",
                locale,
                game=t(f"game.{session.game}", locale),
                host=f"<@{session.host_id}>",
            ),
        ]
        lines += [
            t("lobby.seat", locale, n=n, name=seat.name) for n, seat in enumerate(session.seats, 1)
        ]
        # Members take the free seats in order; the computers sit after them.
        free = session.players - len(session.seats) - session.bots
        first_free = len(session.seats) + 1
        lines += [t("lobby.seat_free", locale, n=n) for n in range(first_free, first_free + free)]
        lines += [
            t("lobby.seat_computer", locale, n=n)
            for n in range(first_free + free, session.players + 1)
        ]
        lines.append(t("lobby.waiting", locale, free=free))
        return "\n".join(lines)

    # -- timers and computer moves ------------------------------------------------------

    def _new_turn(self, session: Session) -> bool:
        """Whether a change gave the turn anew (a whole turn time) rather than leaving it
        where it was (a kick of another seat keeps the current player's deadline)."""
        state = session.state
        seat = None if state is None else state.current_seat
        return (
            seat is None
            or seat != session.deadline_seat
            or session.seats[seat].computer
            or session.deadline is None
            or session.deadline <= self.clock()  # timed out, yet the turn stays
        )

    def _set_deadline(self, session: Session) -> None:
        state = session.state
        seat = None if state is None else state.current_seat
        session.deadline_seat = seat
        if seat is None or session.seats[seat].computer:
            session.deadline = None
        else:
            session.deadline = self.clock() + session.turn_seconds
            session.pinged = False

    def _arm(self, session: Session, *, keep_deadline: bool = False) -> None:
        """Start the channel's one background task: a turn timer or a computer burst."""
        state = session.state
        channel_id = session.channel_id
        if state is None or state.is_over or state.current_seat is None:
            self.tasks.cancel(channel_id)
            return
        if session.seats[state.current_seat].computer:
            work = self._computer_burst(channel_id, session.version)
            self.tasks.replace(channel_id, work, f"computer-{channel_id}")
            return
        if not keep_deadline or session.deadline is None:
            self._set_deadline(session)
        self.tasks.replace(
            channel_id, self._turn_timer(channel_id, session.version), f"turn-{channel_id}"
        )

    async def _turn_timer(self, channel_id: int, version: int) -> None:
        session = self._sessions.get(channel_id)
        if session is None or session.deadline is None:
            return
        if not session.pinged:
            await self.sleep(max(0.0, session.deadline - session.turn_seconds / 2 - self.clock()))
            await self._ping(channel_id, version)
        session = self._sessions.get(channel_id)
        if session is None or session.version != version or session.deadline is None:
            return
        await self.sleep(max(0.0, session.deadline - self.clock()))
        await self._time_out(channel_id, version)

    async def _ping(self, channel_id: int, version: int) -> None:
        session = self._sessions.get(channel_id)
        if session is None or session.version != version or session.state is None:
            return
        seat = session.state.current_seat
        if seat is None or session.deadline is None:
            return
        session.pinged = True
        member_id = session.seats[seat].member_id
        if member_id is None:
            return
        left = max(0, round(session.deadline - self.clock()))
        text = t("turn.ping", session.locale, member=f"<@{member_id}>", seconds=left)
        await self.poster.ping(channel_id, member_id, text)

    async def _time_out(self, channel_id: int, version: int) -> None:
        async with self.lock(channel_id):
            session = self._sessions.get(channel_id)
            if session is None or session.version != version or session.state is None:
                return
            state = session.state
            seat = state.current_seat
            if seat is None or session.seats[seat].computer:
                return
            adapter = self.adapter(session)
            events = await self._play_for(session, seat, adapter.timeout_action)
            if events is None:
                return  # no move at all; logged, and the game waits for a moderator
            occupant = session.seats[seat]
            occupant.timeouts += 1
            notices = [t("turn.timed_out", session.locale, name=occupant.name)]
            if occupant.timeouts >= TIMEOUTS_BEFORE_COMPUTER:
                events += self._to_computer(session, seat)
                notices.append(
                    t(
                        "turn.to_computer",
                        session.locale,
                        name=occupant.name,
                        n=TIMEOUTS_BEFORE_COMPUTER,
                    )
                )
            reply = await self._commit(session, events, notices)
        await self._post(reply)

    async def _computer_burst(self, channel_id: int, version: int) -> None:
        session = self._sessions.get(channel_id)
        if session is None:
            return
        # Let the table of the move before this burst be posted first, so posts stay in order.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(session.published.wait(), PUBLISH_WAIT)
        await self.sleep(self.settings.computer_delay_seconds)
        async with self.lock(channel_id):
            session = self._sessions.get(channel_id)
            if session is None or session.version != version or session.state is None:
                return
            state = session.state
            adapter = self.adapter(session)
            events: list[Event] = []
            for _ in range(MAX_BURST):
                seat = state.current_seat
                if state.is_over or seat is None or not session.seats[seat].computer:
                    break
                played = await self._play_for(session, seat, adapter.computer_action)
                if played is None:
                    break
                events += played
            if not events:
                return  # no move at all; a commit would only start this burst again
            reply = await self._commit(session, events, [])
        await self._post(reply)

    async def _play_for(
        self, session: Session, seat: int, choose: Callable[[Any, int], Action]
    ) -> list[Event] | None:
        """Apply the move ``choose`` picks for a seat the bot plays (a computer's, a timed-out
        member's). Should the engine refuse it (a bug in the game's code), the game's safe
        move, else its first legal move, keep the game going; ``None`` if no move is possible.
        """
        state = session.state
        assert state is not None
        adapter = self.adapter(session)
        picks = [choose, adapter.timeout_action, _first_legal]
        for pick in dict.fromkeys(picks):  # the safe move once, if it is the one chosen
            try:
                action = pick(state, seat)
                return await self._apply(session, seat, action)
            except (IllegalAction, IndexError) as error:
                # No hand in the log: the refusal's code, not its reason (it may name a card).
                log.error(
                    "channel %d (%s, version %d): seat %d's %s move was refused (%s: %s); "
                    "trying a safer one",
                    session.channel_id,
                    session.game,
                    session.version,
                    seat,
                    getattr(pick, "__name__", "chosen"),
                    type(error).__name__,
                    getattr(error, "code", ""),
                )
        log.error(
            "channel %d (%s, version %d): seat %d has no move; the game waits",
            session.channel_id,
            session.game,
            session.version,
            seat,
        )
        return None

    async def _post(self, reply: Reply) -> None:
        """Post a table the registry made itself (no interaction to answer)."""
        if reply.post is None:
            return
        message_id = await self.poster.post(reply.post)
        await self._published(reply.post.channel_id, reply.post.version, message_id)

    async def _published(self, channel_id: int, version: int, message_id: int | None) -> None:
        session = self._sessions.get(channel_id) or self._finished.get(channel_id)
        if session is None or session.version != version:
            # The game moved on (or ended) before Discord told us this table's id.
            if message_id is not None:
                await self.poster.strip(channel_id, message_id)
            return
        session.published.set()
        if message_id is None:
            # No newer table reached the channel: the last one stays live until one does.
            return
        previous = session.message_id
        session.message_id = message_id
        if previous is not None and previous != message_id:
            await self.poster.strip(channel_id, previous)


LOBBY_CONTROLS = (
    Control("join", "button.join", "success"),
    Control("leave", "button.leave", "secondary"),
    Control("start", "button.start", "primary"),
    Control("cancel", "button.cancel", "danger"),
)
