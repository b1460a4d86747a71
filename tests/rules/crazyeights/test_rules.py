"""One test (or a few) per numbered rule of docs/rules/crazyeights.md."""

from __future__ import annotations

import dataclasses
import random

import pytest

import rules.crazyeights as ce
from rules.cards import STANDARD_DECK, SUITS, Card, Rank, Suit, parse_card
from rules.engine import Action, GameOver, IllegalAction, Outcome


def cards(text: str) -> list[Card]:
    """``"♠2 ♦4 ♥K"`` -> cards."""
    return [parse_card(t) for t in text.split()]


def c(text: str) -> Card:
    return parse_card(text)


def rest(*used: list[Card] | Card) -> list[Card]:
    """Every card not among ``used``."""
    taken: set[Card] = set()
    for item in used:
        taken.update(item if isinstance(item, list) else [item])
    return [card for card in STANDARD_DECK if card not in taken]


def act(state: ce.State, action: ce.PlayCard | ce.Draw | ce.Pass) -> list[object]:
    seat = state.current_seat
    assert seat is not None
    return list(state.apply(seat, action))


def play(state: ce.State, text: str, suit: Suit | None = None) -> list[object]:
    return act(state, ce.PlayCard(c(text), suit))


def refused(
    state: ce.State, action: ce.PlayCard | ce.Draw | ce.Pass, *, seat: int | None = None
) -> IllegalAction:
    """The refusal of ``action``, after checking that it changed nothing."""
    mover = state.current_seat if seat is None else seat
    assert mover is not None
    before = state.snapshot()
    with pytest.raises(IllegalAction) as error:
        state.apply(mover, action)
    assert state.snapshot() == before
    assert error.value.reason
    return error.value


def played_cards(state: ce.State) -> set[str]:
    seat = state.current_seat
    assert seat is not None
    return {a.card.code for a in state.legal_actions(seat) if isinstance(a, ce.PlayCard)}


def everything(state: ce.State) -> list[Card]:
    hands = [card for seat in range(state.players) for card in state.hand(seat)]
    return [*state.stock(), *state.discard_pile(), *hands]


def nothing_to_draw(hand: list[Card], top: Card, *, seats: int = 2) -> ce.State:
    """Seat 0 holds ``hand`` on ``top``; the other seats hold every other card between them:
    the stock and the discard pile under the top card are empty."""
    others = rest(hand, top)
    hands = [hand, *(others[i :: seats - 1] for i in range(seats - 1))]
    return ce.position(hands, top, stock=[])


# ---------------------------------------------------------------- cards and players


def test_rule_1_one_pack_of_fifty_two_cards_without_jokers() -> None:
    state = ce.new(4, seed=1)
    pack = everything(state)
    assert len(pack) == 52 and set(pack) == set(STANDARD_DECK)
    assert not any(card.is_joker for card in pack)
    assert refused(state, ce.PlayCard(c("JKB"))).code == "not_in_hand"


@pytest.mark.parametrize("players", [0, 1, 7])
def test_rule_2_two_to_six_players(players: int) -> None:
    with pytest.raises(IllegalAction, match="between 2 and 6") as error:
        ce.new(players, seed=1)
    assert error.value.code == "players"


@pytest.mark.parametrize(("players", "size"), [(2, 7), (3, 5), (4, 5), (5, 5), (6, 5)])
def test_rule_3_seven_cards_for_two_players_five_for_more(players: int, size: int) -> None:
    state = ce.new(players, seed=players)
    assert [len(state.hand(s)) for s in range(players)] == [size] * players
    assert ce.hand_size(players) == size


def test_rule_4_a_seeded_game_repeats_and_seeds_differ() -> None:
    a, b = ce.new(3, seed=42), ce.new(3, seed=42)
    assert a.snapshot() == b.snapshot()
    assert len({ce.new(3, seed=s).hand(0) for s in range(20)}) == 20
    assert len({ce.new(3).hand(0) for _ in range(5)}) > 1  # unseeded: from the OS


# ---------------------------------------------------------------- the stock and the discard pile


