"""One test (or more) per numbered rule of docs/rules/blackjack.md, rule 13 in test_console.py."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import pytest

import rules.blackjack as bj
import rules.rng
from rules.blackjack import ai
from rules.blackjack.state import seed_program_shoe
from rules.cards import STANDARD_DECK, Card, Rank, Suit, parse_card
from rules.engine import Event, GameOver, IllegalAction, Outcome
from rules.rng import MsvcRand
from tests.rules.blackjack import reference

LETTERS = {Suit.CLUBS: "c", Suit.HEARTS: "h", Suit.DIAMONDS: "d", Suit.SPADES: "s"}


def name(card: Card) -> str:
    return card.rank.label + LETTERS[card.suit]


def names(cards: Sequence[Card]) -> list[str]:
    return [name(c) for c in cards]


def idx(*codes: str) -> list[int]:
    return [parse_card(code).index for code in codes]


def all_cards(state: bj.State) -> list[Card]:
    view = state.view(None)
    return [*state.shoe_cards(), *state.house_cards(), *(c for h in view.hands for c in h)]


def fixed_seed(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Make the next unseeded games' operating-system seed ``seed`` (so tests repeat)."""
    monkeypatch.setattr(rules.rng, "new_seed", lambda: seed)


def humans_game(seed: int, players: int) -> bj.State:
    """A seeded game without a House 21, every seat human."""
    while True:
        state = bj.new(players, seed=seed)
        if not state.is_over:
            return state
        seed += 1


# ---------------------------------------------------------------- shoe and deal


def test_rule_1_four_decks_of_52_no_jokers() -> None:
    shoe = seed_program_shoe()
    assert len(shoe) == bj.SHOE_SIZE == 208
    assert Counter(shoe) == Counter({card.index: 4 for card in STANDARD_DECK})
    for seed in (None, 1, 2, 100):
        state = bj.new(7, seed=seed)
        cards = all_cards(state)
        assert len(cards) == 208
        assert Counter(c.index for c in cards) == Counter({c.index: 4 for c in STANDARD_DECK})
        assert not any(c.is_joker for c in cards)


@pytest.mark.parametrize("players", [1, 4, 7])
def test_rule_2_deal_order_players_then_house_twice(players: int) -> None:
    for seed in range(30):
        expected, _ = reference.shuffled(seed)
        state = bj.new(players, seed=seed)
        view = state.view(None)
        drawn = [expected.pop() for _ in range(2 * (players + 1))]
        first, second = drawn[: players + 1], drawn[players + 1 :]
        for seat in range(players):
            assert names(view.hands[seat])[:2] == [first[seat], second[seat]]
        assert names(state.house_cards())[:2] == [first[-1], second[-1]]
        dealt = state.opening_events[0]
        assert isinstance(dealt, bj.Dealt)
        assert [names(h) for h in dealt.hands] == [[first[s], second[s]] for s in range(players)]
        assert name(dealt.up_card) == second[-1]


def test_rule_3_house_first_card_hidden_until_its_turn() -> None:
    state = humans_game(7, 3)
    hole, up = state.house_cards()
    for seat in (None, 0, 1, 2):
        view = state.view(seat)
        assert view.house_hidden
        assert view.house == (up,)
        assert view.house_total == bj.hand_total([up.index])
    seen: list[Event] = list(state.opening_events)
    for seat in range(3):
        assert state.view(None).house_hidden
        seen += state.apply(seat, bj.Stand())
    kinds = [type(e) for e in seen]
    assert bj.HouseTurn in kinds
    turn = seen[kinds.index(bj.HouseTurn)]
    assert isinstance(turn, bj.HouseTurn) and turn.hole is hole
    view = state.view(None)
    assert not view.house_hidden and view.house[:2] == (hole, up)


