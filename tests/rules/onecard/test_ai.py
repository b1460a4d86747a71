"""The computer player: defends, keeps jokers, names its strongest suit after a 7."""

from __future__ import annotations

import rules.onecard as oc
from rules.cards import Card, Suit, parse_card
from rules.onecard.ai import choose_action, favourite_suit


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def test_defends_an_attack_when_it_can() -> None:
    state = oc.position([cards("♥3"), cards("♥6 ♠2 JKB")], parse_card("♣2"), offense=2, current=1)
    assert choose_action(state.view(1)) == oc.PlayCard(parse_card("♠2"))


def test_defends_with_a_joker_only_as_a_last_resort() -> None:
    state = oc.position([cards("♥3"), cards("♥6 JKC")], parse_card("♣2"), offense=2, current=1)
    assert choose_action(state.view(1)) == oc.PlayCard(parse_card("JKC"))


def test_takes_when_it_cannot_defend() -> None:
    state = oc.position([cards("♥3"), cards("♥6 ♠2")], parse_card("JKB"), offense=7, current=1)
    assert choose_action(state.view(1)) == oc.Take()


def test_keeps_jokers_when_no_attack_is_pending() -> None:
    state = oc.position([cards("♥3 JKB JKC"), cards("♥6")], parse_card("♠9"))
    assert choose_action(state.view(0)) == oc.Take()


def test_plays_a_lone_joker_to_win() -> None:
    state = oc.position([cards("JKB"), cards("♥6")], parse_card("♠9"))
    assert choose_action(state.view(0)) == oc.PlayCard(parse_card("JKB"))


def test_seven_names_the_suit_it_holds_most() -> None:
    state = oc.position([cards("♠7 ♦3 ♦4 ♣5"), cards("♥6")], parse_card("♠9"))
    assert choose_action(state.view(0)) == oc.PlayCard(parse_card("♠7"), Suit.DIAMONDS)
    assert favourite_suit(cards("♠7 ♠3 ♥4"), without=parse_card("♠7")) is Suit.SPADES


def test_every_choice_is_legal_over_whole_games() -> None:
    for seed in range(30):
        state = oc.new(2 + seed % 3, seed=seed)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            action = choose_action(state.view(seat))
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
