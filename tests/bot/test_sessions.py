"""Sessions without Discord: a tiny counting game, a fake poster and a fake clock."""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import pytest

from bot.games import Control, GameCatalog, Option, Table
from bot.i18n import t
from bot.sessions import (
    DEAL_AGAIN_SECONDS,
    MAX_MESSAGE,
    TIMEOUTS_BEFORE_COMPUTER,
    Player,
    Post,
    SessionError,
    SessionRegistry,
    compose,
)
from bot.sessions.core import STORE_RETRY_SECONDS, VERSION_EPOCH
from bot.sessions.model import REPOST_DELAYS
from bot.settings import Settings
from bot.store import StoreUnavailable, StoreUncertain
from bot.store.base import ActiveGame, GuildSettings
from bot.store.memory import MemoryStore
from bot.text.names import TABLE_NAME_COLUMNS, block_name
from bot.text.width import columns
from bot.verify import verify_command
from rules.engine import Action, Event, GameOver, IllegalAction, Outcome, Result
from rules.levels import Level

CHANNEL = 10
GUILD = 1
ALICE = Player(101, "Alice")
BOB = Player(102, "Bob")
CAROL = Player(103, "Carol")


# -- a tiny game: seats add 1 or 2 to a running total; reaching the target wins ----------


@dataclass(frozen=True, slots=True)
class Add(Action):
    n: int


@dataclass(frozen=True, slots=True)
class Cheer(Action):
    """Out of turn, while the total is exactly 1 (like Uno's catch or jump-in)."""


@dataclass(frozen=True, slots=True)
class Added(Event):
    seat: int
    n: int
    total: int


class CountState:
    def __init__(self, seats: int, target: int) -> None:
        self.seats = seats
        self.target = target
        self.total = 0
        self.turn = 0
        self.winner: int | None = None
        self.computers: list[int] = []

    @property
    def current_seat(self) -> int | None:
        return None if self.is_over else self.turn

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def result(self) -> Result | None:
        if self.winner is None:
            return None
        outcomes = tuple(
            Outcome.WIN if s == self.winner else Outcome.LOSE for s in range(self.seats)
        )
        ranking = (self.winner, *(s for s in range(self.seats) if s != self.winner))
        return Result(outcomes, tuple(int(o is Outcome.WIN) for o in outcomes), ranking)

    def legal_actions(self, seat: int) -> Sequence[Action]:
        if seat == self.current_seat:
            return [Add(1), Add(2)]
        return [Cheer()] if self.total == 1 and not self.is_over else []

    def apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Cheer) and action in self.legal_actions(seat):
            return []
        if seat != self.current_seat:
            raise IllegalAction("Not your turn.", code="turn")
        if isinstance(action, Add) and action.n == 99:  # a bug in the engine, half-way
            self.total += 1
            raise ZeroDivisionError("engine bug")
        if not isinstance(action, Add) or action.n not in (1, 2):
            raise IllegalAction("You may add 1 or 2.", code="count_add", low=1, high=2)
        self.total += action.n
        events: list[Event] = [Added(seat, action.n, self.total)]
        if self.total >= self.target:
            self.winner = seat
            result = self.result
            assert result is not None
            events.append(GameOver(result))
        else:
            self.turn = (self.turn + 1) % self.seats
        return events

    def view(self, seat: int | None) -> tuple[int, int | None, int | None]:
        return (self.total, self.current_seat, seat)

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": "count",
            "schema": 1,
            "seats": self.seats,
            "target": self.target,
            "total": self.total,
            "turn": self.turn,
            "winner": self.winner,
        }


class CountAdapter:
    name = "count"
    min_seats = 2
    max_seats = 4

    def __init__(self) -> None:
        self.dealt_levels: list[Level] = []  # the level each deal was given
        # What each computer move was asked with: (seat, level, a draw of its rng).
        self.asked: list[tuple[int, Level, float]] = []

    def turn_seconds(self, settings: Settings) -> float:
        return settings.default_turn_seconds

    def new(
        self,
        seats: int,
        seed: int | None,
        options: Mapping[str, Any],
        computers: Sequence[int],
        *,
        secret: bool = False,
        level: Level = Level.NORMAL,
    ) -> tuple[CountState, Sequence[Event]]:
        if level is Level.EASY and options.get("no_easy"):  # an engine without that level
            raise IllegalAction("No easy players here.", code="unknown_option")
        state = CountState(seats, int(options.get("target", 10)))
        state.computers = list(computers)
        self.dealt_levels.append(level)
        if options.get("instant"):  # like a House blackjack: over before anyone acts
            state.winner = 0
            result = state.result
            assert result is not None
            return state, (GameOver(result),)
        return state, ()

    def restore(self, snapshot: dict[str, Any]) -> CountState:
        state = CountState(snapshot["seats"], snapshot["target"])
        state.total, state.turn, state.winner = (
            snapshot["total"],
            snapshot["turn"],
            snapshot["winner"],
        )
        return state

    def hand_to_computer(self, state: CountState, seat: int) -> Sequence[Event]:
        state.computers.append(seat)
        return ()

    def next_options(self, state: CountState, options: Mapping[str, Any]) -> dict[str, Any]:
        # Like Go-Stop's "the winner deals": the next game remembers who won this one.
        return {**options, "last_winner": state.winner}

    forfeits = False
    timeout_moves = 1

    def forfeit(self, state: CountState, seat: int) -> Sequence[Event]:
        raise AssertionError("the count game hands a leaving seat to a computer")

    def timeout_action(self, state: CountState, seat: int) -> Action:
        return Add(1)

    def private(
        self,
        view: tuple[int, int | None, int | None],
        events: Sequence[Event],
        names: Sequence[str],
        locale: str,
    ) -> Table | None:
        if not any(isinstance(e, Added) and e.n == 2 for e in events):
            return None
        return Table((f"{locale}: only {names[view[2] or 0]} sees this",), f"total {view[0]}")

    def picked(
        self,
        view: tuple[int, int | None, int | None],
        step: str | None,
        value: str,
        locale: str,
        names: Sequence[str] = (),
    ) -> tuple[str, str | None]:
        return ("add", value)

    def suggest(
        self, view: tuple[int, int | None, int | None], option: str, typed: str, locale: str
    ) -> list[Option]:
        return [Option(f"+{n}", str(n)) for n in (1, 2) if view[1] == view[2]]

    def computer_action(
        self,
        state: CountState,
        seat: int,
        level: Level = Level.NORMAL,
        rng: random.Random | None = None,
    ) -> Action:
        assert rng is not None, "the session gives every computer move its own rng"
        self.asked.append((seat, level, rng.random()))
        return Add(2)

    def computer_seconds(self, level: Level) -> float | None:
        return None  # the computer's move is chosen at once

    def private_step(self, events: Sequence[Event]) -> bool:
        return False

    def edit_text(self, view: tuple[int, int | None, int | None], locale: str) -> str | None:
        return None

    def parse(self, verb: str, arg: str | None) -> Action:
        if verb != "add" or arg is None:
            raise IllegalAction("Unknown move.", code="unknown")
        return Add(int(arg))

    def table(
        self,
        view: tuple[int, int | None, int | None],
        events: Sequence[Event],
        names: Sequence[str],
        locale: str,
    ) -> Table:
        log = tuple(f"{names[e.seat]} +{e.n}" for e in events if isinstance(e, Added))
        controls = (Control("hand", "button.hand"),)
        if view[1] is None:
            controls = (Control("again", "button.again"),)
        return Table(log, f"total {view[0]}", "", controls)

    def hand(
        self, view: tuple[int, int | None, int | None], names: Sequence[str], locale: str
    ) -> Table:
        controls = (Control("add", "button.hit", arg="1"),) if view[1] == view[2] else ()
        return Table((), f"hand total {view[0]}", "", controls)


# -- fakes ---------------------------------------------------------------------------------


class FakePoster:
    def __init__(self) -> None:
        self.posts: list[Post] = []
        self.stripped: list[int] = []
        self.retired: dict[int, str] = {}  # message id: what a retired lobby says now
        self.pings: list[tuple[int, str]] = []
        self.next_id = 5000
        self.refuse = 0  # how many posts to come Discord refuses
        self.refused: list[Post] = []

    async def post(self, post: Post) -> int | None:
        if self.refuse:
            self.refuse -= 1
            self.refused.append(post)
            return None
        self.posts.append(post)
        self.next_id += 1
        return self.next_id

    async def strip(self, channel_id: int, message_id: int, note: str | None = None) -> None:
        self.stripped.append(message_id)
        if note is not None:
            self.retired[message_id] = note

    async def ping(self, channel_id: int, member_id: int, text: str) -> None:
        self.pings.append((member_id, text))


class FakeClock:
    """Time stands still until a test advances it; sleepers wake in deadline order."""

    def __init__(self) -> None:
        self.now = 1_000_000.0
        self.waiters: list[tuple[float, int, asyncio.Future[None]]] = []
        self.count = 0

    def time(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.count += 1
        self.waiters.append((self.now + seconds, self.count, future))
        await future

    async def advance(self, seconds: float) -> None:
        target = self.now + seconds
        while True:
            await settle()
            self.waiters = [w for w in self.waiters if not w[2].done()]
            due = sorted(w for w in self.waiters if w[0] <= target)
            if not due:
                break
            when, _, future = due[0]
            self.now = max(self.now, when)
            future.set_result(None)
        self.now = target
        await settle()


async def settle() -> None:
    for _ in range(50):
        await asyncio.sleep(0)


def make_settings(**overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "default_turn_seconds": 60.0,
        "computer_delay_seconds": 1.0,
        "start_cooldown_seconds": 0.0,  # tests open lobbies back to back; the cooldown's own test
        **overrides,
    }
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


class Harness:
    """A registry on a memory store with fakes, plus helpers to play like a cog."""

    def __init__(
        self,
        store: MemoryStore | None = None,
        *,
        owns_guild: Callable[[int | None], bool] | None = None,
    ) -> None:
        self.store = store or MemoryStore()
        self.poster = FakePoster()
        self.clock = FakeClock()
        self.games = GameCatalog()
        self.games.register(CountAdapter())
        self.registry = SessionRegistry(
            store=self.store,
            settings=make_settings(),
            poster=self.poster,
            games=self.games,
            clock=self.clock.time,
            sleep=self.clock.sleep,
            owns_guild=owns_guild,
        )
        self.message_id = 100

    async def answered(self, reply_coro: Any) -> Post | None:
        """Await a registry call, then "post" its reply as a cog would."""
        reply = await reply_coro
        if reply.post is not None:
            self.message_id += 1
            await self.registry.published(reply.post, self.message_id)
        return reply.post

    async def saved_total_back_at_seat_0(self) -> int:
        """After a computer burst: the turn is back with seat 0 and the store holds the
        session as it is; the saved running total."""
        session = self.registry.get(CHANNEL)
        assert session is not None and session.state is not None
        assert session.state.current_seat == 0
        stored = await self.stored()
        assert stored is not None and stored.version == session.version
        total: int = stored.data["state"]["total"]
        return total

    async def stored(self) -> ActiveGame | None:
        found = [g for g in await self.store.load_active() if g.channel_id == CHANNEL]
        return found[0] if found else None


async def dormant(table: Harness) -> bool:
    """Whether the store keeps only a finished table's seats (no game) for the channel."""
    stored = await table.stored()
    return stored is not None and stored.data["state"] is None and "finished_at" in stored.data


@pytest.fixture
async def table() -> Any:
    made = Harness()
    yield made
    await made.registry.close()


async def start_two(table: Harness, **options: Any) -> None:
    await table.answered(
        table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2, options=options)
    )
    await table.answered(table.registry.join(CHANNEL, BOB))


