"""Crazy Eights' adapter and cog: parsing, the safe move, the table's buttons, the hand's
menus, the card drawn told to the member alone, autocomplete, leaving, registration."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import Any

import pytest

import rules.crazyeights as ce
from bot.games import GameCatalog, Menu, Scores
from bot.games.crazyeights import ADAPTER, play_arg
from bot.i18n import t
from bot.sessions import Player, Post, SessionError, SessionRegistry
from bot.settings import Settings
from bot.store.memory import MemoryStore
from cogs.common.buttons import GameButton, MoveMenu
from cogs.crazyeights import cog
from rules.cards import STANDARD_DECK, Card, Suit, parse_card
from rules.engine import GameOver, IllegalAction
from rules.levels import Level

NAMES = ["Alice", "Bob", "Carol"]
CHANNEL, GUILD = 556, 778


def cards(text: str) -> list[Card]:
    return [parse_card(word) for word in text.split()]


def c(text: str) -> Card:
    return parse_card(text)


# -- the registration and parsing -------------------------------------------------------------


def test_the_catalog_finds_the_game_with_its_metadata() -> None:
    assert GameCatalog.discover().get("crazyeights") is ADAPTER
    assert (ADAPTER.min_seats, ADAPTER.max_seats) == (2, 6)
    assert ADAPTER.scores is Scores.POINTS and ADAPTER.forfeits
    assert ADAPTER.verbs == ("play", "draw", "pass")


@pytest.mark.parametrize(
    ("verb", "arg", "expected"),
    [
        ("draw", None, ce.Draw()),
        ("pass", None, ce.Pass()),
        ("play", "♠A", ce.PlayCard(c("♠A"))),
        ("play", "10h", ce.PlayCard(c("♥10"))),
        ("play", "하트 10", ce.PlayCard(c("♥10"))),
        ("play", "♣8/♥", ce.PlayCard(c("♣8"), Suit.HEARTS)),
        ("play", play_arg("♦8", "♠"), ce.PlayCard(c("♦8"), Suit.SPADES)),
    ],
)
def test_parse_reads_verbs_cards_and_the_suit_named_with_an_eight(
    verb: str, arg: str | None, expected: ce.PlayCard | ce.Draw | ce.Pass
) -> None:
    assert ADAPTER.parse(verb, arg) == expected


@pytest.mark.parametrize(
    ("verb", "arg", "code"),
    [
        ("play", "♠X", "unknown_card"),
        ("play", "♣8/purple", "unknown_suit"),
        ("play", None, "not_a_crazyeights_move"),
        ("draw", "♠A", "not_a_crazyeights_move"),
        ("take", None, "not_a_crazyeights_move"),
    ],
)
def test_parse_refuses_with_a_code(verb: str, arg: str | None, code: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        ADAPTER.parse(verb, arg)
    assert caught.value.code == code and caught.value.reason


def test_an_eight_without_a_suit_and_a_suit_with_another_card_are_the_engines_refusals() -> None:
    state = ce.position([cards("♠3 ♦8"), cards("♥6")], c("♠5"))
    for arg, code in (("♦8", "choose_suit"), ("♠3/♥", "suit_without_eight"), ("♥8", "not_in_hand")):
        before = state.snapshot()
        with pytest.raises(IllegalAction) as caught:
            state.apply(0, ADAPTER.parse("play", arg))
        assert caught.value.code == code and state.snapshot() == before


def test_new_deals_fairly_refuses_options_and_restore_continues() -> None:
    state, events = ADAPTER.new(4, 42, {}, [], secret=True)
    assert events == () and ADAPTER.restore(state.snapshot()).snapshot() == state.snapshot()
    with pytest.raises(IllegalAction):
        ADAPTER.new(7, 1, {}, [])
    with pytest.raises(IllegalAction):
        ADAPTER.new(2, 1, {"stacking": True}, [])


# -- the safe move ------------------------------------------------------------------------------


def test_out_of_time_a_card_that_fits_is_played_an_eight_last() -> None:
    state = ce.position([cards("♦8 ♠3 ♥2 ♠J"), cards("♥6")], c("♠9"))
    assert ADAPTER.timeout_action(state, 0) == ce.PlayCard(c("♠J"))  # spades follow on
    only_eight = ce.position([cards("♦8 ♥3 ♥4"), cards("♥6")], c("♠9"))
    assert ADAPTER.timeout_action(only_eight, 0) == ce.PlayCard(c("♦8"), Suit.HEARTS)


def test_a_timeout_draws_until_a_card_fits_then_plays_it_within_its_moves() -> None:
    # Nothing fits the ♠9; the stock gives ♥2 and ♦K, then the ♠4 that fits.
    state = ce.position([cards("♥3 ♦5"), cards("♥6 ♣7")], c("♠9"), stock=cards("♥2 ♦K ♠4"))
    moves = []
    for _ in range(ADAPTER.timeout_moves):
        if state.current_seat != 0:
            break
        action = ADAPTER.timeout_action(state, 0)
        moves.append(action)
        state.apply(0, action)
    assert moves == [ce.Draw(), ce.Draw(), ce.Draw(), ce.PlayCard(c("♠4"))]
    assert state.current_seat == 1


def test_one_timeout_always_ends_the_turn_even_with_the_whole_stock_to_draw() -> None:
    """The safe move repeated ``timeout_moves`` times ends the turn from any position of
    seeded games: draws run out (rule 18), they never go on forever."""
    for seed in range(40):
        state = ce.new(2 + seed % 5, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            for _ in range(ADAPTER.timeout_moves):
                state.apply(seat, ADAPTER.timeout_action(state, seat))
                if state.is_over or state.current_seat != seat:
                    break
            else:
                raise AssertionError(f"seed {seed}: the timeout did not end the turn")
            if not state.is_over:  # the next seat plays on at random, drawing now and then
                seat = state.current_seat
                assert seat is not None
                state.apply(seat, ADAPTER.computer_action(state, seat, Level.EASY, rng))


# -- the public table ---------------------------------------------------------------------------


def dealt_out(hand: list[Card], top: Card) -> ce.State:
    """Seat 0 holds ``hand``, seat 1 every other card but the top one: nothing is left to
    draw (rules 12-13), and it is seat 0's turn."""
    rest = [card for card in STANDARD_DECK if card not in hand and card is not top]
    return ce.position([hand, rest], top)


