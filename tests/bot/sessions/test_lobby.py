"""bot.sessions.lobby: opening a lobby, joining, starting early, closing it, and the
deal that fills it.
"""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.i18n import t
from bot.sessions import SessionError
from bot.store.base import GuildSettings
from rules.engine import IllegalAction
from tests.bot.sessions.harness import ALICE, BOB, CAROL, CHANNEL, GUILD, Harness, behind_its_back
from tests.reference_game import Add


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


async def test_a_game_the_guild_does_not_allow_cannot_be_opened(table: Harness) -> None:
    await table.store.save_guild_settings(GuildSettings(GUILD, allowed_games=("uno",)))
    with pytest.raises(SessionError) as refused:
        await table.registry.open_lobby(CHANNEL, GUILD, "count", ALICE, players=2)
    assert refused.value.key == "error.game_not_allowed"
    assert refused.value.params == {"game": "count"}
    assert table.registry.get(CHANNEL) is None and await table.stored() is None


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
