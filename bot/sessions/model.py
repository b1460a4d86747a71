"""What a session is and what the registry hands out: seats, sessions, posts and replies.

A :class:`Session` is a lobby (``state is None``) or a running game in one channel, with its
seats, version and turn deadline; :meth:`Session.to_data` is what the store keeps of it. A
:class:`Post` is a public or private message the bot will send, a :class:`Reply` what an
accepted command answers with. Refusals are :class:`SessionError` with a catalog key.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.fairness import Secret
from bot.games import AnyAdapter, Control, Menu, Rendered
from bot.i18n import t
from bot.settings import Settings
from bot.store._common import decode, encode, text_of
from bot.store.base import ActiveGame, GameStore
from bot.text.fit import MAX_MESSAGE, fit_list, fit_tail
from bot.text.names import left_name, leveled_name
from bot.timers import AlreadyReported
from rules.engine import GameState
from rules.levels import Level

__all__ = [
    "DEAL_AGAIN_SECONDS",
    "MAX_BURST",
    "MAX_MESSAGE",
    "PUBLISH_WAIT",
    "REPOST_DELAYS",
    "STORE_RETRY_SECONDS",
    "TIMEOUTS_BEFORE_COMPUTER",
    "Host",
    "NoPoster",
    "Player",
    "Post",
    "Poster",
    "Reply",
    "Seat",
    "Session",
    "SessionError",
    "Unrestorable",
    "compose",
    "restore_failure",
]

log = logging.getLogger(__name__)

TIMEOUTS_BEFORE_COMPUTER = 3
PUBLISH_WAIT = 5.0  # how long a computer burst waits for the move before it to be posted
# Waits before each new try at posting a table Discord refused (5xx, 429 after discord.py's
# own retries): until one gets through, the channel shows an older table whose buttons are
# out of date, so members could only move by slash command.
REPOST_DELAYS = (2.0, 5.0, 15.0, 30.0, 60.0, 120.0, 300.0)
MAX_BURST = 500  # computer moves in one burst; a game of bots always ends well before
DEAL_AGAIN_SECONDS = 3600.0  # how long a finished table's "Deal again" keeps working
STORE_RETRY_SECONDS = 5.0  # how long a timer waits to try again after the store refused a write


class SessionError(Exception):
    """A refusal by the session (not by the rules): ``key`` names the catalog message."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


class Unrestorable(SessionError, AlreadyReported):
    """The channel's stored game is one its engine refuses to restore: whoever needed it is
    told so, and the table is being set aside
    (:meth:`~bot.sessions.unrestorable.UnrestorableGames.set_aside`)."""

    def __init__(self, game: str) -> None:
        super().__init__("error.unrestorable", game=game)


# A quoted value in an engine's error may be a card of the record: none reaches the log.
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")


