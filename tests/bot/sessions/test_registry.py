"""bot.sessions.registry: restoring sessions after a restart, shards, and closing."""

from __future__ import annotations

import pytest

from rules.levels import Level
from tests.bot.sessions.harness import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    Harness,
    count_adapter,
    open_against_computers,
    start_two,
)
from tests.reference_game import Add


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


async def test_a_click_on_the_live_table_names_it_once_it_is_published(table: Harness) -> None:
    """A restored session names the table before the live one (a table's id is saved with the
    move after it): a click with the live version names the clicked message instead. A table
    whose answer is still on its way is not taken: retiring the one before it is still to do."""
    await start_two(table)
    session = table.registry.get(CHANNEL)
    assert session is not None
    shown = session.message_id
    assert not table.registry.clicked_live(CHANNEL, session.version - 1, 999)  # an older table
    assert table.registry.clicked_live(CHANNEL, session.version, 999)
    assert session.message_id == 999
    session.message_id = shown
    reply = await table.registry.act(CHANNEL, ALICE.id, Add(1))  # saved, not yet published
    assert reply.post is not None and not session.published.is_set()
    assert not table.registry.clicked_live(CHANNEL, session.version, 1000)
    await table.registry.published(reply.post, 1000)
    assert session.message_id == 1000 and table.poster.stripped[-1] == shown


async def test_a_click_on_a_finished_table_names_it_too(table: Harness) -> None:
    """Deal again is clicked on the finished table: it is the one the new deal retires."""
    await start_two(table, target=1)
    await table.answered(table.registry.act(CHANNEL, ALICE.id, Add(1)))
    assert table.registry.get(CHANNEL) is None
    finished = table.registry.finished.get(CHANNEL)
    assert finished is not None
    assert table.registry.clicked_live(CHANNEL, finished.version, 777)
    assert finished.message_id == 777