# -- lobby -----------------------------------------------------------------------------------


async def test_lobby_fills_then_starts(table: Harness) -> None:
    post = await table.answered(
        table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3)
    )
    assert post is not None
    assert [c.action for c in post.controls] == ["join", "leave", "start", "cancel"]
    assert "Seat 1: Alice\nSeat 2: (free)\nSeat 3: (free)\nWaiting for 2 more" in post.content
    session = table.registry.get(CHANNEL)
    assert session is not None and session.is_lobby
    post = await table.answered(table.registry.join(CHANNEL, BOB))
    assert post is not None and "Bob joined." in post.content
    assert "Waiting for 1 more player: press Join." in post.content  # one, not "player(s)"
    post = await table.answered(table.registry.join(CHANNEL, CAROL))
    assert post is not None and "```\ntotal 0\n```" in post.content
    assert not session.is_lobby
    assert [s.member_id for s in session.seats] == [ALICE.id, BOB.id, CAROL.id]
    stored = await table.stored()
    assert stored is not None and stored.version == 3 == session.version
    assert stored.data["state"]["total"] == 0


async def test_bots_fill_seats_and_a_lone_host_starts_at_once(table: Harness) -> None:
    post = await table.answered(
        table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3, bots=2)
    )
    session = table.registry.get(CHANNEL)
    assert session is not None and not session.is_lobby
    assert [s.computer for s in session.seats] == [False, True, True]
    assert [s.name for s in session.seats] == ["Alice", "Computer 2", "Computer 3"]
    assert post is not None and "total 0" in post.content


async def test_host_starts_early_only_with_enough_seats(table: Harness) -> None:
    await table.answered(table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=4))
    with pytest.raises(SessionError) as refused:
        await table.registry.start(CHANNEL, ALICE.id)
    assert refused.value.key == "error.not_enough"
    await table.answered(table.registry.join(CHANNEL, BOB))
    with pytest.raises(SessionError) as refused:
        await table.registry.start(CHANNEL, BOB.id)
    assert refused.value.key == "error.host_only"
    await table.answered(table.registry.start(CHANNEL, ALICE.id))
    session = table.registry.get(CHANNEL)
    assert session is not None and len(session.seats) == 2 and not session.is_lobby


async def test_lobby_refusals(table: Harness) -> None:
    registry = table.registry
    with pytest.raises(SessionError) as refused:
        await registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=9)
    assert refused.value.key == "error.players_range"
    assert refused.value.params == {"low": 2, "high": 4}
    with pytest.raises(SessionError) as refused:
        await registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2, bots=2)
    assert refused.value.key == "error.bots_range"
    lobby = await registry.open_lobby(CHANNEL + 1, GUILD, "count", ALICE, players=4, bots=2)
    assert lobby.post is not None
    assert "Seat 2: (free)\nSeat 3: computer\nSeat 4: computer\n" in lobby.post.content
    await table.answered(registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3))
    with pytest.raises(SessionError) as refused:
        await registry.open_lobby(CHANNEL, GUILD, "count", BOB, players=2)
    assert refused.value.key == "error.already_here"
    with pytest.raises(SessionError) as refused:
        await registry.join(CHANNEL, ALICE)
    assert refused.value.key == "error.already_seated"
    with pytest.raises(SessionError) as refused:
        await registry.leave(CHANNEL, CAROL.id)
    assert refused.value.key == "error.not_seated"
    with pytest.raises(SessionError) as refused:
        await registry.act(CHANNEL, ALICE.id, Add(1))
    assert refused.value.key == "error.not_started"
    stored = await table.stored()
    assert stored is not None and stored.version == 1


async def test_two_starts_at_once_open_one_lobby(table: Harness) -> None:
    results = await asyncio.gather(
        table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3),
        table.registry.open_lobby(CHANNEL, GUILD, "count", BOB, players=3),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, SessionError)]
    assert len(refused) == 1 and refused[0].key == "error.already_here"
    assert len(await table.store.load_active()) == 1


async def test_leaving_the_lobby_and_host_cancel(table: Harness) -> None:
    registry = table.registry
    await table.answered(registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3))
    await table.answered(registry.join(CHANNEL, BOB))
    post = await table.answered(registry.leave(CHANNEL, BOB.id))
    assert post is not None and "Bob left." in post.content
    with pytest.raises(SessionError) as refused:
        await registry.end(CHANNEL, BOB.id, moderator=False)
    assert refused.value.key == "error.host_only"
    reply = await registry.end(CHANNEL, ALICE.id, moderator=False)
    assert reply.post is None and reply.notice == f"The lobby was closed by <@{ALICE.id}>."
    assert registry.get(CHANNEL) is None
    assert await table.stored() is None
    assert table.store.finished == []
    await asyncio.sleep(0)  # the channel's task that retires the last lobby message
    assert table.poster.retired[table.message_id] == reply.notice


async def test_a_retired_lobby_message_says_what_became_of_it(table: Harness) -> None:
    """Its buttons gone, an old lobby would still say "Seat 2: (free)": it says instead that
    the seats changed or that the game started, and where to look; an old table message
    only loses its buttons."""
    registry = table.registry
    await table.answered(registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3))
    opened = table.message_id
    await table.answered(registry.join(CHANNEL, BOB))
    joined = table.message_id
    assert table.poster.retired == {opened: t("lobby.retired_changed", "en")}
    await table.answered(registry.join(CHANNEL, CAROL))  # the last seat: dealt
    assert table.poster.retired[joined] == t("lobby.retired_started", "en")
    first_table = table.message_id
    await table.answered(registry.act(CHANNEL, ALICE.id, Add(1)))
    assert first_table in table.poster.stripped and first_table not in table.poster.retired


# -- playing -----------------------------------------------------------------------------


async def test_moves_are_checked_and_refusals_change_nothing(table: Harness) -> None:
    await start_two(table)
    registry = table.registry
    stored_before = await table.stored()
    assert stored_before is not None
    with pytest.raises(SessionError) as refused:
        await registry.act(CHANNEL, BOB.id, Add(1))
    assert refused.value.key == "error.not_your_turn"
    with pytest.raises(SessionError) as refused:
        await registry.act(CHANNEL, CAROL.id, Add(1))
    assert refused.value.key == "error.not_seated"
    with pytest.raises(SessionError) as refused:
        await registry.act(CHANNEL, ALICE.id, Add(1), version=stored_before.version - 1)
    assert refused.value.key == "error.stale_button"
    with pytest.raises(IllegalAction) as illegal:
        await registry.act(CHANNEL, ALICE.id, Add(3))
    assert illegal.value.code == "count_add"
    assert await table.stored() == stored_before
    post = await table.answered(
        registry.act(CHANNEL, ALICE.id, ("add", "2"), version=stored_before.version)
    )
    assert post is not None and post.content.startswith("Alice +2\n<@102>, your turn.\n```")
    assert post.mention == BOB.id  # Bob's turn starts: he alone is pinged
    assert post.version == stored_before.version + 1


async def test_what_a_move_tells_the_mover_alone_comes_in_their_language(table: Harness) -> None:
    await start_two(table)
    reply = await table.registry.act(CHANNEL, ALICE.id, Add(1), locale="ko")
    assert reply.private is None  # the game tells nothing after an Add(1)
    await table.registry.published(reply.post, 1)  # type: ignore[union-attr]
    reply = await table.registry.act(CHANNEL, BOB.id, Add(2), locale="ko")
    assert reply.private is not None and reply.post is not None
    assert reply.private.content == "ko: only Bob sees this\n```\ntotal 3\n```"
    assert reply.private.version == reply.post.version  # its buttons are the new table's
    assert reply.private.locale == "ko" and reply.post.locale == "en"
    assert "only Bob" not in reply.post.content


async def test_out_of_turn_only_what_the_engine_offers_that_seat(table: Harness) -> None:
    await start_two(table)
    registry = table.registry
    with pytest.raises(SessionError) as refused:  # nothing offered to Bob yet
        await registry.act(CHANNEL, BOB.id, Cheer())
    assert refused.value.key == "error.not_your_turn"
    await table.answered(registry.act(CHANNEL, ALICE.id, Add(1)))  # Bob's turn, total 1
    await table.answered(registry.act(CHANNEL, ALICE.id, Cheer()))  # offered out of turn
    session = registry.get(CHANNEL)
    assert session is not None and session.state is not None
    assert session.state.current_seat == 1  # still Bob's turn
    with pytest.raises(IllegalAction):  # offered something, refused the rest by the engine
        await registry.act(CHANNEL, ALICE.id, Add(1))


