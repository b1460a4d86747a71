"""bot.sessions.play: moves, leaving, kicks, ending a game and the private hand."""

from __future__ import annotations

import logging

import pytest

from bot.i18n import t
from bot.sessions import SessionError
from bot.verify import verify_command
from rules.engine import IllegalAction
from tests.bot.sessions.harness import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    Harness,
    behind_its_back,
    start_two,
)
from tests.bot.store.fakes import DownStore
from tests.reference_game import Add, Cheer, CountState


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


async def test_the_previous_table_loses_its_buttons(table: Harness) -> None:
    await start_two(table)
    first = table.message_id
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    assert first in table.poster.stripped


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