def restore_failure(error: Exception) -> str:
    """Why a stored game could not be restored, for the log and the record set aside: the
    error's kind and sentence, with any quoted value (a card, perhaps) masked."""
    return _QUOTED.sub("'…'", f"{type(error).__name__}: {error}")[:300]


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
    member_seed: int | None  # the seed a member chose (``seed:``): a practice deal
    options: dict[str, Any]
    turn_seconds: float
    seats: list[Seat]
    version: int = 1
    # The version it was opened at. Versions only grow in a channel, so a question asked at
    # version v (leave this game?) still concerns this session while ``opened <= v``.
    opened: int = 0
    # The engine's state once loaded (see :attr:`state`); ``None`` in a lobby.
    engine: GameState[Any, Any] | None = None
    message_id: int | None = None
    # Whether ``message_id`` is a lobby: retired, it says what became of it ("Started — see
    # below"), where a table's old message only loses its buttons.
    lobby_shown: bool = False
    deadline: float | None = None
    pinged: bool = False
    finished_at: float | None = None  # a finished table kept for "Deal again"
    touched: float | None = None  # when it last changed (clock time), for /game list
    secret: Secret | None = None  # the seed of a fair deal, revealed when the game ends
    dealt: bool = False  # dealt by the change being committed: its table says how
    deadline_seat: int | None = None  # whose turn ``deadline`` times (not stored: the current)
    published: asyncio.Event = field(default_factory=asyncio.Event)
    # The record last saved or loaded, as JSON (a copy nothing can mutate): what a failed
    # save rolls the session back to without asking the store, which may be down.
    saved: tuple[int, str] | None = None  # (version, JSON of the record's data)
    # How well its computer seats play (the table's level), those handed over later too.
    level: Level = Level.NORMAL
    # A game restored from the store whose state is read from ``saved`` on first use: a
    # table nobody touches costs its record's text, not its engine objects (restart at scale,
    # docs/design.md §8: 10,000 restored tables in a process). ``stored_turn`` is the seat to
    # move meanwhile.
    unloaded: AnyAdapter | None = None
    stored_turn: int | None = None
    # Why the stored game cannot be restored (its engine refused the snapshot), once known;
    # ``on_unrestorable`` is told the first time (the registry sets the table aside).
    broken: str | None = None
    on_unrestorable: Callable[[Session], None] | None = field(default=None, repr=False)

    @property
    def state(self) -> GameState[Any, Any] | None:
        """The game's state, ``None`` in a lobby; a restored game's is read on first use.

        :class:`Unrestorable` if its engine refuses the stored snapshot."""
        if self.unloaded is not None:
            self.load()
        return self.engine

    @state.setter
    def state(self, value: GameState[Any, Any] | None) -> None:
        self.engine = value
        self.unloaded = None

    def state_if_restorable(self) -> GameState[Any, Any] | None:
        """:attr:`state`, or ``None`` where it cannot be restored (for what answers without
        refusing, such as autocomplete: the table is being set aside all the same)."""
        try:
            return self.state
        except Unrestorable:
            return None

    def load(self) -> None:
        """Read a restored game's state from its record (:class:`Unrestorable` if the engine
        refuses it: the first time, ``on_unrestorable`` hears of it)."""
        if self.broken is None and self.unloaded is not None:
            assert self.saved is not None
            try:
                self.engine = self.unloaded.restore(decode(self.saved[1])["state"])
            except Exception as error:  # whatever the engine met, the record is unusable
                self.broken = restore_failure(error)
                if self.on_unrestorable is not None:
                    self.on_unrestorable(self)
            else:
                self.unloaded = None
                return
        if self.broken is not None:
            raise Unrestorable(self.game)

    @property
    def turn(self) -> int | None:
        """The seat to move (``None``: a lobby, or a game over), without loading the state."""
        if self.unloaded is not None:
            return self.stored_turn
        state = self.engine
        return None if state is None or state.is_over else state.current_seat

    @property
    def seeded(self) -> bool:
        """Whether a member chose the seed: a practice deal, never counted."""
        return self.member_seed is not None

    @property
    def is_lobby(self) -> bool:
        """Whether the game has not started yet."""
        return self.engine is None and self.unloaded is None

    def seat_of(self, member_id: int) -> int | None:
        """The seat ``member_id`` holds (and still plays), or ``None``."""
        for index, seat in enumerate(self.seats):
            if seat.member_id == member_id and not seat.computer:
                return index
        return None

    @property
    def names(self) -> list[str]:
        """Seat names in seat order, for rendering (:meth:`shown_name`)."""
        return [self.shown_name(seat, self.locale) for seat in self.seats]

    def shown_name(self, seat: Seat, locale: str, *, short: bool = True) -> str:
        """A seat's name as every game's table (``short``) and ``/game list`` show it: a
        computer's with its level (:func:`~bot.text.names.leveled_name`), a member's that a
        computer plays on since they left as such (``bob (left)``, never like a level)."""
        if not seat.computer:
            return seat.name
        if seat.member_id is not None:
            return left_name(seat.name, locale, short=short)
        return leveled_name(seat.name, self.level, locale)

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
            "level": self.level.value,
            "seed": self.member_seed,
            "options": self.options,
            "turn_seconds": self.turn_seconds,
            "seats": [seat.to_data() for seat in self.seats],
            "message_id": self.message_id,
            "deadline": self.deadline,
            "touched": self.touched,
            "opened": self.opened,
            "secret": None if self.secret is None else self.secret.to_data(),
            "state": None if self.state is None else self.state.snapshot(),
            "turn": self.turn,
        }

    def stored(self) -> ActiveGame:
        """This session as the store's record, encoded once (for the store and for
        :meth:`remember`)."""
        data = self.to_data()
        return ActiveGame(
            self.channel_id, self.guild_id, self.game, self.version, data, encode(data)
        )

    def stored_finished(self, options: dict[str, Any], finished_at: float) -> ActiveGame:
        """This game once finished, as the store keeps it for "Deal again": its seats and
        the ``options`` its next deal carries, no game."""
        data = self.to_data()
        data["options"] = options
        data["state"] = None
        data["finished_at"] = finished_at
        return ActiveGame(self.channel_id, self.guild_id, self.game, self.version, data)

    @classmethod
    def from_stored(cls, stored: ActiveGame, adapter: AnyAdapter) -> Session:
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
            member_seed=data["seed"],
            options=dict(data["options"]),
            turn_seconds=data["turn_seconds"],
            seats=[Seat.from_data(seat) for seat in data["seats"]],
            version=stored.version,
            message_id=data["message_id"],
            deadline=data["deadline"],
            finished_at=data.get("finished_at"),
            touched=data.get("touched"),
            opened=data.get("opened", 0),  # stored before it was: any question stands
            secret=None if data.get("secret") is None else Secret.from_data(data["secret"]),
            # Saved before levels existed: today's (normal) players.
            level=Level(data.get("level", Level.NORMAL.value)),
        )
        session.remember(stored)
        session.lobby_shown = data["state"] is None and data.get("finished_at") is None
        if data["state"] is not None:
            session.unloaded = adapter  # read the state when it is first needed
            session.stored_turn = data.get("turn")
            if "turn" not in data:  # saved before the turn was: read it now
                with contextlib.suppress(Unrestorable):  # ``broken`` says so
                    session.load()
            session.deadline_seat = session.turn
        session.check_record()
        return session

    def check_record(self) -> None:
        """``ValueError`` if what the session's record says cannot drive it: a time that is no
        number, a turn that names no seat (its timers would fail on every restart)."""
        times = (self.deadline, self.finished_at, self.touched, self.turn_seconds)
        if any(
            t is not None and (isinstance(t, bool) or not isinstance(t, int | float)) for t in times
        ):
            raise ValueError("a time in the record is not a number")
        turn = self.stored_turn
        if turn is not None and (type(turn) is not int or not 0 <= turn < len(self.seats)):
            raise ValueError("the stored turn names no seat")
        if type(self.players) is not int or type(self.bots) is not int:
            raise ValueError("the seat counts are not numbers")

    def remember(self, record: ActiveGame) -> None:
        """``record`` is what the store holds now: keep a frozen copy to roll back to."""
        self.saved = (record.version, text_of(record))

    def saved_record(self) -> ActiveGame | None:
        """The record last saved or loaded (a fresh copy), or ``None``."""
        if self.saved is None:
            return None
        version, data = self.saved
        return ActiveGame(self.channel_id, self.guild_id, self.game, version, decode(data))