async def test_a_move_is_saved_before_the_caller_can_answer(table: Harness) -> None:
    await start_two(table)
    release = asyncio.Event()
    saved: list[int] = []
    real_save = table.store.save

    async def slow_save(game: ActiveGame, *, expected_version: int) -> None:
        await release.wait()
        await real_save(game, expected_version=expected_version)
        saved.append(game.version)

    table.store.save = slow_save  # type: ignore[method-assign]
    move = asyncio.create_task(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    await settle()
    assert not move.done()  # no reply while the save is pending
    release.set()
    reply = await move
    assert reply.post is not None and saved == [reply.post.version]
    stored = await table.stored()
    assert stored is not None and stored.data["state"]["total"] == 1


async def test_a_version_conflict_reloads_what_the_store_holds(table: Harness) -> None:
    await start_two(table)
    stored = await table.stored()
    assert stored is not None
    # A second writer moved the game on behind this registry's back.
    data = dict(stored.data)
    data["state"] = {**stored.data["state"], "total": 5, "turn": 1}
    other = ActiveGame(CHANNEL, GUILD, "count", stored.version + 1, data)
    await table.store.save(other, expected_version=stored.version)
    with pytest.raises(SessionError) as refused:
        await table.registry.act(CHANNEL, ALICE.id, Add(1))
    assert refused.value.key == "error.conflict"
    assert await table.stored() == other
    session = table.registry.get(CHANNEL)
    assert session is not None and session.version == other.version
    assert session.state is not None and session.state.current_seat == 1
    await table.answered(table.registry.act(CHANNEL, BOB.id, Add(2)))
    stored = await table.stored()
    assert stored is not None and stored.data["state"]["total"] == 7


async def test_the_previous_table_loses_its_buttons(table: Harness) -> None:
    await start_two(table)
    first = table.message_id
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    assert first in table.poster.stripped


async def test_a_finished_game_is_recorded_and_can_be_dealt_again(table: Harness) -> None:
    await start_two(table, target=3)
    registry = table.registry
    await table.answered(registry.act(CHANNEL, ALICE.id, Add(2)))
    post = await table.answered(registry.act(CHANNEL, BOB.id, Add(1)))
    assert post is not None and [c.action for c in post.controls] == ["again"]
    assert registry.get(CHANNEL) is None
    assert await dormant(table)  # only the seats are kept, for "Deal again"
    [finished] = table.store.finished
    assert finished.ended_by is None
    assert [(s.member_id, s.outcome, s.rank) for s in finished.seats] == [
        (ALICE.id, "lose", 2),
        (BOB.id, "win", 1),
    ]
    with pytest.raises(SessionError) as refused:
        await registry.deal_again(CHANNEL, ALICE.id, version=post.version - 1)
    assert refused.value.key == "error.stale_button"
    with pytest.raises(SessionError) as refused:
        await registry.deal_again(CHANNEL, CAROL.id, version=post.version)
    assert refused.value.key == "error.not_seated"
    final_table = table.message_id
    again = await table.answered(registry.deal_again(CHANNEL, BOB.id, version=post.version))
    assert table.poster.stripped[-1] == final_table
    assert again is not None and "total 0" in again.content
    session = registry.get(CHANNEL)
    assert session is not None and session.version > post.version
    assert [s.member_id for s in session.seats] == [ALICE.id, BOB.id]


async def test_a_new_game_never_reuses_a_version_of_the_channels_last(table: Harness) -> None:
    """A button or menu left on screen from an ended game carries its version: the next
    game in the channel must never reach that version, or the old control would act in it."""
    await start_two(table)
    old = table.registry.get(CHANNEL)
    assert old is not None
    old_version = old.version
    await table.registry.end(CHANNEL, 999, moderator=True)
    await start_two(table)  # at once, in the same tenth of a second
    new = table.registry.get(CHANNEL)
    assert new is not None and new.version > old_version
    with pytest.raises(SessionError) as refused:  # the old game's button
        await table.registry.act(CHANNEL, ALICE.id, Add(1), version=old_version)
    assert refused.value.key == "error.stale_button"
    # After a restart the process knows no old version: the clock starts above them all.
    again = Harness(table.store)
    again.clock.now = VERSION_EPOCH + 1000.0
    assert again.registry.first_version(CHANNEL) == 10_000
    await table.registry.close()


async def test_a_moderator_ends_a_game_and_is_recorded(
    table: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    await start_two(table)
    with pytest.raises(SessionError) as refused:
        await table.registry.end(CHANNEL, ALICE.id, moderator=False)
    assert refused.value.key == "error.moderator_only"
    session = table.registry.get(CHANNEL)
    assert session is not None and session.secret is not None
    seed, salt = session.secret.seed, session.secret.salt
    reply = await table.registry.end(CHANNEL, 999, moderator=True)
    assert reply.notice is not None
    ended, revealed = reply.notice.splitlines()
    assert ended == "The game was ended by <@999>."
    command = verify_command("count", seed, salt, 2, options={}, locale="en")
    assert revealed == t("fair.reveal", "en", seed=seed, salt=salt, command=command)
    assert command == f"/game verify game:{t('game.count')} seed:{seed} salt:{salt} players:2"
    [finished] = table.store.finished
    assert finished.ended_by == 999 and finished.seats == ()
    assert table.registry.get(CHANNEL) is None
    assert f"channel {CHANNEL} (count): ended by member 999" in caplog.text


async def test_a_moderator_closing_a_lobby_is_named_in_the_channel_and_the_log(
    table: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    await table.answered(table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3))
    reply = await table.registry.end(CHANNEL, 999, moderator=True)
    assert reply.notice == "The lobby was closed by <@999>."
    assert f"channel {CHANNEL} (count): lobby closed by member 999" in caplog.text
    assert table.registry.get(CHANNEL) is None and await table.stored() is None
    await table.answered(table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3))
    reply = await table.registry.end(CHANNEL, ALICE.id, moderator=False)
    assert reply.notice == f"The lobby was closed by <@{ALICE.id}>."  # its host, named too


async def test_an_end_the_store_refuses_ends_nothing_and_is_not_logged_as_done(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    store = DownStore()
    table = Harness(store)
    await start_two(table)
    store.down = True
    with pytest.raises(SessionError) as refused:
        await table.registry.end(CHANNEL, 999, moderator=True)
    assert refused.value.key == "error.storage"
    assert table.registry.get(CHANNEL) is not None
    assert "ended by member 999" not in caplog.text
    await table.registry.close()


async def test_kick_and_leave_hand_the_seat_to_a_computer(
    table: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    await table.answered(
        table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3, options={"target": 50})
    )
    await table.answered(table.registry.join(CHANNEL, BOB))
    await table.answered(table.registry.join(CHANNEL, CAROL))
    with caplog.at_level(logging.INFO):
        post = await table.answered(table.registry.kick(CHANNEL, BOB.id, by=999))
    assert post is not None and "Bob's seat is now played by a computer." in post.content
    assert f"member {BOB.id}'s seat kicked by member 999" in caplog.text
    session = table.registry.get(CHANNEL)
    assert session is not None and session.seats[1].computer
    assert session.seats[1].member_id == BOB.id  # the seat's result is still Bob's
    state = session.state
    assert isinstance(state, CountState) and state.computers == [1]
    with pytest.raises(SessionError):
        await table.registry.act(CHANNEL, BOB.id, Add(1))


async def test_hand_shows_controls_only_on_your_turn(table: Harness) -> None:
    await start_two(table)
    mine = await table.registry.hand(CHANNEL, ALICE.id)
    assert "hand total 0" in mine.content and [c.action for c in mine.controls] == ["add"]
    theirs = await table.registry.hand(CHANNEL, BOB.id)
    assert theirs.controls == ()
    with pytest.raises(SessionError):
        await table.registry.hand(CHANNEL, CAROL.id)


# -- timers --------------------------------------------------------------------------------


async def test_half_time_ping_then_the_safe_move(table: Harness) -> None:
    await start_two(table)
    await table.clock.advance(29)
    assert table.poster.pings == []
    await table.clock.advance(1)
    assert table.poster.pings == [(ALICE.id, "<@101>, it is your turn: 30 seconds left.")]
    await table.clock.advance(29)
    assert table.poster.posts == []
    await table.clock.advance(1)
    [post] = table.poster.posts
    assert "Alice ran out of time" in post.content and "Alice +1" in post.content
    session = table.registry.get(CHANNEL)
    assert session is not None and session.seats[0].timeouts == 1
    assert session.state is not None and session.state.current_seat == 1
    stored = await table.stored()
    assert stored is not None and stored.data["state"]["total"] == 1


async def test_a_move_in_time_cancels_the_timer(table: Harness) -> None:
    await start_two(table)
    await table.clock.advance(50)
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    await table.clock.advance(59)
    assert table.poster.posts == []  # Bob's own minute is not up; Alice's timer is gone
    await table.clock.advance(1)
    assert len(table.poster.posts) == 1 and "Bob ran out of time" in table.poster.posts[0].content


async def test_three_timeouts_in_a_row_hand_the_seat_to_a_computer(table: Harness) -> None:
    await start_two(table, target=100)
    for _ in range(TIMEOUTS_BEFORE_COMPUTER - 1):
        await table.clock.advance(60)  # Alice times out
        await table.clock.advance(60)  # Bob times out
    session = table.registry.get(CHANNEL)
    assert session is not None
    assert [s.timeouts for s in session.seats] == [2, 2]
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))  # resets Alice
    await table.clock.advance(60)  # Bob's third
    assert session.seats[1].computer and not session.seats[0].computer
    assert "Bob timed out 3 times in a row" in table.poster.posts[-1].content


async def test_computer_moves_are_paced_and_coalesced(table: Harness) -> None:
    await table.answered(
        table.registry.open_lobby(
            CHANNEL, GUILD, "count", ALICE, players=4, bots=3, options={"target": 50}
        )
    )
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    await table.clock.advance(0.5)
    assert table.poster.posts == []  # the delay has not passed
    await table.clock.advance(0.5)
    [post] = table.poster.posts
    assert post.content.startswith(
        "Computer 2 +2\nComputer 3 +2\nComputer 4 +2\n<@101>, your turn.\n```"
    )
    assert post.mention == ALICE.id
    assert await table.saved_total_back_at_seat_0() == 7


async def test_nobody_is_pinged_when_the_turn_passes_to_a_computer(table: Harness) -> None:
    await table.answered(
        table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2, bots=1)
    )
    post = await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    assert post is not None and post.mention is None and "<@" not in post.content


@pytest.mark.parametrize("steps", range(8))
async def test_close_stops_a_computer_burst_wherever_it_waits(steps: int) -> None:
    # The burst first waits for the table before it to be posted; a cancel arriving just as
    # that wait ends must still stop it (asyncio.wait_for on Python 3.11 lost such a cancel,
    # and the burst played on after close). ``steps`` loop turns put the cancel at each point.
    table = Harness()
    await start_two(table)
    await table.answered(table.registry.kick(CHANNEL, BOB.id, by=ALICE.id))
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    posted = len(table.poster.posts)
    for _ in range(steps):
        await asyncio.sleep(0)
    async with asyncio.timeout(2):  # a lost cancel waits on the fake clock for ever
        await table.registry.close()
    await table.clock.advance(10)
    assert len(table.poster.posts) == posted


async def test_nobody_is_pinged_when_the_turn_reaches_a_kicked_members_seat(
    table: Harness,
) -> None:
    await start_two(table)
    await table.answered(table.registry.kick(CHANNEL, BOB.id, by=ALICE.id))
    post = await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    assert post is not None and post.mention is None and "<@102>" not in post.content


async def test_a_table_of_computers_plays_to_the_end(table: Harness) -> None:
    await start_two(table, target=30)
    await table.answered(table.registry.kick(CHANNEL, ALICE.id))
    await table.answered(table.registry.kick(CHANNEL, BOB.id))
    await table.clock.advance(1)
    assert table.registry.get(CHANNEL) is None
    [finished] = table.store.finished
    assert {s.outcome for s in finished.seats} == {"win", "lose"}


