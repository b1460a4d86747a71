"""One Card rendering: golden strings for the table, the hand and every event message."""

from __future__ import annotations

import re

import pytest

import rules.onecard as oc
from bot.games.onecard import ADAPTER
from bot.i18n import catalog, refusal
from bot.sessions.model import MAX_MESSAGE, compose
from bot.text import onecard as render
from rules.cards import FULL_DECK, Card, Suit, parse_card
from rules.engine import Event, GameOver, IllegalAction, Outcome, Result
from tests.phone import assert_fits_phone

NAMES = ["Alice", "Bob", "Carol"]


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def attacked() -> tuple[oc.State, list[Event]]:
    state = oc.position(
        [cards("♣2 ♦4 ♦5"), cards("♠2 ♥6"), cards("♥2 ♦8")], parse_card("♣3"), phase=13
    )
    return state, list(state.apply(0, oc.PlayCard(parse_card("♣2"))))


_COLOUR = re.compile(r"\x1b\[[0-9;]*m")


def public(
    view: oc.OneCardView, names: list[str] | None, events: list[Event], locale: str = "en"
) -> str:
    """The public table message as the bot posts it, colour codes left out."""
    return _COLOUR.sub("", compose(ADAPTER.table(view, events, names or [], locale)))


@pytest.mark.parametrize(
    ("card", "text"),
    [("♠2", "[♠ 2]"), ("♥10", "[♥ 0]"), ("♦K", "[♦ K]"), ("♣A", "[♣ A]"), ("JKB", "[JK B]"),
     ("JKC", "[JK C]")],
)  # fmt: skip
def test_card_format_is_the_seeds(card: str, text: str) -> None:
    assert render.card_text(parse_card(card)) == text


def test_public_table_golden() -> None:
    state, events = attacked()
    assert_fits_phone(public(state.view(None), NAMES, events))
    assert public(state.view(None), NAMES, events) == (
        "Player A (Alice) put the card [♣ 2]\n"
        "Attack Player B (Bob) with offense point 0+2!!\n"
        "```ansi\n"
        "Phase 14\n"
        "Table<48>\n"
        "\n"
        "C Carol(2) - // //\n"
        "A Alice(2) - // //\n"
        "\n"
        "[♣ 2] ♣\n"
        "\n"
        "B Bob(2) - // //\n"
        "\n"
        "current: B Bob\n"
        "next: C Carol  direction: --->\n"
        "offense point: 2\n"
        "```"
    )


@pytest.mark.parametrize("locale", ["en", "ko"])
def test_a_long_hand_long_names_and_the_out_line_fit_a_phone(locale: str) -> None:
    # 15 cards in one hand: the slashes would make 58 columns; the count stands in for them.
    hands = [FULL_DECK[:15], FULL_DECK[15:18], FULL_DECK[18:21], []]
    state = oc.position(hands, FULL_DECK[30], out=[3])
    names = ["W" * 32, "가나다라마바사아자차카타파하", "bob", "탈락한 사람의 아주 긴 이름"]
    body = render.table_body(state.view(None), names, locale)
    assert_fits_phone(body)
    assert "A WWWWWWWWWWW…(15) - //×15" in body.splitlines()
    assert "B 가나다라마…(3) - // // //" in body.splitlines()
    adapter_table = ADAPTER.table(state.view(None), [], names, locale)
    assert_fits_phone(adapter_table.body)  # the colours add no columns


def test_korean_public_table_golden() -> None:
    state, events = attacked()
    text = public(state.view(None), NAMES, events, "ko")
    assert_fits_phone(text)
    assert text == (
        "A (Alice) 님이 [♣ 2] 카드를 냈어요\n"
        "B (Bob) 님을 공격해요! 공격 포인트 0+2!!\n"
        "```ansi\n"
        "14번째 차례\n"
        "덱 48장\n"
        "\n"
        "C Carol(2) - // //\n"
        "A Alice(2) - // //\n"
        "\n"
        "[♣ 2] ♣\n"
        "\n"
        "B Bob(2) - // //\n"
        "\n"
        "지금: B Bob\n"
        "다음: C Carol  방향: --->\n"
        "공격 포인트: 2\n"
        "```"
    )


def test_public_table_never_shows_a_hand() -> None:
    state, events = attacked()
    for seat in (None, 0, 1, 2):
        text = public(state.view(seat), NAMES, events)
        for owner in range(3):
            for card in state.hand(owner):
                assert render.card_text(card) not in text


def test_private_hand_golden_under_attack() -> None:
    state, _ = attacked()
    view = state.view(1)
    # The seed's plain Take by default; Discord passes its own label.
    assert render.hand_text(view) == "Total 2 cards\n1:[♠ 2] 2:[♥ 6] 3: Take"
    assert render.hand_text(view, "Take 2") == "Total 2 cards\n1:[♠ 2] 2:[♥ 6] 3: Take 2"


