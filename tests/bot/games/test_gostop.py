"""Go-Stop's adapter and cog: parsing, safe and computer moves, menus, autocomplete, forfeits.

Positions come from ``tests/rules/gostop/helpers.arrange``; whole games check that every move
a menu, an autocomplete entry, a timeout or the computer names is one the engine accepts.
"""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.games import MAX_OPTIONS, GameCatalog, Menu
from bot.games.gostop import ADAPTER, parse_move
from bot.i18n import refusal, t
from bot.sessions import Player, Post, SessionRegistry
from bot.settings import Settings
from bot.store.memory import MemoryStore
from cogs.common.buttons import GameButton, MoveMenu
from cogs.common.ids import menu_id
from cogs.gostop import cog
from rules.engine import Action, IllegalAction
from rules.gostop import (
    Bomb,
    ChongtongChoice,
    Go,
    Phase,
    Play,
    State,
    Stop,
    TakeFlip,
    new,
)
from rules.gostop.cards import CARDS, parse_hwatu
from tests.rules.gostop.helpers import arrange

C = parse_hwatu
NAMES = ["Alice", "Bob"]
CHANNEL, GUILD = 555, 777
FIVE_POINTS = [f"{m}피{x}" for m in range(3, 10) for x in "ab"]


def choices() -> State:
    """Alice to play: 2띠 has two floor cards to choose from, three 3s may shake, the 5s may
    bomb, the two 7피 play alike."""
    return arrange(
        (("2띠", "3띠", "3피a", "3피b", "5열", "5띠", "5피a", "7피a", "7피b"), ("11광", "11피a")),
        ["2열", "2피a", "5피b", "1광"],
        ["12광", "3광", "10피a", "10피b", "4피a"],
    )


# -- parse -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("verb", "arg", "action"),
    [
        ("play", "4열", Play(C("4열"))),
        ("play", " jan bright ", Play(C("1광"))),
        ("play", "4열>4띠", Play(C("4열"), C("4띠"))),
        ("play", "4열 > apr ribbon", Play(C("4열"), C("4띠"))),
        ("play", "4열 4띠", Play(C("4열"), C("4띠"))),
        ("play", "jan bright jan junk a", Play(C("1광"), C("1피a"))),
        ("play", "3광 shake", Play(C("3광"), None, True)),
        # A twin's shared name as the tables show it: the engine plays whichever is held.
        ("play", "1피", Play(C("1피a"))),
        ("play", "Jan junk", Play(C("1피a"))),
        ("play", "보너스쌍피", Play(C("B2a"))),
        ("play", "bonus(2)", Play(C("B2a"))),
        # The names the tables show, typed back: Nov's double, a bonus card, a target.
        ("play", "Nov double", Play(C("11쌍피"))),
        ("play", "bonus triple", Play(C("B3"))),
        ("play", "bonus double", Play(C("B2a"))),
        ("play", "dec bright > Dec double", Play(C("12광"), C("12쌍피"))),
        ("play", "dec bright dec double", Play(C("12광"), C("12쌍피"))),
        ("choose", "Dec double", TakeFlip(C("12쌍피"))),
        ("choose", "5피", TakeFlip(C("5피a"))),
        ("play", "3광 흔들기", Play(C("3광"), None, True)),
        ("play", "bomb 3", Bomb(3)),
        ("play", "폭탄 3월", Bomb(3)),
        ("play", "Bomb mar bright", Bomb(3)),
        ("shake", "3광", Play(C("3광"), None, True)),
        ("bomb", "5", Bomb(5)),
        ("choose", "12열", TakeFlip(C("12열"))),
        ("go", None, Go()),
        ("stop", None, Stop()),
        ("chongtong", "end", ChongtongChoice(end=True)),
        ("chongtong", "play", ChongtongChoice(end=False)),
    ],
)
def test_parse_reads_every_move_as_buttons_menus_and_commands_name_it(
    verb: str, arg: str | None, action: Action
) -> None:
    assert ADAPTER.parse(verb, arg) == action