@pytest.mark.parametrize("players", [2, 3, 6])
def test_rule_5_the_rest_is_the_stock_and_its_top_card_starts_the_discard_pile(
    players: int,
) -> None:
    state = ce.new(players, seed=5)
    view = state.view(None)
    assert len(state.discard_pile()) == 1 and view.top is state.top and view.pile == ()
    assert view.stock == 52 - players * ce.hand_size(players) - 1 == len(state.stock())
    assert view.suit is state.top.suit


def test_rule_6_an_eight_turned_up_is_buried_in_the_stock() -> None:
    buried = [state for state in (ce.new(2, seed=s) for s in range(300)) if state.view(0).buried]
    assert len(buried) > 5  # about one deal in thirteen
    for state in buried:
        assert state.top.rank is not Rank.EIGHT
        eights = [card for card in state.stock() if card.rank is Rank.EIGHT]
        assert len(eights) >= state.view(0).buried
    # Buried at a random place, not on top nor at the bottom only.
    places = {
        next(i for i, card in enumerate(s.stock()) if card.rank is Rank.EIGHT) for s in buried
    }
    assert len(places) > 3
    assert all(ce.new(2, seed=s).top.rank is not Rank.EIGHT for s in range(300))


def test_rule_7_a_view_shows_only_its_own_hand_and_never_the_stock() -> None:
    state = ce.new(4, seed=3)
    for _ in range(12):
        act(state, state.legal_actions(state.current_seat or 0)[0])
    public = {*state.discard_pile()}
    for seat in (None, 0, 1, 2, 3):
        view = state.view(seat)
        own = set(state.hand(seat)) if seat is not None else set()
        shown = set(_cards_in(view))
        assert shown <= public | own, seat
        assert view.hand == (None if seat is None else state.hand(seat))
        assert view.counts == tuple(len(state.hand(s)) for s in range(4))
        assert view.pile == state.discard_pile()[:-1] and view.stock == len(state.stock())


def test_rule_7_a_draw_is_never_named_in_public() -> None:
    state = ce.position([cards("♥3 ♥4"), cards("♦5")], c("♠9"), stock=cards("♣2 ♣3"))
    events = act(state, ce.Draw())
    assert events == [ce.CardDrawn(0, 47)]  # 52 less three in hands, the top and this one
    assert c("♣2") not in set(_cards_in(events[0])) and c("♣2") not in state.view(1).pile
    assert state.view(0).hand == (c("♥3"), c("♥4"), c("♣2"))
    assert state.view(1).counts == (3, 1)


