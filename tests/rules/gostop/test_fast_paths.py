"""The engine's speed shortcuts build and score exactly what the plain paths would."""

import random

from rules.gostop import new, restore
from rules.gostop.events import Bombed, Captured, CardPlayed, Flipped
from rules.gostop.scoring import (
    best_breakdown,
    best_points,
    best_score,
    best_tally_breakdown,
    breakdown,
    first_steal,
    settle_tallies,
    settle_total,
    steal_order,
    tally,
    tally_points,
)


def test_captured_events_equal_their_constructor() -> None:
    seen = single = 0
    for seed in range(40):
        # Odd seeds deal the bonus cards, which are captured alone (a one-card event).
        state = new(2, seed=seed, options={"bonus_cards": 3} if seed % 2 else None)
        policy = random.Random(seed)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            actions = state.legal_actions(seat)
            turn_of = seat  # a flip-only turn owed after a bomb may follow in the same apply
            for event in state.apply(seat, actions[policy.randrange(len(actions))]):
                if isinstance(event, (CardPlayed, Flipped, Bombed)):
                    turn_of = event.seat
                if isinstance(event, Captured):
                    built = Captured(event.seat, event.cards)
                    assert type(event) is Captured
                    assert event.seat == turn_of and event.cards  # whose turn it is takes them
                    assert event == built and hash(event) == hash(built)
                    assert repr(event) == repr(built)
                    seen += 1
                    single += len(event.cards) == 1
    assert seen > 100 and single > 10


def test_one_pass_scores_equal_the_breakdown_sums() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        pile = rng.sample(range(51), rng.randrange(0, 30))
        t = tally(pile)
        as_animal = breakdown(pile, gukjin_as_double=False).total
        as_double = breakdown(pile, gukjin_as_double=True).total
        assert tally_points(t, False) == as_animal
        assert tally_points(t, True) == as_double
        points, double = best_points(t)
        assert points == max(as_animal, as_double)
        assert best_score(t) == points
        assert double == (as_double > as_animal)
        assert best_tally_breakdown(t) == best_breakdown(pile)


def test_current_seat_attribute_follows_the_phase_and_the_turn() -> None:
    """``current_seat`` is a plain attribute kept by the engine: None exactly once the game is
    over, else the seat whose legal actions are not empty; a restore rebuilds it alike."""
    for seed in range(60):
        state = new(2, seed=seed, options={"bonus_cards": 3} if seed % 2 else None)
        policy = random.Random(seed)
        while True:
            seat = state.current_seat
            copy = restore(state.snapshot())
            assert copy.current_seat == seat
            assert state.view(None).current_seat == seat
            if seat is None:
                assert state.is_over and not state.legal_actions(0) and not state.legal_actions(1)
                break
            assert not state.is_over and not state.legal_actions(1 - seat)
            actions = state.legal_actions(seat)
            assert actions
            state.apply(seat, actions[policy.randrange(len(actions))])


def test_first_steal_is_the_head_of_the_steal_order() -> None:
    rng = random.Random(11)
    for _ in range(3000):
        pile = rng.sample(range(51), rng.randrange(0, 30))
        for double in (False, True):
            order = steal_order(pile, gukjin_as_double=double)
            assert first_steal(pile, gukjin_as_double=double) == (order[0] if order else -1)


def test_settle_total_is_the_settlements_total() -> None:
    rng = random.Random(13)
    for _ in range(3000):
        cards = rng.sample(range(51), rng.randrange(0, 40))
        cut = rng.randrange(len(cards) + 1)
        winner, loser = tally(cards[:cut]), tally(cards[cut:])
        terms = {
            "winner_go": rng.randrange(5),
            "shakes": rng.randrange(3),
            "bombs": rng.randrange(2),
            "loser_go": rng.randrange(2),
            "nagari_carry": rng.randrange(3),
        }
        sheet = settle_tallies(winner, loser, **terms)
        assert settle_total(winner, loser, **terms) == sheet.total
        assert sheet.breakdown == best_tally_breakdown(winner)