async def test_restore_rearms_the_turn_timer(table: Harness) -> None:
    await start_two(table)
    await table.clock.advance(40)
    await table.registry.close()
    # A new process on the same store, 10 seconds later.
    again = Harness(table.store)
    again.clock.now = table.clock.now + 10
    assert await again.registry.restore_all() == 1
    session = again.registry.get(CHANNEL)
    assert session is not None and session.state is not None
    await again.clock.advance(9)
    assert again.poster.posts == []
    await again.clock.advance(1)
    [post] = again.poster.posts
    assert "Alice ran out of time" in post.content
    assert again.poster.pings == []  # half-time had passed before the restart
    await again.registry.close()


async def test_a_restored_game_is_read_from_its_record_only_when_first_needed(
    table: Harness,
) -> None:
    await start_two(table)
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(2)))
    await table.registry.close()
    again = Harness(table.store)
    assert await again.registry.restore_all() == 1
    session = again.registry.get(CHANNEL)
    assert session is not None and not session.is_lobby
    # Restored and timed (Bob's turn), yet no engine state built: the record's text is all.
    assert session.engine is None and session.turn == 1
    assert session.deadline_seat == 1 and again.registry.tasks.running(CHANNEL)
    post = await again.answered(again.registry.act(CHANNEL, BOB.id, Add(1)))
    assert session.engine is not None and post is not None and "total 3" in post.content
    await again.registry.close()


async def test_a_record_saved_before_the_turn_was_kept_loads_its_state_at_once(
    table: Harness,
) -> None:
    await start_two(table)
    stored = await table.stored()
    assert stored is not None and stored.data["turn"] == 0
    await table.registry.close()
    del stored.data["turn"]
    older = replace(stored, version=stored.version + 1, text=None)
    await table.store.save(older, expected_version=stored.version)
    again = Harness(table.store)
    assert await again.registry.restore_all() == 1
    session = again.registry.get(CHANNEL)
    assert session is not None and session.engine is not None and session.turn == 0
    await again.registry.close()


async def test_restore_leaves_other_shards_games_alone(table: Harness) -> None:
    await start_two(table)
    await table.registry.close()
    # A process serving other shards shares the store: it neither loads nor times the game.
    elsewhere = Harness(table.store, owns_guild=lambda guild_id: guild_id != GUILD)
    assert await elsewhere.registry.restore_all() == 0
    assert elsewhere.registry.get(CHANNEL) is None
    await elsewhere.clock.advance(1000)
    assert elsewhere.poster.posts == []
    assert await table.stored() is not None
    again = Harness(table.store, owns_guild=lambda guild_id: guild_id == GUILD)
    assert await again.registry.restore_all() == 1
    await elsewhere.registry.close()
    await again.registry.close()


async def test_restore_resumes_a_computer_burst(table: Harness) -> None:
    await start_two(table, target=50)
    await table.answered(table.registry.kick(CHANNEL, BOB.id))
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    await table.registry.close()  # crashed before Bob's computer moved
    again = Harness(table.store)
    assert await again.registry.restore_all() == 1
    await again.clock.advance(1)
    [post] = again.poster.posts
    assert post.content.startswith("Bob (left) +2")  # a computer plays Bob's seat on
    await again.registry.close()


async def test_guild_turn_time_overrides_the_game_default(table: Harness) -> None:
    await table.store.save_guild_settings(GuildSettings(GUILD, turn_seconds=20))
    await start_two(table)
    await table.clock.advance(20)
    assert len(table.poster.posts) == 1


# -- composing ------------------------------------------------------------------------------


def test_compose_drops_the_oldest_log_lines_to_fit() -> None:
    body = "x" * 100
    log = tuple(f"line {i} " + "y" * 50 for i in range(100))
    text = compose(Table(log, body, "ansi"), ["notice"])
    assert len(text) <= MAX_MESSAGE
    assert text.endswith(f"```ansi\n{body}\n```")
    assert "line 99" in text and "line 0 " not in text
    assert compose(Table(("a", "b"), "t"), ["n"]) == "n\na\nb\n```\nt\n```"


async def test_a_game_over_at_the_deal_is_recorded_at_once(table: Harness) -> None:
    post = await table.answered(
        table.registry.open_lobby(
            CHANNEL, GUILD, "count", ALICE, players=2, bots=1, options={"instant": True}
        )
    )
    assert post is not None and [c.action for c in post.controls] == ["again"]
    assert table.registry.get(CHANNEL) is None and await dormant(table)
    [finished] = table.store.finished
    assert [(s.member_id, s.outcome) for s in finished.seats] == [(ALICE.id, "win"), (None, "lose")]


async def test_a_table_whose_id_arrives_after_the_game_moved_on_loses_its_buttons(
    table: Harness,
) -> None:
    lobby = await table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3)
    assert lobby.post is not None
    joined = await table.registry.join(CHANNEL, BOB)  # before Discord told us the lobby's id
    assert joined.post is not None
    await table.registry.published(lobby.post, 4242)
    assert table.poster.stripped == [4242]
    await table.registry.published(joined.post, 4243)
    assert table.poster.stripped == [4242]
    session = table.registry.get(CHANNEL)
    assert session is not None and session.message_id == 4243


async def test_an_engine_bug_leaves_the_stored_game_and_reloads_it(table: Harness) -> None:
    await start_two(table)
    before = await table.stored()
    with pytest.raises(ZeroDivisionError):
        await table.registry.act(CHANNEL, ALICE.id, Add(99))
    assert await table.stored() == before
    session = table.registry.get(CHANNEL)
    assert session is not None and isinstance(session.state, CountState)
    assert session.state.total == 0  # the half-applied move is gone
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(2)))
    stored = await table.stored()
    assert stored is not None and stored.data["state"]["total"] == 2


async def test_a_game_the_guild_does_not_allow_cannot_be_opened(table: Harness) -> None:
    await table.store.save_guild_settings(GuildSettings(GUILD, allowed_games=("uno",)))
    with pytest.raises(SessionError) as refused:
        await table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2)
    assert refused.value.key == "error.game_not_allowed"
    assert refused.value.params == {"game": "count"}
    assert table.registry.get(CHANNEL) is None and await table.stored() is None


async def test_a_table_discord_did_not_take_leaves_the_previous_one_live(table: Harness) -> None:
    await start_two(table)
    first, stripped = table.message_id, list(table.poster.stripped)
    reply = await table.registry.act(CHANNEL, ALICE.id, Add(1))
    assert reply.post is not None
    # Neither the answer nor the fallback post reached Discord: no table is newer than the
    # first one, so it keeps its buttons (and the next table will retire it).
    await table.registry.published(reply.post, None)
    assert table.poster.stripped == stripped
    session = table.registry.get(CHANNEL)
    assert session is not None and session.message_id == first
    await table.answered(table.registry.act(CHANNEL, BOB.id, Add(1)))
    assert table.poster.stripped == [*stripped, first]


def untimed(table: Harness) -> None:
    """No turn runs out in this test: its clock may run far ahead."""
    session = table.registry.get(CHANNEL)
    assert session is not None
    session.turn_seconds = 10.0**9


async def test_a_table_discord_did_not_take_is_posted_again_until_it_gets_through(
    table: Harness,
) -> None:
    await start_two(table)
    untimed(table)
    first = table.message_id
    reply = await table.registry.act(CHANNEL, ALICE.id, Add(1))
    assert reply.post is not None
    table.poster.refuse = 2
    await table.registry.published(reply.post, None)
    await table.clock.advance(1.9)
    assert table.poster.refused == [] and table.poster.posts == []  # not at once
    await table.clock.advance(0.1 + 5.0)  # two tries, both refused (Discord still failing)
    assert table.poster.refused == [reply.post, reply.post] and table.poster.posts == []
    await table.clock.advance(15.0)
    assert table.poster.posts == [reply.post]  # the same table, mention included
    session = table.registry.get(CHANNEL)
    assert session is not None and session.message_id == table.poster.next_id
    assert table.poster.stripped[-1] == first  # the out-of-date table is retired
    await table.clock.advance(1000.0)
    assert table.poster.posts == [reply.post]  # once through, never again


async def test_a_table_to_post_again_is_dropped_once_the_game_moves_on(table: Harness) -> None:
    await start_two(table)
    untimed(table)
    reply = await table.registry.act(CHANNEL, ALICE.id, Add(1))
    assert reply.post is not None
    await table.registry.published(reply.post, None)
    newer = await table.answered(table.registry.act(CHANNEL, BOB.id, Add(1)))
    await table.clock.advance(1000.0)
    assert reply.post not in table.poster.posts and reply.post not in table.poster.refused
    session = table.registry.get(CHANNEL)
    assert newer is not None and session is not None and session.version == newer.version


async def test_posting_again_gives_up_after_its_last_try(table: Harness) -> None:
    await start_two(table)
    untimed(table)
    reply = await table.registry.act(CHANNEL, ALICE.id, Add(1))
    assert reply.post is not None
    table.poster.refuse = 100
    await table.registry.published(reply.post, None)
    await table.clock.advance(10_000.0)
    assert len(table.poster.refused) == len(REPOST_DELAYS)
    assert not table.registry.reposts.running(CHANNEL)


async def finish_two(table: Harness) -> Post:
    """Alice and Bob play a game to its end; its final table (posted)."""
    await start_two(table, target=3)
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(2)))
    post = await table.answered(table.registry.act(CHANNEL, BOB.id, Add(1)))
    assert post is not None and [c.action for c in post.controls] == ["again"]
    return post


async def test_deal_again_still_works_after_a_restart(table: Harness) -> None:
    final = await finish_two(table)
    final_table = table.message_id
    await table.registry.close()
    again = Harness(table.store)
    again.clock.now = table.clock.now + 60
    assert await again.registry.restore_all() == 0  # no game runs here
    assert again.registry.get(CHANNEL) is None
    reply = await again.registry.deal_again(
        CHANNEL, ALICE.id, version=final.version, table_id=final_table
    )
    assert reply.post is not None and "total 0" in reply.post.content
    await again.registry.published(reply.post, 7777)
    assert again.poster.stripped == [final_table]  # the clicked table is retired
    session = again.registry.get(CHANNEL)
    assert session is not None and session.version > final.version
    assert [s.member_id for s in session.seats] == [ALICE.id, BOB.id]
    stored = await again.stored()
    assert stored is not None and stored.version == session.version
    assert stored.data["state"] is not None
    await again.registry.close()


async def test_a_finished_table_expires(table: Harness) -> None:
    final = await finish_two(table)
    final_table = table.message_id
    await table.clock.advance(DEAL_AGAIN_SECONDS - 1)
    assert await dormant(table)
    await table.clock.advance(1)
    assert await table.stored() is None
    assert table.poster.stripped[-1] == final_table  # its Deal again button is gone too
    with pytest.raises(SessionError) as refused:
        await table.registry.deal_again(CHANNEL, ALICE.id, version=final.version)
    assert refused.value.key == "error.stale_button"


