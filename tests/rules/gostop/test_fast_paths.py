"""The engine's speed shortcuts build exactly what the plain constructors would."""

import random

from rules.gostop import new
from rules.gostop.state import Captured


def test_captured_events_equal_their_constructor() -> None:
    seen = 0
    for seed in range(40):
        state = new(2, seed=seed)
        policy = random.Random(seed)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            actions = state.legal_actions(seat)
            for event in state.apply(seat, actions[policy.randrange(len(actions))]):
                if isinstance(event, Captured):
                    built = Captured(event.seat, event.cards)
                    assert type(event) is Captured
                    assert event == built and hash(event) == hash(built)
                    assert repr(event) == repr(built)
                    seen += 1
    assert seen > 100
