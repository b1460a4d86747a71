"""Uno's adapter: parsing moves, the Hand's menus (a wild's colour, a 7's seat), autocomplete,
the safe move when time runs out, and the table's buttons for each moment of the game."""

from __future__ import annotations

import pytest

from bot.games import Menu
from bot.games.uno import ADAPTER, play_arg
from bot.i18n import refusal
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
    assert [o.label for o in seven.options] == [
        f"2 bob ({counts[1]} cards)",
        f"3 carol ({counts[2]} cards)",
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