@pytest.mark.parametrize("seed", [7, 8, 9, 10])
def test_rule_3_no_event_before_the_house_turn_carries_the_hole_card(seed: int) -> None:
    # The same game with another hole card (swapped with the shoe's bottom card, drawn last,
    # and of another value, so a total would show it too) must tell the players the same
    # until the House's turn, and differ from there.
    state = humans_game(seed, 3)
    dealt = state.opening_events[0]
    view = state.view(None)
    assert dealt == bj.Dealt(tuple(hand[:2] for hand in view.hands), view.house[0])
    data = state.snapshot()
    hole = data["house"][0]
    value = bj.hand_total([hole])
    bottom = next(n for n, i in enumerate(data["shoe"]) if bj.hand_total([i]) != value)
    data["house"][0], data["shoe"][bottom] = data["shoe"][bottom], hole
    other = bj.restore(data)
    pick = random.Random(seed)
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        action = pick.choice(state.legal_actions(seat))
        events, other_events = state.apply(seat, action), other.apply(seat, action)
        turn = next((n for n, e in enumerate(events) if isinstance(e, bj.HouseTurn)), None)
        assert events[:turn] == other_events[:turn]
    assert turn is not None and events[turn:] != other_events[turn:]


def test_rule_4_house_21_on_the_deal_ends_the_game_and_everyone_loses() -> None:
    state = bj.new(4, seed=100)  # the seed's case [100 4]: House Ad, Jd
    assert state.is_over and state.current_seat is None
    assert names(state.house_cards()) == ["Ad", "Jd"]
    assert state.result is not None
    assert state.result.outcomes == (Outcome.LOSE,) * 4
    assert [type(e) for e in state.opening_events] == [bj.Dealt, bj.HouseBlackjack, GameOver]
    assert not state.view(None).house_hidden
    assert state.legal_actions(0) == ()
    with pytest.raises(IllegalAction):
        state.apply(0, bj.Hit())
    # Even a player's own 21 loses against the House's two-card 21.
    result = bj.judge([idx("♠A", "♠K"), idx("♥10", "♥9")], idx("♦A", "♦Q"))
    assert result.outcomes == (Outcome.LOSE, Outcome.LOSE)


# ---------------------------------------------------------------- values


@pytest.mark.parametrize(
    ("codes", "total"),
    [
        (("♠2", "♥3"), 5),
        (("♠10", "♥J"), 20),
        (("♠Q", "♥K"), 20),
        (("♠A", "♥K"), 21),
        (("♠A", "♥A"), 12),
        (("♠A", "♥A", "♦9"), 21),
        (("♠A", "♥5", "♦K"), 16),
        (("♠A", "♥6"), 17),
        (("♠A", "♥A", "♦A", "♣A"), 14),
        (("♠K", "♥Q", "♦5"), 25),
        (("♠K", "♥Q", "♦A", "♣A"), 22),
    ],
)
def test_rule_5_card_values_and_aces(codes: tuple[str, ...], total: int) -> None:
    assert bj.hand_total(idx(*codes)) == total
    assert reference.value(names([parse_card(c) for c in codes])) == total


# ---------------------------------------------------------------- turns


def test_rule_6_seats_act_in_order_until_stand_or_bust() -> None:
    state = humans_game(3, 3)
    assert state.current_seat == 0
    assert state.legal_actions(0) == (bj.Hit(), bj.Stand())
    assert state.legal_actions(1) == ()
    with pytest.raises(IllegalAction) as refused:
        state.apply(1, bj.Stand())
    assert refused.value.code == "not_your_turn"
    events = state.apply(0, bj.Stand())
    assert events == [bj.Stood(0, state.view(None).totals[0]), bj.TurnStarted(1)]
    # Seat 1 hits until bust: the turn moves on only then.
    while state.current_seat == 1:
        events = state.apply(1, bj.Hit())
        drawn = events[0]
        assert isinstance(drawn, bj.CardDrawn) and drawn.seat == 1
        if drawn.total <= 21:
            assert len(events) == 1
    assert drawn.bust and events[1] == bj.TurnStarted(2)
    assert state.view(None).finished == (True, True, False)
    assert state.current_seat == 2


def test_rule_7_computer_rule_hits_below_14_stands_above_17() -> None:
    def no_coin() -> int:
        raise AssertionError("no coin toss outside 14-17")

    for total in range(2, 14):
        assert ai.decide(total, no_coin) == bj.Hit()
    for total in range(18, 27):
        assert ai.decide(total, no_coin) == bj.Stand()
    for total in range(14, 18):
        assert ai.decide(total, lambda: 1) == bj.Hit()
        assert ai.decide(total, lambda: 0) == bj.Stand()