async def test_a_finished_table_found_expired_at_restart_is_dropped(table: Harness) -> None:
    final = await finish_two(table)
    await table.registry.close()
    again = Harness(table.store)
    again.clock.now = table.clock.now + DEAL_AGAIN_SECONDS
    assert await again.registry.restore_all() == 0
    await again.clock.advance(0)  # its expiry, due already, runs at once
    assert await again.stored() is None
    with pytest.raises(SessionError) as refused:
        await again.registry.deal_again(CHANNEL, ALICE.id, version=final.version)
    assert refused.value.key == "error.stale_button"
    await again.registry.close()


async def test_a_finished_table_found_expired_while_the_store_refuses_is_dropped_later() -> None:
    # Dropped from memory with its record left behind, it would hold the channel against
    # every new game until the next restart.
    store = DownStore()
    table = Harness(store)
    await finish_two(table)
    await table.registry.close()
    again = Harness(store)
    again.clock.now = table.clock.now + DEAL_AGAIN_SECONDS
    store.down = store.reads_up = True
    assert await again.registry.restore_all() == 0
    await again.clock.advance(0)
    assert again.registry.finished.get(CHANNEL) is not None
    store.down = False
    await again.clock.advance(STORE_RETRY_SECONDS)
    assert await again.stored() is None and again.registry.finished.get(CHANNEL) is None
    await again.answered(again.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2))
    await again.registry.close()


async def test_a_new_lobby_replaces_a_finished_table(table: Harness) -> None:
    final = await finish_two(table)
    await table.registry.close()
    again = Harness(table.store)  # also after a restart: the store still holds its seats
    await again.registry.restore_all()
    lobby = await again.answered(
        again.registry.open_lobby(CHANNEL, GUILD, "count", CAROL, players=2)
    )
    assert lobby is not None and lobby.version > final.version
    with pytest.raises(SessionError) as refused:
        await again.registry.deal_again(CHANNEL, ALICE.id, version=final.version)
    assert refused.value.key == "error.stale_button"
    stored = await again.stored()
    assert stored is not None and stored.data["host"] == CAROL.id
    await again.registry.close()


async def test_channel_locks_are_kept_only_while_in_use(table: Harness) -> None:
    for channel in range(CHANNEL, CHANNEL + 20):
        await table.registry.open_lobby(channel, GUILD, "count", ALICE, players=2)
        await table.registry.end(channel, ALICE.id, moderator=False)
    assert len(table.registry.locks) == 0
    async with table.registry.lock(CHANNEL):
        waiting = asyncio.create_task(table.registry.end(CHANNEL, ALICE.id, moderator=True))
        await settle()
        assert len(table.registry.locks) == 1
    with pytest.raises(SessionError):
        await waiting
    assert len(table.registry.locks) == 0


async def test_buttons_of_an_older_lobby_message_change_nothing(table: Harness) -> None:
    registry = table.registry
    lobby = await table.answered(registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3))
    assert lobby is not None
    joined = await table.answered(registry.join(CHANNEL, BOB))
    assert joined is not None
    stale = lobby.version
    lobby_calls = [
        registry.join(CHANNEL, CAROL, version=stale),
        registry.leave(CHANNEL, BOB.id, version=stale),
        registry.start(CHANNEL, ALICE.id, version=stale),
        registry.end(CHANNEL, ALICE.id, moderator=True, version=stale),
    ]
    for call in lobby_calls:
        with pytest.raises(SessionError) as refused:
            await call
        assert refused.value.key == "error.stale_button"
    await table.answered(registry.join(CHANNEL, CAROL, version=joined.version))  # deals
    session = registry.get(CHANNEL)
    assert session is not None and session.state is not None
    version = session.version
    # The lobby's buttons, had their message kept them, must not touch the running game.
    for call in [
        registry.leave(CHANNEL, BOB.id, version=joined.version),
        registry.end(CHANNEL, 999, moderator=True, version=joined.version),
    ]:
        with pytest.raises(SessionError) as refused:
            await call
        assert refused.value.key == "error.stale_button"
    assert session.version == version and registry.get(CHANNEL) is session
    assert session.computer_seats == []
    # Commands carry no version: /game end still ends the game.
    await registry.end(CHANNEL, 999, moderator=True)
    assert registry.get(CHANNEL) is None


async def behind_its_back(table: Harness) -> ActiveGame:
    """A second writer saves the channel's record at the next version; what it saved."""
    stored = await table.stored()
    assert stored is not None
    other = ActiveGame(CHANNEL, GUILD, "count", stored.version + 1, dict(stored.data))
    await table.store.save(other, expected_version=stored.version)
    return other


async def test_ending_a_game_changed_elsewhere_is_a_conflict(table: Harness) -> None:
    await start_two(table)
    other = await behind_its_back(table)
    with pytest.raises(SessionError) as refused:
        await table.registry.end(CHANNEL, 999, moderator=True)
    assert refused.value.key == "error.conflict"
    assert table.store.finished == [] and await table.stored() == other
    session = table.registry.get(CHANNEL)
    assert session is not None and session.version == other.version
    await table.registry.end(CHANNEL, 999, moderator=True)  # on what the store holds
    assert table.registry.get(CHANNEL) is None


async def test_closing_a_lobby_changed_elsewhere_is_a_conflict(table: Harness) -> None:
    await table.answered(table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3))
    for close in (
        lambda: table.registry.leave(CHANNEL, ALICE.id),
        lambda: table.registry.end(CHANNEL, ALICE.id, moderator=False),
    ):
        other = await behind_its_back(table)
        with pytest.raises(SessionError) as refused:
            await close()
        assert refused.value.key == "error.conflict"
        assert await table.stored() == other
        session = table.registry.get(CHANNEL)
        assert session is not None and session.version == other.version


class MisplayingComputer(CountAdapter):
    """A computer player with a bug: the last seat's moves are refused by the engine (with
    ``crashes``, its player raises before choosing one); with ``safe_too`` the timeout move is
    refused as well, with ``stuck`` the seat has none."""

    def __init__(
        self, *, safe_too: bool = False, stuck: bool = False, crashes: bool = False
    ) -> None:
        super().__init__()
        self.safe_too = safe_too
        self.stuck = stuck
        self.crashes = crashes

    def new(
        self,
        seats: int,
        seed: int | None,
        options: Mapping[str, Any],
        computers: Sequence[int],
        *,
        secret: bool = False,
        level: Level = Level.NORMAL,
    ) -> tuple[CountState, Sequence[Event]]:
        state, events = super().new(seats, seed, options, computers, level=level)
        if self.stuck:
            state.legal_actions = lambda seat: []  # type: ignore[method-assign]
        return state, events

    def computer_action(
        self,
        state: CountState,
        seat: int,
        level: Level = Level.NORMAL,
        rng: random.Random | None = None,
    ) -> Action:
        if self.crashes and seat == state.seats - 1:
            raise KeyError("a search's bug, naming a hidden card: 7")
        return Add(7) if seat == state.seats - 1 else Add(2)

    def timeout_action(self, state: CountState, seat: int) -> Action:
        if self.safe_too:
            raise IllegalAction("no safe move", code="none")
        return Add(1)


async def misplayed(table: Harness, adapter: MisplayingComputer) -> None:
    """Alice and two computers (the last one misplays); Alice adds 1, the computers play."""
    table.games.register(adapter)
    await table.answered(
        table.registry.open_lobby(
            CHANNEL, GUILD, "count", ALICE, players=3, bots=2, options={"target": 50}
        )
    )
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    await table.clock.advance(1)


@pytest.mark.parametrize(
    ("safe_too", "crashes"), [(False, False), (True, False), (False, True), (True, True)]
)
async def test_a_refused_computer_move_falls_back_and_the_game_goes_on(
    table: Harness, caplog: pytest.LogCaptureFixture, safe_too: bool, crashes: bool
) -> None:
    with caplog.at_level(logging.ERROR):
        await misplayed(table, MisplayingComputer(safe_too=safe_too, crashes=crashes))
    # Computer 2 added 2; Computer 3's 7 was refused (or its player crashed), so it played
    # the safe 1 (or, with no safe move either, its first legal move: 1 as well).
    [post] = table.poster.posts
    assert post.content.startswith("Computer 2 +2\nComputer 3 +1\n<@101>, your turn.\n```")
    assert await table.saved_total_back_at_seat_0() == 4
    assert f"channel {CHANNEL}" in caplog.text and "seat 2" in caplog.text
    assert "hidden card" not in caplog.text  # the error's kind is logged, not its text
    await table.clock.advance(60)  # Alice's turn timer was re-armed
    assert "Alice ran out of time" in table.poster.posts[-1].content


async def test_a_computer_with_no_move_at_all_keeps_what_was_played(
    table: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR):
        await misplayed(table, MisplayingComputer(safe_too=True, stuck=True))
        await table.clock.advance(100)
    # Computer 2's move is saved; Computer 3 can make none, so the game waits (for a
    # moderator's /game end) instead of trying again and again.
    [post] = table.poster.posts
    assert post.content.startswith("Computer 2 +2\n```")
    stored = await table.stored()
    assert stored is not None and stored.data["state"]["total"] == 3
    assert "no move" in caplog.text


async def test_a_refused_timeout_move_falls_back_to_a_legal_one(
    table: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    table.games.register(MisplayingComputer(safe_too=True))
    await start_two(table)
    with caplog.at_level(logging.ERROR):
        await table.clock.advance(60)
    assert "Alice ran out of time" in table.poster.posts[-1].content
    stored = await table.stored()
    assert stored is not None and stored.data["state"]["total"] == 1
    assert stored.data["state"]["turn"] == 1
    assert "timeout_action" in caplog.text


async def test_a_change_that_keeps_the_turn_keeps_the_deadline(table: Harness) -> None:
    registry = table.registry
    await table.answered(
        registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3, options={"target": 50})
    )
    await table.answered(registry.join(CHANNEL, BOB))
    await table.answered(registry.join(CHANNEL, CAROL))
    await table.clock.advance(40)
    assert len(table.poster.pings) == 1  # Alice, half-way
    await table.answered(registry.kick(CHANNEL, CAROL.id))  # still Alice's turn
    await table.clock.advance(19)
    assert not any("ran out of time" in post.content for post in table.poster.posts)
    await table.clock.advance(1)  # 60 s after her turn began, not after the kick
    assert "Alice ran out of time" in table.poster.posts[-1].content
    assert len(table.poster.pings) == 1
    # A new turn gets the whole time: Bob's runs from Alice's timeout.
    await table.clock.advance(59)
    assert "Bob ran out of time" not in table.poster.posts[-1].content
    await table.clock.advance(1)
    assert "Bob ran out of time" in table.poster.posts[-1].content


