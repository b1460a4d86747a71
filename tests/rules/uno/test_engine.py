"""The engine contract for Uno: leaving a running game (:meth:`State.forfeit`: the cards go
under the draw pile, the seat leaves the rotation and every rule that counts seats; the last
seat left wins), what its snapshot holds and the damaged ones it refuses.

That ``restore(snapshot())`` plays on identically, and that another game's or schema's
snapshot is refused, the conformance suite checks for every game (tests/conformance/).
"""

from __future__ import annotations

import pytest

from rules.engine import GameOver, IllegalAction, Outcome, SnapshotError
from rules.uno import Draw, Forfeited, HandsRotated, Play, State, new, restore
from rules.uno.cards import CARD_CODES, COLOUR_NAMES


def rig(hands: list[list[str]], top: str, **options: object) -> State:
    state = new(len(hands), seed=3, options=options)
    free = list(range(len(CARD_CODES)))

    def take(code: str) -> int:
        card = next(c for c in free if CARD_CODES[c] == code)
        free.remove(card)
        return card

    state.hands = [[take(code) for code in hand] for hand in hands]
    state.discard = [take(top)]
    state.colour = COLOUR_NAMES.index(top.partition("_")[0])
    state.pile = free
    state._unshuffled = len(free)
    state.turn = 0
    state.direction = 1
    return state


def test_the_cards_go_under_the_draw_pile_and_the_turn_passes() -> None:
    state = rig([["red_3", "blue_4"], ["green_1"], ["blue_9", "blue_8"]], "red_7")
    held = list(state.hands[0])
    events = state.forfeit(0)
    assert events == [Forfeited(0, 2)]
    assert state.pile[:2] == held and state.hands[0] == []
    assert state.turn == 1 and not state.legal_actions(0)
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, Draw())
    assert refused.value.code == "not_playing"
    with pytest.raises(IllegalAction):
        state.forfeit(0)


def test_play_skips_the_seat_that_left() -> None:
    state = rig([["red_3", "red_4"], ["green_1"], ["blue_9", "red_9"]], "red_7")
    state.forfeit(1)
    state.apply(0, Play(0))
    assert state.turn == 2
    state.apply(2, Play(1))
    assert state.turn == 0


def test_a_zero_passes_hands_among_the_seats_still_playing() -> None:
    state = rig(
        [["red_0", "blue_1"], ["green_1"], ["blue_9", "blue_8", "blue_7"]],
        "red_7",
        seven_zero=True,
    )
    state.forfeit(1)
    events = state.apply(0, Play(0))
    assert HandsRotated(1) in events
    assert [len(hand) for hand in state.hands] == [3, 0, 1]


def test_the_last_seat_left_wins_and_a_snapshot_keeps_who_left() -> None:
    state = rig([["red_3"], ["green_1"], ["blue_9", "blue_8"]], "red_7")
    state.forfeit(1)
    again = restore(state.snapshot())
    assert again.view(None).out == (1,)
    events = again.forfeit(0)
    assert isinstance(events[-1], GameOver)
    result = again.result
    assert result is not None and result.outcomes[2] is Outcome.WIN
    assert restore(again.snapshot()).result == result


def test_rule_10_the_last_seat_left_scores_the_other_hands_not_its_own() -> None:
    # The others' cards went under the pile: their hands are empty, and the cards the winner
    # still holds (50 + 9) are not theirs to score.
    state = rig([["red_3"], ["green_1"], ["none_W+4", "blue_9"]], "red_7")
    state.forfeit(0)
    state.forfeit(1)
    result = state.result
    assert result is not None and result.outcomes[2] is Outcome.WIN
    assert result.scores == (0, 0, 0)


def test_snapshot_carries_generator_log_and_schema() -> None:
    state = new(3, seed=42)
    state.apply(state.turn, state.legal_actions(state.turn)[-1])
    data = state.snapshot()
    assert (data["game"], data["schema"]) == ("uno", 1)
    assert data["rng"]["seed"] == 42
    assert len(data["log"]) == 1


def test_damaged_snapshots_are_refused() -> None:
    data = new(3, seed=1).snapshot()
    with pytest.raises(SnapshotError, match="deck"):
        restore({**data, "pile": data["pile"][1:]})
    broken = dict(data)
    del broken["hands"]
    with pytest.raises(SnapshotError):
        restore(broken)
