"""Engine contract: forfeits, views, snapshots."""

from __future__ import annotations

import json

import pytest

import rules.onecard as oc
from rules.cards import Card, parse_card
from rules.engine import GameOver, IllegalAction, SnapshotError
from rules.onecard.ai import choose_action


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def test_forfeit_returns_cards_and_passes_the_turn() -> None:
    state = oc.position(
        [cards("♣2 ♦4"), cards("♥6 ♥7"), cards("♥2 ♦8 ♦9")], parse_card("♣3"), offense=0
    )
    state.apply(0, oc.PlayCard(parse_card("♣2")))
    events = state.forfeit(1)
    assert events == [oc.Forfeited(1, 2)]
    assert state.current_seat == 2 and state.offense == 0
    assert state.turn_order() == (2, 0)
    with pytest.raises(IllegalAction, match="already out of the game") as refused:
        state.forfeit(1)
    assert refused.value.code == "not_playing"


def test_a_bankrupt_seat_cannot_forfeit_and_is_told_why() -> None:
    state = oc.position([cards("♠3 ♠4"), [], cards("♥5")], parse_card("♠9"), out=[1])
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="bankrupt") as refused:
        state.forfeit(1)
    assert refused.value.code == "already_bankrupt"
    assert state.snapshot() == before


def test_forfeit_of_a_waiting_seat_keeps_the_turn() -> None:
    state = oc.position([cards("♣2"), cards("♥6"), cards("♥2")], parse_card("♣3"))
    state.forfeit(2)
    assert state.current_seat == 0 and state.next_seat() == 1


def test_forfeit_leaving_one_player_ends_the_game() -> None:
    state = oc.position([cards("♣2 ♣3"), cards("♥6")], parse_card("♣4"))
    events = state.forfeit(0)
    assert isinstance(events[-1], GameOver)
    assert state.result is not None and state.result.ranking == (1, 0)


def test_snapshot_is_json_and_restore_plays_on_identically() -> None:
    state = oc.new(4, seed=11)
    for _ in range(15):
        seat = state.current_seat
        assert seat is not None
        state.apply(seat, choose_action(state.view(seat)))
    copy = oc.restore(json.loads(json.dumps(state.snapshot())))
    assert copy.snapshot() == state.snapshot()
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None and copy.current_seat == seat
        action = oc.Take() if seat % 2 else choose_action(state.view(seat))
        assert state.apply(seat, action) == copy.apply(seat, action)
    assert copy.result == state.result


def test_restore_refuses_damaged_snapshots() -> None:
    data = oc.new(2, seed=1).snapshot()
    with pytest.raises(SnapshotError):
        oc.restore({**data, "game": "uno"})
    with pytest.raises(SnapshotError):
        oc.restore({**data, "deck": data["deck"][1:]})
    with pytest.raises(SnapshotError):
        oc.restore({**data, "hands": "nonsense"})


def test_unknown_options_are_refused() -> None:
    with pytest.raises(IllegalAction, match="options"):
        oc.new(2, seed=1, options={"hand": 7})


def test_a_snapshot_from_before_out_scores_were_kept_still_restores() -> None:
    state = oc.position([cards("♣2 ♦4"), cards("♥6 ♥7"), cards("♥2")], parse_card("♣3"))
    state.forfeit(1)
    snapshot = state.snapshot()
    assert snapshot["out_cards"] == [0, 2, 0]
    del snapshot["out_cards"]
    restored = oc.restore(snapshot)
    assert restored.view(None) == state.view(None)
