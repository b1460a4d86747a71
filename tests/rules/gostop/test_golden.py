"""The situations the seed program (004, a textbook's 2-player loop) walks through, replayed on
the engine.

It prints no transcript, so its worked situations are the golden cases: the 4오 played
onto two different April cards (asked) or two April pi (not asked), the 7 played and flipped
onto two floor 7s (따닥), the 설사 (ppuk) returned to the floor, the last-card 설사 that
takes instead (``IsNotLast``), and a 9 taking the 9열 while the flipped 3광 lands elsewhere.
"""

from rules.gostop import Phase, Play
from rules.gostop.cards import parse_hwatu
from rules.gostop.events import Special
from tests.rules.gostop.helpers import arrange, floor_codes, pile_codes

C = parse_hwatu
FILL0 = ("10열", "10띠")
FILL1 = ("11광", "11피a")


def test_seed_4o_onto_4sip_and_4pi_asks_which() -> None:
    state = arrange((("4띠", *FILL0), FILL1), ["4열", "4피a"], ["9피a", "5피a"])
    plays = [a for a in state.legal_actions(0) if isinstance(a, Play) and a.card is C("4띠")]
    assert [a.target for a in plays] == [C("4열"), C("4피a")]


def test_seed_4o_onto_two_4pi_does_not_ask() -> None:
    state = arrange((("4띠", *FILL0), FILL1), ["4피a", "4피b"], ["9피a", "5피a"])
    plays = [a for a in state.legal_actions(0) if isinstance(a, Play) and a.card is C("4띠")]
    assert plays == [Play(C("4띠"))]


def test_seed_7_then_flipped_7_takes_the_other_floor_7_ttadak() -> None:
    state = arrange(
        (("7피a", *FILL0), FILL1), ["7열", "7피b", "1광"], ["7띠", "5피a"], captured=((), ("1피a",))
    )
    events = state.apply(0, Play(C("7피a"), C("7열")))
    assert [e.name for e in events if isinstance(e, Special)] == ["ttadak"]
    assert {"7열", "7피a", "7피b", "7띠"} <= set(pile_codes(state, 0))


def test_seed_seolsa_returns_the_cards_to_the_floor_and_ends_the_turn() -> None:
    state = arrange((("5피a", *FILL0), FILL1), ["5띠", "1광"], ["5피b", "9피a"])
    state.apply(0, Play(C("5피a")))
    assert floor_codes(state) == sorted(["1광", "5띠", "5피a", "5피b"])
    assert pile_codes(state, 0) == []
    assert state.current_seat == 1 and state.phase == Phase.PLAY


def test_seed_seolsa_on_the_last_card_takes_instead() -> None:
    state = arrange((("5피a",), FILL1), ["5띠", "1광"], ["5피b", "9피a", "8피a"])
    state.apply(0, Play(C("5피a")))
    assert pile_codes(state, 0) == sorted(["5띠", "5피a", "5피b"])


def test_seed_9pi_takes_9sip_while_the_flipped_3gwang_lands_elsewhere() -> None:
    state = arrange((("9피a", *FILL0), FILL1), ["1광", "8광", "9열", "12쌍피"], ["3광", "5피a"])
    state.apply(0, Play(C("9피a")))
    assert pile_codes(state, 0) == sorted(["9열", "9피a"])
    assert floor_codes(state) == sorted(["1광", "3광", "8광", "12쌍피"])
