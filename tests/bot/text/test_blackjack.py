"""Blackjack rendering: golden strings from hand-made views and events."""

from __future__ import annotations

import pytest

from bot.text import blackjack as render
from rules.blackjack.events import (
    CardDrawn,
    Dealt,
    HouseBlackjack,
    HouseBusted,
    HouseDrew,
    HouseStood,
    HouseTurn,
    Stood,
    TurnStarted,
)
from rules.blackjack.state import BlackjackView
from rules.cards import parse_card
from rules.engine import Outcome, Result
from tests.phone import assert_fits_phone

NAMES = ["Alice", "Bob `x`", "Computer 3"]


def cards(*codes: str) -> tuple:  # type: ignore[type-arg]
    return tuple(parse_card(code) for code in codes)


def playing_view() -> BlackjackView:
    return BlackjackView(
        seat=None,
        players=3,
        current=1,
        hands=(cards("♦9", "♦6", "♠5"), cards("♥10", "♣5"), cards("♣K", "♠7")),
        totals=(20, 15, 17),
        finished=(True, False, False),
        computers=(False, False, True),
        house=cards("♥9"),
        house_hidden=True,
        house_total=9,
        shoe=199,
        result=None,
    )


def test_golden_table_while_playing() -> None:
    assert_fits_phone(render.table_body(playing_view(), NAMES, "en"))
    assert render.table_body(playing_view(), NAMES, "en") == (
        "House: HIDDEN, ♥9\n"
        "  Alice: ♦9, ♦6, ♠5 (20) - Stand\n"
        "> Bob 'x': ♥10, ♣5 (15)\n"
        "  Computer 3: ♣K, ♠7 (17)"
    )


def test_golden_table_in_korean() -> None:
    body = render.table_body(playing_view(), NAMES, "ko")
    assert body.splitlines()[0] == "딜러: 비공개, ♥9"
    assert_fits_phone(body)


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_long_names_and_long_hands_fit_a_phone(locale: str) -> None:
    many = cards("♠A", "♥A", "♦A", "♣A", "♠2", "♥2", "♦2", "♣2", "♠3", "♥3")
    view = BlackjackView(
        seat=None, players=3, current=1, hands=(many, many, cards("♣K", "♠7")),
        totals=(20, 20, 17), finished=(True, False, False), computers=(False, False, True),
        house=cards("♥9"), house_hidden=True, house_total=9, shoe=180, result=None,
    )  # fmt: skip
    names = ["W" * 32, "가나다라마바사아자차카타파하", "Computer 3"]
    body = render.table_body(view, names, locale)
    assert_fits_phone(body)
    lines = body.splitlines()
    assert lines[1].startswith("  WWWWWWWWWWW…: ♠A, ♥A,")  # the name clipped to 12 columns
    assert lines[3].startswith("> 가나다라마…: ")  # Hangul counts two columns
    # Every card is still shown, in order, whatever the wrapping.
    assert " ".join(body.split()).count("♠A, ♥A, ♦A, ♣A, ♠2, ♥2, ♦2, ♣2, ♠3, ♥3 (20)") == 2


def test_golden_table_after_the_house_played() -> None:
    view = BlackjackView(
        seat=None,
        players=2,
        current=None,
        hands=(cards("♦9", "♦6", "♠5"), cards("♥10", "♣5", "♦9")),
        totals=(20, 24),
        finished=(True, True),
        computers=(False, False),
        house=cards("♣10", "♥9"),
        house_hidden=False,
        house_total=19,
        shoe=198,
        result=Result((Outcome.WIN, Outcome.LOSE), (20, 24), (0, 1)),
    )
    body = render.table_body(view, NAMES, "en")
    assert body == (
        "House: ♣10, ♥9 (19)\n"
        "[Win] Alice: ♦9, ♦6, ♠5 (20)\n"
        "[Lose] Bob 'x': ♥10, ♣5, ♦9\n"
        "    (24) - Bust !!"  # a whole line would be 43 columns: the total wraps, unbroken
    )
    assert_fits_phone(body)
    table = render.table(view, [], NAMES, "en")
    assert [c.action for c in table.controls] == ["again"]


def test_golden_move_log() -> None:
    events = [
        Dealt((cards("♦9", "♦6"),), parse_card("♥9")),
        TurnStarted(0),
        CardDrawn(0, parse_card("♠5"), 20),
        CardDrawn(1, parse_card("♦9"), 24),
        Stood(0, 20),
        HouseTurn(parse_card("♣7"), 16),
        HouseDrew(parse_card("♠8"), 24),
        HouseBusted(24),
        HouseStood(18),
        HouseBlackjack(parse_card("♠A")),
    ]
    assert render.event_lines(events, NAMES, "en") == [
        "The cards are dealt; the House shows ♥9.",
        "Alice hits: ♠5 (20)",
        "Bob 'x' hits: ♦9 (24) - Bust!",
        "Alice stands on 20.",
        "The House turns over ♣7: 16.",
        "The House draws ♠8: 24.",
        "The House busts with 24!",
        "The House stands on 18.",
        "The House turns over ♠A: Blackjack! Every player loses.",
    ]


def test_the_public_table_offers_hand_hit_stand() -> None:
    table = render.table(playing_view(), [Stood(0, 20)], NAMES, "en")
    assert table.log == ("Alice stands on 20.",)
    assert [c.action for c in table.controls] == ["hand", "hit", "stand"]


def test_golden_private_hand() -> None:
    view = playing_view()
    mine = BlackjackView(**{**{f: getattr(view, f) for f in view.__slots__}, "seat": 1})
    hand = render.hand(mine, NAMES, "en")
    assert hand.body == "Your hand: ♥10, ♣5 (15)\nThe House shows: ♥9"
    assert [c.action for c in hand.controls] == ["hit", "stand"]


def test_names_cannot_break_the_code_block() -> None:
    assert render.safe_name("a```b\nc") == "a'''b c"
    assert len(render.safe_name("x" * 100)) == render.NAME_LIMIT


def test_a_name_with_markdown_cannot_format_the_public_log() -> None:
    table = render.table(playing_view(), [Stood(0, 20)], ["*Al*_ice", "Bob", "Computer 3"], "en")
    assert table.log == ("\\*Al\\*\\_ice stands on 20.",)
    # Inside the code block markdown does nothing: the name shows as typed.
    assert "  *Al*_ice: ♦9, ♦6, ♠5 (20) - Stand" in table.body.splitlines()