def test_rule_7_computer_coin_is_rand_mod_2_from_the_game_stream() -> None:
    # Seed [2 4]: Player2 holds 14 and the next rand() after the shuffle and Player1's Hit
    # decides; the seed's screen shows Stand.
    _, rng = reference.shuffled(2)
    assert rng.rand() % 2 == 0
    state = bj.new(4, seed=2, options={"computers": [1, 2, 3]})
    events = state.apply(0, bj.Hit())
    assert bj.Stood(1, 14) in events
    # And the computer decisions of many games match the seed program's (see reference.py).
    for seed in range(300):
        game = reference.play(seed, 5)  # Player1 stands at once
        state = bj.new(5, seed=seed, options={"computers": [1, 2, 3, 4]})
        if not state.is_over:
            state.apply(0, bj.Stand())
        assert [names(h) for h in state.view(None).hands] == game.hands, seed


def test_rule_7_the_view_based_player_agrees_with_the_engine() -> None:
    state = humans_game(11, 2)
    view = state.view(0)
    tosses: list[int] = []

    def coin() -> int:
        tosses.append(1)
        return 1

    move = ai.choose_action(view, coin)
    total = view.totals[0]
    assert move == (bj.Hit() if total < 18 else bj.Stand())
    assert bool(tosses) == (14 <= total <= 17)


def test_rule_8_house_hits_to_16_and_stands_on_17() -> None:
    seen_hit = seen_stand_17 = False
    for seed in range(400):
        state = bj.new(3, seed=seed, options={"computers": [0, 1, 2]})
        events = list(state.opening_events)
        if any(isinstance(e, bj.HouseBlackjack) for e in events):
            continue
        totals = [e.total for e in events if isinstance(e, bj.HouseTurn | bj.HouseDrew)]
        assert all(t <= 16 for t in totals[:-1]), seed
        assert totals[-1] >= 17
        last = events[-2]
        assert isinstance(last, bj.HouseStood | bj.HouseBusted)
        assert last.total == totals[-1] == bj.hand_total(c.index for c in state.house_cards())
        seen_hit = seen_hit or len(totals) > 1
        seen_stand_17 = seen_stand_17 or totals[-1] == 17
    assert seen_hit and seen_stand_17


def test_rule_8_house_stands_on_a_soft_17() -> None:
    assert bj.hand_total(idx("♠A", "♥6")) == 17
    # A House showing A+6 draws nothing: found in a seeded game or built by the judge.
    for seed in range(5000):
        state = bj.new(1, seed=seed, options={"computers": [0]})
        house = state.house_cards()
        if sorted(c.rank for c in house[:2]) == [Rank.ACE, Rank.SIX]:
            assert len(house) == 2
            return
    pytest.fail("no seeded House A+6 in 5000 games")


# ---------------------------------------------------------------- results


def test_rule_9_a_busted_player_loses_even_when_the_house_busts() -> None:
    result = bj.judge([idx("♠K", "♥Q", "♦5"), idx("♠2", "♥3")], idx("♣K", "♣6", "♣9"))
    assert result.outcomes == (Outcome.LOSE, Outcome.WIN)
    assert result.scores == (25, 5)


@pytest.mark.parametrize(
    ("player", "house", "outcome"),
    [
        (("♠2", "♥3"), ("♣K", "♣6", "♣9"), Outcome.WIN),  # House bust
        (("♠K", "♥9"), ("♣K", "♣8"), Outcome.WIN),  # higher
        (("♠K", "♥7"), ("♣K", "♣8"), Outcome.LOSE),  # lower
        (("♠K", "♥8"), ("♣9", "♣9"), Outcome.DRAW),  # equal
        (("♠K", "♥A"), ("♣7", "♣4", "♣K"), Outcome.DRAW),  # 21 against three-card 21
    ],
)
def test_rule_10_each_player_against_the_house(
    player: tuple[str, ...], house: tuple[str, ...], outcome: Outcome
) -> None:
    result = bj.judge([idx(*player)], idx(*house))
    assert result.outcomes == (outcome,)


