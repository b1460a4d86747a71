"""bot.sessions.core: the commit path (render, save, answer), versions, channel locks,
rolling back and reading back when the store refuses or loses an answer, setting aside.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace

import pytest

from bot.games import Rendered
from bot.i18n import t
from bot.sessions import SessionError
from bot.sessions.core import STORE_RETRY_SECONDS, VERSION_EPOCH
from bot.store import StoreUnavailable
from bot.store.base import ActiveGame
from rules.engine import Event
from tests.bot.sessions.harness import ALICE, BOB, CAROL, CHANNEL, GUILD, Harness, settle, start_two
from tests.bot.store.fakes import AnswerLosingStore, DownStore, WriteCountingStore
from tests.reference_game import Add, CountAdapter, CountState


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


class BrokenTable(CountAdapter):
    """Drawing the table fails (a bug in a renderer)."""

    def table(
        self,
        view: tuple[int, int | None, int | None],
        events: Sequence[Event],
        names: Sequence[str],
        locale: str,
    ) -> Rendered:
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
