"""Blackjack through the real sessions: seeded deals, timeouts, hand-over and results."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.games import GameCatalog
from bot.i18n import t
from bot.sessions import Player, Post, SessionError, SessionRegistry
from bot.settings import Settings
from bot.store.memory import MemoryStore
from cogs.blackjack import BlackjackAdapter
from rules.blackjack import state as engine
from rules.blackjack.events import Hit, Stand
from tests.deals import fair_blackjack_deals

CHANNEL = 7
ALICE = Player(1, "Alice")
BOB = Player(2, "Bob")


class Poster:
    def __init__(self) -> None:
        self.posts: list[Post] = []

    async def post(self, post: Post) -> int | None:
        self.posts.append(post)
        return len(self.posts)

    async def strip(self, channel_id: int, message_id: int, note: str | None = None) -> None:
        return None

    async def ping(self, channel_id: int, member_id: int, text: str) -> None:
        return None


def registry(store: MemoryStore, poster: Poster, sleeps: list[float]) -> SessionRegistry:
    games = GameCatalog()
    games.register(BlackjackAdapter())

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        await asyncio.sleep(0)

    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    return SessionRegistry(store=store, settings=settings, poster=poster, games=games, sleep=sleep)


def first_seed_without_house_blackjack(players: int) -> int:
    for seed in range(100):
        if not engine.new(players, seed=seed).is_over:
            return seed
    raise AssertionError("no seed")


async def test_a_seeded_table_plays_to_a_recorded_result(monkeypatch: pytest.MonkeyPatch) -> None:
    # "Deal again" deals fairly (no seed): fixed here, so it never ends at once by chance.
    fair_blackjack_deals(monkeypatch, players=3)
    store, poster, sleeps = MemoryStore(), Poster(), []
    sessions = registry(store, poster, sleeps)
    seed = first_seed_without_house_blackjack(3)
    reply = await sessions.open_lobby(
        CHANNEL, 1, "blackjack", ALICE, players=3, bots=2, member_seed=seed
    )
    assert reply.post is not None
    seeded, dealt = reply.post.content.splitlines()[:2]
    assert seeded == t("fair.seeded", "en", seed=seed)  # practice, said in public
    assert dealt.startswith("The cards are dealt; the House shows ")
    assert "House: HIDDEN, " in reply.post.content
    expected = engine.new(3, seed=seed, options={"computers": [1, 2]})
    session = sessions.get(CHANNEL)
    assert session is not None and session.state is not None
    assert session.state.snapshot() == expected.snapshot()
    reply = await sessions.act(CHANNEL, ALICE.id, ("stand", None))
    expected_events = expected.apply(0, Stand())
    assert reply.post is not None
    assert "Alice stands on" in reply.post.content
    assert sessions.get(CHANNEL) is None  # the computers and the House played at once
    [finished] = store.finished
    result = expected.result
    assert result is not None and expected_events[-1].result == result  # type: ignore[attr-defined]
    assert [s.outcome for s in finished.seats] == [o.value for o in result.outcomes]
    assert finished.seeded  # recorded, never counted
    assert t("fair.seeded", "en", seed=seed) in reply.post.content  # the final table says so
    assert [c.action for c in reply.post.controls] == ["again"]
    again = await sessions.deal_again(CHANNEL, ALICE.id, version=reply.post.version)
    assert again.post is not None
    # Nothing of a finished Blackjack game carries into the next deal.
    dealt = sessions.get(CHANNEL)
    assert dealt is not None and dealt.options == session.options == {}
    await sessions.close()


async def test_hit_is_refused_after_the_game_or_out_of_turn() -> None:
    store, poster, sleeps = MemoryStore(), Poster(), []
    sessions = registry(store, poster, sleeps)
    seed = first_seed_without_house_blackjack(2)
    await sessions.open_lobby(CHANNEL, 1, "blackjack", ALICE, players=2, member_seed=seed)
    await sessions.join(CHANNEL, BOB)
    with pytest.raises(SessionError) as refused:
        await sessions.act(CHANNEL, BOB.id, Hit())
    assert refused.value.key == "error.not_your_turn"
    await sessions.close()


async def test_leaving_hands_the_seat_to_the_engines_computer() -> None:
    store, poster, sleeps = MemoryStore(), Poster(), []
    sessions = registry(store, poster, sleeps)
    seed = first_seed_without_house_blackjack(2)
    await sessions.open_lobby(CHANNEL, 1, "blackjack", ALICE, players=2, member_seed=seed)
    await sessions.join(CHANNEL, BOB)
    reply = await sessions.leave(CHANNEL, ALICE.id)
    assert reply.post is not None
    assert "Alice left; a computer plays their seat now." in reply.post.content
    session = sessions.get(CHANNEL)
    assert session is not None and session.state is not None
    assert session.state.current_seat == 1  # the computer played Alice's turn at once
    state: Any = session.state
    assert state.is_computer(0)
    assert session.seats[0].computer and session.seats[0].member_id == ALICE.id
    await sessions.close()


def test_a_timed_out_seat_stands() -> None:
    assert BlackjackAdapter().timeout_action(None, 0) == Stand()
    assert BlackjackAdapter().parse("hit", None) == Hit()
