"""Crazy Eights text: golden tables, hands and log lines in English and Korean, every table
within 40 columns with its columns in line, no card of a hand in public, every refusal in
both languages."""

from __future__ import annotations

import random
import re

import pytest

import rules.crazyeights as ce
from bot.games.crazyeights import ADAPTER
from bot.i18n import catalog, counted, refusal
from bot.sessions.model import compose
from bot.text import crazyeights as render
from rules.cards import STANDARD_DECK, Card, Rank, Suit, parse_card
from rules.engine import Event, GameOver, IllegalAction, Outcome, Result
from rules.levels import Level
from tests.language import english_words, foreign_lines
from tests.phone import assert_fits_phone, misaligned

NAMES = ["Alice", "Bob", "민준", "Dave"]
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def cards(text: str) -> list[Card]:
    return [parse_card(word) for word in text.split()]


def c(text: str) -> Card:
    return parse_card(text)


def public(view: ce.CrazyEightsView, events: list[Event], locale: str, names: list[str]) -> str:
    """The public table message as the bot posts it, colour codes left out."""
    return _COLOUR.sub("", compose(ADAPTER.table(view, events, names, locale)))


def four_seats() -> tuple[ce.State, list[Event]]:
    """Alice draws twice and plays, Dave leaves, Bob plays: 민준 is to move."""
    state = ce.position(
        [cards("♠3 ♦4 ♥9 ♣K"), cards("♥6 ♦9 ♣9"), cards("♣2 ♣3"), cards("♥A ♥J")],
        c("♣4"),
        pile=cards("♣5"),
    )
    events = [*state.apply(0, ce.Draw()), *state.apply(0, ce.Draw())]
    events += [*state.apply(0, ce.PlayCard(c("♣K"))), *state.forfeit(3)]
    events += state.apply(1, ce.PlayCard(c("♣9")))
    return state, events


TABLE_EN = """\
Alice drew 2 cards
Alice played ♣K
Dave left the game: 2 cards were shuffled into the stock
Bob played ♣9
```ansi
Turn 3 · Stock: 39 cards
Top card: ♣9
To play: any ♣, any 9, or an 8

  Alice          5 cards
  Bob            2 cards
> 민준           2 cards
  Dave           left

Next: Alice
```"""

TABLE_KO = """\
Alice 님이 카드 2장을 뽑았어요
Alice 님이 ♣K 카드를 냈어요
Dave 님이 게임을 떠났어요: 카드 2장을 덱에 섞었어요
Bob 님이 ♣9 카드를 냈어요
```ansi
3번째 차례 · 덱 39장
바닥 카드: ♣9
낼 수 있는 카드: ♣ 무늬, 9, 8

  Alice          5장
  Bob            2장
> 민준           2장
  Dave           떠남

다음: Alice
```"""


@pytest.mark.parametrize(("locale", "golden"), [("en", TABLE_EN), ("ko", TABLE_KO)])
def test_the_public_table_golden_counts_only(locale: str, golden: str) -> None:
    state, events = four_seats()
    text = public(state.view(None), events, locale, NAMES)
    assert text == golden
    assert_fits_phone(text)
    assert foreign_lines(text.splitlines(), locale) == []
    for seat in range(4):
        for card in state.hand(seat):
            assert card.code not in text


HAND_EN = """\
Top card: ♣9
To play: any ♣, any 9, or an 8
Now playing: 민준

5 cards in your hand:
♠3 ♥9 ♦4 ♣J ♣Q"""

HAND_KO = """\
바닥 카드: ♣9
낼 수 있는 카드: ♣ 무늬, 9, 8
지금 차례: 민준

내 카드 5장:
♠3 ♥9 ♦4 ♣J ♣Q"""


@pytest.mark.parametrize(("locale", "golden"), [("en", HAND_EN), ("ko", HAND_KO)])
def test_the_private_hand_golden_by_suit_from_a_to_k(locale: str, golden: str) -> None:
    state, _ = four_seats()
    assert state.hand(0) == (*cards("♠3 ♦4 ♥9"), *cards("♣Q ♣J"))  # as dealt, then drawn
    hand = render.hand_body(state.view(0), NAMES, locale)
    assert hand == golden
    assert foreign_lines(hand.splitlines(), locale) == []


def test_a_long_hand_wraps_between_cards_within_40_columns() -> None:
    hand = [card for card in STANDARD_DECK if card.rank != Rank.EIGHT][:30]
    state = ce.position([hand, cards("♣8")], c("♦8"))
    for locale in ("en", "ko"):
        lines = render.hand_body(state.view(0), NAMES, locale).splitlines()
        listing = lines[lines.index(counted("crazyeights.hand.count", 30, locale)) + 1 :]
        assert len(listing) > 1 and " ".join(listing).split() == [x.code for x in hand]
        assert_fits_phone("\n".join(lines))


