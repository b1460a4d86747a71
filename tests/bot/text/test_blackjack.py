"""Blackjack rendering: golden strings from hand-made views and events."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n import t
from bot.text import blackjack as render
from rules.blackjack.events import (
    CardDrawn,
    Dealt,
    Doubled,
    HouseBlackjack,
    HouseBusted,
    HouseDrew,
    HouseStood,
    HouseTurn,
    PairSplit,
    PlayerBlackjack,
    Stood,
    TurnStarted,
)
from rules.blackjack.state import BlackjackView, PlayedHand
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
    assert lines[1].startswith("  WWWWWWWWWWW~: ♠A, ♥A,")  # the name clipped to 12 columns
    assert lines[3].startswith("> 가나다라마~: ")  # Hangul counts two columns
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


# ---------------------------------------------------------------- casino tables (rules 16-22)


def played(*codes: str, total: int, **flags: Any) -> PlayedHand:
    return PlayedHand(cards(*codes), total, **flags)


def casino_view(**changes: Any) -> BlackjackView:
    """Alice doubled, Bob split and plays his second hand, Computer 3 holds a Blackjack."""
    seat_hands = (
        (played("♦6", "♦5", "♠K", total=21, doubled=True, done=True),),
        (played("♥8", "♣5", total=13, done=True), played("♠8", "♦K", total=18)),
        (played("♣A", "♠K", total=21, blackjack=True),),
    )
    fields: dict[str, Any] = {
        "seat": None,
        "players": 3,
        "current": 1,
        "hands": tuple(hands[0].cards for hands in seat_hands),
        "totals": (21, 13, 21),
        "finished": (True, False, False),
        "computers": (False, False, True),
        "house": cards("♥9"),
        "house_hidden": True,
        "house_total": 9,
        "shoe": 190,
        "result": None,
        "ruleset": "casino",
        "seat_hands": seat_hands,
        "playing": 1,
        "may_double": True,
    }
    return BlackjackView(**{**fields, **changes})


def casino_over() -> BlackjackView:
    seat_hands = (
        (played("♦6", "♦5", "♠K", total=21, doubled=True, done=True, payout=2.0),),
        (
            played("♥8", "♣5", "♦6", total=19, done=True, payout=1.0),
            played("♠8", "♦K", "♣4", total=22, done=True, payout=-1.0),
        ),
        (played("♣A", "♠K", total=21, blackjack=True, done=True, payout=1.5),),
    )
    return casino_view(
        current=None,
        finished=(True, True, True),
        house=cards("♣10", "♥7"),
        house_hidden=False,
        house_total=17,
        seat_hands=seat_hands,
        playing=0,
        may_double=False,
        result=Result((Outcome.WIN, Outcome.DRAW, Outcome.WIN), (21, 19, 21), (2, 0, 1)),
        payouts=(2.0, 0.0, 1.5),
    )


CASINO_PLAYING = {
    "en": (
        "Rules: casino (House stands on soft 17)\n"
        "House: HIDDEN, ♥9\n"
        "  Alice: ♦6, ♦5, ♠K (21) - Double\n"
        "> Bob 'x': Split\n"
        "    Hand 1: ♥8, ♣5 (13) - Stand\n"
        "  > Hand 2: ♠8, ♦K (18)\n"
        "  Computer 3: ♣A, ♠K (21) - Blackjack"
    ),
    "ko": (
        "규칙: 카지노 (딜러 소프트 17 스탠드)\n"
        "딜러: 비공개, ♥9\n"
        "  Alice: ♦6, ♦5, ♠K (21) - 더블\n"
        "> Bob 'x': 스플릿\n"
        "    핸드 1: ♥8, ♣5 (13) - 스탠드\n"
        "  > 핸드 2: ♠8, ♦K (18)\n"
        "  Computer 3: ♣A, ♠K (21) - 블랙잭"
    ),
}


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_golden_casino_table_with_a_split_a_double_and_a_blackjack(locale: str) -> None:
    body = render.table_body(casino_view(), NAMES, locale)
    assert body == CASINO_PLAYING[locale]
    assert_fits_phone(body)


CASINO_OVER = {
    "en": (
        "Rules: casino (House stands on soft 17)\n"
        "House: ♣10, ♥7 (17)\n"
        "[Win +2] Alice: ♦6, ♦5, ♠K (21) - Double\n"
        "[Draw 0] Bob 'x': Split\n"
        "    [Win +1] Hand 1: ♥8, ♣5, ♦6 (19)\n"
        "    [Lose -1] Hand 2: ♠8, ♦K, ♣4\n"
        "      (22) - Bust !!\n"  # a split hand's wrapped total goes on under its cards
        "[Win +1.5] Computer 3: ♣A, ♠K\n"
        "    (21) - Blackjack"
    ),
    "ko": (
        "규칙: 카지노 (딜러 소프트 17 스탠드)\n"
        "딜러: ♣10, ♥7 (17)\n"
        "[승 +2] Alice: ♦6, ♦5, ♠K (21) - 더블\n"
        "[무 0] Bob 'x': 스플릿\n"
        "    [승 +1] 핸드 1: ♥8, ♣5, ♦6 (19)\n"
        "    [패 -1] 핸드 2: ♠8, ♦K, ♣4\n"
        "      (22) - 버스트 !!\n"
        "[승 +1.5] Computer 3: ♣A, ♠K\n"
        "    (21) - 블랙잭"
    ),
}


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_golden_casino_results_in_bets(locale: str) -> None:
    body = render.table_body(casino_over(), NAMES, locale)
    assert body == CASINO_OVER[locale]
    assert_fits_phone(body)
    assert [c.action for c in render.table(casino_over(), [], NAMES, locale).controls] == ["again"]


def test_the_casino_header_names_a_house_that_hits_soft_17() -> None:
    view = casino_view(house_hits_soft17=True)
    assert render.table_body(view, NAMES, "en").splitlines()[0] == (
        "Rules: casino (House hits soft 17)"
    )
    assert (
        render.table_body(view, NAMES, "ko").splitlines()[0] == "규칙: 카지노 (딜러 소프트 17 히트)"
    )


def test_double_and_split_are_buttons_only_when_the_hand_may_make_them() -> None:
    assert [c.action for c in render.table(casino_view(), [], NAMES, "en").controls] == [
        "hand",
        "hit",
        "stand",
        "double",
    ]
    pair = casino_view(may_split=True, playing=0)
    assert [c.action for c in render.table(pair, [], NAMES, "en").controls][-2:] == [
        "double",
        "split",
    ]
    hit = casino_view(may_double=False)
    assert [c.action for c in render.table(hit, [], NAMES, "en").controls] == [
        "hand",
        "hit",
        "stand",
    ]
    labels = {c.action: t(c.label, "ko") for c in render.table(pair, [], NAMES, "ko").controls}
    assert (labels["double"], labels["split"]) == ("더블", "스플릿")


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (
            "en",
            "  Your hand 1: ♥8, ♣5 (13) - Stand\n> Your hand 2: ♠8, ♦K (18)\nThe House shows: ♥9",
        ),
        ("ko", "  내 핸드 1: ♥8, ♣5 (13) - 스탠드\n> 내 핸드 2: ♠8, ♦K (18)\n딜러 공개 카드: ♥9"),
    ],
)
def test_golden_private_split_hand(locale: str, expected: str) -> None:
    mine = render.hand(casino_view(seat=1), NAMES, locale)
    assert mine.body == expected
    assert [c.action for c in mine.controls] == ["hit", "stand", "double"]
    theirs = render.hand(casino_view(seat=0), NAMES, locale)
    assert theirs.body.splitlines()[0] == t(
        "bj.your_hand", locale, hand=f"♦6, ♦5, ♠K (21) - {t('bj.double', locale)}"
    )
    assert theirs.controls == ()


CASINO_EVENTS = [
    Doubled(0, parse_card("♠9"), 20),
    PairSplit(1, cards("♠A", "♦K"), cards("♥A", "♣9"), (21, 20), True),
    CardDrawn(1, parse_card("♠5"), 16, 0),
    CardDrawn(1, parse_card("♠K"), 26, 0),
    Doubled(1, parse_card("♦K"), 25, 1),
    Stood(1, 18, 1),
    PlayerBlackjack(2),
    HouseBlackjack(parse_card("♠A")),
]


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (
            "en",
            [
                "Alice doubles: ♠9 (20)",
                "Bob 'x' splits: ♠A, ♦K (21) and ♥A, ♣9 (20)",
                "Split Aces take one card each and stand.",
                "Bob 'x' hits hand 1: ♠5 (16)",
                "Bob 'x' hits hand 1: ♠K (26) - Bust!",
                "Bob 'x' doubles hand 2: ♦K (25) - Bust!",
                "Bob 'x' stands on 18 with hand 2.",
                "Computer 3 has Blackjack!",
                "The House turns over ♠A: Blackjack! Only a player's Blackjack draws.",
            ],
        ),
        (
            "ko",
            [
                "Alice 님 더블: ♠9 (20)",
                "Bob 'x' 님 스플릿: ♠A, ♦K (21) / ♥A, ♣9 (20)",
                "나눈 에이스는 한 장씩만 받고 스탠드해요.",
                "Bob 'x' 님 핸드 1 히트: ♠5 (16)",
                "Bob 'x' 님 핸드 1 히트: ♠K (26) - 버스트!",
                "Bob 'x' 님 핸드 2 더블: ♦K (25) - 버스트!",
                "Bob 'x' 님 핸드 2: 18에서 스탠드했어요.",
                "Computer 3 님 블랙잭!",
                "딜러가 ♠A를 공개했어요. 블랙잭! 블랙잭인 플레이어만 비기고 나머지는 져요.",
            ],
        ),
    ],
)
def test_golden_casino_move_log(locale: str, expected: list[str]) -> None:
    assert render.event_lines(CASINO_EVENTS, NAMES, locale, casino=True) == expected
    # A seed table's House Blackjack still beats everyone (rule 4).
    assert render.event_lines(CASINO_EVENTS[-1:], NAMES, locale) == [
        t("bj.log.house_blackjack", locale, card="♠A")
    ]


def test_bets_are_signed() -> None:
    assert [render.bets_text(b) for b in (1.5, 2.0, -1.0, -4.0, 0.0)] == [
        "+1.5",
        "+2",
        "-1",
        "-4",
        "0",
    ]


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_casino_tables_with_long_names_and_hands_fit_a_phone(locale: str) -> None:
    many = ("♠A", "♥A", "♦A", "♣A", "♠2", "♥2", "♦2", "♣2", "♠3")
    seat_hands = (
        (played(*many, total=18, done=True, payout=-2.0, doubled=True),),
        (played("♠A", *many, total=19, payout=1.0), played("♥A", *many, total=19, payout=1.0)),
        (played("♣A", "♠K", total=21, blackjack=True, payout=1.5),),
    )
    names = ["W" * 32, "가나다라마바사아자차카타파하", "Computer 3"]
    for view in (
        casino_view(seat_hands=seat_hands, house_hits_soft17=True),
        casino_over(),
        casino_view(
            seat_hands=seat_hands,
            current=None,
            result=Result((Outcome.LOSE, Outcome.WIN, Outcome.WIN), (18, 19, 21), (1, 2, 0)),
            payouts=(-2.0, 2.0, 1.5),
        ),
    ):
        assert_fits_phone(render.table_body(view, names, locale))


@pytest.mark.parametrize("casino", [False, True])
def test_a_long_private_hand_wraps_between_cards(casino: bool) -> None:
    many = cards("♠A", "♥A", "♦A", "♣A", "♠2", "♥2", "♦2", "♣2", "♠3")
    view = casino_view(
        seat=0,
        ruleset="casino" if casino else "seed",
        hands=(many, *casino_view().hands[1:]),
        totals=(18, 13, 21),
        seat_hands=(
            (PlayedHand(many, 18, doubled=True, done=True),),
            *casino_view().seat_hands[1:],
        ),
    )
    body = render.hand(view, NAMES, "en").body
    tail = "(18) - Double" if casino else "(18)"
    assert body.splitlines()[:2] == [
        "Your hand: ♠A, ♥A, ♦A, ♣A, ♠2, ♥2, ♦2,",
        f"    ♣2, ♠3 {tail}",
    ]
    assert_fits_phone(body)
    assert_fits_phone(render.hand(view, NAMES, "ko").body)