def test_every_card_name_a_table_shows_can_be_typed_back_in_either_language() -> None:
    from bot.text import gostop as render

    for lang in ("en", "ko"):
        for card in CARDS:
            name = render.card_name(card, lang)
            played = ADAPTER.parse("play", name)
            assert isinstance(played, Play) and render.card_name(played.card, lang) == name


@pytest.mark.parametrize(
    ("verb", "arg", "code"),
    [
        ("play", "purple 99", "unknown_card"),
        ("play", "4열>purple", "unknown_card"),
        ("play", "4열 >", "no_target"),
        ("play", "shake", "shake_what"),
        ("play", "흔들기", "shake_what"),
        ("play", "   ", "not_a_gostop_move"),
        ("play", "bomb 13", "unknown_month"),
        ("bomb", "B3", "unknown_month"),
        ("choose", "nothing", "unknown_card"),
        ("chongtong", "maybe", "not_a_gostop_move"),
        ("go", "now", "not_a_gostop_move"),
        ("take", None, "not_a_gostop_move"),
    ],
)
def test_parse_refuses_with_a_code_the_catalogs_know(verb: str, arg: str | None, code: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        ADAPTER.parse(verb, arg)
    assert refused.value.code == code
    for locale in ("en", "ko"):
        assert refusal(refused.value, locale, "gostop") == t(
            f"illegal.gostop.{code}", locale, **refused.value.params
        )


def test_a_refusal_echoes_at_most_40_characters_of_what_was_typed() -> None:
    with pytest.raises(IllegalAction) as refused:
        parse_move("x" * 200)
    assert refused.value.params["text"] == "x" * 40


def test_engine_refusals_name_cards_in_the_members_language() -> None:
    state = choices()
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, Play(C("2띠")))
    assert refusal(refused.value, "en", "gostop") == (
        "Choose which card Feb ribbon takes: Feb animal or Feb junk."
    )
    assert refusal(refused.value, "ko", "gostop") == "2띠 패로 먹을 패를 고르세요: 2열 또는 2피."
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, Play(C("1광")))
    assert refusal(refused.value, "en", "gostop") == "You don't have Jan bright."
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, Go())
    assert refusal(refused.value, "ko", "gostop") == "손패에서 한 장 내세요."


# -- seats, deals, safe and computer moves -----------------------------------------------------


def test_two_seats_the_guilds_turn_time_and_a_game_that_restores() -> None:
    assert (ADAPTER.name, ADAPTER.min_seats, ADAPTER.max_seats) == ("gostop", 2, 2)
    settings = Settings(_env_file=None, default_turn_seconds=77.0)  # type: ignore[call-arg]
    assert ADAPTER.turn_seconds(settings) == 77.0
    state, events = ADAPTER.new(2, 42, {"bonus_cards": 3}, [1])
    assert events == () and state.view(None).bonus_cards == 3
    assert ADAPTER.restore(state.snapshot()).snapshot() == state.snapshot()
    assert ADAPTER.hand_to_computer(state, 1) == ()


def test_the_next_deal_is_the_winners_and_a_nagari_doubles_it() -> None:
    state = arrange((("1피b",), ("11광",)), ["1피a"], ["12광"], carry=1, dealer=1)
    state.apply(0, Play(C("1피b")))  # the last card of the pile: nagari
    options = {"bonus_cards": 2}
    assert ADAPTER.next_options(state, options) == {
        "bonus_cards": 0,  # the engine's own option wins: this game was dealt without
        "dealer": 1,
        "nagari_carry": 2,
    }
    won = arrange((("1피b", "10열"), ("11광",)), ["1피a"], ["12광", "3광"])
    won.forfeit(0)
    assert ADAPTER.next_options(won, {"bonus_cards": 0}) == {
        "bonus_cards": 0,
        "dealer": 1,
        "nagari_carry": 0,
    }


def test_the_timeout_move_is_the_safe_one() -> None:
    go_stop = arrange(
        (("1피b", "10열", "10띠"), ("11광",)), ["1피a"], ["12광", "3광", "10피a", "10피b"],
        captured=([*FIVE_POINTS, "2띠", "1띠"], ()),
    )  # fmt: skip
    go_stop.apply(0, Play(C("1피b")))
    assert go_stop.phase == Phase.GO_STOP and ADAPTER.timeout_action(go_stop, 0) == Stop()
    state = choices()
    assert ADAPTER.timeout_action(state, 0) == Play(C("2띠"), C("2열"))  # no shake, no bomb


