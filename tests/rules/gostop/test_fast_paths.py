"""The engine's speed shortcuts build and score exactly what the plain paths would."""

import random

from rules.gostop import new
from rules.gostop.scoring import (
    best_breakdown,
    best_points,
    best_score,
    best_tally_breakdown,
    breakdown,
    tally,
    tally_points,
)
from rules.gostop.state import Bombed, Captured, CardPlayed, Flipped


def test_captured_events_equal_their_constructor() -> None:
    seen = 0
    for seed in range(40):
        state = new(2, seed=seed)
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
    assert seen > 100


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