async def test_only_a_member_still_seated_may_deal_again(table: Harness) -> None:
    await start_two(table, target=3)
    registry = table.registry
    await table.answered(registry.kick(CHANNEL, BOB.id))  # Bob's computer plays on
    await table.answered(registry.act(CHANNEL, ALICE.id, Add(2)))
    await table.clock.advance(1)  # the computer finishes the game
    assert registry.get(CHANNEL) is None
    final = table.poster.posts[-1]
    with pytest.raises(SessionError) as refused:
        await registry.deal_again(CHANNEL, BOB.id, version=final.version)
    assert refused.value.key == "error.not_seated"
    again = await registry.deal_again(CHANNEL, ALICE.id, version=final.version)
    assert again.post is not None


async def test_deal_again_respects_the_guilds_allowed_games(table: Harness) -> None:
    final = await finish_two(table)
    await table.store.save_guild_settings(GuildSettings(GUILD, allowed_games=("uno",)))
    with pytest.raises(SessionError) as refused:
        await table.registry.deal_again(CHANNEL, ALICE.id, version=final.version)
    assert refused.value.key == "error.game_not_allowed"
    assert table.registry.get(CHANNEL) is None and await dormant(table)


class BrokenTable(CountAdapter):
    """Drawing the table fails (a bug in a renderer)."""

    def table(
        self,
        view: tuple[int, int | None, int | None],
        events: Sequence[Event],
        names: Sequence[str],
        locale: str,
    ) -> Table:
        if view[0] > 0:
            raise KeyError("renderer bug")
        return super().table(view, events, names, locale)


async def test_a_table_that_cannot_be_drawn_saves_nothing(table: Harness) -> None:
    # Everything that can fail runs before the save, so "the game is unchanged" stays true.
    table.games.register(BrokenTable())
    await start_two(table)
    before = await table.stored()
    with pytest.raises(KeyError):
        await table.registry.act(CHANNEL, ALICE.id, Add(2))
    assert await table.stored() == before
    session = table.registry.get(CHANNEL)
    assert session is not None and before is not None and session.version == before.version
    assert isinstance(session.state, CountState) and session.state.total == 0


# -- the store unreachable -------------------------------------------------------------------