def test_the_table_offers_hand_and_draw_and_pass_once_nothing_is_left_to_draw() -> None:
    state = ce.position([cards("♠3 ♦4"), cards("♥6 ♦9")], c("♠5"))
    table = ADAPTER.table(state.view(None), [], NAMES, "en")
    assert [(b.action, b.label) for b in table.controls] == [
        ("hand", "button.hand"),
        ("draw", "crazyeights.draw"),
    ]
    assert table.lang == "ansi"
    # What the table shows decides, never a hand: Pass once nothing is left to draw.
    for hand in (cards("♦2"), cards("♠2")):
        nothing = dealt_out(hand, c("♠5"))
        controls = ADAPTER.table(nothing.view(None), [], NAMES, "en").controls
        assert [b.action for b in controls] == ["hand", "pass"]


def test_the_table_is_red_for_hearts_and_diamonds_and_the_log_escapes_names() -> None:
    state = ce.position([cards("♥3 ♦4"), cards("♥6 ♦9")], c("♥5"))
    events = state.apply(0, ce.PlayCard(c("♥3")))
    table = ADAPTER.table(state.view(None), events, ["*Al*", "Bob"], "en")
    assert table.log == (r"\*Al\* played ♥3",)
    assert "Top card: \x1b[31m♥3\x1b[0m" in table.body