def _cards_in(value: object) -> list[Card]:
    """Every card a dataclass value holds, in its fields and their tuples."""
    if isinstance(value, Card):
        return [value]
    if isinstance(value, tuple | list):
        return [card for item in value for card in _cards_in(item)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [
            card for f in dataclasses.fields(value) for card in _cards_in(getattr(value, f.name))
        ]
    return []


# ---------------------------------------------------------------- a turn


def test_rule_8_a_random_player_begins_and_play_goes_round_in_order() -> None:
    assert {ce.new(4, seed=s).current_seat for s in range(40)} == {0, 1, 2, 3}
    state = ce.position([cards("♠3 ♠4"), cards("♠5 ♠6"), cards("♠7 ♠10")], c("♠9"), current=1)
    assert state.next_seat() == 2
    play(state, "♠5")
    assert state.current_seat == 2
    play(state, "♠7")
    assert state.current_seat == 0


def test_rule_9_a_card_of_the_top_cards_suit_or_rank_fits() -> None:
    state = ce.position([cards("♠3 ♥9 ♦4 ♣K"), cards("♦5")], c("♠9"))
    assert played_cards(state) == {"♠3", "♥9"}
    for card, code in (("♦4", "no_match"), ("♣K", "no_match")):
        error = refused(state, ce.PlayCard(c(card)))
        assert error.code == code and error.params == {"card": card, "suit": "♠", "rank": "9"}
    play(state, "♥9")
    assert state.suit is Suit.HEARTS and state.top == c("♥9")


def test_rule_9_after_an_eight_only_the_named_suit_or_another_eight() -> None:
    state = ce.position(
        [cards("♣3 ♥5 ♦8 ♦9"), cards("♦5")], c("♣8"), pile=cards("♣9"), suit=Suit.HEARTS
    )
    assert played_cards(state) == {"♥5", "♦8"}
    error = refused(state, ce.PlayCard(c("♣3")))
    assert error.code == "no_match_eight" and error.params == {"card": "♣3", "suit": "♥"}


def test_rule_10_an_eight_goes_on_anything_and_its_player_names_the_suit() -> None:
    state = ce.position([cards("♥8 ♦4"), cards("♣5 ♦6")], c("♠3"))
    assert state.legal_actions(0)[:4] == [ce.PlayCard(c("♥8"), suit) for suit in SUITS]
    assert refused(state, ce.PlayCard(c("♥8"))).code == "choose_suit"
    assert play(state, "♥8", Suit.CLUBS) == [
        ce.CardPlayed(0, c("♥8")),
        ce.SuitChosen(0, Suit.CLUBS),
    ]
    assert state.suit is Suit.CLUBS
    assert played_cards(state) == {"♣5"}  # the named suit, not the 8's own
    assert state.view(None).suit is Suit.CLUBS


def test_rule_10_only_an_eight_names_a_suit() -> None:
    state = ce.position([cards("♠4 ♦4"), cards("♣5")], c("♠3"))
    error = refused(state, ce.PlayCard(c("♠4"), Suit.CLUBS))
    assert error.code == "suit_without_eight"


def test_rule_11_a_player_may_draw_instead_of_playing_and_the_turn_goes_on() -> None:
    state = ce.position([cards("♠4 ♥5"), cards("♣5")], c("♠3"), stock=cards("♦2 ♠6 ♣K"))
    assert ce.Draw() in state.legal_actions(0)  # ♠4 fits, but drawing is allowed
    assert act(state, ce.Draw()) == [ce.CardDrawn(0, 47)]
    assert state.current_seat == 0 and state.view(0).drawn == 1
    assert state.hand(0) == (c("♠4"), c("♥5"), c("♦2"))
    act(state, ce.Draw())  # and again
    assert state.current_seat == 0 and state.view(0).drawn == 2
    assert played_cards(state) == {"♠4", "♠6"}
    play(state, "♠4")  # any card that fits, not only the one drawn
    assert state.current_seat == 1 and state.view(1).drawn == 0


def test_rule_11_a_player_who_cannot_play_draws_until_a_card_fits() -> None:
    state = ce.position([cards("♥5"), cards("♣5")], c("♠3"), stock=cards("♦2 ♦J ♠6"))
    assert state.legal_actions(0) == [ce.Draw()]
    act(state, ce.Draw())
    act(state, ce.Draw())
    assert state.legal_actions(0) == [ce.Draw()]
    act(state, ce.Draw())
    assert state.legal_actions(0) == [ce.PlayCard(c("♠6")), ce.Draw()]
    play(state, "♠6")
    assert state.current_seat == 1


def test_rule_12_an_empty_stock_is_refilled_from_the_discard_pile_but_its_top_card() -> None:
    hands = [cards("♣2"), rest(cards("♣2 ♥2 ♥3 ♥4 ♥5"))]
    state = ce.position(hands, c("♥5"), stock=[], pile=cards("♥2 ♥3 ♥4"))
    assert state.view(0).stock == 0 and state.view(0).can_draw
    events = act(state, ce.Draw())
    assert events == [ce.Reshuffled(3), ce.CardDrawn(0, 2)]
    assert state.discard_pile() == (c("♥5"),) and state.view(0).pile == ()
    assert set(state.stock()) | {state.hand(0)[-1]} == set(cards("♥2 ♥3 ♥4"))


def test_rule_12_the_reshuffle_is_random() -> None:
    drawn = set()
    for seed in range(30):
        hands = [cards("♣2"), rest(cards("♣2 ♥2 ♥3 ♥4 ♥5"))]
        state = ce.position(hands, c("♥5"), stock=[], pile=cards("♥2 ♥3 ♥4"), seed=seed)
        act(state, ce.Draw())
        drawn.add(state.hand(0)[-1])
    assert drawn == set(cards("♥2 ♥3 ♥4"))


def test_rule_13_with_nothing_to_draw_a_player_who_cannot_play_passes() -> None:
    state = nothing_to_draw(cards("♣2"), c("♥5"))
    assert not state.view(0).can_draw
    assert state.legal_actions(0) == [ce.Pass()]
    assert refused(state, ce.Draw()).code == "no_draw"
    assert act(state, ce.Pass()) == [ce.Passed(0)]
    assert state.current_seat == 1


def test_rule_13_a_player_who_can_play_may_not_pass() -> None:
    state = nothing_to_draw(cards("♥2 ♣3"), c("♥5"))
    assert state.legal_actions(0) == [ce.PlayCard(c("♥2"))]
    assert refused(state, ce.Pass()).code == "must_play"
    drawing = ce.position([cards("♣2"), cards("♦3")], c("♥5"))
    assert refused(drawing, ce.Pass()).code == "must_draw"


@dataclasses.dataclass(frozen=True, slots=True)
class Nonsense(Action):
    """A move of no game."""


def test_rule_14_refusals_have_reasons_and_change_nothing() -> None:
    state = ce.position([cards("♠3 ♥4"), cards("♠5")], c("♠9"))
    assert refused(state, ce.PlayCard(c("♠5")), seat=1).code == "not_your_turn"
    assert refused(state, ce.PlayCard(c("♠5"))).code == "not_in_hand"
    assert refused(state, ce.PlayCard(c("♥4"))).code == "no_match"
    assert refused(state, Nonsense()).code == "not_a_crazyeights_move"  # type: ignore[arg-type]
    play(state, "♠3")
    assert state.current_seat == 1  # no penalty: the refusals cost nothing


def test_rule_14_nothing_is_accepted_once_the_game_is_over() -> None:
    state = ce.position([cards("♠3"), cards("♠5")], c("♠9"))
    play(state, "♠3")
    assert state.is_over and state.current_seat is None
    with pytest.raises(IllegalAction) as error:
        state.apply(1, ce.PlayCard(c("♠5")))
    assert error.value.code == "game_over"
    assert state.legal_actions(0) == state.legal_actions(1) == []


# ---------------------------------------------------------------- the end and the score


def test_rule_15_the_first_to_empty_their_hand_wins() -> None:
    state = ce.position([cards("♠3"), cards("♠5 ♦6")], c("♠9"))
    events = play(state, "♠3")
    assert isinstance(events[-1], GameOver) and events[-1].result == state.result
    assert state.result is not None and state.result.winners == (0,)


def test_rule_15_a_last_eight_wins_too_and_still_names_a_suit() -> None:
    state = ce.position([cards("♦8"), cards("♠5")], c("♠9"))
    assert refused(state, ce.PlayCard(c("♦8"))).code == "choose_suit"
    events = play(state, "♦8", Suit.HEARTS)
    assert events[:2] == [ce.CardPlayed(0, c("♦8")), ce.SuitChosen(0, Suit.HEARTS)]
    assert state.result is not None and state.result.winners == (0,)


@pytest.mark.parametrize(
    ("card", "points"),
    [
        ("♠8", 50),
        ("♥8", 50),
        ("♦K", 10),
        ("♣Q", 10),
        ("♠J", 10),
        ("♥A", 1),
        ("♦2", 2),
        ("♣10", 10),
        ("♠7", 7),
    ],
)
def test_rule_16_what_a_card_left_in_hand_is_worth(card: str, points: int) -> None:
    assert ce.card_points(c(card)) == points


def test_rule_16_the_whole_pack_is_worth_its_sum() -> None:
    # Four each of A..10 but 8 (1+2+...+10 - 8 = 47), three court cards at 10, an 8 at 50.
    assert sum(ce.card_points(card) for card in STANDARD_DECK) == 4 * (47 + 30 + 50)


def test_rule_17_the_winner_scores_the_cards_left_in_the_other_hands() -> None:
    state = ce.position([cards("♠3"), cards("♠K ♥8"), cards("♦2 ♦A")], c("♠9"))
    play(state, "♠3")
    result = state.result
    assert result is not None
    assert result.outcomes == (Outcome.WIN, Outcome.LOSE, Outcome.LOSE)
    assert result.scores == (63, 0, 0)
    assert result.ranking == (0, 2, 1)  # the fewest points in hand next
    assert state.view(None).points == (0, 60, 3)


@pytest.mark.parametrize(("winner", "ranking"), [(0, (0, 1, 2)), (1, (1, 2, 0))])
def test_rule_17_equal_points_rank_in_turn_order_from_the_winner(
    winner: int, ranking: tuple[int, ...]
) -> None:
    hands = [cards("♦4"), cards("♣4"), cards("♥4")]
    hands[winner] = cards("♠3")
    state = ce.position(hands, c("♠9"), current=winner)
    play(state, "♠3")
    assert state.result is not None and state.result.ranking == ranking


def test_rule_18_with_nothing_to_draw_some_player_can_always_play_and_does() -> None:
    for seed in range(200):
        rng = random.Random(seed)
        players = 2 + seed % 5
        pack = list(STANDARD_DECK)
        rng.shuffle(pack)
        top, held = pack[0], pack[1:]
        cuts = sorted(rng.sample(range(1, len(held)), players - 1))
        hands = [held[a:b] for a, b in zip([0, *cuts], [*cuts, len(held)], strict=True)]
        state = ce.position(hands, top, current=rng.randrange(players))
        assert not state.view(None).can_draw
        for _ in range(players):  # within one round somebody plays
            seat = state.current_seat
            assert seat is not None
            legal = state.legal_actions(seat)
            if legal == [ce.Pass()]:
                state.apply(seat, ce.Pass())
                continue
            assert ce.Pass() not in legal and ce.Draw() not in legal
            state.apply(seat, legal[0])
            break
        else:
            raise AssertionError(f"nobody could play: seed {seed}")


def test_rule_19_a_player_who_leaves_shuffles_their_cards_into_the_stock() -> None:
    state = ce.position(
        [cards("♠3 ♦4"), cards("♥6 ♥7"), cards("♥2 ♦8 ♦9")], c("♠9"), stock=cards("♣2 ♣3")
    )
    before = state.stock()
    events = state.forfeit(0)  # on its turn: the next seat moves
    assert events == [ce.Forfeited(0, 2)]
    assert state.current_seat == 1 and state.hand(0) == ()
    assert sorted(state.stock(), key=hash) == sorted((*before, *cards("♠3 ♦4")), key=hash)
    places = set()
    for seed in range(20):
        hands = [cards("♠3 ♦4"), cards("♥6 ♥7"), cards("♥2 ♦8 ♦9")]
        shuffled = ce.position(hands, c("♠9"), seed=seed)
        shuffled.forfeit(0)
        places.add(shuffled.stock().index(c("♠3")))
    assert len(places) > 10  # shuffled in, not put on top or under
    assert state.view(None).playing == (False, True, True)
    act(state, ce.Draw())
    with pytest.raises(IllegalAction) as error:
        state.forfeit(0)
    assert error.value.code == "not_playing"


def test_rule_19_the_last_player_left_wins_and_those_who_left_rank_last() -> None:
    state = ce.position([cards("♠3"), cards("♥6 ♥7"), cards("♥2 ♦8")], c("♠9"), current=2)
    state.forfeit(1)
    assert state.current_seat == 2  # another seat's leaving keeps the turn
    events = state.forfeit(2)
    assert isinstance(events[-1], GameOver)
    result = state.result
    assert result is not None
    assert result.winners == (0,) and result.scores == (0, 0, 0)
    assert result.ranking == (0, 2, 1)  # the last to leave before the first
