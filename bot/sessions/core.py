"""The live sessions and the one path that changes them: apply, render, save, re-arm.

:class:`LiveSessions` owns the channel → session map, a lock per channel and a background task
per channel. Every change of a session ends in :meth:`LiveSessions.commit`: the session gets
the next version, its table is drawn, and it is saved (or, once over, recorded as finished) *before*
the caller answers Discord, so a crash never loses a move a player saw accepted. A failed
write reloads the session from the store (what the store holds is the truth); a store at
another version raises :class:`~bot.store.base.VersionConflict`, which becomes a refusal.

The verbs (:mod:`.lobby`, :mod:`.play`), the turn clock (:mod:`.clock`) and the finished
tables (:mod:`.finished`) all change sessions through here. What a commit posts is drawn by
:mod:`.render`; a write whose answer was lost is read back by :mod:`.uncertain`; a stored game
that cannot be restored is set aside by :mod:`.unrestorable`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

from bot.fairness import new_secret
from bot.games import AnyAdapter, GameCatalog
from bot.i18n import t
from bot.sessions.clock import TurnClock
from bot.sessions.finished import FinishedTables
from bot.sessions.model import (
    STORE_RETRY_SECONDS,
    NoPoster,
    Poster,
    Reply,
    Seat,
    Session,
    SessionError,
)
from bot.sessions.render import fairness, render
from bot.sessions.uncertain import Attempt, UncertainWrites
from bot.sessions.unrestorable import UnrestorableGames
from bot.settings import Settings
from bot.store import StoreUnavailable, StoreUncertain
from bot.store.base import ActiveGame, GameStore, SeatResult, VersionConflict
from bot.timers import ChannelTasks
from rules.engine import Action, Event, IllegalAction
from rules.levels import Level

__all__ = ["ChannelLocks", "LiveSessions", "is_finished"]

log = logging.getLogger(__name__)

VERSION_EPOCH = 1_700_000_000.0  # a new session's first version: tenths of a second since then


def is_finished(stored: ActiveGame) -> bool:
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


class LiveSessions:
    """Every session of this process by channel, and the path that saves their changes."""

    def __init__(
        self,
        *,
        store: GameStore,
        settings: Settings,
        poster: Poster | None,
        games: GameCatalog | None,
        clock: Callable[[], float],
        sleep: Callable[[float], Awaitable[None]],
    ) -> None:
        self.store = store
        self.settings = settings
        self.poster: Poster = poster or NoPoster()
        self.games = games or GameCatalog()
        self.clock = clock
        self.sleep = sleep
        self.tasks = ChannelTasks()
        self.reposts = ChannelTasks()  # tables to post again (see TurnClock.published)
        self.locks = ChannelLocks()
        self._sessions: dict[int, Session] = {}
        # The last version of each channel's ended session, so the next one never reuses a
        # version: a button or menu of the old game must not act in the new one.
        self._retired: dict[int, int] = {}
        self.turns = TurnClock(self)
        self.finished = FinishedTables(self)
        # Channels whose last write may or may not have landed (StoreUncertain): what the
        # store holds is read before anything else is written there.
        self.uncertain = UncertainWrites(self)
        # When each (guild, member) last opened a lobby, for the start cooldown.
        self.opened: dict[tuple[int | None, int], float] = {}
        self.unrestorable = UnrestorableGames(self)  # tables being set aside

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

    def adapter(self, session: Session) -> AnyAdapter:
        """The game adapter of ``session``."""
        return self.games.get(session.game)

    def first_version(self, channel_id: int) -> int:
        """The version a new session in the channel starts at: above any the channel used.

        After a restart the process no longer knows the old versions; a start taken from the
        clock (tenths of a second) is above them all the same, since a session moves on by
        one a move, far slower than ten a second.
        """
        from_clock = int((self.clock() - VERSION_EPOCH) * 10)
        return max(1, from_clock, self._retired.get(channel_id, 0) + 1)

    def revive(self, stored: ActiveGame) -> Session:
        """A stored record as a live session, its game read on first use: one its engine
        refuses is set aside then (:meth:`set_aside`), or at once if it was read at once."""
        session = Session.from_stored(stored, self.games.get(stored.game))
        session.on_unrestorable = self.unrestorable.set_aside
        if session.broken is not None:
            self.unrestorable.set_aside(session)
        return session

    def add(self, session: Session) -> None:
        """Hold ``session`` as its channel's live session (it is stored already)."""
        self._sessions[session.channel_id] = session

    def check_version(self, channel_id: int, version: int | None) -> None:
        """A button (``version`` not ``None``) works only on the message of the current version."""
        session = self._sessions.get(channel_id)
        if version is not None and (session is None or session.version != version):
            raise SessionError("error.stale_button")

    def require(self, channel_id: int) -> Session:
        """The channel's session, or "no game here"."""
        session = self._sessions.get(channel_id)
        if session is None:
            raise SessionError("error.no_game")
        return session

    def lobby(self, channel_id: int) -> Session:
        """The channel's lobby, or why there is none."""
        session = self.require(channel_id)
        if not session.is_lobby:
            raise SessionError("error.already_started")
        return session

    def game(self, channel_id: int) -> Session:
        """The channel's running game, or why there is none."""
        session = self.require(channel_id)
        if session.is_lobby:
            raise SessionError("error.not_started")
        return session

    def seeds_in_play(self, guild_id: int | None) -> set[int]:
        """The seeds the games still running in the guild were dealt from (a member's seed,
        or a fair deal's secret): replaying one would show their hands mid-game."""
        seeds: set[int] = set()
        for session in self._sessions.values():
            if session.guild_id != guild_id or session.is_lobby:
                continue
            if session.member_seed is not None:
                seeds.add(session.member_seed)
            if session.secret is not None:
                seeds.add(session.secret.seed)
        return seeds

    async def lobby_seconds(self, guild_id: int | None) -> float:
        """How long a lobby waits for a join: the guild's setting, else the bot's default."""
        if guild_id is not None:
            minutes = (await self.store.guild_settings(guild_id)).lobby_minutes
            if minutes is not None:
                return minutes * 60.0
        return self.settings.default_lobby_seconds

    async def turn_seconds(self, guild_id: int | None, adapter: AnyAdapter) -> float:
        """The guild's turn time (refusing a game the guild does not allow), else the game's."""
        if guild_id is not None:
            configured = await self.store.guild_settings(guild_id)
            allowed = configured.allowed_games
            if allowed is not None and adapter.name not in allowed:
                raise SessionError("error.game_not_allowed", game=adapter.name)
            if configured.turn_seconds is not None:
                return float(configured.turn_seconds)
        return adapter.turn_seconds(self.settings)

    # -- changing a session -------------------------------------------------------------

    @staticmethod
    def lobby_full(session: Session) -> bool:
        """Whether every seat is taken (members and computers)."""
        return len(session.seats) + session.bots >= session.players

    async def create(self, session: Session, adapter: AnyAdapter) -> Reply:
        """Store a new session (a lobby, or seats to deal to) and deal if it is full.

        It replaces the channel's finished table, if one is kept for "Deal again". A deal
        the engine refuses (``IllegalAction``: options it does not take) opens nothing. A
        session dealt at once is stored with its first table in one write (:meth:`commit`),
        so a refused write leaves nothing behind: never a dealt game without a table, nor a
        deal played without its commitment shown.
        """
        session.touched = self.clock()
        last = self.finished.get(session.channel_id)
        session.version = max(
            session.version,
            self.first_version(session.channel_id),
            0 if last is None else last.version + 1,
        )
        session.opened = session.version
        channel_id = session.channel_id
        # Dealt before anything is stored, so a refused deal leaves no half-opened table.
        events = self.deal(session, adapter) if self.lobby_full(session) else None
        self._sessions[channel_id] = session
        if events is not None:
            reply = await self.commit(session, events, [], opening=True)
        else:
            async with self.writing(channel_id, session.version, opening=True) as attempt:
                post = attempt.post = render(session, self.adapter(session), [], [])
                await self.finished.store_in_place_of(session)
            reply = Reply(post)
        if channel_id in self._sessions:  # not over at its deal (that retired it anew)
            self._retired.pop(channel_id, None)
        return reply

    async def commit(
        self,
        session: Session,
        events: Sequence[Event],
        notices: Sequence[str],
        *,
        opening: bool = False,
        names: Sequence[str] | None = None,
    ) -> Reply:
        """Save the changed session at the next version (or record its end), then re-arm.
        ``names``: the seats' names to draw this table with, if not as they are now (the
        member who just left is named as they were when they left).

        On any failure the session is rolled back to what the store holds and the error
        propagates: nothing the caller shows can be lost. The table is drawn before the
        save, so nothing after the save can fail and leave a saved change unannounced.
        ``opening``: a new session's first write (:meth:`create`), at the version it has,
        in place of the channel's finished table if one is kept.
        """
        previous = session.version
        if opening:
            # Over the moment it was dealt, it replaces the kept table, or nothing.
            last = self.finished.get(session.channel_id)
            holds = None if last is None else last.version
        else:
            session.version += 1
            holds = previous
        session.touched = self.clock()
        state = session.state
        over = state is not None and state.is_over
        if session.dealt:
            session.dealt = False
            notices = [*notices, *fairness(session, end=False)]
        closing = fairness(session, end=True) if over else []
        mention = None
        if state is not None and not over and self.turns.new_turn(session, events):
            self.turns.set_deadline(session)
            mention = self._member_to_move(session)
        carried = session.options
        async with self.writing(session.channel_id, session.version, opening=opening) as attempt:
            post = attempt.post = render(
                session,
                self.adapter(session),
                events,
                notices,
                mention=mention,
                closing=closing,
                names=names,
            )
            if over:
                # What the game carries into the next deal ("Deal again"), kept with the
                # finished table's seats; worked out before anything is written. The result
                # and the finished table are one write.
                assert state is not None
                carried = self.adapter(session).next_options(state, session.options)
                finished_at = self.clock()

                async def finish(replaced: int | None) -> None:
                    await self.store.finish(
                        session.channel_id,
                        expected_version=replaced,
                        game=session.game,
                        guild_id=session.guild_id,
                        seats=self.results(session),
                        seeded=session.seeded,
                        keep=session.stored_finished(carried, finished_at),
                    )

                try:
                    await finish(holds)
                except VersionConflict:
                    if not opening or holds is None:
                        raise
                    # The kept table's record was never written or has expired (as
                    # FinishedTables.store_in_place_of finds): nothing is in its place.
                    await finish(None)
            elif opening:
                await self.finished.store_in_place_of(session)
            else:
                record = session.stored()
                await self.store.save(record, expected_version=previous)
                session.remember(record)
        session.published = asyncio.Event()
        if over:
            self.forget(session, strip=False)  # the final table strips it when posted
            session.options = carried
            session.finished_at = finished_at
            self.finished.keep(session)
        else:
            self.turns.arm(session, keep_deadline=True)
        return Reply(post)

    async def save_step(self, session: Session) -> Reply:
        """Save a private step of a turn (Rummikub's staging) without a public table.

        The version goes up like any save (the store checks it), so an older private view's
        buttons are refused as out of date; the public table's only button while a game runs
        is Hand, which carries no version check, so staging never makes it stale for others.
        The turn's deadline stands: staging does not buy time.
        """
        previous = session.version
        session.version += 1
        session.touched = self.clock()
        async with self.writing(session.channel_id, session.version):
            record = session.stored()
            await self.store.save(record, expected_version=previous)
            session.remember(record)
        self.turns.arm(session, keep_deadline=True)
        return Reply(None)

    @contextlib.asynccontextmanager
    async def writing(
        self, channel_id: int, makes: int | None, *, opening: bool = False
    ) -> AsyncIterator[Attempt]:
        """A write of the channel's session, after which the store holds its version
        ``makes`` (``None``: nothing, the session ended); the block may note on the
        :class:`Attempt` what the write announces.

        If it fails, the session goes back to what was last saved: a version conflict
        (another writer) reloads it from the store and is refused; a store that cannot be
        reached is refused with "nothing changed, try again" and the channel's timer waits a
        while before it tries again; a write whose answer was lost is refused as such, and
        what the store holds is read back (:meth:`settle`) before anything else is written
        there; anything else propagates. ``opening``: the session's first write; a conflict
        then means another process holds the channel: the new session is dropped, nothing
        else changes."""
        attempt = Attempt(makes)
        try:
            await self.uncertain.settle(channel_id)
            yield attempt
        except VersionConflict:
            if opening:
                log.warning("channel %d: another process holds it; nothing opened", channel_id)
                self.rollback(channel_id)
                raise SessionError("error.busy_elsewhere") from None
            log.warning("channel %d: version conflict; reloading the game", channel_id)
            await self.reload(channel_id)
            raise SessionError("error.conflict") from None
        except StoreUncertain as error:
            log.warning(
                "channel %d: the store's answer to a write was lost (%s); reading it back",
                channel_id,
                error,
            )
            self.rollback(channel_id, not_before=self.clock() + STORE_RETRY_SECONDS)
            self.uncertain.read_back(channel_id, attempt)
            raise SessionError("error.storage_uncertain") from None
        except StoreUnavailable as error:
            log.warning("channel %d: not saved, the store is unavailable: %s", channel_id, error)
            self.rollback(channel_id, not_before=self.clock() + STORE_RETRY_SECONDS)
            raise SessionError("error.storage") from None
        except BaseException:
            self.rollback(channel_id)
            raise

    def rollback(self, channel_id: int, *, not_before: float = 0.0) -> None:
        """Put the channel's session back as it was last saved (from memory, so it works with
        the store down), its buttons and the table message kept, its timer armed again."""
        live = self._sessions.get(channel_id)
        record = None if live is None else live.saved_record()
        if live is None or record is None:
            self.tasks.cancel(channel_id)
            self._sessions.pop(channel_id, None)
            last = self.finished.get(channel_id)
            if last is not None:
                # A new session's first write failed: the finished table it was to replace
                # stays, and its expiry (in the channel's task slot, cancelled above) with it.
                self.finished.keep(last)
            return
        session = self.revive(record)
        session.message_id = live.message_id
        session.published = live.published
        session.published.set()
        self._sessions[channel_id] = session
        self.turns.arm(session, keep_deadline=True, not_before=not_before)

    async def reload(self, channel_id: int) -> None:
        """Replace the in-memory session by what the store holds (another process wrote it);
        if the store cannot be read either, by what was last saved here."""
        try:
            stored = await self.store.load_active()
        except StoreUnavailable:
            self.rollback(channel_id, not_before=self.clock() + STORE_RETRY_SECONDS)
            return
        self.tasks.cancel(channel_id)
        self._sessions.pop(channel_id, None)
        for record in stored:
            if record.channel_id == channel_id and not is_finished(record):
                session = self.revive(record)
                session.published.set()
                self._sessions[channel_id] = session
                self.turns.arm(session, keep_deadline=True)
                return

    async def drop(self, session: Session, notice: str) -> Reply:
        """Delete a session without a result (a cancelled lobby)."""
        async with self.writing(session.channel_id, None) as attempt:
            attempt.notice = notice
            await self.store.delete(session.channel_id, expected_version=session.version)
        self.forget(session, note=notice)
        return Reply(None, notice)

    def forget(self, session: Session, *, strip: bool = True, note: str | None = None) -> None:
        """Stop the channel's timer and drop the session from memory (not from the store).
        ``note``: what its lobby message says from now on (why it closed)."""
        channel_id = session.channel_id
        self.tasks.cancel(channel_id)
        self._sessions.pop(channel_id, None)
        self._retired[channel_id] = max(session.version, self._retired.get(channel_id, 0))
        if strip and session.message_id is not None:
            retired = note if session.lobby_shown else None
            # After the caller has answered Discord: the channel's slot is free now.
            self.tasks.replace(
                channel_id,
                self.poster.strip(channel_id, session.message_id, retired),
                f"strip-{channel_id}",
            )

    @staticmethod
    def results(session: Session) -> list[SeatResult]:
        """Each seat's outcome, score and rank, as the store records a finished game."""
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

    @staticmethod
    def _member_to_move(session: Session) -> int | None:
        """The member whose turn it is (``None``: a computer's, or nobody's)."""
        state = session.state
        seat = None if state is None else state.current_seat
        if seat is None or session.seats[seat].computer:
            return None
        return session.seats[seat].member_id

    def deal(self, session: Session, adapter: AnyAdapter) -> list[Event]:
        """Seat the computers and deal the game (from a secret seed unless a member chose
        one, ``bot.fairness``); what dealing did. The first table says how it was dealt."""
        # A levelled computer's short name leaves room for its level in a table's columns.
        key = "seat.computer" if session.level is Level.NORMAL else "seat.computer_short"
        for number in range(len(session.seats) + 1, session.players + 1):
            session.seats.append(Seat(None, t(key, session.locale, n=number), True))
        if session.member_seed is None:
            session.secret = new_secret()
            seed = session.secret.seed
        else:
            seed = session.member_seed
        session.state, events = adapter.new(
            len(session.seats),
            seed,
            session.options,
            session.computer_seats,
            secret=not session.seeded,
            level=session.level,
        )
        session.dealt = True
        return list(events)

    def to_computer(self, session: Session, seat: int) -> list[Event]:
        """A computer plays ``seat`` from now on; what that changed at once."""
        session.seats[seat].computer = True
        assert session.state is not None
        return list(self.adapter(session).hand_to_computer(session.state, seat))

    async def apply(self, session: Session, seat: int, action: Action) -> list[Event]:
        """``state.apply``, guarded as :meth:`change` guards any change."""
        state = session.state
        assert state is not None
        return await self.change(session, lambda: state.apply(seat, action))

    async def change(self, session: Session, change: Callable[[], Sequence[Event]]) -> list[Event]:
        """Run an engine change; if it fails with anything but a refusal, the state it leaves
        cannot be trusted, so the session is reloaded from the store first."""
        try:
            return list(change())
        except IllegalAction:
            raise
        except Exception:
            self.rollback(session.channel_id)
            raise
