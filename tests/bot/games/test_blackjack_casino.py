"""A casino Blackjack table through the real sessions: the option, Double and Split as moves,
the table that says so, refusals at a classic table, and Deal again keeping the rules."""

from __future__ import annotations

import functools
import random

import pytest

from bot.games.blackjack import ADAPTER, table_options
from bot.i18n import refusal, t
from bot.store.memory import MemoryStore
from rules.blackjack import ai
from rules.blackjack import state as engine
from rules.blackjack.events import Double, Split, Stand
from rules.engine import IllegalAction
from rules.levels import Level
from tests.bot.games.test_blackjack import ALICE, CHANNEL, Poster, registry
from tests.deals import fair_blackjack_deals

CASINO = {"ruleset": "casino"}


def seed_with_a_pair(players: int, computers: list[int]) -> int:
    """The first seed whose casino deal lets seat 1 split."""
    for seed in range(2000):
        state = engine.new(players, seed=seed, options={**CASINO, "computers": computers})
        if not state.is_over and Split() in state.legal_actions(0):
            return seed
    raise AssertionError("no seed")


def test_the_adapters_computer_plays_at_the_level_it_is_given() -> None:
    """``computer_action`` is the engine's own player at each level, its coin drawn from the
    rng it is handed and never from the game's stream (the state is left as it was)."""
    moves: dict[Level, list[object]] = {level: [] for level in Level}
    for seed in range(60):
        state = engine.new(2, seed=seed, options=CASINO)
        seat = state.current_seat
        if seat is None:
            continue  # the House's Blackjack ended the deal
        before = state.snapshot()
        for level in Level:
            coin = functools.partial(random.Random(f"{seed} {level}").randrange, 2)
            expected = ai.choose_action(state.view(seat), coin, level)
            move = ADAPTER.computer_action(state, seat, level, random.Random(f"{seed} {level}"))
            assert move == expected, (seed, level)
            moves[level].append(move)
        assert state.snapshot() == before
    assert moves[Level.EASY] != moves[Level.HARD]


def test_the_start_option_names_the_rules() -> None:
    assert table_options("seed") == {}  # a classic table deals with the options it always had
    assert table_options("casino") == CASINO
    assert ADAPTER.parse("double", None) == Double()
    assert ADAPTER.parse("split", None) == Split()
    assert ADAPTER.timeout_moves == 2  # a seat that split stands both hands when time runs out


async def test_a_member_splits_and_doubles_at_a_casino_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fair_blackjack_deals(monkeypatch, players=2)  # Deal again deals fairly: keep it playable
    store, poster, sleeps = MemoryStore(), Poster(), []
    sessions = registry(store, poster, sleeps)
    seed = seed_with_a_pair(2, [1])
    reply = await sessions.open_lobby(
        CHANNEL, 1, "blackjack", ALICE, players=2, bots=1, member_seed=seed, options=CASINO
    )
    assert reply.post is not None
    assert t("bj.rules_casino", "en") in reply.post.content.splitlines()
    actions = [c.action for c in reply.post.controls]
    assert actions == ["hand", "hit", "stand", "double", "split"]

    reply = await sessions.act(CHANNEL, ALICE.id, ("split", None))
    assert reply.post is not None
    content = reply.post.content
    assert "Alice splits: " in content
    assert "> Alice: Split" in content and "  > Hand 1: " in content and "    Hand 2: " in content
    assert [c.action for c in reply.post.controls] == ["hand", "hit", "stand", "double"]
    session = sessions.get(CHANNEL)
    assert session is not None and session.state is not None
    assert session.state.view(0).playing == 0

    reply = await sessions.act(CHANNEL, ALICE.id, ("double", None))
    assert reply.post is not None and "Alice doubles hand 1: " in reply.post.content
    assert "    Hand 1: " in reply.post.content and "  > Hand 2: " in reply.post.content
    reply = await sessions.act(CHANNEL, ALICE.id, Stand())
    assert reply.post is not None
    assert sessions.get(CHANNEL) is None  # the computer and the House played at once
    final = reply.post.content
    assert "    [" in final and "] Hand 2: " in final  # each split hand's own result
    [finished] = store.finished
    assert finished.seats[0].outcome in ("win", "lose", "draw")
    assert [c.action for c in reply.post.controls] == ["again"]

    again = await sessions.deal_again(CHANNEL, ALICE.id, version=reply.post.version)
    assert again.post is not None
    dealt = sessions.get(CHANNEL)
    assert dealt is not None and dealt.options == CASINO  # Deal again keeps the rules
    assert dealt.state is not None and dealt.state.view(None).casino
    assert t("bj.rules_casino", "en") in again.post.content
    await sessions.close()