def test_after_an_eight_the_table_says_the_suit_named() -> None:
    state = ce.position([cards("♣8 ♠3"), cards("♥6 ♦9")], c("♠5"))
    events = state.apply(0, ce.PlayCard(c("♣8"), Suit.HEARTS))
    en = public(state.view(None), events, "en", NAMES)
    assert en.splitlines()[:2] == ["Alice played ♣8", "Alice named ♥ with the 8"]
    assert "Top card: ♣8\nTo play: any ♥, or another 8\n" in en
    ko = public(state.view(None), events, "ko", NAMES)
    assert ko.splitlines()[:2] == ["Alice 님이 ♣8 카드를 냈어요", "Alice 님이 8로 정한 무늬: ♥"]
    assert "바닥 카드: ♣8\n낼 수 있는 카드: ♥ 무늬, 다른 8\n" in ko


def test_the_first_table_says_an_eight_turned_up_was_buried_until_the_first_turn_ends() -> None:
    state = ce.new(3, seed=1)
    assert state.view(None).buried == 1
    assert (
        "An 8 turned up was buried in the stock."
        in public(state.view(None), [], "en", NAMES).splitlines()
    )
    assert (
        "처음 뒤집힌 8 한 장은 덱에 넣었어요."
        in public(state.view(None), [], "ko", NAMES).splitlines()
    )
    seat = state.current_seat
    assert seat is not None
    while state.current_seat == seat:
        state.apply(seat, ADAPTER.timeout_action(state, seat))
    assert "buried" not in public(state.view(None), [], "en", NAMES)


FINAL_EN = """\
Alice played ♠3
Alice wins and scores 56 points!
```ansi
Turn 1 · Stock: 48 cards
Top card: ♠3

1st Alice        scores 56 points
2nd Bob          6 points in hand
3rd 민준         50 points in hand
4th Dave         left

Game over: Deal again for a new game.
```"""

FINAL_KO = """\
Alice 님이 ♠3 카드를 냈어요
Alice 님이 이겨서 56점을 얻었어요!
```ansi
1번째 차례 · 덱 48장
바닥 카드: ♠3

1등 Alice        56점 얻음
2등 Bob          손패 6점
3등 민준         손패 50점
4등 Dave         떠남

게임 끝: 다시 하기로 새 게임을 해요.
```"""


@pytest.mark.parametrize(("locale", "golden"), [("en", FINAL_EN), ("ko", FINAL_KO)])
def test_the_final_table_ranks_every_seat_with_its_points_and_the_winner_once(
    locale: str, golden: str
) -> None:
    state = ce.position([cards("♠3"), cards("♥6"), cards("♦8"), cards("♣2 ♣3")], c("♠9"))
    state.forfeit(3)  # Dave left: his cards went into the stock, he ranks last
    events = list(state.apply(0, ce.PlayCard(c("♠3"))))
    text = public(state.view(None), events, locale, NAMES)
    assert text == golden
    assert_fits_phone(text)
    assert foreign_lines(text.splitlines(), locale) == []
    wins = "wins" if locale == "en" else "이겨서"
    assert text.count(wins) == 1


@pytest.mark.parametrize(
    ("events", "en", "ko"),
    [
        ([ce.CardDrawn(1, 30)], ["Bob drew a card"], ["Bob 님이 카드를 한 장 뽑았어요"]),
        (
            [ce.CardDrawn(1, 30), ce.CardDrawn(1, 29), ce.CardDrawn(2, 28)],
            ["Bob drew 2 cards", "민준 drew a card"],
            ["Bob 님이 카드 2장을 뽑았어요", "민준 님이 카드를 한 장 뽑았어요"],
        ),
        (
            [ce.Reshuffled(12), ce.CardDrawn(0, 11)],
            ["The played cards were shuffled into a new stock of 12 cards", "Alice drew a card"],
            ["바닥에 낸 카드를 섞어 새 덱 12장을 만들었어요", "Alice 님이 카드를 한 장 뽑았어요"],
        ),
        (
            [ce.Passed(3)],
            ["Dave passed: nothing fits and nothing is left to draw"],
            ["Dave 님이 넘겼어요: 낼 카드도 뽑을 카드도 없어요"],
        ),
        (
            [ce.Forfeited(2, 1)],
            ["민준 left the game: 1 card was shuffled into the stock"],
            ["민준 님이 게임을 떠났어요: 카드 1장을 덱에 섞었어요"],
        ),
        (
            [GameOver(Result((Outcome.LOSE, Outcome.WIN), (0, 1), (1, 0)))],
            ["Bob wins and scores 1 point!"],
            ["Bob 님이 이겨서 1점을 얻었어요!"],
        ),
    ],
)
def test_log_lines_in_plain_english_and_korean_draws_in_a_row_as_one(
    events: list[Event], en: list[str], ko: list[str]
) -> None:
    assert render.log_lines(events, NAMES, "en") == en
    assert render.log_lines(events, NAMES, "ko") == ko
    assert foreign_lines(ko, "ko") == [] and foreign_lines(en, "en") == []


