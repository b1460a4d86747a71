"""The live sessions and the one path that changes them: apply, render, save, re-arm.

:class:`Tables` owns the channel → session map, a lock per channel and a background task per
channel. Every change of a session ends in :meth:`Tables.commit`: the session gets the next
version, its table is drawn, and it is saved (or, once over, recorded as finished) *before*
the caller answers Discord, so a crash never loses a move a player saw accepted. A failed
write reloads the session from the store (what the store holds is the truth); a store at
another version raises :class:`~bot.store.base.VersionConflict`, which becomes a refusal.

The verbs (:mod:`.lobby`, :mod:`.play`), the turn clock (:mod:`.clock`) and the finished
tables (:mod:`.finished`) all change sessions through here.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass

from bot.fairness import commitment, new_secret
from bot.games import AnyAdapter, GameCatalog
from bot.i18n import t
from bot.sessions.clock import TurnClock
from bot.sessions.finished import FinishedTables
from bot.sessions.model import (
    STORE_RETRY_SECONDS,
    NoPoster,
    Post,
    Poster,
    Reply,
    Seat,
    Session,
    SessionError,
    compose,
    restore_failure,
)
from bot.settings import Settings
from bot.store import StoreUnavailable, StoreUncertain
from bot.store.base import ActiveGame, GameStore, SeatResult, VersionConflict
from bot.text.lobby import LOBBY_CONTROLS, lobby_text
from bot.timers import ChannelTasks
from bot.verify import verify_command
from rules.engine import Action, Event, IllegalAction
from rules.levels import Level

__all__ = ["ChannelLocks", "Tables", "is_finished"]

log = logging.getLogger(__name__)

VERSION_EPOCH = 1_700_000_000.0  # a new session's first version: tenths of a second since then


@dataclass
class Attempt:
    """A write of a channel's session under way: the version the store holds once it is
    made (``None``: nothing, the session ended) and what it announces, kept in case its
    answer is lost."""

    makes: int | None
    post: Post | None = None
    notice: str | None = None


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


class Tables:
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
        self._uncertain: dict[int, Attempt] = {}
        self.settles = ChannelTasks()  # reading it back in the background until it answers
        # The version of each channel's unrestorable game already logged (one ERROR each).
        self._reported: dict[int, int] = {}
        # When each (guild, member) last opened a lobby, for the start cooldown.
        self.opened: dict[tuple[int | None, int], float] = {}
        self.asides = ChannelTasks()  # tables whose stored game cannot be restored (set_aside)

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
        session.on_unrestorable = self.set_aside
        if session.broken is not None:
            self.set_aside(session)
        return session

    def unreadable(self, stored: ActiveGame, error: Exception) -> Session:
        """A stored record that does not even rebuild a session: a stand-in that holds the
        channel (a game nobody can play) until :meth:`set_aside` has moved the record."""
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
            seed=None,
            options={},
            turn_seconds=0.0,
            seats=[],
            version=stored.version,
            unloaded=self.games.get(stored.game),
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
        self.asides.replace(channel_id, self._set_aside(session), f"set-aside-{channel_id}")

    async def _set_aside(self, session: Session) -> None:
        channel_id = session.channel_id
        while True:
            async with self.lock(channel_id):
                # By version, not by object: a rollback rebuilds the session from the same
                # record, and a stand-in never saved is dropped by one while its record stays.
                live = self._sessions.get(channel_id)
                if live is not None and live.version != session.version:
                    return  # another game holds the channel now
                try:
                    await self.store.set_aside(
                        channel_id, expected_version=session.version, reason=session.broken or ""
                    )
                except VersionConflict:
                    # Ended, changed by another writer, or set aside by a write whose answer
                    # was lost: what the store holds now is the truth.
                    await self.reload(channel_id)
                    if live is None or channel_id in self._sessions:
                        return
                    break
                except StoreUnavailable as error:
                    log.warning(
                        "channel %d: the record to set aside waits, the store is unavailable: %s",
                        channel_id,
                        error,
                    )
                else:
                    self.forget(live or session)
                    break
            await self.sleep(STORE_RETRY_SECONDS)
        self._reported.pop(channel_id, None)
        locale = session.locale
        notice = t("game.set_aside", locale, game=t(f"game.{session.game}", locale))
        await self.poster.post(Post(channel_id, 0, notice, (), locale))

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
            if session.seed is not None:
                seeds.add(session.seed)
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
                post = attempt.post = self.render(session, [], [])
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
            notices = [*notices, *self.fairness(session, end=False)]
        closing = self.fairness(session, end=True) if over else []
        mention = None
        if state is not None and not over and self.turns.new_turn(session, events):
            self.turns.set_deadline(session)
            mention = self._member_to_move(session)
        carried = session.options
        async with self.writing(session.channel_id, session.version, opening=opening) as attempt:
            post = attempt.post = self.render(
                session, events, notices, mention=mention, closing=closing, names=names
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
            await self.settle(channel_id)
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
            self._uncertain[channel_id] = attempt
            self.settles.replace(channel_id, self._settle_later(channel_id), f"settle-{channel_id}")
            raise SessionError("error.storage_uncertain") from None
        except StoreUnavailable as error:
            log.warning("channel %d: not saved, the store is unavailable: %s", channel_id, error)
            self.rollback(channel_id, not_before=self.clock() + STORE_RETRY_SECONDS)
            raise SessionError("error.storage") from None
        except BaseException:
            self.rollback(channel_id)
            raise

    async def settle(self, channel_id: int) -> None:
        """If the channel's last write may or may not have landed, read what the store holds
        (under the channel's lock). Not landed: the session as rolled back is the store's.
        Landed: the session becomes what the store holds, its table (or notice) is posted,
        and :class:`SessionError` refuses the change at hand, made on the older game.
        :class:`StoreUnavailable` while the store still does not answer."""
        attempt = self._uncertain.get(channel_id)
        if attempt is None:
            return
        records = await self.store.load_active()
        stored = next((r for r in records if r.channel_id == channel_id), None)
        if (None if stored is None else stored.version) != attempt.makes:
            del self._uncertain[channel_id]
            self.settles.cancel(channel_id)
            return  # not written: what the member was told ("maybe") resolved to "no"
        # Built before anything changes: a record that cannot be read leaves all as it was.
        adopted = None
        if stored is not None:
            adopted = self.revive(stored)
        del self._uncertain[channel_id]
        self.settles.cancel(channel_id)
        log.warning("channel %d: the write whose answer was lost had landed", channel_id)
        live = self._sessions.get(channel_id)
        kept = self.finished.discard(channel_id)
        shown = next((s.message_id for s in (live, kept) if s is not None), None)
        if live is not None:
            self.forget(live, strip=False)  # its version retired: no button of it acts again
        self.tasks.cancel(channel_id)
        if adopted is not None:
            adopted.message_id = shown
            adopted.published.set()
            if adopted.finished_at is not None:
                await self.finished.restore(adopted)
            else:
                self.add(adopted)
                self.turns.arm(adopted, keep_deadline=True)
        if attempt.post is not None:
            await self.turns.post(Reply(attempt.post))  # it retires the table before it
        elif attempt.notice is not None:
            owner = live or kept
            locale = "en" if owner is None else owner.locale
            await self.poster.post(Post(channel_id, 0, attempt.notice, (), locale))
            if shown is not None:
                await self.poster.strip(channel_id, shown)
        raise SessionError("error.saved_meanwhile")

    async def _settle_later(self, channel_id: int) -> None:
        """Read an uncertain write back once the store answers (the member was told its
        table shows up if it was saved), trying again a while after each refusal."""
        while channel_id in self._uncertain:
            await self.sleep(STORE_RETRY_SECONDS)
            async with self.lock(channel_id):
                try:
                    await self.settle(channel_id)
                except StoreUnavailable:
                    continue
                except SessionError:
                    return  # landed, and announced

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

    def render(
        self,
        session: Session,
        events: Sequence[Event],
        notices: Sequence[str],
        *,
        mention: int | None = None,
        closing: Sequence[str] = (),
        names: Sequence[str] | None = None,
    ) -> Post:
        """The public message of the session as it is now: the lobby, or the table; with
        ``mention``, the line telling that member their turn has started; ``closing`` below
        the table (a finished deal's reveal, read last)."""
        if session.state is None:
            return Post(
                session.channel_id,
                session.version,
                lobby_text(session, notices),
                LOBBY_CONTROLS,
                session.locale,
                session.game,
            )
        adapter = self.adapter(session)
        shown = session.names if names is None else list(names)
        table = adapter.table(session.state.view(None), events, shown, session.locale)
        turn = None
        if mention is not None:
            turn = t("turn.yours", session.locale, member=f"<@{mention}>")
        return Post(
            session.channel_id,
            session.version,
            compose(table, notices, turn, session.locale, closing),
            table.controls,
            session.locale,
            session.game,
            mention=mention,
        )

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
        if session.seed is None:
            session.secret = new_secret()
            seed = session.secret.seed
        else:
            seed = session.seed
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

    @staticmethod
    def fairness(session: Session, *, end: bool) -> list[str]:
        """How the deal was made, for the first table (``end=False``) and the last: a
        seeded practice deal, or a fair deal's commitment, then its revealed seed."""
        locale = session.locale
        if session.seed is not None:
            return [t("fair.seeded", locale, seed=session.seed)]
        secret = session.secret
        if secret is None:  # dealt before fair deals existed
            return []
        if not end:
            shown = commitment(session.game, secret.seed, secret.salt)
            return [t("fair.commit", locale, commitment=shown)]
        command = verify_command(
            session.game,
            secret.seed,
            secret.salt,
            len(session.seats),
            options=session.options,
            locale=locale,
        )
        return [t("fair.reveal", locale, seed=secret.seed, salt=secret.salt, command=command)]

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