def test_rule_10_results_are_independent_of_other_players() -> None:
    house = idx("♣K", "♣8")
    alone = bj.judge([idx("♠K", "♥9")], house)
    crowd = bj.judge([idx("♦2", "♦3"), idx("♠K", "♥9"), idx("♠K", "♥Q", "♥5")], house)
    assert crowd.outcomes[1] == alone.outcomes[0] == Outcome.WIN
    assert crowd.winners == (1,)
    assert crowd.ranking[0] == 1


# ---------------------------------------------------------------- seeded and fair


def test_rule_11_msvc_rand_values() -> None:
    rand = MsvcRand(1)
    assert [rand.rand() for _ in range(3)] == [41, 18467, 6334]  # MSVC's srand(1)
    ours = MsvcRand(12345)
    theirs = reference.CRand(12345)
    assert [ours.rand() for _ in range(50)] == [theirs.rand() for _ in range(50)]


@pytest.mark.parametrize("players", range(1, 8))
def test_rule_11_seeded_games_replay_the_seed_program(players: int) -> None:
    computers = {"computers": list(range(1, players))}
    for seed in range(60):
        for answers in ((), ("Hit",), ("Hit", "Hit")):
            game = reference.play(seed, players, answers)
            state = bj.new(players, seed=seed, options=computers)
            todo = list(answers)
            while not state.is_over:
                state.apply(0, bj.Hit() if todo and todo.pop(0) == "Hit" else bj.Stand())
            view = state.view(None)
            assert [names(h) for h in view.hands] == game.hands, (seed, answers)
            assert names(state.house_cards()) == game.house
            assert state.result is not None
            assert [o.value.title() for o in state.result.outcomes] == game.outcomes


def test_rule_11_seeded_shoe_is_the_seed_programs() -> None:
    for seed in (0, 2, 100, 2**31 - 1):
        expected, _ = reference.shuffled(seed)
        state = bj.new(1, seed=seed, options={"computers": [0]})
        drawn = len(state.house_cards()) + len(state.view(None).hands[0])
        assert names(state.shoe_cards()) == expected[: 208 - drawn]
        assert state.faithful and state.snapshot()["shuffle"] == "seed"


def test_rule_12_unseeded_games_are_fair_and_not_the_seed_shuffle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fixed_seed(monkeypatch, 2)
    fair = bj.new(4)
    assert not fair.faithful and fair.seed == 2 and fair.snapshot()["shuffle"] == "fair"
    assert fair.view(None).hands != bj.new(4, seed=2).view(None).hands
    # The same operating-system seed deals the same fair game (so snapshots can replay it).
    assert bj.new(4).view(None).hands == fair.view(None).hands


ORDERED_SHOE = names([STANDARD_DECK[i] for i in seed_program_shoe()])


def deal_order(state: bj.State) -> list[str]:
    """The dealt cards in the order they left the shoe (rule 2)."""
    hands, house = state.view(None).hands, state.house_cards()
    return names([*(hand[0] for hand in hands), house[0], *(hand[1] for hand in hands), house[1]])


def stayed_in_place(deals: Sequence[Sequence[str]]) -> float:
    """How far (in standard deviations) more dealt cards than chance are the card the ordered
    shoe held where they were drawn from (its end, rule 11).

    A shuffle that leaves cards near where they started fails this; a uniform one gives each
    draw a 4-in-208 chance.
    """
    draws = sum(len(deal) for deal in deals)
    kept = sum(card == ORDERED_SHOE[-1 - d] for deal in deals for d, card in enumerate(deal))
    p = 4 / 208
    return (kept - draws * p) / (draws * p * (1 - p)) ** 0.5


def test_rule_12_fair_deals_are_uniform(monkeypatch: pytest.MonkeyPatch) -> None:
    deals = []
    for seed in range(3000):
        fixed_seed(monkeypatch, seed)
        deals.append(deal_order(bj.new(7)))
    assert abs(stayed_in_place(deals)) < 4
    # Every kind as often as any other, over all 16 cards of each deal (chi-square, 51
    # degrees of freedom, p < 0.001).
    counts = Counter(card for deal in deals for card in deal)
    expected = 16 * len(deals) / 52
    assert sum((counts[c] - expected) ** 2 / expected for c in set(ORDERED_SHOE)) < 90
    # The same check refuses a swap shuffle like the seed's but with too few swaps. (The
    # seed's own 1000 swaps leave an excess of only ~1.4% of cards in place, 207 * (1 -
    # 2/208) ** 1000 per shoe: too little for any test of this size to see.)
    under_mixed = [reference.shuffled(seed, swaps=400)[0][::-1][:16] for seed in range(3000)]
    assert stayed_in_place(under_mixed) > 10