@dataclass(frozen=True, slots=True)
class Post:
    """A message to send: its text, its buttons and the version they belong to.

    A public table names in ``mention`` the member whose turn has just started (they alone
    are pinged); a private hand carries the :class:`~bot.games.Menu` of its legal moves.
    """

    channel_id: int
    version: int
    content: str
    controls: tuple[Control, ...]
    locale: str
    game: str = ""
    menu: Menu | None = None
    mention: int | None = None


@dataclass(frozen=True, slots=True)
class Reply:
    """What an accepted command answers with, after the session has been saved.

    ``post`` is the new public table (or lobby); ``None`` when the session ended without a
    table to show (a cancelled lobby) - then ``notice`` says so. ``private`` is what the
    game tells the member who moved alone (:meth:`bot.games.GameAdapter.private`).
    """

    post: Post | None
    notice: str | None = None
    private: Post | None = None  # what the member who acted alone is told (ephemeral)


class Poster(Protocol):
    """Where the registry's own public messages go (timeouts, computer moves, pings)."""

    async def post(self, post: Post) -> int | None:
        """Send a new public message; its id, or ``None`` if it could not be sent."""

    async def strip(self, channel_id: int, message_id: int, note: str | None = None) -> None:
        """Remove the buttons from an older table message; with ``note``, its text becomes
        that (a retired lobby says what became of it)."""

    async def ping(self, channel_id: int, member_id: int, text: str) -> None:
        """Mention a member with a short text (the half-time reminder)."""


class Host(Protocol):
    """What the registry takes from the bot (:class:`bot.client.DeckhandBot`)."""

    store: GameStore
    settings: Settings

    def owns_guild(self, guild_id: int | None) -> bool:
        """Whether this process serves the guild's shard."""


class NoPoster:
    """Until a cog installs the Discord poster, messages only reach the log."""

    async def post(self, post: Post) -> int | None:
        log.warning("no poster installed; table for channel %d not sent", post.channel_id)
        return None

    async def strip(self, channel_id: int, message_id: int, note: str | None = None) -> None:
        return None

    async def ping(self, channel_id: int, member_id: int, text: str) -> None:
        return None


def compose(
    table: Rendered,
    notices: Sequence[str] = (),
    turn: str | None = None,
    locale: str = "en",
    closing: Sequence[str] = (),
) -> str:
    """The message text: notices and the move log above the table's code block, the line
    saying whose turn it is (``turn``) just above the block, and ``closing`` (a fair deal's
    reveal) below it, read last.

    It fits Discord's 2,000 characters by design (:mod:`bot.text.fit`): the block, the turn
    line and the closing lines stand whole, then the notices, and the move log gets the
    room left, its newest lines kept under a line (in ``locale``) saying how many earlier
    lines were left out. Nothing is cut mid-line.
    """
    earlier = functools.partial(_said, "log.left_out", locale)
    body = table.body.split("\n")
    fence = len(table.lang) + len("```\n\n```")
    above = 0 if turn is None else len(turn) + 1
    below = sum(len(line) + 1 for line in closing)
    # Tables fit by design; one that did not would lose its last lines, said so, not its fence.
    body = fit_list(
        body, MAX_MESSAGE - fence - above - below, functools.partial(_said, "fit.more", locale)
    )
    block = f"```{table.lang}\n{chr(10).join(body)}\n```"
    if turn is not None:
        block = f"{turn}\n{block}"
    room = MAX_MESSAGE - len(block) - below - 1
    shown = fit_tail(list(notices), room, earlier)
    room -= sum(len(line) + 1 for line in shown)
    shown += fit_tail(list(table.log), room, earlier)
    return "\n".join([*shown, block, *closing])


def _said(key: str, locale: str, count: int) -> str:
    return t(key, locale, n=count)