async def test_a_classic_table_refuses_double_and_split_and_says_why() -> None:
    store, poster, sleeps = MemoryStore(), Poster(), []
    sessions = registry(store, poster, sleeps)
    seed = next(s for s in range(100) if not engine.new(2, seed=s).is_over)
    reply = await sessions.open_lobby(
        CHANNEL, 1, "blackjack", ALICE, players=2, bots=1, member_seed=seed
    )
    assert reply.post is not None
    assert t("bj.rules_casino", "en") not in reply.post.content
    assert [c.action for c in reply.post.controls] == ["hand", "hit", "stand"]
    session = sessions.get(CHANNEL)
    assert session is not None
    version = session.version
    for verb in ("double", "split"):
        with pytest.raises(IllegalAction) as refused:
            await sessions.act(CHANNEL, ALICE.id, (verb, None))
        assert refused.value.code == "casino_only"
        assert refusal(refused.value, "ko", "blackjack") == t("illegal.blackjack.casino_only", "ko")
    assert session.version == version  # nothing changed
    await sessions.close()


async def test_the_lobby_says_the_table_plays_casino_rules() -> None:
    store, poster, sleeps = MemoryStore(), Poster(), []
    sessions = registry(store, poster, sleeps)
    reply = await sessions.open_lobby(
        CHANNEL, 1, "blackjack", ALICE, players=2, member_seed=5, options=CASINO, locale="ko"
    )
    assert reply.post is not None
    assert t("blackjack.option.ruleset.casino", "ko") in reply.post.content.splitlines()
    await sessions.close()


@pytest.mark.parametrize("kind", ["korean", "markdown"])
@pytest.mark.parametrize("locale", ["en", "ko"])
def test_every_casino_message_is_one_discord_accepts(locale: str, kind: str) -> None:
    """As tests/bot/test_messages_fit.py does for every game, with casino tables: seven
    seats splitting and doubling at random, extreme names, every public table and hand."""
    from bot.sessions.model import Post, compose
    from tests.bot.test_messages_fit import NAMES, assert_fits, names, reveal
    from tests.language import english_words
    from tests.phone import assert_tables_fit_phone

    assert kind in NAMES
    pick = random.Random(f"{locale}{kind}")
    korean = locale == "ko" and kind == "korean"  # names of Latin letters aside
    seated = names(kind, engine.MAX_PLAYERS)
    splits = 0
    for seed in range(12):
        state, events = ADAPTER.new(7, seed, CASINO, [2, 5], secret=True)
        while True:
            table = ADAPTER.table(state.view(None), events, seated, locale)
            closing = [reveal("blackjack", 7, CASINO, locale)]
            public = compose(table, ["notice"], None, locale, closing)
            assert_fits(Post(1, 1, public, table.controls, locale, "blackjack"), closing[0])
            assert_tables_fit_phone(public)
            assert not korean or english_words(compose(table, locale=locale)) == []
            for seat in range(7):
                hand = ADAPTER.hand(state.view(seat), seated, locale)
                assert_tables_fit_phone(compose(hand, locale=locale))
                assert not korean or english_words(compose(hand, locale=locale)) == []
                assert_fits(Post(1, 1, compose(hand, locale=locale), hand.controls, locale))
            if state.is_over:
                break
            seat = state.current_seat
            legal = state.legal_actions(seat)
            action = Split() if Split() in legal else pick.choice(legal)
            splits += action == Split()
            events = state.apply(seat, action)
    assert splits