# ---------------------------------------------------------------- Discord


@pytest.mark.parametrize("players", [0, 8, -1])
def test_rule_14_one_to_seven_seats(players: int) -> None:
    with pytest.raises(IllegalAction) as refused:
        bj.new(players)
    assert refused.value.code == "players"


def test_rule_14_empty_seats_are_computers_and_a_seat_can_be_handed_over() -> None:
    state = humans_game(21, 3)
    events = state.hand_to_computer(2)  # not its turn yet: nothing moves
    assert events == [bj.HandedToComputer(2)]
    assert state.current_seat == 0 and state.is_computer(2)
    assert state.hand_to_computer(2) == []  # already a computer
    events = state.hand_to_computer(0)  # its turn: the computer plays at once, then on
    assert events[0] == bj.HandedToComputer(0)
    assert any(isinstance(e, bj.Stood | bj.CardDrawn) and e.seat == 0 for e in events)
    assert state.current_seat == 1
    events = state.apply(1, bj.Stand())
    assert any(isinstance(e, bj.Stood | bj.CardDrawn) and e.seat == 2 for e in events)
    assert isinstance(events[-1], GameOver) and state.is_over
    with pytest.raises(IllegalAction):
        state.hand_to_computer(3)


def test_rule_14_deal_again_is_a_fresh_shoe(monkeypatch: pytest.MonkeyPatch) -> None:
    # A finished seeded game that used many cards, then the next game at the table, dealt
    # both ways the code does it: State.deal_again, and a new unseeded game for the same
    # seats (what the bot's "Deal again" asks the engine for). Neither goes on with the old
    # shoe nor deals the seeded game again.
    first = bj.new(3, seed=2, options={"computers": [1, 2]})
    while not first.is_over:
        first.apply(0, bj.Hit())
    assert first.view(None).shoe < 208 - 8
    for os_seed, deal_again in (
        (5, first.deal_again),
        (6, lambda: bj.new(3, options={"computers": [1, 2]})),
    ):
        fixed_seed(monkeypatch, os_seed)
        again = deal_again()
        cards = all_cards(again)
        assert Counter(c.index for c in cards) == Counter({c.index: 4 for c in STANDARD_DECK})
        assert not again.faithful and again.seed == os_seed
        assert again.view(None).hands != bj.new(3, seed=2).view(None).hands
        assert again.view(None).shoe == 208 - len(again.house_cards()) - sum(
            map(len, again.view(None).hands)
        )


def test_rule_15_hands_are_public_but_the_hole_card_is_not() -> None:
    state = humans_game(31, 4)
    views = [state.view(seat) for seat in (None, 0, 1, 2, 3)]
    for view in views:
        assert view.hands == views[0].hands
        assert len(view.house) == 1 and view.house_hidden
    assert views[0].house == (state.house_cards()[1],)
    # Another hole card changes nothing anybody sees: swap it with a card in the shoe.
    data = state.snapshot()
    hole = data["house"][0]
    other = next(i for i in data["shoe"] if i != hole)
    data["shoe"][data["shoe"].index(other)] = hole
    data["house"][0] = other
    changed = bj.restore(data)
    assert changed.house_cards()[0] is not state.house_cards()[0]
    for seat in (None, 0, 1, 2, 3):
        assert changed.view(seat) == state.view(seat)


def test_rule_14_deal_again_keeps_the_seats_with_a_fresh_fair_shoe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = bj.new(3, seed=2, options={"computers": [2]})
    state.hand_to_computer(1)
    fixed_seed(monkeypatch, 77)
    again = state.deal_again()
    assert not again.faithful and again.seed == 77
    assert [again.is_computer(s) for s in range(3)] == [False, True, True]
    assert len(again.shoe_cards()) + len(again.house_cards()) + 6 == 208
    assert again.snapshot()["dealt_computers"] == [1, 2]