class DownStore(MemoryStore):
    """A memory store that can be made unreachable, as a database server that went away."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.reads_up = False  # down for writes only (a full disk, a read-only replica)
        self.refused = 0

    def _check(self, *, read: bool = False) -> None:
        if self.down and not (read and self.reads_up):
            self.refused += 1
            raise StoreUnavailable("cannot use the test database: it is down")

    async def load_active(self) -> list[ActiveGame]:
        self._check(read=True)
        return await super().load_active()

    def _before_write(self) -> None:
        self._check()

    async def create(self, game: ActiveGame) -> None:
        self._before_write()
        await super().create(game)

    async def save(self, game: ActiveGame, *, expected_version: int) -> None:
        self._before_write()
        await super().save(game, expected_version=expected_version)

    async def finish(self, channel_id: int, **kwargs: Any) -> None:
        self._before_write()
        await super().finish(channel_id, **kwargs)

    async def delete(self, channel_id: int, *, expected_version: int) -> None:
        self._before_write()
        await super().delete(channel_id, expected_version=expected_version)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        self._check(read=True)
        return await super().guild_settings(guild_id)

    async def set_aside(self, channel_id: int, **kwargs: Any) -> None:
        self._before_write()
        await super().set_aside(channel_id, **kwargs)


async def test_a_move_the_store_cannot_save_is_refused_and_changes_nothing() -> None:
    store = DownStore()
    table = Harness(store)
    await start_two(table)
    session = table.registry.get(CHANNEL)
    assert session is not None and session.state is not None
    before = (session.version, session.state.snapshot(), session.message_id)
    stored = await table.stored()
    store.down = True
    with pytest.raises(SessionError) as refused:
        await table.registry.act(CHANNEL, ALICE.id, Add(2))
    assert refused.value.key == "error.storage"
    assert t("error.storage", "ko") != "error.storage"  # said in both languages
    now = table.registry.get(CHANNEL)
    assert now is not None and now.state is not None
    assert (now.version, now.state.snapshot(), now.message_id) == before  # rolled back
    with pytest.raises(StoreUnavailable):  # nor a new table opened (its settings unread)
        await table.registry.open_lobby(CHANNEL + 1, GUILD, "count", CAROL, players=2)
    assert table.registry.get(CHANNEL + 1) is None
    store.down = False
    assert await table.stored() == stored
    post = await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(2)))
    assert post is not None and post.version == before[0] + 1  # the same move, now saved
    await table.registry.close()


class WriteCountingStore(DownStore):
    """A store that counts its writes of a channel's session, and goes down after
    ``cut_after`` of them if given (the cut can fall between two writes of one change)."""

    def __init__(self, cut_after: int | None = None) -> None:
        super().__init__()
        self.writes = 0
        self.cut_after = cut_after

    def _before_write(self) -> None:
        if self.cut_after is not None and self.writes >= self.cut_after:
            self.down = True
        self._check()
        self.writes += 1


async def test_a_table_dealt_at_once_is_stored_with_its_first_table_in_one_write() -> None:
    store = WriteCountingStore()
    table = Harness(store)
    post = await table.answered(
        table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2, bots=1)
    )
    assert store.writes == 1  # the dealt game and its first table: one version, one write
    session, stored = table.registry.get(CHANNEL), await table.stored()
    assert post is not None and session is not None and stored is not None
    assert post.version == session.version == stored.version
    assert "Fair deal: commitment `" in post.content  # the deal's commitment comes with it
    await table.registry.close()


async def test_a_store_cut_after_one_write_cannot_strand_a_dealt_game() -> None:
    # Stored in two writes (the dealt game, then its first table), a cut between them left
    # a dealt game stored without a table, its commitment never shown, while the member
    # was told nothing changed.
    store = WriteCountingStore(cut_after=1)
    store.reads_up = True
    table = Harness(store)
    post = await table.answered(
        table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2, bots=1)
    )
    session, stored = table.registry.get(CHANNEL), await table.stored()
    assert post is not None and session is not None and stored is not None
    assert post.version == session.version == stored.version
    assert "Fair deal: commitment `" in post.content
    await table.registry.close()


async def test_a_deal_the_store_refuses_leaves_no_game_and_nothing_to_strand() -> None:
    store = DownStore()
    table = Harness(store)
    store.down = store.reads_up = True  # the guild's settings are read; the deal's write fails
    with pytest.raises(SessionError) as refused:
        await table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2, bots=1)
    assert refused.value.key == "error.storage"
    assert table.registry.get(CHANNEL) is None
    store.down = False
    assert await table.stored() is None
    post = await table.answered(
        table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2, bots=1)
    )
    assert post is not None and "total 0" in post.content  # the channel is free again
    await table.registry.close()


async def test_a_deal_again_the_store_refuses_keeps_the_finished_table_and_its_expiry() -> None:
    store = DownStore()
    table = Harness(store)
    final = await finish_two(table)
    final_table = table.message_id
    store.down = store.reads_up = True
    with pytest.raises(SessionError) as refused:
        await table.registry.deal_again(CHANNEL, ALICE.id, version=final.version)
    assert refused.value.key == "error.storage"
    assert table.registry.get(CHANNEL) is None
    assert table.registry.finished.get(CHANNEL) is not None  # "Deal again" still offered
    store.down = False
    assert await dormant(table)
    await table.clock.advance(DEAL_AGAIN_SECONDS)
    assert await table.stored() is None  # it expired as it would have
    assert table.poster.stripped[-1] == final_table
    await table.registry.close()


class AnswerLosingStore(DownStore):
    """A store whose next write loses its answer (StoreUncertain) when ``lose`` is set:
    True if the write was made before the answer was lost (a server that committed it)."""

    def __init__(self) -> None:
        super().__init__()
        self.lose: bool | None = None  # the next write's fate: landed (True) or not (False)

    async def _maybe_lose(self, write: Coroutine[Any, Any, None]) -> None:
        lose, self.lose = self.lose, None
        if lose is False:
            write.close()  # never sent
        else:
            await write
        if lose is not None:
            raise StoreUncertain("cannot use the test database: connection lost mid-write")

    async def create(self, game: ActiveGame) -> None:
        await self._maybe_lose(super().create(game))

    async def save(self, game: ActiveGame, *, expected_version: int) -> None:
        await self._maybe_lose(super().save(game, expected_version=expected_version))

    async def finish(self, channel_id: int, **kwargs: Any) -> None:
        await self._maybe_lose(super().finish(channel_id, **kwargs))


async def alices_move_lost(*, landed: bool) -> tuple[AnswerLosingStore, Harness]:
    """Alice and Bob at a table; Alice's Add(2) loses its answer (``landed``: saved all
    the same) and she is told so."""
    store = AnswerLosingStore()
    table = Harness(store)
    await start_two(table)
    store.lose = landed
    with pytest.raises(SessionError) as refused:
        await table.registry.act(CHANNEL, ALICE.id, Add(2))
    assert refused.value.key == "error.storage_uncertain"
    return store, table


async def test_a_move_whose_answer_was_lost_is_told_so_and_shown_once_read_back() -> None:
    _, table = await alices_move_lost(landed=True)  # saved, but the bot never hears so
    assert t("error.storage_uncertain", "ko") != "error.storage_uncertain"
    session = table.registry.get(CHANNEL)
    assert session is not None
    before = session.version  # rolled back to the version before the move
    stored = await table.stored()
    assert stored is not None and stored.version == before + 1  # it is in the store
    posted = len(table.poster.posts)
    await table.clock.advance(STORE_RETRY_SECONDS)  # read back in the background
    assert [p.version for p in table.poster.posts[posted:]] == [before + 1]
    assert "total 2" in table.poster.posts[-1].content  # the move's own table, once
    session = table.registry.get(CHANNEL)
    assert session is not None and session.version == before + 1
    # Bob plays on from the game as stored: no version conflict, nothing reloaded twice.
    post = await table.answered(table.registry.act(CHANNEL, BOB.id, Add(1)))
    assert post is not None and post.version == before + 2 and "total 3" in post.content
    await table.registry.close()


async def test_a_member_acting_before_the_read_back_meets_the_game_as_stored(
    caplog: pytest.LogCaptureFixture,
) -> None:
    _, table = await alices_move_lost(landed=True)
    # Alice, told "maybe", tries again at once: her move is already in; she is told so,
    # and the table shows it, rather than a second Add(2) or a version conflict.
    with pytest.raises(SessionError) as refused:
        await table.registry.act(CHANNEL, ALICE.id, Add(2))
    assert refused.value.key == "error.saved_meanwhile"
    assert "total 2" in table.poster.posts[-1].content
    stored = await table.stored()
    assert stored is not None and stored.data["state"]["total"] == 2
    assert "version conflict" not in caplog.text
    post = await table.answered(table.registry.act(CHANNEL, BOB.id, Add(1)))
    assert post is not None and "total 3" in post.content
    await table.registry.close()


async def test_a_lost_answer_to_a_write_that_did_not_land_changes_nothing() -> None:
    _, table = await alices_move_lost(landed=False)
    stored = await table.stored()
    assert stored is not None and stored.data["state"]["total"] == 0
    posted = len(table.poster.posts)
    await table.clock.advance(STORE_RETRY_SECONDS)
    assert len(table.poster.posts) == posted and await table.stored() == stored
    post = await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(2)))
    assert post is not None and "total 2" in post.content
    await table.registry.close()


async def test_the_read_back_waits_for_a_store_that_still_does_not_answer() -> None:
    store, table = await alices_move_lost(landed=True)
    store.down = True
    posted = len(table.poster.posts)
    await table.clock.advance(STORE_RETRY_SECONDS)
    with pytest.raises(SessionError) as refused:  # no read back: nothing else is written
        await table.registry.act(CHANNEL, ALICE.id, Add(2))
    assert refused.value.key == "error.storage"
    assert len(table.poster.posts) == posted
    store.down = False
    await table.clock.advance(STORE_RETRY_SECONDS)
    assert "total 2" in table.poster.posts[-1].content
    await table.registry.close()


async def test_an_end_whose_answer_was_lost_is_announced_once_read_back() -> None:
    store = AnswerLosingStore()
    table = Harness(store)
    await start_two(table)
    store.lose = True
    with pytest.raises(SessionError) as refused:
        await table.registry.end(CHANNEL, CAROL.id, moderator=True)
    assert refused.value.key == "error.storage_uncertain"
    await table.clock.advance(STORE_RETRY_SECONDS)
    assert table.registry.get(CHANNEL) is None and await table.stored() is None
    assert f"<@{CAROL.id}>" in table.poster.posts[-1].content
    assert table.poster.stripped[-1] == table.message_id  # the last table's buttons go
    await table.registry.close()


async def test_a_lobby_whose_answer_was_lost_and_landed_is_opened_once_read_back() -> None:
    store = AnswerLosingStore()
    table = Harness(store)
    store.lose = True
    with pytest.raises(SessionError) as refused:
        await table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3)
    assert refused.value.key == "error.storage_uncertain"
    await table.clock.advance(STORE_RETRY_SECONDS)
    session = table.registry.get(CHANNEL)  # not a stored lobby nobody can reach
    assert session is not None and session.is_lobby
    assert "Waiting for 2 more" in table.poster.posts[-1].content
    await table.answered(table.registry.join(CHANNEL, BOB))
    await table.registry.close()


async def test_a_lost_answer_that_did_not_land_never_shows_its_table_later() -> None:
    # The read-back asks whether the store holds what the lost write made, not merely
    # something else: here a lobby opened since then.
    store = AnswerLosingStore()
    table = Harness(store)
    store.lose = False
    with pytest.raises(SessionError):
        await table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2, bots=1)
    # Bob opens a lobby before the read-back: the store holds it, not the lost deal.
    lobby = await table.answered(table.registry.open_lobby(CHANNEL, GUILD, "count", BOB, players=3))
    assert lobby is not None and "Waiting for 2 more" in lobby.content
    await table.clock.advance(STORE_RETRY_SECONDS)
    assert table.poster.posts == []
    session = table.registry.get(CHANNEL)
    assert session is not None and session.is_lobby and session.version == lobby.version
    await table.registry.close()


async def test_a_new_game_refused_by_another_writer_keeps_the_finished_table_expiring() -> None:
    store = DownStore()
    table = Harness(store)
    final = await finish_two(table)
    [kept] = await store.load_active()
    # Another process (a mistaken second writer) put its own record in the channel.
    await store.save(replace(kept, version=kept.version + 50), expected_version=kept.version)
    with pytest.raises(SessionError) as refused:
        await table.registry.deal_again(CHANNEL, ALICE.id, version=final.version)
    assert refused.value.key == "error.busy_elsewhere"
    assert table.registry.get(CHANNEL) is None  # its session is not taken over
    assert table.registry.finished.get(CHANNEL) is not None
    await table.clock.advance(DEAL_AGAIN_SECONDS)
    assert table.registry.finished.get(CHANNEL) is None  # its expiry still ran
    await table.registry.close()


async def test_a_finished_table_expiring_while_the_store_is_down_is_dropped_later() -> None:
    store = DownStore()
    table = Harness(store)
    await finish_two(table)
    store.down = True
    await table.clock.advance(DEAL_AGAIN_SECONDS)
    store.down = False
    assert await dormant(table)  # still stored: it would hold the channel against new games
    await table.clock.advance(STORE_RETRY_SECONDS)
    assert await table.stored() is None
    assert table.registry.finished.get(CHANNEL) is None
    await table.answered(table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2))
    await table.registry.close()


async def test_a_timer_does_not_apply_a_move_it_cannot_save_and_tries_again_later() -> None:
    store = DownStore()
    table = Harness(store)
    await start_two(table)
    store.down = True
    await table.clock.advance(60)  # Alice's time is up, but the timeout cannot be saved
    assert table.poster.posts == [] and store.refused == 1
    session = table.registry.get(CHANNEL)
    assert session is not None and session.state is not None
    assert session.state.view(None)[0] == 0 and session.seats[0].timeouts == 0
    await table.clock.advance(STORE_RETRY_SECONDS - 0.5)
    assert store.refused == 1  # no tight loop against a database that is down
    await table.clock.advance(0.5)
    assert store.refused == 2  # tried once more
    store.down = False
    await table.clock.advance(STORE_RETRY_SECONDS)
    [post] = table.poster.posts  # applied once, when it could be saved
    assert "Alice ran out of time" in post.content
    stored = await table.stored()
    assert stored is not None and stored.data["state"]["total"] == 1
    await table.registry.close()


async def test_what_a_game_carries_into_the_next_deal_survives_a_restart(table: Harness) -> None:
    final = await finish_two(table)  # Bob (seat 1) wins
    await table.registry.close()
    stored = await table.stored()
    assert stored is not None and stored.data["options"] == {"target": 3, "last_winner": 1}
    again = Harness(table.store)
    await again.registry.restore_all()
    reply = await again.registry.deal_again(CHANNEL, ALICE.id, version=final.version)
    assert reply.post is not None
    session = again.registry.get(CHANNEL)
    assert session is not None and session.options == {"target": 3, "last_winner": 1}
    stored = await again.stored()
    assert stored is not None and stored.data["options"] == session.options
    await again.registry.close()


class BrokenNextOptions(CountAdapter):
    """Working out the next deal's options fails (a bug in a game's adapter)."""

    def next_options(self, state: CountState, options: Mapping[str, Any]) -> dict[str, Any]:
        raise KeyError("adapter bug")


async def test_a_game_whose_next_options_fail_records_nothing(table: Harness) -> None:
    # next_options runs before the game's end is written, like the table's drawing.
    table.games.register(BrokenNextOptions())
    await start_two(table, target=3)
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(2)))
    before = await table.stored()
    with pytest.raises(KeyError):
        await table.registry.act(CHANNEL, BOB.id, Add(1))
    assert await table.stored() == before and table.store.finished == []
    session = table.registry.get(CHANNEL)
    assert session is not None and isinstance(session.state, CountState)
    assert session.state.total == 2 and not session.state.is_over


# -- computer levels -------------------------------------------------------------------------


def count_adapter(table: Harness) -> CountAdapter:
    adapter = table.games.get("count")
    assert isinstance(adapter, CountAdapter)
    return adapter


async def open_against_computers(table: Harness, level: str, **options: Any) -> None:
    """Alice and two computers at ``level``; Alice adds 1 and the computers play."""
    await table.answered(
        table.registry.open_lobby(
            CHANNEL, GUILD, "count", ALICE, players=3, bots=2, level=level, options=options
        )
    )
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    await table.clock.advance(1)


async def test_the_level_is_given_to_the_deal_and_every_computer_move(table: Harness) -> None:
    await open_against_computers(table, "hard", target=50)
    adapter = count_adapter(table)
    assert adapter.dealt_levels == [Level.HARD]
    assert [(seat, level) for seat, level, _ in adapter.asked] == [
        (1, Level.HARD),
        (2, Level.HARD),
    ]
    session = table.registry.get(CHANNEL)
    assert session is not None and session.level is Level.HARD
    # Each move draws from its own stream: two computers do not share one.
    draws = [draw for _, _, draw in adapter.asked]
    assert draws[0] != draws[1]


async def test_the_computers_choices_are_the_same_on_a_replay_and_leave_the_game_alone() -> None:
    """Two runs of the same table ask the computers with the same random draws; the draws
    come from the session, not the global ``random`` nor the game's own stream."""
    runs = []
    for _ in range(2):
        table = Harness()
        random.seed(len(runs))  # a different global stream each run: it must not matter
        await open_against_computers(table, "easy", target=50)
        runs.append(count_adapter(table).asked)
        await table.registry.close()
    assert runs[0] == runs[1] and len(runs[0]) == 2


async def test_a_computer_seat_shows_its_level_in_the_tables_language(table: Harness) -> None:
    await open_against_computers(table, "hard", target=50)
    [post] = table.poster.posts
    assert post.content.startswith("AI 2 (hard) +2\nAI 3 (hard) +2\n")
    session = table.registry.get(CHANNEL)
    assert session is not None
    session.locale = "ko"
    assert session.names == ["Alice", "AI 2 (고수)", "AI 3 (고수)"]


async def test_a_normal_table_names_its_computers_as_ever(table: Harness) -> None:
    await open_against_computers(table, "normal", target=50)
    session = table.registry.get(CHANNEL)
    assert session is not None and session.names == ["Alice", "Computer 2", "Computer 3"]
    assert count_adapter(table).dealt_levels == [Level.NORMAL]


async def test_a_seat_handed_to_a_computer_plays_at_the_tables_level_and_says_who_left(
    table: Harness,
) -> None:
    await table.answered(
        table.registry.open_lobby(
            CHANNEL, GUILD, "count", ALICE, players=2, level="easy", options={"target": 50}
        )
    )
    post = await table.answered(table.registry.join(CHANNEL, BOB))
    assert post is not None and "Computer players: easy" not in post.content  # no computer
    await table.answered(table.registry.kick(CHANNEL, BOB.id))
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    await table.clock.advance(1)
    assert [(seat, level) for seat, level, _ in count_adapter(table).asked] == [(1, Level.EASY)]
    # Played at the table's level, and shown as the member who left, never as a level.
    assert table.poster.posts[-1].content.startswith("Bob (left) +2")