def test_hand_wraps_six_per_line_like_the_seed() -> None:
    hand = cards("♥5 ♠3 ♥6 ♦J ♥A ♣10 ♣2 ♣J ♦7")
    rest = [c for c in FULL_DECK if c not in hand and c is not parse_card("♣3")]
    state = oc.position([hand, rest[:5]], parse_card("♣3"))
    assert render.hand_text(state.view(0)) == (
        "Total 9 cards\n"
        "1:[♥ 5] 2:[♠ 3] 3:[♥ 6] 4:[♦ J] 5:[♥ A] 6:[♣ 0]\n"
        "7:[♣ 2] 8:[♣ J] 9:[♦ 7] 10: Take"
    )


def test_joker_open_line_shows_both_suits() -> None:
    state = oc.position([cards("♠3"), cards("♥4")], parse_card("JKB"))
    assert render.open_line(state.view(None)) == "[JK B] ♠ ♣"


def test_seven_shows_the_chosen_suit_and_reverse_arrow() -> None:
    state = oc.position(
        [cards("♠5 ♥9"), cards("♠6"), cards("♠7 ♥2")], parse_card("♣7"), suit=Suit.SPADES,
        direction=-1,
    )  # fmt: skip
    view = state.view(None)
    assert render.open_line(view) == "[♣ 7] ♠"
    assert render.status_line(view) == ("current: A  next: C  direction: <---  offense point: 0")


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (oc.CardPlayed(0, parse_card("♣2")), "Player A put the card [♣ 2]"),
        (oc.Attack(1, 2, 2, 2), "Attack Player C with offense point 2+2!!"),
        (oc.AttackTaken(2, 4, 4), "Player C couldn't defend the attack!! Takes 4 cards"),
        (oc.CardsTaken(0, 1), "Player A takes a card"),
        (oc.Jump(2, 0, 1), "Jump to player B"),
        (oc.DirectionChanged(2, -1, 1), "The direction is changed. next player is B"),
        (
            oc.ShortDeck(0, 5, 3),
            "There is no much cards... Return remaining cards only except first card",
        ),
        (oc.EmptyDeck(1), "Cannot take a card anymore... Play with the cards you have"),
        (oc.SuitChosen(0, Suit.DIAMONDS), "The pattern is changed to ♦"),
        (oc.PlayAgain(3), "Player D plays again"),
        (oc.OneCard(1), "Player B has one card left!"),
        (oc.Bankrupt(2, 22), "Player C is bankrupt!! 22 cards go back to the main deck"),
        (oc.Forfeited(1, 4), "Player B left the game; 4 cards go back to the main deck"),
        (
            GameOver(Result((Outcome.LOSE, Outcome.WIN), (3, 0), (1, 0))),
            "Player B wins!",
        ),
    ],
)
def test_event_lines_are_the_seeds_messages(event: oc.GameOver, line: str) -> None:
    assert render.event_lines([event]) == [line]
    assert render.event_lines([event], locale="en") == [line]


@pytest.mark.parametrize(
    ("event", "line"),
    [
        (oc.CardPlayed(0, parse_card("♣2")), "A (Alice) 님이 [♣ 2] 카드를 냈어요"),
        (oc.Attack(1, 2, 2, 2), "C (Carol) 님을 공격해요! 공격 포인트 2+2!!"),
        (oc.AttackTaken(2, 4, 4), "C (Carol) 님이 공격을 막지 못했어요!! 카드 4장을 가져가요"),
        (oc.CardsTaken(0, 1), "A (Alice) 님이 카드를 한 장 가져갔어요"),
        (oc.Jump(2, 0, 1), "점프! B (Bob) 님 차례예요"),
        (oc.DirectionChanged(2, -1, 1), "방향이 바뀌었어요. 다음은 B (Bob) 님이에요"),
        (oc.ShortDeck(0, 5, 3), "남은 카드가 모자라요... 오픈 카드를 뺀 나머지 카드만 가져가요"),
        (oc.EmptyDeck(1), "더 가져올 카드가 없어요... 가진 카드로 계속하세요"),
        (oc.SuitChosen(0, Suit.DIAMONDS), "무늬가 ♦(으)로 바뀌었어요"),
        (oc.PlayAgain(2), "C (Carol) 님이 한 번 더 내요"),
        (oc.OneCard(1), "B (Bob) 님의 카드가 한 장 남았어요!"),
        (oc.Bankrupt(2, 22), "C (Carol) 님이 파산했어요!! 카드 22장이 메인 덱으로 돌아가요"),
        (oc.Forfeited(1, 4), "B (Bob) 님이 게임을 떠났어요. 카드 4장이 메인 덱으로 돌아가요"),
        (GameOver(Result((Outcome.LOSE, Outcome.WIN), (3, 0), (1, 0))), "B (Bob) 님이 이겼어요!"),
    ],
)
def test_event_lines_in_korean(event: oc.GameOver, line: str) -> None:
    assert render.event_lines([event], NAMES, "ko") == [line]