def test_the_final_table_offers_deal_again_and_names_the_winner_once() -> None:
    state = ce.position([cards("♠3"), cards("♥6 ♦8")], c("♠5"))
    events = state.apply(0, ce.PlayCard(c("♠3")))
    assert isinstance(events[-1], GameOver)
    table = ADAPTER.table(state.view(None), events, NAMES, "en")
    assert [b.action for b in table.controls] == ["again"]
    assert table.log == ("Alice played ♠3", "Alice wins and scores 56 points!")
    assert "wins" not in table.body and "Next:" not in table.body
    assert ADAPTER.next_options(state, {}) == {}


# -- the hand, its menus and autocomplete -------------------------------------------------------


def test_the_hand_on_its_turn_has_the_menu_of_exactly_its_legal_moves() -> None:
    state = ce.position([cards("♦4 ♠K ♣8 ♥5 ♠3"), cards("♥6 ♦9")], c("♠5"))
    hand = ADAPTER.hand(state.view(0), NAMES, "en")
    assert hand.log == (t("hand.title", "en"), t("crazyeights.your_turn", "en", n=4))
    assert hand.body.endswith("5 cards in your hand:\n♠3 ♠K \x1b[31m♥5\x1b[0m \x1b[31m♦4\x1b[0m ♣8")
    assert hand.menu is not None and hand.controls == ()
    # By suit as the hand lists them; each 8 once (its suit comes next); then Draw.
    assert [o.value for o in hand.menu.options] == ["♠3", "♠K", "♥5", "♣8", "draw"]
    assert [o.description for o in hand.menu.options][3] == t("crazyeights.eight_hint", "en")
    legal = {a.card.code for a in state.legal_actions(0) if isinstance(a, ce.PlayCard)}
    assert {o.value for o in hand.menu.options} - {"draw"} == legal
    waiting = ADAPTER.hand(state.view(1), NAMES, "ko")
    assert waiting.menu is None and waiting.log == (t("hand.title", "ko"),)
    assert "지금 차례: Alice" in waiting.body


def test_with_nothing_to_draw_the_menu_has_the_cards_that_fit_or_pass_alone() -> None:
    must = ADAPTER.hand(dealt_out(cards("♠2 ♦2"), c("♠5")).view(0), NAMES, "en")
    assert must.menu is not None and [o.value for o in must.menu.options] == ["♠2"]
    assert must.log[1] == t("crazyeights.your_turn.must.one", "en")
    stuck = ADAPTER.hand(dealt_out(cards("♦2"), c("♠5")).view(0), NAMES, "en")
    assert stuck.menu is not None and [o.value for o in stuck.menu.options] == ["pass"]
    assert stuck.log[1] == t("crazyeights.your_turn.pass", "en")


def test_picking_an_eight_asks_for_the_suit_and_the_suit_plays_it() -> None:
    view = ce.position([cards("♦8 ♦4"), cards("♥6")], c("♦5")).view(0)
    suits = ADAPTER.picked(view, None, "♦8", "ko")
    assert isinstance(suits, Menu)
    assert suits.step == "♦8" and suits.prompt == t("crazyeights.choose_suit", "ko")
    assert [o.value for o in suits.options] == ["♠", "♥", "♦", "♣"]
    assert ADAPTER.picked(view, "♦8", "♥", "en") == ("play", "♦8/♥")
    assert ADAPTER.parse(*ADAPTER.picked(view, "♦8", "♥", "en")) == ce.PlayCard(
        c("♦8"), Suit.HEARTS
    )
    assert ADAPTER.picked(view, None, "♦4", "en") == ("play", "♦4")
    assert ADAPTER.picked(view, None, "draw", "en") == ("draw", None)
    assert ADAPTER.picked(view, None, "pass", "en") == ("pass", None)
    assert ADAPTER.picked(view, None, "nonsense", "en") == ("play", "nonsense")


