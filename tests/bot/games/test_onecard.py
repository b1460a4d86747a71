"""One Card's adapter and cog helpers: parsing, safe and computer moves, no hand in public."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import Any

import pytest

import rules.onecard as oc
from bot.games import GameCatalog
from bot.games.onecard import ADAPTER, coloured, parse_suit, play_arg
from bot.i18n import refusal, t
from bot.sessions import Player, Post, SessionError, SessionRegistry
from bot.settings import Settings
from bot.store.memory import MemoryStore
from bot.text import onecard as render
from cogs.common.buttons import TEMPLATE, GameButton
from cogs.onecard import cog
from cogs.onecard.cog import (
    MAX_OPTIONS,
    MENU_TEMPLATE,
    HandMenu,
    hand_view,
    legal_choices,
    suit_view,
    with_hand_menu,
)
from rules.cards import FULL_DECK, Card, Suit, parse_card
from rules.engine import GameOver, IllegalAction

NAMES = ["Alice", "Bob", "Carol"]
CHANNEL, GUILD = 555, 777


def cards(text: str) -> list[Card]:
    return [parse_card(word) for word in text.split()]


def public_text(view: oc.OneCardView, events: list[Any]) -> str:
    table = ADAPTER.table(view, events, NAMES, "en")
    return "\n".join([*table.log, table.body])


# -- parse -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("verb", "arg", "expected"),
    [
        ("take", None, oc.Take()),
        ("play", "♠A", oc.PlayCard(parse_card("♠A"))),
        ("play", "10h", oc.PlayCard(parse_card("♥10"))),
        ("play", "[♣ 0]", oc.PlayCard(parse_card("♣10"))),
        ("play", "JKB", oc.PlayCard(parse_card("JKB"))),
        ("play", "♠7/♥", oc.PlayCard(parse_card("♠7"), Suit.HEARTS)),
        ("play", "7d/clubs", oc.PlayCard(parse_card("♦7"), Suit.CLUBS)),
        ("play", "♣7/하트", oc.PlayCard(parse_card("♣7"), Suit.HEARTS)),
        ("play", play_arg("♥7", "♦"), oc.PlayCard(parse_card("♥7"), Suit.DIAMONDS)),
    ],
)
def test_parse_reads_verbs_cards_and_the_suit_after_a_seven(
    verb: str, arg: str | None, expected: oc.PlayCard | oc.Take
) -> None:
    assert ADAPTER.parse(verb, arg) == expected


@pytest.mark.parametrize(
    ("verb", "arg", "code"),
    [
        ("play", "♠X", "unknown_card"),
        ("play", "♠7/purple", "unknown_suit"),
        ("play", None, "not_a_onecard_move"),
        ("take", "♠A", "not_a_onecard_move"),
        ("draw", None, "not_a_onecard_move"),
    ],
)
def test_parse_refuses_with_a_reason(verb: str, arg: str | None, code: str) -> None:
    with pytest.raises(IllegalAction) as caught:
        ADAPTER.parse(verb, arg)
    assert caught.value.code == code
    assert caught.value.reason


def test_a_seven_without_a_suit_and_a_suit_after_another_card_are_the_engines_refusals() -> None:
    state = oc.position([cards("♠3 ♦4 ♠7"), cards("♥6 ♦8")], parse_card("♠5"))
    assert ADAPTER.parse("play", "♠7") == oc.PlayCard(parse_card("♠7"))
    with pytest.raises(IllegalAction) as caught:
        state.apply(0, ADAPTER.parse("play", "♠7"))
    assert caught.value.code == "choose_suit"
    with pytest.raises(IllegalAction) as caught:
        state.apply(0, ADAPTER.parse("play", "♥7"))
    assert caught.value.code == "not_in_hand"
    with pytest.raises(IllegalAction) as caught:
        state.apply(0, ADAPTER.parse("play", "♠3/♥"))
    assert caught.value.code == "suit_without_seven"


def test_parse_suit_words() -> None:
    assert parse_suit("♠") is Suit.SPADES
    assert parse_suit("D") is Suit.DIAMONDS
    assert parse_suit("heart") is Suit.HEARTS
    assert parse_suit(" 클로버 ") is Suit.CLUBS


# -- seats, timeouts, computers ---------------------------------------------------------------


def test_seats_and_turn_time() -> None:
    assert (ADAPTER.name, ADAPTER.min_seats, ADAPTER.max_seats) == ("onecard", 2, 4)
    settings = Settings(_env_file=None, default_turn_seconds=77.0)  # type: ignore[call-arg]
    assert ADAPTER.turn_seconds(settings) == 77.0


def test_new_and_restore_continue_the_same_game() -> None:
    state = ADAPTER.new(3, 42, {}, [])[0]
    again = ADAPTER.restore(state.snapshot())
    assert again.snapshot() == state.snapshot()
    with pytest.raises(IllegalAction):
        ADAPTER.new(5, 1, {}, [])


def test_timeout_action_is_take_and_under_attack_takes_the_penalty() -> None:
    state = oc.position([cards("♠3 ♦4"), cards("♥6 ♦8")], parse_card("♣2"), offense=2)
    action = ADAPTER.timeout_action(state, 0)
    assert action == oc.Take()
    events = state.apply(0, action)
    assert events[0] == oc.AttackTaken(0, 2, 2)
    assert len(state.hand(0)) == 4


def test_timeout_action_is_legal_in_every_position_of_a_game() -> None:
    state = ADAPTER.new(4, 7, {}, [3])[0]
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        assert ADAPTER.timeout_action(state, seat) in state.legal_actions(seat)
        state.apply(seat, ADAPTER.computer_action(state, seat))


def test_computer_action_is_legal_and_plays_games_to_the_end() -> None:
    for seed in range(20):
        state = ADAPTER.new(2 + seed % 3, seed, {}, [])[0]
        moves = 0
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            action = ADAPTER.computer_action(state, seat)
            assert action in state.legal_actions(seat)
            state.apply(seat, action)
            moves += 1
            assert moves < 5000
        assert state.result is not None and len(state.result.winners) == 1


def test_computer_action_defends_an_attack_when_it_can() -> None:
    state = oc.position([cards("♠2 ♦4"), cards("♥6 ♦8")], parse_card("♣2"), offense=2)
    assert ADAPTER.computer_action(state, 0) == oc.PlayCard(parse_card("♠2"))


# -- the public table never holds a hand ------------------------------------------------------


def test_table_has_the_seed_layout_under_the_move_log_and_the_take_label() -> None:
    state = oc.position(
        [cards("♣2 ♦4 ♦5"), cards("♠2 ♥6"), cards("♥2 ♦8")], parse_card("♣3"), phase=13
    )
    events = state.apply(0, oc.PlayCard(parse_card("♣2")))
    table = ADAPTER.table(state.view(None), events, NAMES, "en")
    assert table.log == (
        "Player A (Alice) put the card [♣ 2]",
        "Attack Player B (Bob) with offense point 0+2!!",
    )
    assert table.body == (
        "Phase 14\nTable<48>\n\nC Carol(2) - // //\nA Alice(2) - // //\n\n[♣ 2] ♣\n\n"
        "B Bob(2) - // //\n\ncurrent: B Bob  next: C Carol  direction: --->  offense point: 2"
    )
    assert [(c.action, c.label) for c in table.controls] == [
        ("hand", "button.hand"),
        ("take", "Take 2"),
    ]
    assert ADAPTER.table(state.view(None), [], NAMES, "ko").controls[1].label == "2장 가져오기"
    assert render.table_text(state.view(None), NAMES, list(table.log)) == "\n".join(
        [*table.log, f"```\n{table.body}\n```"]
    )


def test_a_korean_table_has_its_move_log_and_notes_in_korean() -> None:
    state = oc.position([cards("♣2 ♦4 ♦5"), cards("♠2 ♥6"), cards("♥2 ♦8")], parse_card("♣3"))
    events = state.apply(0, oc.PlayCard(parse_card("♣2")))
    table = ADAPTER.table(state.view(None), events, NAMES, "ko")
    assert table.log == (
        "A (Alice) 님이 [♣ 2] 카드를 냈어요",
        "B (Bob) 님을 공격해요! 공격 포인트 0+2!!",
    )
    # The seed's table layout stays as it is in every language.
    assert table.body == ADAPTER.table(state.view(None), events, NAMES, "en").body
    state.forfeit(1)
    events = state.forfeit(2)
    over = ADAPTER.table(state.view(None), events, NAMES, "ko")
    assert over.log[-1] == "A (Alice) 님이 이겼어요!"
    plain = re.sub(r"\x1b\[[0-9;]*m", "", over.body)
    assert "탈락: B Bob 떠남, C Carol 떠남" in plain and plain.endswith("A (Alice) 님이 이겼어요!")


def test_table_is_an_ansi_block_with_red_hearts_diamonds_and_colour_joker() -> None:
    state = oc.position([cards("♠3 ♦4"), cards("♥6 ♦8")], parse_card("♥5"))
    table = ADAPTER.table(state.view(None), [], NAMES, "en")
    assert table.lang == "ansi"
    assert "\x1b[31m[♥ 5]\x1b[0m \x1b[31m♥\x1b[0m" in table.body
    plain = re.sub(r"\x1b\[[0-9;]*m", "", table.body)
    assert plain == render.table_body(state.view(None), NAMES)
    assert coloured("[JK C] ♥ ♦\n[♠ 3] ♠\n[JK B] ♠ ♣") == (
        "\x1b[31m[JK C]\x1b[0m \x1b[31m♥\x1b[0m \x1b[31m♦\x1b[0m\n[♠ 3] ♠\n[JK B] ♠ ♣"
    )


def test_table_never_shows_a_card_of_any_hand_in_whole_games() -> None:
    for seed in range(12):
        state = ADAPTER.new(2 + seed % 3, seed, {}, [])[0]
        text = public_text(state.view(None), [])
        while True:
            hands = [state.hand(s) for s in range(state.players)]
            played = {render.card_text(state.open_card)}
            for hand in hands:
                for card in hand:
                    if render.card_text(card) not in played:
                        assert render.card_text(card) not in text, (seed, card)
            if state.is_over:
                break
            seat = state.current_seat
            assert seat is not None
            events = state.apply(seat, ADAPTER.computer_action(state, seat))
            # The table is drawn from the spectator view, whoever asks.
            text = public_text(state.view(None), events)
            played = {render.card_text(e.card) for e in events if isinstance(e, oc.CardPlayed)}
            for s in range(state.players):
                for card in state.hand(s):
                    if render.card_text(card) not in played:
                        assert render.card_text(card) not in text, (seed, card)


def test_a_finished_table_has_no_buttons_and_names_the_winner() -> None:
    state = oc.position([cards("♠3"), cards("♥6 ♦8")], parse_card("♠5"))
    events = state.apply(0, oc.PlayCard(parse_card("♠3")))
    assert isinstance(events[-1], GameOver)
    table = ADAPTER.table(state.view(None), events, NAMES, "en")
    assert table.controls == ()
    assert "Player A (Alice) wins!" in table.log
    assert "Player A (Alice) wins!" in table.body


def test_log_lines_escape_markdown_in_names() -> None:
    state = oc.position([cards("♠3 ♠4"), cards("♥6 ♦8")], parse_card("♠5"))
    events = state.apply(0, oc.PlayCard(parse_card("♠3")))
    table = ADAPTER.table(state.view(None), events, ["*Al*", "B_b"], "en")
    assert table.log[0] == r"Player A (\*Al\*) put the card [♠ 3]"


def test_hand_is_numbered_under_the_open_card_with_take_on_the_turn() -> None:
    state = oc.position([cards("♠3 ♦4 ♠7"), cards("♥6 ♦8")], parse_card("♠5"))
    table = ADAPTER.hand(state.view(0), NAMES, "en")
    assert table.log == (t("hand.title", "en"), t("onecard.your_turn", "en", n=2))
    assert table.body.startswith("[♠ 5] ♠\ncurrent: A Alice")
    assert table.body.endswith("Total 3 cards\n1:[♠ 3] 2:[♦ 4] 3:[♠ 7] 4: Take")
    assert [c.action for c in table.controls] == ["take"]
    other = ADAPTER.hand(state.view(1), NAMES, "en")
    assert "Total 2 cards\n1:[♥ 6] 2:[♦ 8] 3: Take" in other.body
    assert t("onecard.your_turn", "en", n=0) not in other.log


def test_a_bankrupt_seat_sees_that_it_is_out_and_no_take() -> None:
    state = oc.position([[], cards("♠3 ♦4"), cards("♥6 ♦8")], parse_card("♠5"), out=[0], current=1)
    table = ADAPTER.hand(state.view(0), NAMES, "en")
    assert table.log == (t("onecard.out", "en"),)
    assert table.controls == () and "Take" not in table.body and "Total" not in table.body


# -- the hand's menus and autocomplete --------------------------------------------------------


def test_hand_menu_lists_exactly_the_legal_cards_plus_take() -> None:
    state = oc.position([cards("♠3 ♦4 ♠7 ♥5 JKC"), cards("♥6 ♦8")], parse_card("♠5"))
    view, note = hand_view(CHANNEL, 9, state.view(0), "en")
    assert view is not None and note is None
    (menu,) = view.children
    assert isinstance(menu, HandMenu)
    assert menu.item.custom_id == f"dh:{CHANNEL}:9:oc-play"
    values = [o.value for o in menu.item.options]
    assert values == ["♠3", "♠7", "♥5", "JKC", "take"]
    assert [o.label for o in menu.item.options][-1] == "Take"
    assert hand_view(CHANNEL, 9, state.view(1), "en") == (None, None)


def test_hand_menu_under_attack_offers_only_defences_and_take_n() -> None:
    state = oc.position([cards("♠2 ♦4 ♣A JKB"), cards("♥6 ♦8")], parse_card("♣2"), offense=2)
    view, _ = hand_view(CHANNEL, 3, state.view(0), "en")
    assert view is not None
    (menu,) = view.children
    assert isinstance(menu, HandMenu)
    assert [(o.value, o.label) for o in menu.item.options] == [
        ("♠2", "[♠ 2]"),
        ("♣A", "[♣ A]"),
        ("JKB", "[JK B]"),
        ("take", "Take 2"),
    ]


def test_a_menu_never_has_more_than_25_options() -> None:
    many = oc.OneCardView(
        seat=0, players=2, phase=1, current=0, next_seat=1, direction=1, offense=0,
        open_card=FULL_DECK[0], suits=(Suit.SPADES,), table=1, counts=(30, 5),
        playing=(True, True), bankrupt=(False, False), order=(0, 1), hand=FULL_DECK[:30],
        playable=FULL_DECK[:30], result=None,
    )  # fmt: skip
    view, note = hand_view(CHANNEL, 1, many, "en")
    assert view is not None
    (menu,) = view.children
    assert isinstance(menu, HandMenu)
    assert len(menu.item.options) == MAX_OPTIONS
    assert menu.item.options[-1].value == "take"
    assert note == t("onecard.more_cards", "en", n=30 - (MAX_OPTIONS - 1))


def test_suit_menu_carries_the_seven() -> None:
    view = suit_view(CHANNEL, 4, parse_card("♦7"), "en")
    (menu,) = view.children
    assert isinstance(menu, HandMenu)
    assert menu.item.custom_id == f"dh:{CHANNEL}:4:oc-suit-♦7"
    assert (menu.what, menu.card, menu.version) == ("suit", "♦7", 4)
    assert [o.value for o in menu.item.options] == ["♠", "♥", "♦", "♣"]


def test_menu_ids_fit_and_never_reach_the_shared_button() -> None:

    longest = f"dh:{2**64 - 1}:{10**12 - 1}:oc-suit-JKC"
    assert len(longest) <= 100 and re.fullmatch(MENU_TEMPLATE, longest)
    for menu_id in (longest, "dh:1:2:oc-play", "dh:1:2:oc-suit-♠7"):
        assert re.fullmatch(TEMPLATE, menu_id) is None


async def test_only_a_one_card_hand_click_gets_the_menu(monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[tuple[str, int]] = []
    shared_calls: list[str] = []

    async def shared(button: GameButton, interaction: Any) -> None:
        shared_calls.append(button.action)

    async def send_hand(interaction: Any, channel_id: int) -> None:
        sent.append(("hand", channel_id))

    monkeypatch.setattr(cog, "send_hand", send_hand)
    click = with_hand_menu(shared)
    games = {CHANNEL: "onecard", CHANNEL + 1: "blackjack"}
    sessions = SimpleNamespace(get=lambda c: SimpleNamespace(game=games[c]) if c in games else None)

    def interaction(channel_id: int) -> Any:
        return SimpleNamespace(channel_id=channel_id, client=SimpleNamespace(sessions=sessions))

    await click(GameButton(CHANNEL, 3, "hand"), interaction(CHANNEL))
    assert sent == [("hand", CHANNEL)] and shared_calls == []
    await click(GameButton(CHANNEL, 3, "take"), interaction(CHANNEL))
    await click(GameButton(CHANNEL + 1, 3, "hand"), interaction(CHANNEL + 1))
    await click(GameButton(CHANNEL, 3, "hand"), interaction(CHANNEL + 2))  # wrong channel
    await click(GameButton(CHANNEL + 2, 3, "hand"), interaction(CHANNEL + 2))  # no game
    assert sent == [("hand", CHANNEL)]
    assert shared_calls == ["take", "hand", "hand", "hand"]


def test_autocomplete_offers_only_the_seats_own_legal_cards() -> None:
    state = oc.position([cards("♠3 ♦4 ♠7 ♥5"), cards("♠6 ♦8")], parse_card("♠5"))
    names = [c.value for c in legal_choices(state.view(0), "")]
    assert names == ["♠3", "♠7", "♥5"]
    assert [c.value for c in legal_choices(state.view(0), "♠")] == ["♠3", "♠7"]
    assert [c.value for c in legal_choices(state.view(0), "5h")] == ["♥5"]
    sevens = legal_choices(state.view(0), "7", "ko")
    assert [(c.name, c.value) for c in sevens] == [("[♠ 7] - 그다음 무늬를 골라요", "♠7")]
    assert legal_choices(state.view(1), "") == []  # not their turn: nothing


# -- leaving a running game forfeits it -------------------------------------------------------


class Poster:
    def __init__(self) -> None:
        self.posts: list[Post] = []

    async def post(self, post: Post) -> int | None:
        self.posts.append(post)
        return len(self.posts)

    async def strip(self, channel_id: int, message_id: int) -> None:
        return None

    async def ping(self, channel_id: int, member_id: int, text: str) -> None:
        return None


ALICE, BOB, CAROL = Player(1, "Alice"), Player(2, "Bob"), Player(3, "Carol")


@asynccontextmanager
async def three_seat_game() -> AsyncIterator[tuple[SessionRegistry, MemoryStore]]:
    """A seeded One Card game of Alice, Bob and Carol on a memory store."""
    games = GameCatalog()
    games.register(ADAPTER)
    store = MemoryStore()
    settings = Settings(_env_file=None, computer_delay_seconds=0.0)  # type: ignore[call-arg]
    registry = SessionRegistry(store=store, settings=settings, poster=Poster(), games=games)
    try:
        await registry.open_lobby(CHANNEL, GUILD, "onecard", ALICE, players=3, seed=5)
        await registry.join(CHANNEL, BOB)
        await registry.join(CHANNEL, CAROL)
        yield registry, store
    finally:
        await registry.close()


async def test_leave_forfeits_cards_back_to_the_deck_and_is_saved() -> None:
    async with three_seat_game() as (registry, store):
        session = registry.get(CHANNEL)
        assert session is not None and isinstance(session.state, oc.State)
        before = session.state.view(None)
        version = session.version
        reply = await registry.forfeit(CHANNEL, BOB.id, ADAPTER.forfeit)
        assert reply.post is not None
        left = "Player B (Bob) left the game; 5 cards go back to the main deck"
        assert left in reply.post.content
        after = session.state.view(None)
        assert after.playing == (True, False, True)
        assert after.counts[1] == 0 and after.table == before.table + 5
        assert session.version == version + 1
        (stored,) = await store.load_active()
        assert stored.version == session.version
        assert stored.data["state"]["forfeited"] == [False, True, False]
        with pytest.raises(SessionError) as caught:
            await registry.forfeit(CHANNEL, BOB.id, ADAPTER.forfeit)
        assert caught.value.key == "error.not_seated"
        with pytest.raises(SessionError):
            await registry.hand(CHANNEL, BOB.id)
        # The last but one leaving ends the game; the one who stays wins.
        reply = await registry.forfeit(CHANNEL, CAROL.id, ADAPTER.forfeit)
        await asyncio.sleep(0)
        assert registry.get(CHANNEL) is None
        assert reply.post is not None and "Player A (Alice) wins!" in reply.post.content


async def test_a_bankrupt_member_leaving_is_told_so_and_nothing_changes() -> None:
    async with three_seat_game() as (registry, _):
        session = registry.get(CHANNEL)
        assert session is not None
        # Bob went bankrupt (rule 22): his seat is out, the member still sits there.
        session.state = oc.position([cards("♠3 ♠4"), [], cards("♥5")], parse_card("♠9"), out=[1])
        before, version = session.state.snapshot(), session.version
        with pytest.raises(IllegalAction) as caught:
            await registry.forfeit(CHANNEL, BOB.id, ADAPTER.forfeit)
        assert caught.value.code == "already_bankrupt"
        assert refusal(caught.value, "en", "onecard") == (
            "You went bankrupt: you are already out of this game."
        )
        assert refusal(caught.value, "ko", "onecard") == "파산해서 이미 이 게임에서 빠졌어요."
        assert session.state.snapshot() == before and session.version == version
        assert session.seat_of(BOB.id) == 1


async def test_setup_wraps_the_shared_click_once_and_teardown_restores_it() -> None:
    shared = GameButton._click
    added: list[Any] = []
    removed: list[Any] = []
    cogs: list[Any] = []
    registry = SimpleNamespace(poster=None, games=GameCatalog())

    async def add_cog(one: Any) -> None:
        cogs.append(one)

    bot = SimpleNamespace(
        sessions=registry,
        add_dynamic_items=lambda *items: added.extend(items),
        remove_dynamic_items=lambda *items: removed.extend(items),
        add_cog=add_cog,
    )
    try:
        await cog.setup(bot)  # type: ignore[arg-type]
        wrapped = GameButton._click
        assert wrapped is not shared and wrapped.shared is shared  # type: ignore[attr-defined]
        await cog.setup(bot)  # type: ignore[arg-type]  # a second bot in this process
        assert GameButton._click is wrapped
        assert "onecard" in registry.games and cog.HandMenu in added
        assert isinstance(cogs[0], cog.OneCardCog)
        await cog.teardown(bot)  # type: ignore[arg-type]
        assert GameButton._click is shared and "onecard" not in registry.games
        assert removed == [cog.HandMenu]
    finally:
        GameButton._click = shared  # type: ignore[method-assign]
