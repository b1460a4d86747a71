"""Uno's adapter: parsing moves, the Hand's menus (a wild's colour, a 7's seat), autocomplete,
the safe move when time runs out, and the table's buttons for each moment of the game."""

from __future__ import annotations

import re

import pytest

from bot.games import Menu
from bot.games.uno import ADAPTER, play_arg
from bot.i18n import refusal, t
from bot.text import uno as render
from rules import uno
from rules.engine import IllegalAction
from rules.uno.cards import cards_of_code
from tests.bot.text.test_uno import ALL_RULES, rig


def test_parse_reads_cards_as_people_type_them() -> None:
    assert ADAPTER.parse("play", "r5") == uno.PlayCard("red_5")
    assert ADAPTER.parse("play", play_arg("none_W+4", "blue")) == uno.PlayCard("none_W+4", 2)
    assert ADAPTER.parse("play", "wild yellow") == uno.PlayCard("none_W", 3)
    assert ADAPTER.parse("play", play_arg("red_7", target=2)) == uno.PlayCard("red_7", None, 2)
    assert ADAPTER.parse("draw", None) == uno.Draw()
    assert ADAPTER.parse("pass", None) == uno.Pass()
    assert ADAPTER.parse("catch", "1") == uno.CatchUno(1)
    assert ADAPTER.parse("colour", "빨강") == uno.ChooseColour(0)
    with pytest.raises(IllegalAction) as refused:
        ADAPTER.parse("play", "purple 12")
    assert refused.value.code == "unknown_card"
    with pytest.raises(IllegalAction) as refused:
        ADAPTER.parse("play", "wild/purple")
    assert refused.value.code == "unknown_colour"
    with pytest.raises(IllegalAction):
        ADAPTER.parse("hit", None)


def test_a_card_named_by_code_is_played_from_the_hand_and_one_not_held_is_refused() -> None:
    state = rig([["blue_5", "red_3"], ["green_1"]], "red_7")
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, uno.PlayCard("red_4"))
    assert refused.value.code == "not_in_hand"
    state.apply(0, uno.PlayCard("red_3"))
    assert state.log[-1] == (0, uno.Play(1))


def test_the_menu_offers_each_legal_card_once_then_a_colour_or_a_seat() -> None:
    state = rig(
        [["red_3", "red_3", "none_W", "red_7", "blue_9"], ["green_1", "green_2"], ["blue_1"]],
        "red_5",
        **ALL_RULES,
    )
    view = state.view(0)
    menu = ADAPTER.hand(view, ["a", "b", "c"], "en").menu
    assert menu is not None
    assert [o.value for o in menu.options] == ["red_3", "red_7", "none_W", "draw"]
    wild = ADAPTER.picked(view, None, "none_W", "en")
    assert isinstance(wild, Menu) and [o.value for o in wild.options] == [
        "red",
        "yellow",
        "green",
        "blue",
    ]
    assert ADAPTER.picked(view, wild.step, "green", "en") == ("play", "none_W/green")
    seven = ADAPTER.picked(view, None, "red_7", "en", ["alice", "bob", "carol"])
    assert isinstance(seven, Menu) and [o.value for o in seven.options] == ["1", "2"]
    counts = view.hand_counts
    assert counts[1:] == (2, 1)
    assert [o.label for o in seven.options] == [
        "2 bob (2 cards)",
        "3 carol (1 card)",
    ]  # the seats by the names the table shows
    assert ADAPTER.picked(view, seven.step, "2", "en") == ("play", "red_7@2")
    assert ADAPTER.picked(view, None, "red_3", "en") == ("play", "red_3")
    assert ADAPTER.picked(view, None, "forged", "en") == ("play", "forged")  # parse refuses it
    assert ADAPTER.hand(state.view(1), ["a", "b", "c"], "en").menu is None  # not their turn
    assert [o.value for o in ADAPTER.suggest(view, "card", "red", "en")] == ["red_3", "red_7"]
    assert ADAPTER.suggest(state.view(1), "card", "", "en") == []  # not their turn