def test_out_of_time_a_choice_of_floor_cards_takes_the_one_shown_first() -> None:
    # The engine lists targets in the floor's own order; the table marks them by card order.
    checked = 0
    for seed in range(150):
        state = new(2, seed=seed)
        policy = random.Random(seed)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            legal = state.legal_actions(seat)
            chosen = ADAPTER.timeout_action(state, seat)
            assert chosen in legal
            target = chosen.target if isinstance(chosen, Play | TakeFlip) else None
            if target is not None:
                assert isinstance(chosen, Play | TakeFlip)
                rivals = [
                    a.target for a in legal
                    if type(a) is type(chosen) and a.target is not None
                    and (isinstance(a, TakeFlip) or a.card is chosen.card)  # type: ignore[union-attr]
                ]  # fmt: skip
                assert target is min(rivals, key=lambda card: card.index)
                checked += 1
            state.apply(seat, legal[policy.randrange(len(legal))])
    assert checked > 50


def test_a_twin_named_for_the_one_held_plays_the_one_held() -> None:
    def table() -> State:
        return arrange(
            (("5피b", "3광"), ("11광", "6띠")), ["9열", "5피a"], ["12광", "3띠", "10피a", "10피b"]
        )

    # "5피" (as the table shows it) reads as 5피a, which is on the floor, not in the hand.
    named = ADAPTER.parse("play", "5피")
    assert named == Play(C("5피a"))
    state, same = table(), table()
    assert state.apply(0, named) == same.apply(0, Play(C("5피b")))
    assert state.snapshot() == same.snapshot()

    # The floor card to take, named by its twin: 2피a for the 2피b on the floor.
    def choice() -> State:
        return arrange(
            (("2띠", "3광"), ("11광", "6띠")), ["2열", "2피b"], ["12광", "3띠", "10피a", "10피b"]
        )

    state, same = choice(), choice()
    assert state.apply(0, ADAPTER.parse("play", "2띠>2피")) == same.apply(
        0, Play(C("2띠"), C("2피b"))
    )


# -- the table ---------------------------------------------------------------------------------


def test_the_tables_buttons_follow_the_game() -> None:
    state = choices()
    assert [c.action for c in ADAPTER.table(state.view(None), [], NAMES, "en").controls] == ["hand"]
    go_stop = arrange(
        (("1피b", "10열", "10띠"), ("11광",)), ["1피a"], ["12광", "3광", "10피a", "10피b"],
        captured=([*FIVE_POINTS, "2띠", "1띠"], ["11피b"]),
    )  # fmt: skip
    events = go_stop.apply(0, Play(C("1피b")))
    table = ADAPTER.table(go_stop.view(None), events, ["*Alice*", "Bob"], "en")
    assert [(c.action, c.label, c.style) for c in table.controls] == [
        ("hand", "button.hand", "primary"),
        ("go", "button.go", "success"),
        ("stop", "button.stop", "danger"),
    ]
    assert table.log[0] == r"\*Alice\* plays Jan junk" and table.lang == ""
    events = go_stop.apply(0, Stop())
    over = ADAPTER.table(go_stop.view(None), events, NAMES, "ko")
    assert [c.action for c in over.controls] == ["again"] and "점수표" in over.body
    assert over.log[-1] == "Bob 님 피박! 두 배씩 물어요"


# -- the hand and its menus --------------------------------------------------------------------