def test_after_a_draw_the_member_alone_is_told_the_card_with_the_hand_again() -> None:
    state = ce.position([cards("♥3"), cards("♥6")], c("♠9"), stock=cards("♠2"))
    events = state.apply(0, ce.Draw())
    note = ADAPTER.private(state.view(0), events, NAMES, "ko")
    assert note is not None and note.log[0] == "♠2 카드를 뽑았어요."
    assert note.menu is not None and [o.value for o in note.menu.options] == ["♠2", "draw"]
    assert ADAPTER.private(state.view(1), events, NAMES, "en") is None  # not the drawer
    played = state.apply(0, ce.PlayCard(c("♠2")))
    assert ADAPTER.private(state.view(0), played, NAMES, "en") is None


def test_autocomplete_offers_only_the_seats_own_cards_that_fit() -> None:
    state = ce.position([cards("♠3 ♦4 ♣8 ♥5"), cards("♠6 ♦9")], c("♠5"))

    def values(seat: int, typed: str) -> list[str]:
        return [o.value for o in ADAPTER.suggest(state.view(seat), "card", typed, "en")]

    assert values(0, "") == ["♠3", "♥5", "♣8"]
    assert values(0, "♠") == ["♠3"]
    assert values(0, "5h") == ["♥5"]
    assert values(0, "하트 5") == ["♥5"]
    assert values(0, "♦4") == []  # theirs, but it does not fit
    eights = ADAPTER.suggest(state.view(0), "card", "8", "ko")
    assert [(o.label, o.value) for o in eights] == [("♣8 - 그다음 맞출 무늬를 골라요", "♣8")]
    assert values(1, "") == []  # not their turn


# -- leaving, and the cog ---------------------------------------------------------------------


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


@asynccontextmanager
async def three_seat_game() -> AsyncIterator[tuple[SessionRegistry, MemoryStore]]:
    games = GameCatalog([ADAPTER])
    store = MemoryStore()
    settings = Settings(_env_file=None, computer_delay_seconds=0.0)  # type: ignore[call-arg]
    registry = SessionRegistry(store=store, settings=settings, poster=Poster(), games=games)
    try:
        await registry.open_lobby(
            CHANNEL, GUILD, "crazyeights", Player(1, "Alice"), players=3, member_seed=5
        )
        await registry.join(CHANNEL, Player(2, "Bob"))
        await registry.join(CHANNEL, Player(3, "Carol"))
        yield registry, store
    finally:
        await registry.close()


async def test_leaving_shuffles_the_cards_into_the_stock_and_the_last_seat_wins() -> None:
    async with three_seat_game() as (registry, store):
        session = registry.get(CHANNEL)
        assert session is not None and isinstance(session.state, ce.State)
        before = session.state.view(None)
        reply = await registry.leave(CHANNEL, 2)
        assert reply.post is not None
        assert "Bob left the game: 5 cards were shuffled into the stock" in reply.post.content
        after = session.state.view(None)
        assert after.playing == (True, False, True) and after.stock == before.stock + 5
        (stored,) = await store.load_active()
        assert stored.data["state"]["out_order"] == [1]
        with pytest.raises(SessionError):
            await registry.hand(CHANNEL, 2)
        reply = await registry.leave(CHANNEL, 3)
        assert registry.get(CHANNEL) is None
        assert reply.post is not None and "Alice wins and scores 0 points!" in reply.post.content


async def test_setup_registers_the_game_and_teardown_forgets_it() -> None:
    added: list[Any] = []
    cogs: list[Any] = []
    registry = SimpleNamespace(poster=None, games=GameCatalog())

    async def add_cog(one: Any) -> None:
        cogs.append(one)

    bot = SimpleNamespace(
        sessions=registry, add_dynamic_items=lambda *items: added.extend(items), add_cog=add_cog
    )
    await cog.setup(bot)  # type: ignore[arg-type]
    assert "crazyeights" in registry.games and isinstance(cogs[0], cog.CrazyEightsCog)
    assert added == [GameButton, MoveMenu]
    await cog.teardown(bot)  # type: ignore[arg-type]
    assert "crazyeights" not in registry.games