def test_a_wild_turned_first_asks_its_colour_from_the_hand() -> None:
    state = rig([["red_3"], ["green_1"]], "red_7")
    state.phase = 2  # official rule 4: a wild turned first, its colour to name
    menu = ADAPTER.hand(state.view(0), ["a", "b"], "en").menu
    assert menu is not None and menu.options[0].value == "=red"
    assert ADAPTER.picked(state.view(0), None, "=blue", "en") == ("colour", "blue")
    assert isinstance(ADAPTER.timeout_action(state, 0), uno.ChooseColour)


def test_out_of_time_the_seat_draws_then_keeps_or_takes_the_pending_cards() -> None:
    state = rig([["red_3", "blue_4"], ["green_1"]], "red_7", stacking=True)
    assert ADAPTER.timeout_action(state, 0) == uno.Draw()
    state.phase = 1
    assert ADAPTER.timeout_action(state, 0) == uno.Pass()
    assert ADAPTER.timeout_moves == 2


def test_after_a_draw_the_hand_offers_play_it_and_keep() -> None:
    state = rig([["blue_4"], ["green_1"]], "red_7")
    red_nine = cards_of_code("red_9")[0]
    state.pile.remove(red_nine)
    state.pile.append(red_nine)
    state._unshuffled = 0  # the next card drawn is the one just put on top
    events = state.apply(0, uno.Draw())
    view = state.view(0)
    assert view.phase == "after_draw"
    note = ADAPTER.private(view, events, ["a", "b"], "en")
    assert note is not None
    assert [c.action for c in note.controls] == ["play", "pass"]
    assert note.menu is not None and note.menu.options[-1].value == "pass"


def test_the_table_buttons_follow_the_game() -> None:
    state = rig([["red_3", "none_W+4"], ["green_1", "green_2"]], "red_7", **ALL_RULES)
    labels = [c.label for c in ADAPTER.table(state.view(None), [], ["a", "b"], "en").controls]
    assert labels == ["button.hand", "Draw", "UNO!"]  # seat 0 holds two cards
    state.apply(0, uno.Play(1, colour=2))  # W+4 held with red: a bluff to challenge
    labels = [c.label for c in ADAPTER.table(state.view(None), [], ["a", "b"], "en").controls]
    assert labels[:3] == ["button.hand", "Challenge", "Take 4"]
    assert "Catch" in labels  # seat 0 is down to one card and said nothing


def test_a_turn_with_nothing_to_play_offers_draw_in_the_menu() -> None:
    state = rig([["blue_3"], ["green_1"]], "red_7")
    menu = ADAPTER.hand(state.view(0), ["a", "b"], "en").menu
    assert menu is not None and [o.value for o in menu.options] == ["draw"]


@pytest.mark.parametrize(
    ("locale", "said"), [("en", "You do not hold Red 5."), ("ko", "빨강 5이(가) 없어요.")]
)
def test_a_refusal_names_the_card_as_the_tables_do(locale: str, said: str) -> None:
    refused = IllegalAction("You do not hold that card.", code="not_in_hand", card="red_5")
    assert refusal(refused, locale, "uno") == said


def _first_deal(rank: str, **options: object) -> tuple[uno.State, tuple[uno.FirstCard, ...]]:
    """The first deal (3 seats) whose first card has ``rank``, and what dealing did."""
    for seed in range(500):
        state, events = ADAPTER.new(3, seed, options, [])
        first = events[0]
        assert isinstance(first, uno.FirstCard)
        if first.card.endswith(f"_{rank}"):
            return state, events  # type: ignore[return-value]
    raise AssertionError(rank)


NAMES = ["alice", "민준", "carol"]


@pytest.mark.parametrize(
    ("rank", "english", "korean"),
    [
        ("+2", ["First card: {card}", "{name} draws 2 cards", "{name} is skipped"],
         ["첫 카드: {card}", "{name}: 2장 뽑아요", "{name}: 차례를 건너뛰어요"]),
        ("S", ["First card: {card}", "{name} is skipped"],
         ["첫 카드: {card}", "{name}: 차례를 건너뛰어요"]),
        ("R", ["First card: {card}", "The direction is reversed"],
         ["첫 카드: {card}", "방향이 바뀌었어요"]),
        ("W", ["First card: {card}. {name} names the colour, then plays"],
         ["첫 카드: {card}. {name}님이 색을 고른 뒤 내요"]),
    ],
)  # fmt: skip
def test_the_first_table_says_what_an_opening_action_card_did(
    rank: str, english: list[str], korean: list[str]
) -> None:
    state, events = _first_deal(rank)
    first = events[0]
    for locale, lines in (("en", english), ("ko", korean)):
        table = ADAPTER.table(state.view(None), events, NAMES, locale)
        card = render.card_name(first.card, locale)
        assert list(table.log) == [line.format(card=card, name=NAMES[first.seat]) for line in lines]
    if rank == "+2":
        assert state.view(None).hand_counts[first.seat] == 9
        assert state.current_seat == (first.seat + 1) % 3