def test_the_hand_menu_lists_each_playable_card_once_with_what_it_takes() -> None:
    hand = ADAPTER.hand(choices().view(0), NAMES, "en")
    assert hand.log == ("Your hand", "Your turn: pick a card to play.")
    assert hand.menu is not None and hand.menu.placeholder == "Play a card"
    assert [(o.value, o.label, o.description) for o in hand.menu.options] == [
        (
            "2띠",
            "Feb ribbon -> takes the Feb animal or the Feb junk: your pick",
            "more choices next",
        ),
        ("3띠", "Mar ribbon -> stays on the floor", "more choices next"),
        ("3피a", "Mar junk -> stays on the floor", "more choices next"),  # 3피b plays alike
        ("5열", "May animal -> takes the May junk", "more choices next"),
        ("5띠", "May ribbon -> takes the May junk", "more choices next"),
        ("5피a", "May junk -> takes the May junk", "more choices next"),
        ("7피a", "Jul junk -> stays on the floor", None),  # 7피b plays alike
    ]
    assert hand.controls == () and len(hand.menu.options) <= MAX_OPTIONS
    waiting = ADAPTER.hand(choices().view(1), NAMES, "ko")
    assert waiting.menu is None and waiting.log == ("내 패", "Alice 님 차례예요.")
    marked = ADAPTER.hand(choices().view(1), ["*Al_ice*", "Bob"], "en")
    assert marked.log[-1] == r"\*Al\_ice\* is to play."  # a name's markdown stays text
    for option in hand.menu.options:  # every menu fits a custom id with its step
        assert menu_id(2**64 - 1, 10**12 - 1, "gostop", option.value)


@pytest.mark.parametrize(
    ("card", "placeholder", "values", "moves"),
    [
        ("2띠", "What Feb ribbon takes", ["2열", "2피a"], [Play(C("2띠"), C("2열")),
                                                          Play(C("2띠"), C("2피a"))]),
        ("3피a", "Shake Mar?", ["shake", "plain"], [Play(C("3피a"), None, True),
                                                    Play(C("3피a"))]),
        ("5열", "Bomb May?", ["bomb", "plain"], [Bomb(5), Play(C("5열"))]),
    ],
)  # fmt: skip
def test_a_card_with_a_choice_asks_it_in_a_second_menu(
    card: str, placeholder: str, values: list[str], moves: list[Action]
) -> None:
    state = choices()
    view = state.view(0)
    second = ADAPTER.picked(view, None, card, "en")
    assert isinstance(second, Menu) and second.step == card and second.prompt
    assert second.placeholder == placeholder
    assert [o.value for o in second.options] == values
    for value, move in zip(values, moves, strict=True):
        picked = ADAPTER.picked(view, card, value, "en")
        assert not isinstance(picked, Menu)
        assert ADAPTER.parse(*picked) == move and move in state.legal_actions(0)


def test_a_plain_card_is_played_at_once_and_nonsense_left_to_refuse() -> None:
    view = choices().view(0)
    assert ADAPTER.picked(view, None, "7피a", "en") == ("play", "7피a")
    assert ADAPTER.picked(view, None, "nonsense", "en") == ("play", "nonsense")


def test_the_flip_choice_the_go_stop_and_the_chongtong_in_the_hand() -> None:
    flip = arrange(
        (("8피b", "10열", "10띠"), ("11광", "11피a")), ["12띠", "12열"], ["12쌍피", "5피a"]
    )
    flip.apply(0, Play(C("8피b")))
    hand = ADAPTER.hand(flip.view(0), NAMES, "ko")
    assert hand.log[-1] == "뒤집은 12쌍피 패가 먹을 패를 고르세요."
    assert hand.body.splitlines()[:2] == ["바닥 (더미 1장)", " 8월 피 | 12월 [1]열 [2]띠"]
    assert hand.menu is not None
    assert [(o.label, o.value) for o in hand.menu.options] == [("[1] 12열", "12열"),
                                                               ("[2] 12띠", "12띠")]  # fmt: skip
    assert ADAPTER.picked(flip.view(0), None, "12띠", "ko") == ("choose", "12띠")

    go_stop = arrange(
        (("1피b", "10열", "10띠"), ("11광",)), ["1피a"], ["12광", "3광", "10피a", "10피b"],
        captured=([*FIVE_POINTS, "2띠", "1띠"], ()),
    )  # fmt: skip
    go_stop.apply(0, Play(C("1피b")))
    hand = ADAPTER.hand(go_stop.view(0), NAMES, "en")
    assert [c.action for c in hand.controls] == ["go", "stop"] and hand.menu is None
    assert "You have 7 points; Bob has 0." in hand.log

    for seed in range(3000):
        state = new(2, seed=seed)
        if state.phase == Phase.CHONGTONG:
            break
    seat = state.current_seat
    assert seat is not None
    hand = ADAPTER.hand(state.view(seat), NAMES, "en")
    assert hand.log[-1].startswith("Chongtong: you hold all four")
    assert hand.menu is not None and [o.value for o in hand.menu.options] == ["end", "play"]
    assert ADAPTER.picked(state.view(seat), None, "end", "en") == ("chongtong", "end")
    assert ADAPTER.hand(state.view(1 - seat), NAMES, "en").menu is None
    over = ADAPTER.hand(go_stop.view(1), NAMES, "en")
    assert over.menu is None and over.controls == ()