async def test_a_long_name_gives_way_to_its_tag_within_a_tables_columns(
    table: Harness,
) -> None:
    await table.answered(
        table.registry.open_lobby(
            CHANNEL, GUILD, "count", Player(104, "가나다라마바사아자차"), players=2, level="hard"
        )
    )
    await table.answered(table.registry.join(CHANNEL, BOB))
    await table.answered(table.registry.kick(CHANNEL, 104))
    session = table.registry.get(CHANNEL)
    assert session is not None
    shown = session.names[0]
    assert shown.endswith(" (left)") and columns(shown) <= TABLE_NAME_COLUMNS
    assert block_name(shown) == shown  # the table's own clipping leaves the tag be


async def test_the_lobby_says_how_well_its_computers_play(table: Harness) -> None:
    post = await table.answered(
        table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=3, bots=1, level="hard")
    )
    assert post is not None and "Seat 3: computer\nComputer players: hard\n" in post.content


async def test_an_unknown_level_is_refused_and_opens_nothing(table: Harness) -> None:
    with pytest.raises(SessionError) as refused:
        await table.registry.open_lobby(
            CHANNEL, GUILD, "count", ALICE, players=2, bots=1, level="impossible"
        )
    assert refused.value.key == "error.level"
    assert "easy, normal, hard" in t(refused.value.key, "en", **refused.value.params)
    assert table.registry.get(CHANNEL) is None and await table.stored() is None


async def test_the_level_survives_a_restart_and_deal_again(table: Harness) -> None:
    await open_against_computers(table, "hard", target=4)
    # Alice 1, AI 2 +2, AI 3 +2 = 5: the game is over, its table kept for "Deal again".
    assert table.registry.get(CHANNEL) is None
    final = table.poster.posts[-1]
    await table.registry.close()
    again = Harness(table.store)
    again.clock.now = table.clock.now + 60
    await again.registry.restore_all()
    reply = await again.registry.deal_again(CHANNEL, ALICE.id, version=final.version)
    assert reply.post is not None
    session = again.registry.get(CHANNEL)
    assert session is not None and session.level is Level.HARD
    assert count_adapter(again).dealt_levels == [Level.HARD]
    await again.registry.close()
    # And a running game's restart: the computers play on at hard.
    third = Harness(again.store)
    assert await third.registry.restore_all() == 1
    restored = third.registry.get(CHANNEL)
    assert restored is not None and restored.level is Level.HARD
    assert restored.names[1:] == ["AI 2 (hard)", "AI 3 (hard)"]
    await third.registry.close()


async def test_a_game_saved_before_levels_existed_loads_as_normal(table: Harness) -> None:
    await start_two(table, target=50)
    stored = await table.stored()
    assert stored is not None and stored.data["level"] == "normal"
    await table.registry.close()
    older = {key: value for key, value in stored.data.items() if key != "level"}
    record = ActiveGame(CHANNEL, GUILD, "count", stored.version + 1, older)
    await table.store.save(record, expected_version=stored.version)
    again = Harness(table.store)
    assert await again.registry.restore_all() == 1
    session = again.registry.get(CHANNEL)
    assert session is not None and session.level is Level.NORMAL
    await again.registry.close()


class SlowHardComputer(CountAdapter):
    """A hard player that never decides in time (and the thread it ran on)."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.threads: list[str] = []

    def computer_seconds(self, level: Level) -> float | None:
        return 0.05 if level is Level.HARD else None

    def computer_action(
        self,
        state: CountState,
        seat: int,
        level: Level = Level.NORMAL,
        rng: random.Random | None = None,
    ) -> Action:
        self.threads.append(threading.current_thread().name)
        if level is Level.HARD:
            self.release.wait()
        return Add(2)


@pytest.mark.parametrize("level", ["normal", "hard"])
async def test_only_a_hard_computer_thinks_off_the_event_loop_and_is_cut_short(
    level: str,
) -> None:
    table = Harness()
    adapter = SlowHardComputer()
    table.games.register(adapter)
    try:
        await table.answered(
            table.registry.open_lobby(
                CHANNEL, GUILD, "count", ALICE, players=2, bots=1, level=level
            )
        )
        await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
        await table.clock.advance(1)
        if level == "hard":
            # The burst waits out the limit in real time, then plays the safe move.
            [burst] = [t for t in asyncio.all_tasks() if t.get_name() == f"computer-{CHANNEL}"]
            await burst
        [post] = table.poster.posts
        on_loop = threading.current_thread().name
        if level == "hard":
            assert adapter.threads != [on_loop] and post.content.startswith("AI 2 (hard) +1")
        else:
            assert adapter.threads == [on_loop] and post.content.startswith("Computer 2 +2")
    finally:
        adapter.release.set()
        await table.registry.close()


async def test_a_deal_the_engine_refuses_opens_nothing(table: Harness) -> None:
    """Blackjack's engine refuses a level it does not know; the start is refused whole."""
    with pytest.raises(IllegalAction):
        await table.registry.open_lobby(
            CHANNEL, GUILD, "count", ALICE, players=2, bots=1, level="easy", options={"no_easy": 1}
        )
    assert table.registry.get(CHANNEL) is None and await table.stored() is None
    post = await table.answered(
        table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2, bots=1)
    )
    assert post is not None and "total 0" in post.content


@pytest.mark.parametrize("how", ["join", "start"])
async def test_a_deal_refused_when_the_lobby_fills_leaves_the_lobby_as_it_was(
    table: Harness, how: str
) -> None:
    """The deal that the last seat (or the host's Start) sets off is refused: the lobby stays
    as stored, in memory too (no seat taken, no computer seated, its size unchanged)."""
    options = {"no_easy": 1}
    await table.answered(
        table.registry.open_lobby(
            CHANNEL, GUILD, "count", ALICE, players=3, bots=1, level="easy", options=options
        )
    )
    if how == "join":
        with pytest.raises(IllegalAction):
            await table.registry.join(CHANNEL, BOB)
    else:
        with pytest.raises(IllegalAction):
            await table.registry.start(CHANNEL, ALICE.id)
    session = table.registry.get(CHANNEL)
    assert session is not None and session.is_lobby
    assert [seat.member_id for seat in session.seats] == [ALICE.id]
    assert session.players == 3
    stored = await table.stored()
    assert stored is not None and stored.version == session.version
    assert stored.data["players"] == 3 and len(stored.data["seats"]) == 1


def test_restoring_pauses_cyclic_collection_and_gives_it_back() -> None:
    import gc

    from bot.sessions.registry import collections_paused

    assert gc.isenabled()
    with pytest.raises(RuntimeError), collections_paused():
        assert not gc.isenabled()
        raise RuntimeError("a restore that failed half-way")
    assert gc.isenabled()
    gc.disable()
    try:
        with collections_paused():
            pass
        assert not gc.isenabled()  # a caller that had it off keeps it off
    finally:
        gc.enable()


async def test_an_unrestorable_game_is_set_aside_once_though_the_store_was_down_meanwhile(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """First use finds the damage with the store down: one ERROR, the set-aside waits. A
    moderator's End fails the same way and rolls the session back (a new object from the
    same record); the next use finds the damage again, and says nothing more. Once the
    store answers, the record is set aside and the channel freed, told once."""
    store = DownStore()
    table = Harness(store)
    await start_two(table)
    await table.registry.close()
    [record] = await store.load_active()
    damaged = {**record.data, "state": {**record.data["state"], "target": None}}
    del damaged["state"]["target"]
    await store.save(
        replace(record, version=record.version + 1, data=damaged, text=None),
        expected_version=record.version,
    )
    again = Harness(store)
    assert await again.registry.restore_all() == 1
    store.down = True
    for _ in range(2):
        with pytest.raises(SessionError) as refused:
            await again.registry.act(CHANNEL, ALICE.id, Add(1))
        assert refused.value.key == "error.unrestorable"
        with pytest.raises(SessionError):  # a moderator's End: the store is down
            await again.registry.end(CHANNEL, CAROL.id, moderator=True)
    assert again.registry.get(CHANNEL) is not None  # held until the record is moved
    store.down = False
    await again.clock.advance(STORE_RETRY_SECONDS)
    assert again.registry.get(CHANNEL) is None
    [kept] = await store.set_aside_games()
    assert kept.game.version == record.version + 1 and "KeyError" in kept.reason
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "cannot be restored" in errors[0]
    told = [p.content for p in again.poster.posts]
    assert told == [t("game.set_aside", "en", game=t("game.count", "en"))]
    # A new game opens where it was.
    await again.answered(again.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2))
    assert again.registry.get(CHANNEL) is not None
    await again.registry.close()


async def test_a_confirmed_leave_holds_while_the_same_game_goes_on(table: Harness) -> None:
    """The member confirmed leaving at version v: moves since do not spoil it, but a game
    opened after it (a new lobby, a Deal again) is not the game they meant to leave."""
    await start_two(table)
    registry = table.registry
    session = registry.get(CHANNEL)
    assert session is not None
    asked_at = session.version
    await table.answered(registry.act(CHANNEL, ALICE.id, Add(1)))
    assert session.version > asked_at
    await table.answered(registry.leave(CHANNEL, BOB.id, asked_at=asked_at))
    assert session.seats[1].computer
    await registry.end(CHANNEL, 999, moderator=True)
    await start_two(table)
    with pytest.raises(SessionError) as refused:
        await registry.leave(CHANNEL, BOB.id, asked_at=asked_at)
    assert refused.value.key == "error.stale_button"
    later = registry.get(CHANNEL)
    assert later is not None and later.opened > asked_at and not later.seats[1].computer


async def test_a_seat_that_plays_again_has_a_new_turn_and_is_told(table: Harness) -> None:
    """One Card's K: the same seat moves again. Its deadline is whole again and the member
    is pinged, where a step within one turn (same seat, nothing said) keeps both."""
    from rules.onecard.events import PlayAgain

    await start_two(table)
    registry = table.registry
    session = registry.get(CHANNEL)
    assert session is not None and session.state is not None
    seat = session.state.current_seat
    assert session.deadline_seat == seat and session.deadline is not None
    assert not registry.turns.new_turn(session, [Added(0, 1, 1)])
    assert registry.turns.new_turn(session, [PlayAgain(seat)])
    # The table that says so pings the member whose turn it is again, with a whole turn.
    deadline = session.deadline
    await table.clock.advance(5)
    reply = await registry.commit(session, [PlayAgain(seat)], [])
    assert reply.post is not None and reply.post.mention == session.seats[seat].member_id
    assert f"<@{session.seats[seat].member_id}>, your turn." in reply.post.content
    assert session.deadline == deadline + 5
    quiet = await registry.commit(session, [], [])  # a change that gives no new turn
    assert quiet.post is not None and quiet.post.mention is None