def refusals() -> list[IllegalAction]:
    """One refusal of every code the One Card engine and its parser raise."""
    out: list[IllegalAction] = []

    def refused(action: object, state: oc.State, seat: int = 0) -> None:
        with pytest.raises(IllegalAction) as caught:
            state.apply(seat, action)  # type: ignore[arg-type]
        out.append(caught.value)

    state = oc.position([cards("♦4 ♥5"), cards("♣3")], parse_card("♠9"))
    refused(oc.PlayCard(parse_card("♦4")), state)  # no_match
    refused(oc.PlayCard(parse_card("♠5")), state)  # not_in_hand
    refused("take", state)  # not_a_onecard_move
    refused(
        oc.PlayCard(parse_card("♥5")), oc.position([cards("♥5"), cards("♣3")], parse_card("JKB"))
    )
    for attack, answer in (("♣2", "♣6"), ("♥A", "♥2"), ("JKB", "♠A")):
        opening = parse_card("♣3" if attack != "♥A" else "♥3")
        state = oc.position([cards(f"{attack} ♦8"), cards(f"{answer} ♦9"), cards("♦3")], opening)
        state.apply(0, oc.PlayCard(parse_card(attack)))
        refused(oc.PlayCard(parse_card(answer)), state, 1)
    state.forfeit(2)
    with pytest.raises(IllegalAction) as caught:
        state.forfeit(2)
    out.append(caught.value)
    for verb, arg in (("play", "♠X"), ("draw", None)):
        with pytest.raises(IllegalAction) as caught:
            ADAPTER.parse(verb, arg)
        out.append(caught.value)
    return out


def test_every_refusal_has_its_catalog_entry_in_english_and_korean() -> None:
    found = refusals()
    assert {error.code for error in found} == {
        "no_match", "not_in_hand", "not_a_onecard_move", "no_match_joker", "must_defend",
        "must_defend_ace", "must_defend_joker", "not_playing", "unknown_card",
    }  # fmt: skip
    for error in found:
        assert f"illegal.onecard.{error.code}" in catalog("ko"), error.code
        # The English catalog says exactly what the engine says.
        assert refusal(error, "en", "onecard") == error.reason
        korean = refusal(error, "ko", "onecard")
        assert korean != error.reason and re.search("[가-힣]", korean), error.code


def test_refusals_in_korean_name_the_cards() -> None:
    by_code = {error.code: error for error in refusals()}
    assert refusal(by_code["must_defend"], "ko", "onecard") == (
        "공격을 받고 있어요. 2, ♣A, 조커로만 막을 수 있고, 아니면 카드 2장을 가져와야 해요."
    )
    assert refusal(by_code["no_match"], "ko", "onecard") == (
        "♦4 카드는 낼 수 없어요. ♠ 무늬 카드, 다른 9, 조커 중 하나를 내거나 카드를 가져오세요."
    )


def test_the_console_names_cards_in_the_seeds_form() -> None:
    by_code = {error.code: error for error in refusals()}
    assert render.refusal_text(by_code["not_in_hand"]) == "You don't have [♠ 5]."
    assert render.refusal_text(by_code["must_defend_joker"]) == (
        "Under attack you can only defend with the [JK C], or take 7 cards."
    )
    assert render.refusal_text(by_code["must_defend"]) == (
        "Under attack you can only defend with a 2, the [♣ A] or a joker, or take 2 cards."
    )


def test_names_and_markdown_are_escaped_in_the_log() -> None:
    state, _ = attacked()
    names = ["*Al*", "B`ob", "Carol"]
    assert render.event_lines([oc.CardsTaken(0, 1)], names) == ["Player A (*Al*) takes a card"]
    text = public(state.view(None), names, [oc.CardsTaken(0, 1)])
    assert text.startswith("Player A (\\*Al\\*) takes a card\n```")
    assert "B`ob" not in text and "B'ob" in text


def test_long_logs_are_trimmed_to_discords_limit() -> None:
    state, _ = attacked()
    events: list[Event] = [oc.CardsTaken(seat % 3, 1) for seat in range(200)]
    text = public(state.view(None), ["x" * 30] * 3, events)
    assert len(text) <= MAX_MESSAGE < 200 * len("Player A (xxx…) takes a card")
    assert text.endswith("```") and "offense point: 2" in text


def test_game_over_table_names_the_winner() -> None:
    state = oc.position([cards("♠3"), cards("♥4 ♥5")], parse_card("♠9"))
    events = state.apply(0, oc.PlayCard(parse_card("♠3")))
    text = public(state.view(None), None, list(events))
    assert text.startswith("Player A put the card [♠ 3]\nPlayer A wins!\n```")
    assert "current: -\nnext: -" in text