def test_after_a_move_the_mover_alone_hears_of_the_choice_it_left() -> None:
    flip = arrange(
        (("8피b", "10열", "10띠"), ("11광", "11피a")), ["12띠", "12열"], ["12쌍피", "5피a"]
    )
    events = flip.apply(0, Play(C("8피b")))
    told = ADAPTER.private(flip.view(0), events, NAMES, "en")
    assert told is not None and told.menu is not None and len(told.menu.options) == 2
    plain = choices()
    events = plain.apply(0, Play(C("7피a")))
    assert ADAPTER.private(plain.view(0), events, NAMES, "en") is None


# -- autocomplete ------------------------------------------------------------------------------


def test_autocomplete_offers_each_legal_move_and_each_parses_back_to_it() -> None:
    state = choices()
    view = state.view(0)
    offered = ADAPTER.suggest(view, "card", "", "en")
    moves = [ADAPTER.parse("play", o.value) for o in offered]
    legal = state.legal_actions(0)
    assert all(move in legal for move in moves)
    # A second junk of a month plays as the first does.
    assert set(legal) - set(moves) == {
        Play(C("7피b")),
        Play(C("3피b")),
        Play(C("3피b"), None, True),
    }
    labels = {o.value: o.label for o in offered}
    assert labels["2띠>2열"] == "Feb ribbon -> takes Feb animal"
    assert labels["3띠 shake"] == "Mar ribbon, shaking: show Mar ribbon, Mar junk, Mar junk (×2)"
    assert labels["bomb 5"] == "Bomb: play May animal, May ribbon, May junk at once"
    assert [o.value for o in ADAPTER.suggest(view, "card", "feb", "en")] == ["2띠>2열", "2띠>2피a"]
    assert [o.value for o in ADAPTER.suggest(view, "card", "폭탄", "ko")] == ["bomb 5"]
    assert ADAPTER.suggest(state.view(1), "card", "", "en") == []  # not Bob's turn
    assert ADAPTER.suggest(state.view(0), "choose", "", "en") == []  # no flip to choose for


def test_autocomplete_of_choose_offers_the_two_floor_cards() -> None:
    flip = arrange(
        (("8피b", "10열", "10띠"), ("11광", "11피a")), ["12띠", "12열"], ["12쌍피", "5피a"]
    )
    flip.apply(0, Play(C("8피b")))
    offered = ADAPTER.suggest(flip.view(0), "choose", "", "en")
    assert {(o.label, o.value) for o in offered} == {("Dec animal", "12열"), ("Dec ribbon", "12띠")}
    assert ADAPTER.suggest(flip.view(0), "card", "", "en") == []


def test_every_menu_pick_and_every_suggestion_of_random_games_is_legal() -> None:
    rng = random.Random(3)
    for seed in range(40):
        state = new(2, seed=seed, options={"bonus_cards": 3})
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            view = state.view(seat)
            legal = state.legal_actions(seat)
            for option in ADAPTER.suggest(view, "card", "", "ko"):
                assert ADAPTER.parse("play", option.value) in legal
            menu = ADAPTER.hand(view, NAMES, "ko").menu
            moves: list[Action] = []
            for option in menu.options if menu is not None else ():
                picked = ADAPTER.picked(view, None, option.value, "ko")
                if isinstance(picked, Menu):
                    assert len(picked.options) == 2 and picked.step is not None
                    for second in picked.options:
                        step = ADAPTER.picked(view, picked.step, second.value, "ko")
                        assert not isinstance(step, Menu)
                        moves.append(ADAPTER.parse(*step))
                else:
                    moves.append(ADAPTER.parse(*picked))
            if view.phase == Phase.GO_STOP:
                moves = [Go(), Stop()]
            assert moves and all(move in legal for move in moves)
            state.apply(seat, moves[rng.randrange(len(moves))])


