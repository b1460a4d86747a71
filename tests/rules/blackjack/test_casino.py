"""The casino ruleset (rules 16-22): double, split, Blackjack paid 3 to 2, the House's soft 17.

Positions are set up card by card: a seeded casino snapshot with the hands, the House and the
shoe's next cards chosen (a seeded shoe is drawn from its end), restored. The rules follow
common casino practice where the seed is silent (docs/rules/blackjack.md rules 16-22).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import rules.blackjack as bj
from rules.blackjack.ai import DOUBLE, HIT, SPLIT, STAND
from rules.cards import STANDARD_DECK, parse_card
from rules.engine import GameOver, IllegalAction, Outcome, SnapshotError

CASINO = {"ruleset": "casino"}
FULL_SHOE = Counter({card.index: 4 for card in STANDARD_DECK})


def idx(*codes: str) -> list[int]:
    return [parse_card(code).index for code in codes]


def cards(*codes: str) -> tuple[Any, ...]:
    return tuple(parse_card(code) for code in codes)


def position(
    hands: Sequence[Sequence[str]],
    house: Sequence[str],
    draws: Sequence[str] = (),
    *,
    current: int = 0,
    soft17: str = "stand",
    level: str = "normal",
) -> bj.State:
    """A casino game at its first decision: ``hands`` dealt, the House's hole card first,
    and ``draws`` the next cards out of the shoe, in order."""
    data = bj.new(len(hands), seed=1, options=CASINO).snapshot()
    chosen = idx(*(c for hand in hands for c in hand), *house, *draws)
    rest = FULL_SHOE - Counter(chosen)
    data.update(
        shoe=sorted(rest.elements()) + list(reversed(idx(*draws))),
        hands=[idx(*hand) for hand in hands],
        house=idx(*house),
        current=current,
        revealed=False,
        computers=[],
        dealt_computers=[],
        computer_level=level,
        log=[],
        split=[],
        doubled=[],
        hand=0,
        soft17=soft17,
    )
    return bj.restore(data)


def refused(state: bj.State, seat: int, action: Any, code: str) -> None:
    before = state.snapshot()
    with pytest.raises(IllegalAction) as error:
        state.apply(seat, action)
    assert error.value.code == code and error.value.reason
    assert state.snapshot() == before


# ---------------------------------------------------------------- the seed's rules stay


def test_a_classic_table_offers_hit_and_stand_only_and_refuses_double_and_split() -> None:
    for seed in range(200):
        state = bj.new(1, seed=seed)
        hand = state.view(0).hands[0]
        if not state.is_over and hand[0].rank == hand[1].rank:
            break
    assert state.legal_actions(0) == (HIT, STAND)  # even holding a pair
    refused(state, 0, bj.Double(), "casino_only")
    refused(state, 0, bj.Split(), "casino_only")
    assert "ruleset" not in state.snapshot()  # a seed game's snapshot is as it always was
    assert state.view(None).seat_hands[0][0].payout is None


def test_options_are_checked() -> None:
    with pytest.raises(IllegalAction) as error:
        bj.new(2, options={"ruleset": "vegas"})
    assert error.value.code == "unknown_ruleset"
    with pytest.raises(IllegalAction) as error:
        bj.new(2, options={"ruleset": "casino", "soft17": "maybe"})
    assert error.value.code == "unknown_soft17"
    with pytest.raises(IllegalAction) as error:  # rule 8: the seed's House stands on 17
        bj.new(2, options={"soft17": "hit"})
    assert error.value.code == "soft17_seed"
    assert bj.new(2, options={"ruleset": "seed", "soft17": "stand"}).ruleset == "seed"
    assert bj.CASINO_SOFT17 == "stand"


# ---------------------------------------------------------------- double


def test_double_takes_one_card_doubles_the_bet_and_ends_the_hand() -> None:
    state = position([["♦5", "♣6"], ["♥10", "♣7"]], ["♠10", "♥7"], ["♠9"])
    assert state.legal_actions(0) == (HIT, STAND, DOUBLE)
    events = state.apply(0, bj.Double())
    assert events == [bj.Doubled(0, parse_card("♠9"), 20), bj.TurnStarted(1)]
    played = state.view(None).seat_hands[0][0]
    assert played.doubled and played.done and played.cards == cards("♦5", "♣6", "♠9")
    events = state.apply(1, bj.Stand())
    assert isinstance(events[-1], GameOver)
    assert state.result is not None
    assert state.result.outcomes == (Outcome.WIN, Outcome.DRAW)  # 20 and 17 against 17
    assert state.view(None).payouts == (2.0, 0.0)


def test_double_only_on_the_first_two_cards() -> None:
    state = position([["♦2", "♣3"]], ["♠10", "♥7"], ["♠4"])
    state.apply(0, bj.Hit())
    assert state.legal_actions(0) == (HIT, STAND)
    refused(state, 0, bj.Double(), "double_two_cards")


def test_a_doubled_bust_loses_two_bets_even_when_the_house_busts() -> None:
    state = position([["♦9", "♣3"]], ["♠10", "♥6"], ["♠K", "♦8"])
    events = state.apply(0, bj.Double())
    assert isinstance(events[0], bj.Doubled) and events[0].bust
    assert any(isinstance(e, bj.HouseBusted) for e in events)
    assert state.view(None).payouts == (-2.0,)
    assert state.result is not None and state.result.outcomes == (Outcome.LOSE,)


# ---------------------------------------------------------------- split


def test_split_makes_two_hands_played_in_turn() -> None:
    state = position([["♦8", "♣8"], ["♥10", "♣9"]], ["♠10", "♥9"], ["♥3", "♠K", "♥10"])
    assert state.legal_actions(0) == (HIT, STAND, DOUBLE, SPLIT)
    events = state.apply(0, bj.Split())
    assert events == [bj.PairSplit(0, cards("♦8", "♥3"), cards("♣8", "♠K"), (11, 18), False)]
    view = state.view(None)
    assert view.current == 0 and view.playing == 0
    assert [h.cards for h in view.seat_hands[0]] == [cards("♦8", "♥3"), cards("♣8", "♠K")]
    assert view.hands[0] == cards("♦8", "♥3")  # a seat's first hand, as before
    # Each hand may double (after a split too), neither may split again.
    assert state.legal_actions(0) == (HIT, STAND, DOUBLE)
    events = state.apply(0, bj.Double())
    assert events == [bj.Doubled(0, parse_card("♥10"), 21, 0)]
    assert state.view(None).playing == 1 and state.current_seat == 0
    events = state.apply(0, bj.Stand())
    assert events == [bj.Stood(0, 18, 1), bj.TurnStarted(1)]
    state.apply(1, bj.Stand())
    # 21 doubled beats 19 (+2), 18 loses (-1), 19 draws: Player1 is a bet up.
    view = state.view(None)
    assert [h.payout for h in view.seat_hands[0]] == [2.0, -1.0]
    assert view.payouts == (1.0, 0.0)
    assert state.result is not None
    assert state.result.outcomes == (Outcome.WIN, Outcome.DRAW)
    assert state.result.scores == (21, 19)


def test_a_split_hand_hits_by_its_number() -> None:
    state = position([["♦7", "♣7"]], ["♠10", "♥9"], ["♥2", "♠3", "♥4", "♣K"])
    state.apply(0, bj.Split())
    assert state.apply(0, bj.Hit()) == [bj.CardDrawn(0, parse_card("♥4"), 13, 0)]
    assert state.apply(0, bj.Hit()) == [bj.CardDrawn(0, parse_card("♣K"), 23, 0)]
    assert state.view(None).playing == 1 and state.current_seat == 0  # bust: on to hand 2


def test_split_aces_take_one_card_each_and_stand_and_21_is_no_blackjack() -> None:
    state = position([["♠A", "♥A"], ["♥10", "♣9"]], ["♠10", "♥Q"], ["♦K", "♣9"])
    events = state.apply(0, bj.Split())
    assert events == [
        bj.PairSplit(0, cards("♠A", "♦K"), cards("♥A", "♣9"), (21, 20), True),
        bj.TurnStarted(1),
    ]
    hands = state.view(None).seat_hands[0]
    assert all(h.done and not h.blackjack for h in hands)
    state.apply(1, bj.Stand())
    # 21 of a split beats 20 by one bet, not 1.5; 20 draws.
    assert state.view(None).payouts == (1.0, -1.0)


def test_one_split_per_seat_and_only_a_pair_of_one_rank() -> None:
    state = position([["♦8", "♣8"]], ["♠10", "♥9"], ["♥8", "♠K"])
    state.apply(0, bj.Split())
    assert state.view(None).seat_hands[0][0].cards == cards("♦8", "♥8")  # a pair again
    assert SPLIT not in state.legal_actions(0)
    refused(state, 0, bj.Split(), "split_once")
    kings = position([["♠K", "♥Q"]], ["♠10", "♥9"])  # both count 10, but they are no pair
    assert SPLIT not in kings.legal_actions(0)
    refused(kings, 0, bj.Split(), "split_pair")
    hit = position([["♠4", "♥4"]], ["♠10", "♥9"], ["♦2"])
    hit.apply(0, bj.Hit())
    refused(hit, 0, bj.Split(), "split_pair")


def test_split_and_double_are_refused_out_of_turn() -> None:
    state = position([["♦8", "♣8"], ["♥5", "♣5"]], ["♠10", "♥9"])
    refused(state, 1, bj.Split(), "not_your_turn")
    refused(state, 1, bj.Double(), "not_your_turn")
    assert state.legal_actions(1) == ()


# ---------------------------------------------------------------- Blackjack and the House


def test_a_blackjack_pays_3_to_2_and_has_no_turn() -> None:
    seen = 0
    for seed in range(400):
        state = bj.new(2, seed=seed, options=CASINO)
        hand = state.view(None).hands[0]
        if state.is_over or bj.hand_total([c.index for c in hand]) != 21:
            continue
        seen += 1
        assert bj.PlayerBlackjack(0) in state.opening_events
        assert bj.TurnStarted(0) not in state.opening_events
        assert state.current_seat != 0
        assert state.view(None).seat_hands[0][0].blackjack
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            state.apply(seat, bj.Stand())
        assert state.view(None).payouts is not None
        assert state.view(None).payouts[0] == 1.5  # whatever the House makes after its peek
    assert seen


def test_a_blackjack_beats_a_house_21_of_three_cards() -> None:
    state = position([["♠A", "♥K"], ["♦9", "♣7"]], ["♠10", "♥6"], ["♦5"], current=1)
    state.apply(1, bj.Stand())
    assert state.house_cards() == cards("♠10", "♥6", "♦5")
    assert state.view(None).payouts == (1.5, -1.0)


def test_a_house_blackjack_draws_only_with_a_player_blackjack() -> None:
    hands = [[idx("♠A", "♥K")], [idx("♦10", "♣Q")], [idx("♦A", "♣5", "♥5")]]
    result, payouts = bj.settle(hands, idx("♣A", "♦K"))
    assert payouts == ((0,), (-2,), (-2,))  # half bets: even, one bet lost, one bet lost
    assert result.outcomes == (Outcome.DRAW, Outcome.LOSE, Outcome.LOSE)
    # Found in the shoe: the game ends at the deal, as in rule 4.
    for seed in range(2000):
        state = bj.new(3, seed=seed, options=CASINO)
        if state.is_over:
            break
    assert [type(e) for e in state.opening_events] == [bj.Dealt, bj.HouseBlackjack, GameOver]


@pytest.mark.parametrize(
    ("soft17", "house", "draws", "final"),
    [
        ("stand", ["♠A", "♥6"], [], 17),  # stands on a soft 17 (the default)
        ("hit", ["♠A", "♥6"], ["♣2"], 19),  # hits it when the table says so
        ("hit", ["♠10", "♥7"], [], 17),  # a hard 17 stands either way
        ("hit", ["♠A", "♥6"], ["♣A"], 18),  # a soft 17 hit to a soft 18
    ],
)
def test_the_house_on_soft_17(soft17: str, house: list[str], draws: list[str], final: int) -> None:
    state = position([["♦10", "♣8"]], house, draws, soft17=soft17)
    events = state.apply(0, bj.Stand())
    assert events[-2] == bj.HouseStood(final)
    view = state.view(None)
    assert view.house_hits_soft17 is (soft17 == "hit")


def test_the_seed_house_stands_on_soft_17() -> None:  # rule 8, unchanged
    data = position([["♦10", "♣8"]], ["♠A", "♥6"], ["♣2"]).snapshot()
    for key in ("ruleset", "soft17", "split", "doubled", "hand"):
        data.pop(key)
    state = bj.restore(data)
    assert state.ruleset == "seed"
    assert state.apply(0, bj.Stand())[-2] == bj.HouseStood(17)


def test_the_hole_card_stays_hidden_at_a_casino_table() -> None:
    state = position([["♦8", "♣8"]], ["♠Q", "♥9"], ["♥3", "♠K"])
    state.apply(0, bj.Split())
    for seat in (None, 0):
        view = state.view(seat)
        assert view.house_hidden and view.house == cards("♥9")
        shown = [c for hands in view.seat_hands for h in hands for c in h.cards]
        assert parse_card("♠Q") not in shown


# ---------------------------------------------------------------- snapshots


def test_snapshots_carry_the_rules_the_split_and_the_doubles() -> None:
    state = position([["♦8", "♣8"], ["♥5", "♣6"]], ["♠10", "♥9"], ["♥2", "♠K", "♦9"])
    state.apply(0, bj.Split())
    state.apply(0, bj.Double())
    data = json.loads(json.dumps(state.snapshot()))
    assert data["ruleset"] == "casino" and data["soft17"] == "stand"
    assert data["split"] == [[0, idx("♣8", "♠K")]] and data["doubled"] == [[0, 0]]
    assert data["hand"] == 1
    copy = bj.restore(data)
    assert copy.snapshot() == data and copy.view(0) == state.view(0)
    assert copy.legal_actions(0) == state.legal_actions(0) == (HIT, STAND, DOUBLE)
    assert copy.apply(0, bj.Stand()) == state.apply(0, bj.Stand())
    assert copy.apply(1, bj.Double()) == state.apply(1, bj.Double())
    assert copy.snapshot() == state.snapshot()
    assert bj.restore(state.snapshot()).result == state.result
    assert state.snapshot()["log"] == [[0, 4], [0, 3], [0, 0], [1, 3]]


def test_replay_rebuilds_a_casino_game() -> None:
    for seed in range(300):
        state = bj.new(2, seed=seed, options={**CASINO, "soft17": "hit"})
        if not state.is_over and bj.Split() in state.legal_actions(0):
            break
    state.apply(0, bj.Split())
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        state.apply(seat, state.legal_actions(seat)[-1])  # double where it may
    data = state.snapshot()
    assert bj.replay(data).snapshot() == data
    assert data["soft17"] == "hit"


def _casino_snapshot() -> dict[str, Any]:
    state = position([["♦8", "♣8"], ["♥5", "♣6"]], ["♠10", "♥9"], ["♥2", "♠K", "♦9"])
    state.apply(0, bj.Split())
    return state.snapshot()


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (lambda d: d.update(ruleset="vegas"), "unknown ruleset"),
        (lambda d: d.update(soft17="maybe"), "unknown soft17"),
        (lambda d: d.update(hand=1, split=[]), "not 4 decks"),
        (lambda d: d.update(hand=2), "impossible hand in play"),
        (lambda d: d.update(doubled=[[0, 0]]), "doubled what is no hand of two cards"),
        (lambda d: d.update(doubled=[[0, 5]]), "no hand 5"),
        (lambda d: d.update(split=[[0, [1, 2]], [0, [3, 4]]]), "split twice"),
        (lambda d: d.update(log=[[0, 9]]), "unknown log entry 9"),
        (lambda d: d.pop("soft17"), "soft17"),
    ],
)
def test_damaged_casino_snapshots_are_refused(damage: Any, reason: str) -> None:
    data = _casino_snapshot()
    damage(data)
    with pytest.raises(SnapshotError, match=reason):
        bj.restore(data)


def test_a_split_of_no_pair_and_a_seed_game_with_split_hands_are_refused() -> None:
    data = _casino_snapshot()
    # Put a 9 where the second hand's 8 was (and the 8 back in the shoe): no pair was split.
    nine, eight = idx("♦9", "♣8")
    shoe = data["shoe"]
    shoe[shoe.index(nine)] = eight
    data["split"][0][1][0] = nine
    with pytest.raises(SnapshotError, match="no pair"):
        bj.restore(data)
    seed = bj.new(2, seed=3).snapshot()
    seed["split"] = []
    with pytest.raises(SnapshotError, match="casino hands"):
        bj.restore(seed)
    seed = bj.new(2, seed=3).snapshot()
    seed["log"] = [[0, 3]]  # a Double in a seed game's log
    with pytest.raises(SnapshotError, match="unknown log entry 3"):
        bj.restore(seed)


def test_deal_again_keeps_the_rules() -> None:
    state = bj.new(2, seed=4, options={**CASINO, "soft17": "hit", "computers": [1]})
    again = state.deal_again()
    assert again.ruleset == "casino" and again.view(None).house_hits_soft17
    assert bj.new(2, seed=4).deal_again().ruleset == "seed"


# ---------------------------------------------------------------- every game


def test_random_casino_games_keep_every_invariant() -> None:
    for game in range(300):
        pick = random.Random(game)
        players = pick.randint(1, 7)
        options: dict[str, Any] = {
            **CASINO,
            "computers": [s for s in range(players) if pick.random() < 0.3],
            "computer_level": pick.choice(["easy", "normal", "hard"]),
            "soft17": pick.choice(["stand", "hit"]),
        }
        state = bj.new(players, seed=game if game % 2 else None, options=options)
        events = list(state.opening_events)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None and not state.is_computer(seat)
            copy = bj.restore(json.loads(json.dumps(state.snapshot())))
            action = pick.choice(state.legal_actions(seat))
            new = state.apply(seat, action)
            assert copy.apply(seat, action) == new
            assert copy.snapshot() == state.snapshot()
            events += new
            assert not any(isinstance(e, bj.PlayerBlackjack) and e.seat == seat for e in new)
        data = state.snapshot()
        held = [i for hand in data["hands"] + [h for _, h in data["split"]] for i in hand]
        assert Counter(data["shoe"] + data["house"] + held) == FULL_SHOE
        assert bj.replay(data).snapshot() == data
        view, result = state.view(None), state.result
        assert result is not None and view.payouts is not None
        for seat, hands in enumerate(view.seat_hands):
            net = sum(h.payout or 0.0 for h in hands)
            assert view.payouts[seat] == net
            expected = Outcome.WIN if net > 0 else Outcome.LOSE if net < 0 else Outcome.DRAW
            assert result.outcomes[seat] is expected
            for hand in hands:
                assert not hand.doubled or len(hand.cards) == 3
                assert hand.payout is not None and abs(hand.payout) <= 2
        house = data["house"]
        if not any(isinstance(e, bj.HouseBlackjack) for e in events):
            assert bj.hand_total(house) >= 17
