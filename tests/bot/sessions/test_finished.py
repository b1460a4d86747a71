"""bot.sessions.finished: a finished table kept for "Deal again", its expiry, and what a game
carries into the next deal.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from bot.sessions import DEAL_AGAIN_SECONDS, Post, SessionError
from bot.sessions.core import STORE_RETRY_SECONDS
from bot.store.base import GuildSettings
from tests.bot.sessions.harness import ALICE, BOB, CAROL, CHANNEL, GUILD, Harness, start_two
from tests.bot.store.fakes import DownStore
from tests.reference_game import Add, CountAdapter, CountState


async def dormant(table: Harness) -> bool:
    """Whether the store keeps only a finished table's seats (no game) for the channel."""
    stored = await table.stored()
    return stored is not None and stored.data["state"] is None and "finished_at" in stored.data


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
