"""bot.sessions.clock: turn deadlines, reminders and timeouts, computer moves and their
levels, and posting a table again when Discord did not take it.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bot.sessions import TIMEOUTS_BEFORE_COMPUTER
from bot.sessions.core import STORE_RETRY_SECONDS
from bot.sessions.model import REPOST_DELAYS
from bot.store.base import GuildSettings
from rules.engine import Action, Event, IllegalAction
from rules.levels import Level
from tests.bot.sessions.harness import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    Harness,
    count_adapter,
    open_against_computers,
    start_two,
)
from tests.bot.store.fakes import DownStore
from tests.reference_game import Add, Added, CountAdapter, CountState


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


async def test_guild_turn_time_overrides_the_game_default(table: Harness) -> None:
    await table.store.save_guild_settings(GuildSettings(GUILD, turn_seconds=20))
    await start_two(table)
    await table.clock.advance(20)
    assert len(table.poster.posts) == 1


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
