"""French cards: codes, the deck, and the forgiving parser."""

import pytest

from rules.cards import (
    FULL_DECK,
    JOKERS,
    STANDARD_DECK,
    Card,
    CardParseError,
    Rank,
    Suit,
    parse_card,
)


def test_deck_has_52_distinct_cards_and_two_jokers() -> None:
    assert len(STANDARD_DECK) == 52
    assert len(set(STANDARD_DECK)) == 52
    assert [c.code for c in JOKERS] == ["JKB", "JKC"]
    assert len(FULL_DECK) == 54
    assert all(not c.is_joker for c in STANDARD_DECK)


def test_canonical_codes() -> None:
    assert Card.of(Suit.SPADES, Rank.ACE).code == "♠A"
    assert Card.of(Suit.HEARTS, 10).code == "♥10"
    assert Card.of(Suit.CLUBS, Rank.KING).code == "♣K"


def test_cards_are_flyweights_that_round_trip_through_their_index() -> None:
    for card in FULL_DECK:
        assert Card.from_index(card.index) is card
        assert parse_card(card.code) is card


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("sa", "♠A"),
        ("AS", "♠A"),
        ("a♠", "♠A"),
        ("10h", "♥10"),
        ("h10", "♥10"),
        ("spade 10", "♠10"),
        ("ace of spades", "♠A"),
        ("스페이드 A", "♠A"),
        ("하트 10", "♥10"),
        ("[♠ 0]", "♠10"),
        ("[◆ 7]", "♦7"),
        ("jk b", "JKB"),
        ("joker c", "JKC"),
        ("[JK B]", "JKB"),
        ("  Qd ", "♦Q"),
    ],
)
def test_parser_accepts_what_people_type(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["", "  ", "zz", "11h", "s14", "jk x", "♠"])
def test_parser_refuses_with_a_hint(text: str) -> None:
    with pytest.raises(CardParseError, match="type"):
        parse_card(text)