# -- leaving and the cog -----------------------------------------------------------------------


class Poster:
    async def post(self, post: Post) -> int | None:
        return 1

    async def strip(self, channel_id: int, message_id: int, note: str | None = None) -> None:
        return None

    async def ping(self, channel_id: int, member_id: int, text: str) -> None:
        return None


async def test_leaving_a_running_game_forfeits_it_to_the_other_member() -> None:
    games = GameCatalog()
    games.register(ADAPTER)
    store = MemoryStore()
    settings = Settings(_env_file=None, computer_delay_seconds=0.0)  # type: ignore[call-arg]
    registry = SessionRegistry(store=store, settings=settings, poster=Poster(), games=games)
    alice, bob = Player(1, "Alice"), Player(2, "Bob")
    try:
        await registry.open_lobby(CHANNEL, GUILD, "gostop", alice, players=2, member_seed=7,
                                  options={"bonus_cards": 2})  # fmt: skip
        await registry.join(CHANNEL, bob)
        reply = await registry.leave(CHANNEL, bob.id)
        assert reply.post is not None and "Bob left: Alice wins" in reply.post.content
        assert registry.get(CHANNEL) is None
        [finished] = store.finished
        assert [(s.member_id, s.outcome) for s in finished.seats] == [(1, "win"), (2, "lose")]
        kept = registry.finished.get(CHANNEL)
        assert kept is not None and kept.options == {
            "bonus_cards": 2,
            "dealer": 0,
            "nagari_carry": 0,
        }
    finally:
        await registry.close()


async def test_setup_registers_the_game_and_teardown_forgets_it() -> None:
    added: list[Any] = []
    cogs: list[Any] = []
    registry = SimpleNamespace(poster=None, games=GameCatalog())

    async def add_cog(one: Any) -> None:
        cogs.append(one)

    bot = SimpleNamespace(
        sessions=registry, add_dynamic_items=lambda *items: added.extend(items), add_cog=add_cog
    )
    await cog.setup(bot)  # type: ignore[arg-type]
    assert "gostop" in registry.games and isinstance(cogs[0], cog.GostopCog)
    assert added == [GameButton, MoveMenu]
    names = [c.name for c in cog.GostopCog.group.commands]
    assert names == ["start", "join", "leave", "hand", "play", "choose", "go", "stop", "chongtong"]
    await cog.teardown(bot)  # type: ignore[arg-type]
    assert "gostop" not in registry.games


def test_every_card_code_fits_a_menu_step() -> None:
    for card in CARDS:
        assert menu_id(2**64 - 1, 10**12 - 1, "gostop", card.code)


def test_a_number_the_hand_shows_is_its_card() -> None:
    """The hand numbers its cards by month (``Feb: 1) animal``): the number is the card, a
    number the hand does not show is no card."""
    from bot.i18n import t
    from bot.text.gostop import numbered_hand
    from bot.text.gostop_words import KIND_KEYS

    state, _ = ADAPTER.new(2, 7, {}, [1], secret=True)
    view = state.view(0)
    hand = " ".join(ADAPTER.hand(view, ["A", "B"], "en").body.split())
    cards = numbered_hand(view)
    assert sorted(c.code for c in cards) == sorted(c.code for c in view.hand or ())
    for number, card in enumerate(cards, 1):
        assert ADAPTER.shown_card(view, str(number)) == card.code
        kind = t(f"gostop.kind.{KIND_KEYS[card.kind]}", "en")
        assert f" {number}) {kind}" in hand
    assert ADAPTER.shown_card(view, "0") is None and ADAPTER.shown_card(view, "11") is None
    assert ADAPTER.shown_card(view, "jan-bright") is None