def test_an_opening_action_card_under_the_classroom_rules_is_said_to_do_nothing() -> None:
    state, events = _first_deal("+2", ruleset="seed")
    table = ADAPTER.table(state.view(None), events, NAMES, "en")
    card = render.card_name(events[0].card, "en")
    assert table.log == (f"First card: {card} (no effect under the classroom rules)",)
    assert len(events) == 1 and state.current_seat == events[0].seat


def test_an_opening_number_card_needs_no_word() -> None:
    state, events = _first_deal("5")
    assert ADAPTER.table(state.view(None), events, NAMES, "en").log == ()


def test_a_number_shown_in_the_hand_names_that_card() -> None:
    state = rig([["blue_2", "none_W", "red_9", "red_1"], ["red_5"]], "red_7")
    view = state.view(0)
    shown = render.numbered(view)
    assert shown == ["red_1", "red_9", "blue_2", "none_W"]  # as the hand lists them
    assert [ADAPTER.shown_card(view, str(n)) for n in (1, 2, 3, 4)] == shown
    assert ADAPTER.shown_card(view, " 2 ") == "red_9"
    for text in ("0", "5", "r5", "²", ""):
        assert ADAPTER.shown_card(view, text) is None
    with pytest.raises(IllegalAction) as refused:
        ADAPTER.parse("play", "5")  # a number the hand does not show
    assert refused.value.code == "no_number"
    assert refusal(refused.value, "en", "uno") == "Your hand has no card number 5."
    assert refusal(refused.value, "ko", "uno") == "내 패에 5번 카드는 없어요."
    # Autocomplete reads the number too: the card it names, when it may be played.
    assert [o.value for o in ADAPTER.suggest(view, "card", "2", "en")] == ["red_9"]
    assert [o.value for o in ADAPTER.suggest(view, "card", "3", "en")] == []  # blue 2


def test_pass_out_of_place_is_answered_about_passing() -> None:
    state = rig([["red_3", "blue_4"], ["green_1"]], "red_7")
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, ADAPTER.parse("pass", None))
    english = refusal(refused.value, "en", "uno")
    assert "pass" in english and "keep" not in english.lower()
    assert "넘기기" in refusal(refused.value, "ko", "uno")
    assert t("name.pass", "ko") == "넘기기" and t("uno.keep", "ko") == "넘기기"
    assert t("uno.keep", "en") == "Pass"  # the button after a draw says what /uno pass does


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_with_no_card_that_fits_the_turn_line_says_draw_not_pick_a_card(locale: str) -> None:
    state = rig([["blue_3", "green_4"], ["green_1"]], "red_5")
    said = ADAPTER.hand(state.view(0), ["a", "b"], locale).log
    assert t("uno.your_turn_draw", locale) in said and t("uno.your_turn", locale) not in said
    fits = rig([["red_3", "green_4"], ["green_1"]], "red_5")
    assert t("uno.your_turn", locale) in ADAPTER.hand(fits.view(0), ["a", "b"], locale).log
    assert ADAPTER.hand(fits.view(1), ["a", "b"], locale).log == (t("hand.title", locale),)


def test_ten_seats_start_every_name_in_one_column() -> None:
    state = uno.new(10, seed=3)
    names = [f"p{n}" for n in range(1, 11)]
    body = render.table_body(state.view(None), names, "en")
    seats = [line for line in body.splitlines() if re.match(r"^.[ 0-9]{2} p", line)]
    assert len(seats) == 10, body
    assert {line.index(" p") for line in seats} == {3}, body  # " 9 p9", "10 p10"