def refusals() -> list[IllegalAction]:
    """One refusal of every code the engine and the adapter's parser raise."""
    out: list[IllegalAction] = []

    def refused(state: ce.State, action: object, seat: int = 0) -> None:
        with pytest.raises(IllegalAction) as caught:
            state.apply(seat, action)  # type: ignore[arg-type]
        out.append(caught.value)

    state = ce.position([cards("♦4 ♥5 ♣8"), cards("♣3")], c("♠9"))
    refused(state, ce.PlayCard(c("♦4")))  # no_match
    refused(state, ce.PlayCard(c("♠5")))  # not_in_hand
    refused(state, ce.PlayCard(c("♣8")))  # choose_suit
    refused(state, ce.Pass())  # must_draw
    refused(state, ce.Draw(), seat=1)  # not_your_turn
    refused(state, "draw")  # not_a_crazyeights_move
    refused(state, ce.PlayCard("♦4"))  # type: ignore[arg-type]  # not_a_card
    state = ce.position([cards("♦4 ♥9"), cards("♣3")], c("♠9"))
    refused(state, ce.PlayCard(c("♥9"), Suit.SPADES))  # suit_without_eight
    after_eight = ce.position([cards("♦4"), cards("♣3")], c("♣8"), suit=Suit.HEARTS)
    refused(after_eight, ce.PlayCard(c("♦4")))  # no_match_eight
    rest = [card for card in STANDARD_DECK if card not in cards("♠2 ♦2 ♠5")]
    refused(ce.position([cards("♠2"), rest + cards("♦2")], c("♠5")), ce.Draw())  # no_draw
    refused(ce.position([cards("♠2"), rest + cards("♦2")], c("♠5")), ce.Pass())  # must_play
    over = ce.position([cards("♠2"), cards("♣3")], c("♠5"))
    over.apply(0, ce.PlayCard(c("♠2")))
    refused(over, ce.Draw(), seat=1)  # game_over
    gone = ce.position([cards("♠2"), cards("♣3"), cards("♣4")], c("♠5"))
    gone.forfeit(2)
    with pytest.raises(IllegalAction) as caught:
        gone.forfeit(2)
    out.append(caught.value)  # not_playing
    for players, options in ((7, None), (2, {"stacking": True})):
        with pytest.raises(IllegalAction) as caught:
            ce.new(players, seed=1, options=options)
        out.append(caught.value)  # players, options
    for arg in ("♠X", "♣8/purple"):
        with pytest.raises(IllegalAction) as caught:
            ADAPTER.parse("play", arg)
        out.append(caught.value)  # unknown_card, unknown_suit
    return out


def test_every_refusal_has_its_words_in_english_and_korean() -> None:
    found = refusals()
    assert {error.code for error in found} == {
        "no_match", "not_in_hand", "choose_suit", "must_draw", "not_your_turn",
        "not_a_crazyeights_move", "not_a_card", "suit_without_eight", "no_match_eight",
        "no_draw", "must_play", "game_over", "not_playing", "players", "options",
        "unknown_card", "unknown_suit",
    }  # fmt: skip
    for error in found:
        for lang in ("en", "ko"):
            assert f"illegal.crazyeights.{error.code}" in catalog(lang), error.code
        if error.code not in {"options", "unknown_suit"}:
            assert refusal(error, "en", "crazyeights") == error.reason, error.code
        korean = refusal(error, "ko", "crazyeights")
        words = korean.replace(str(error.params.get("text", "")), "")  # what was typed
        assert re.search("[가-힣]", korean) and not english_words(words), korean
    by_code = {error.code: error for error in found}
    assert refusal(by_code["no_match"], "ko", "crazyeights") == (
        "♦4 카드는 낼 수 없어요. ♠ 무늬 카드, 다른 9, 8 중 하나를 내거나 카드를 뽑으세요."
    )


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_whole_games_show_no_card_of_a_hand_and_every_table_fits_a_phone(locale: str) -> None:
    names = ["앨리스는길어요너무길어요", "`Bob`", "Carol Carolina", "*D*", "이", "Frank"]
    for seed in range(8):
        players = 2 + seed % 5
        state = ce.new(players, seed=seed)
        rng = random.Random(seed)
        events: list[Event] = []
        while True:
            message = compose(ADAPTER.table(state.view(None), events, names, locale))
            assert_fits_phone(message)
            body = _COLOUR.sub("", ADAPTER.table(state.view(None), events, names, locale).body)
            assert misaligned(body.splitlines()) == []
            for seat in range(players):
                for card in state.hand(seat):
                    assert card.code not in _COLOUR.sub("", message), (seed, card)
            for seat in range(players):
                hand = ADAPTER.hand(state.view(seat), names, locale)
                assert_fits_phone(_COLOUR.sub("", hand.body))
            if state.is_over:
                break
            seat = state.current_seat
            assert seat is not None
            level = (Level.EASY, Level.NORMAL)[seed % 2]
            events = state.apply(seat, ADAPTER.computer_action(state, seat, level, rng))
