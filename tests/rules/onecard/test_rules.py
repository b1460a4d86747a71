"""One test (or a few) per numbered rule of docs/rules/onecard.md."""

from __future__ import annotations

import pytest

import rules.onecard as oc
from rules.cards import FULL_DECK, Card, Suit, parse_card
from rules.engine import GameOver, IllegalAction, Outcome
from rules.onecard.ai import choose_action


def cards(text: str) -> list[Card]:
    """``"♠2 ♦4 JKB"`` -> cards."""
    return [parse_card(t) for t in text.split()]


def c(text: str) -> Card:
    return parse_card(text)


def fill(hands: list[list[Card]], open_card: Card, keep: int, *, into: int) -> list[list[Card]]:
    """Move cards from the main deck into seat ``into`` until only ``keep`` remain there."""
    used = {open_card, *(x for h in hands for x in h)}
    spare = [x for x in FULL_DECK if x not in used]
    hands = [list(h) for h in hands]
    hands[into].extend(spare[: len(spare) - keep])
    return hands


def play(state: oc.State, text: str, suit: Suit | None = None) -> list[object]:
    seat = state.current_seat
    assert seat is not None
    return list(state.apply(seat, oc.PlayCard(c(text), suit)))


def take(state: oc.State) -> list[object]:
    seat = state.current_seat
    assert seat is not None
    return list(state.apply(seat, oc.Take()))


def legal_cards(state: oc.State) -> set[str]:
    seat = state.current_seat
    assert seat is not None
    return {a.card.code for a in state.legal_actions(seat) if isinstance(a, oc.PlayCard)}


def total_cards(state: oc.State) -> list[Card]:
    return [*state.main_deck(), *(x for s in range(state.players) for x in state.hand(s))]


# ---------------------------------------------------------------- cards and players


def test_rule_1_fifty_four_cards_with_two_jokers() -> None:
    state = oc.new(4, seed=1)
    everything = total_cards(state)
    assert len(everything) == 54
    assert set(everything) == set(FULL_DECK)
    assert c("JKB") in everything and c("JKC") in everything


@pytest.mark.parametrize("players", [1, 5, 0])
def test_rule_2_two_to_four_players(players: int) -> None:
    with pytest.raises(IllegalAction, match="between 2 and 4"):
        oc.new(players, seed=1)


def test_rule_2_players_are_named_a_to_d() -> None:
    assert oc.NAMES == "ABCD"
    assert oc.new(2, seed=1).players == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_3_deal_five_open_one_a_first_rightwards(players: int) -> None:
    state = oc.new(players, seed=7)
    assert [len(state.hand(s)) for s in range(players)] == [5] * players
    assert len(state.main_deck()) == 54 - 5 * players
    assert state.current_seat == 0
    assert state.direction == 1
    assert state.next_seat() == 1
    assert state.offense == 0


def test_rule_4_seeded_games_repeat_and_seeds_differ() -> None:
    a, b = oc.new(4, seed=42), oc.new(4, seed=42)
    assert [a.hand(s) for s in range(4)] == [b.hand(s) for s in range(4)]
    assert a.main_deck() == b.main_deck()
    deals = {tuple(oc.new(4, seed=s).hand(0)) for s in range(20)}
    assert len(deals) == 20
    assert oc.new(2).hand(0) != oc.new(2).hand(0) or oc.new(2).hand(1) != oc.new(2).hand(1)


# ---------------------------------------------------------------- the main deck


def test_rule_5_played_cards_join_the_main_deck() -> None:
    state = oc.position([cards("♠3 ♥4"), cards("♥5 ♦6")], c("♠9"))
    before = len(state.main_deck())
    play(state, "♠3")
    assert len(state.main_deck()) == before + 1
    assert state.main_deck()[0] == c("♠3")
    assert c("♠9") in state.main_deck()


def test_rule_6_draws_are_random_and_never_take_the_open_card() -> None:
    drawn = set()
    for seed in range(40):
        hands = fill([cards("♥4"), cards("♥5")], c("♠9"), 3, into=1)
        state = oc.position(hands, c("♠9"), seed=seed)
        state.apply(0, oc.Take())
        new_card = state.hand(0)[-1]
        assert new_card != c("♠9")
        drawn.add(new_card)
    assert len(drawn) == 3  # each of the three takeable cards came up


def test_rule_6_taking_everything_leaves_the_open_card() -> None:
    hands = fill([cards("♥4"), cards("♥5")], c("♠9"), 4, into=1)
    state = oc.position(hands, c("♠9"), offense=5, suit=Suit.SPADES)
    take(state)
    assert state.main_deck() == (c("♠9"),)
    assert c("♠9") not in state.hand(0)


def test_rule_7_cards_are_conserved_through_a_game() -> None:
    state = oc.new(3, seed=3)
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        state.apply(seat, choose_action(state.view(seat)))
        everything = total_cards(state)
        assert len(everything) == 54 and set(everything) == set(FULL_DECK)


# ---------------------------------------------------------------- a normal turn


def test_rule_8_match_suit_or_rank_or_any_joker() -> None:
    state = oc.position([cards("♠3 ♥9 ♦4 JKB JKC ♣K"), cards("♥5")], c("♠9"))
    assert legal_cards(state) == {"♠3", "♥9", "JKB", "JKC"}
    with pytest.raises(
        IllegalAction, match=r"♦4 does not match: play a ♠ card, another 9 or a joker"
    ):
        play(state, "♦4")


def test_rule_8_picture_cards_match_by_rank() -> None:
    state = oc.position([cards("♥K ♥Q ♦J"), cards("♥5")], c("♣K"))
    assert legal_cards(state) == {"♥K"}


def test_rule_9_after_a_seven_the_chosen_suit_or_a_seven() -> None:
    state = oc.position([cards("♠7 ♠3"), cards("♠4 ♦4 ♥7 ♣2")], c("♠9"))
    events = play(state, "♠7", Suit.DIAMONDS)
    assert oc.SuitChosen(0, Suit.DIAMONDS) in events
    assert legal_cards(state) == {"♦4", "♥7"}
    assert state.view(None).suits == (Suit.DIAMONDS,)


def test_rule_9_keeping_the_same_suit_is_allowed() -> None:
    state = oc.position([cards("♠7 ♠3"), cards("♠4 ♦4")], c("♠9"))
    play(state, "♠7", Suit.SPADES)
    assert legal_cards(state) == {"♠4"}


def test_rule_9_a_seven_needs_a_suit_and_others_must_not_name_one() -> None:
    state = oc.position([cards("♠7 ♠3"), cards("♠4")], c("♠9"))
    with pytest.raises(IllegalAction, match="Choose the suit"):
        play(state, "♠7")
    with pytest.raises(IllegalAction, match="Only a 7"):
        play(state, "♠3", Suit.HEARTS)
    # Each 7 is offered once per suit.
    sevens = [a for a in state.legal_actions(0) if isinstance(a, oc.PlayCard) and a.suit]
    assert {a.suit for a in sevens} == {Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS}


def test_rule_10_open_black_joker_takes_spades_or_clubs() -> None:
    state = oc.position([cards("♠4 ♣5 ♥6 ♦7 JKC"), cards("♥5")], c("JKB"))
    assert legal_cards(state) == {"♠4", "♣5", "JKC"}
    assert state.view(0).suits == (Suit.SPADES, Suit.CLUBS)


def test_rule_10_open_colour_joker_takes_hearts_or_diamonds() -> None:
    state = oc.position([cards("♠4 ♣5 ♥6 ♦7 JKB"), cards("♥5")], c("JKC"))
    assert legal_cards(state) == {"♥6", "♦7", "JKB"}


def test_rule_10_joker_colours_after_an_absorbed_joker_attack() -> None:
    state = oc.position(
        [cards("JKB ♠2"), cards("♥3 ♦3 ♣3"), cards("♠5 ♥5 ♣6 ♥9")], c("♠9")
    )  # A attacks B with JK B; B takes 7; C must then play ♠ or ♣.
    play(state, "JKB")
    take(state)
    assert state.offense == 0 and state.current_seat == 2
    assert legal_cards(state) == {"♠5", "♣6"}


def test_rule_11_take_is_always_allowed() -> None:
    state = oc.position([cards("♠3"), cards("♥5")], c("♠9"))
    assert oc.Take() in state.legal_actions(0)
    events = take(state)
    assert events == [oc.CardsTaken(0, 1)]
    assert len(state.hand(0)) == 2 and state.current_seat == 1


def test_rule_11_nothing_playable_means_take() -> None:
    state = oc.position([cards("♥3 ♦4"), cards("♥5")], c("♠9"))
    assert state.legal_actions(0) == [oc.Take()]


def test_rule_12_empty_main_deck_take_gives_nothing() -> None:
    hands = fill([cards("♥3"), cards("♥5")], c("♠9"), 0, into=1)
    state = oc.position(hands, c("♠9"))
    events = take(state)
    assert events == [oc.EmptyDeck(0)]
    assert len(state.hand(0)) == 1 and state.current_seat == 1


# ---------------------------------------------------------------- attack cards


@pytest.mark.parametrize(
    ("card", "value"),
    [("♣2", 2), ("♥2", 2), ("♥A", 3), ("♣A", 3), ("♠A", 5), ("JKB", 7), ("JKC", 10)],
)
def test_rule_13_attack_values(card: str, value: int) -> None:
    assert oc.attack_value(c(card)) == value
    suit = c(card).suit
    open_card = c("♦9") if c(card).is_joker else Card.of(suit, 9)
    state = oc.position([[c(card), c("♦4")], cards("♥5")], open_card)
    events = play(state, card)
    assert events[-1] == oc.Attack(0, 1, 0, value)
    assert state.offense == value


def test_rule_13_non_attack_cards_are_worth_nothing() -> None:
    assert {oc.attack_value(x) for x in cards("♠3 ♥7 ♦J ♣Q ♠K ♥10")} == {0}


def test_rule_14_attack_chain_adds_up_and_take_4() -> None:
    state = oc.position([cards("♣2 ♦4 ♦5"), cards("♠2 ♥6 ♥7"), cards("♥2 ♦8")], c("♣3"))
    assert play(state, "♣2")[1] == oc.Attack(0, 1, 0, 2)
    assert state.current_seat == 1 and state.offense == 2
    assert play(state, "♠2")[1] == oc.Attack(1, 2, 2, 2)
    assert state.offense == 4
    events = take(state)
    assert events[0] == oc.AttackTaken(2, 4, 4)
    assert len(state.hand(2)) == 6 and state.offense == 0 and state.current_seat == 0


def test_rule_14_spade_ace_is_five() -> None:
    state = oc.position([cards("♠A ♦4"), cards("♥A ♥6"), cards("♥2 ♦8")], c("♠3"))
    play(state, "♠A")
    play(state, "♥A")
    assert state.offense == 8


def test_rule_15_against_a_two() -> None:
    state = oc.position([cards("♣2 ♦4"), cards("♠2 ♣A ♥A ♣6 JKB JKC ♠A"), cards("♥3")], c("♣3"))
    play(state, "♣2")
    assert legal_cards(state) == {"♠2", "♣A", "JKB", "JKC"}
    with pytest.raises(IllegalAction) as refused:
        play(state, "♣6")
    assert refused.value.reason == (
        "Under attack you can only defend with a 2, the ♣A or a joker, or take 2 cards."
    )
    assert refused.value.code == "must_defend"


def test_rule_15_against_an_ace() -> None:
    state = oc.position([cards("♥A ♦4"), cards("♠A ♣2 ♥2 JKB ♥6"), cards("♦3")], c("♥3"))
    play(state, "♥A")
    assert legal_cards(state) == {"♠A", "JKB"}
    with pytest.raises(IllegalAction, match="an A or a joker, or take 3 cards") as refused:
        play(state, "♥2")
    assert refused.value.code == "must_defend_ace"


def test_rule_15_black_joker_answered_only_by_colour_joker() -> None:
    state = oc.position([cards("JKB ♦4"), cards("JKC ♠2 ♠A ♣A"), cards("♥3")], c("♠3"))
    play(state, "JKB")
    assert legal_cards(state) == {"JKC"}
    with pytest.raises(IllegalAction, match="only defend with the JKC, or take 7 cards") as refused:
        play(state, "♠A")
    assert refused.value.code == "must_defend_joker"
    play(state, "JKC")
    assert state.offense == 17


def test_rule_15_colour_joker_answered_only_by_black_joker() -> None:
    state = oc.position([cards("JKC ♦4"), cards("JKB ♥2 ♥A"), cards("♦3")], c("♥3"))
    play(state, "JKC")
    assert legal_cards(state) == {"JKB"}


def test_rule_16_penalty_short_deck_takes_what_is_left() -> None:
    hands = fill([cards("♠A ♦4"), cards("♥6 ♥7")], c("♠3"), 3, into=0)
    state = oc.position(hands, c("♠3"))
    play(state, "♠A")
    deck_left = len(state.main_deck()) - 1
    events = take(state)
    assert events[:2] == [
        oc.AttackTaken(1, 5, deck_left),
        oc.ShortDeck(1, 5, deck_left),
    ]
    assert state.main_deck() == (c("♠A"),) and state.offense == 0


def test_rule_16_penalty_with_empty_deck() -> None:
    hands = fill([cards("♥6 ♥7"), cards("♦4")], c("♠A"), 0, into=1)
    state = oc.position(hands, c("♠A"), offense=5)
    events = take(state)
    assert events == [oc.AttackTaken(0, 5, 0), oc.EmptyDeck(0)]
    assert state.offense == 0 and len(state.hand(0)) == 2 and state.current_seat == 1


def test_rule_17_after_the_penalty_play_normally() -> None:
    state = oc.position([cards("♣2 ♦4"), cards("♥6"), cards("♣9 ♥9 ♥2")], c("♣3"))
    play(state, "♣2")
    take(state)
    assert legal_cards(state) == {"♣9", "♥2"}


# ---------------------------------------------------------------- special cards


def test_rule_18_jack_skips_one() -> None:
    state = oc.position([cards("♠5 ♠J ♥5"), cards("♠6"), cards("♠7"), cards("♠10")], c("♠8"))
    events = play(state, "♠J")
    assert events == [oc.CardPlayed(0, c("♠J")), oc.Jump(0, 1, 2)]
    assert state.current_seat == 2


def test_rule_18_jack_with_two_players_plays_again() -> None:
    state = oc.position([cards("♠5 ♠J"), cards("♠6")], c("♠8"))
    assert play(state, "♠J")[-1] == oc.Jump(0, 1, 0)
    assert state.current_seat == 0


def test_rule_19_queen_reverses() -> None:
    state = oc.position([cards("♠5"), cards("♠6"), cards("♠Q ♥2"), cards("♠8")], c("♣Q"), current=2)
    events = play(state, "♠Q")
    assert events[-1] == oc.DirectionChanged(2, -1, 1)
    assert state.direction == -1 and state.current_seat == 1 and state.next_seat() == 0


def test_rule_19_queen_with_two_players_has_no_effect() -> None:
    state = oc.position([cards("♠Q ♥5 ♥6"), cards("♠6")], c("♠8"))
    events = play(state, "♠Q")
    assert events == [oc.CardPlayed(0, c("♠Q"))]
    assert state.direction == 1 and state.current_seat == 1


def test_rule_19_queen_with_two_players_left_of_three_has_no_effect() -> None:
    # Decision: two players still in the game play as two players, whoever went out.
    state = oc.position([cards("♠Q ♥5 ♥6"), cards("♠6 ♥9"), []], c("♠8"), out=[2])
    events = play(state, "♠Q")
    assert events == [oc.CardPlayed(0, c("♠Q"))]
    assert state.direction == 1 and state.current_seat == 1
    # Two players left of four, the reverse would change nothing either: B plays next.
    state = oc.position([cards("♠Q ♥5 ♥6"), [], cards("♠6 ♥9"), []], c("♠8"), out=[1, 3])
    assert play(state, "♠Q") == [oc.CardPlayed(0, c("♠Q"))]
    assert state.direction == 1 and state.current_seat == 2 and state.next_seat() == 0


def test_rule_18_jack_with_two_players_left_of_three_plays_again() -> None:
    state = oc.position([cards("♠J ♥5 ♥6"), cards("♠6 ♥9"), []], c("♠8"), out=[2])
    events = play(state, "♠J")
    assert events[-1] == oc.Jump(0, 1, 0)
    assert state.current_seat == 0


def test_rule_20_king_plays_again() -> None:
    state = oc.position([cards("♠K ♥5"), cards("♠6"), cards("♠7")], c("♠8"))
    assert play(state, "♠K")[-1] == oc.PlayAgain(0)
    assert state.current_seat == 0


def test_rule_20_king_with_nothing_playable_must_take() -> None:
    state = oc.position([cards("♠K ♥5"), cards("♠6")], c("♠8"))
    play(state, "♠K")
    assert state.legal_actions(0) == [oc.Take()]
    take(state)
    assert state.current_seat == 1


def test_rule_20_four_kings_give_five_plays() -> None:
    state = oc.position([cards("♠K ♥K ♦K ♣K ♣5 ♥3"), cards("♠6")], c("♠8"))
    for king in ("♠K", "♥K", "♦K", "♣K", "♣5"):
        assert state.current_seat == 0
        play(state, king)
    assert state.current_seat == 1


def test_rule_21_seven_changes_the_suit() -> None:
    state = oc.position([cards("♦7 ♥3 ♥4"), cards("♣6 ♦6")], c("♦8"))
    events = play(state, "♦7", Suit.CLUBS)
    assert events == [oc.CardPlayed(0, c("♦7")), oc.SuitChosen(0, Suit.CLUBS)]
    assert legal_cards(state) == {"♣6"}


# ---------------------------------------------------------------- bankruptcy and the end


def test_rule_22_bankrupt_at_twenty_returns_cards_and_play_continues() -> None:
    big = [x for x in FULL_DECK if x.suit is Suit.HEARTS][:12] + cards("♦2 ♦3 ♦4 ♦5 ♦6 ♦7 ♦8")
    state = oc.position([cards("♠3 ♠4"), big, cards("♠5 ♠6")], c("♠9"), current=1)
    assert len(state.hand(1)) == 19
    events = take(state)
    assert events[-1] == oc.Bankrupt(1, 20)
    assert state.hand(1) == () and state.current_seat == 2
    assert state.turn_order() == (2, 0)
    assert len(state.main_deck()) == 54 - 4


def test_rule_22_nineteen_cards_is_not_bankruptcy() -> None:
    # A take that leaves 19 cards keeps the seat in play; only the 20th card bankrupts.
    big = [x for x in FULL_DECK if x.suit is Suit.HEARTS][:12] + cards("♦2 ♦3 ♦4 ♦5 ♦6 ♦7")
    state = oc.position([cards("♠3 ♠4"), big, cards("♠5 ♠6")], c("♠9"), current=1)
    events = take(state)
    assert len(state.hand(1)) == 19
    assert not any(isinstance(e, oc.Bankrupt) for e in events)
    assert state.turn_order() == (2, 0, 1)
    assert not state.view(None).bankrupt[1]


def test_rule_22_a_penalty_reaching_nineteen_is_not_bankruptcy() -> None:
    state = oc.position(
        [cards("♠3 ♠4"), [x for x in FULL_DECK if x.suit is Suit.HEARTS][:12], cards("♠5")],
        c("♠2"),
        current=1,
        offense=7,
    )
    events = take(state)
    assert events == [oc.AttackTaken(1, 7, 7)]
    assert len(state.hand(1)) == 19 and state.offense == 0
    assert state.turn_order() == (2, 0, 1)


def test_rule_22_bankruptcy_mid_attack_resets_the_offense() -> None:
    # The seed's example: A plays JK B, B answers JK C, C (5 + 17 cards) goes bankrupt.
    state = oc.position([cards("JKB ♠3"), cards("JKC ♥3"), cards("♦2 ♦3 ♦4 ♦5 ♦6")], c("♠9"))
    play(state, "JKB")
    play(state, "JKC")
    events = take(state)
    assert events[0] == oc.AttackTaken(2, 17, 17)
    assert events[1] == oc.Bankrupt(2, 22)
    assert state.offense == 0 and state.current_seat == 0
    # The colour joker is open, so A plays ♥ or ♦ (rule 10).
    assert state.view(0).suits == (Suit.HEARTS, Suit.DIAMONDS)


def test_rule_23_one_card_left_is_announced() -> None:
    state = oc.position([cards("♠3 ♠4"), cards("♠5 ♠6")], c("♠9"))
    assert oc.OneCard(0) in play(state, "♠3")


def test_rule_24_empty_hand_wins_even_with_an_attack_card() -> None:
    state = oc.position([cards("♠2"), cards("♠5 ♠6"), cards("♥5")], c("♠9"))
    events = play(state, "♠2")
    assert isinstance(events[-1], GameOver)
    assert not any(isinstance(e, oc.Attack) for e in events)
    result = state.result
    assert result is not None and result.winners == (0,)
    assert result.ranking == (0, 2, 1)  # then by fewest cards
    assert result.outcomes[1] is Outcome.LOSE
    assert state.is_over and state.current_seat is None and state.legal_actions(1) == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(1, oc.Take())


def test_rule_24_last_survivor_wins() -> None:
    big = [x for x in FULL_DECK if x.suit is Suit.HEARTS][:12] + cards("♦2 ♦3 ♦4 ♦5 ♦6 ♦7 ♦8")
    state = oc.position([cards("♠3 ♠4"), big], c("♠9"), current=1)
    events = take(state)
    assert isinstance(events[-1], GameOver)
    assert state.result is not None and state.result.ranking == (0, 1)


def test_rule_24_a_winner_with_a_bankrupt_seat_ranks_it_last_with_its_cards() -> None:
    big = [x for x in FULL_DECK if x.suit is Suit.HEARTS][:12] + cards("♦2 ♦3 ♦4 ♦5 ♦6 ♦7 ♦8")
    state = oc.position([cards("♠3 ♠4"), big, cards("♠5 ♠6 ♠7")], c("♠9"), current=1)
    take(state)  # B: 20 cards, bankrupt (rule 22)
    play(state, "♠5")
    play(state, "♠3")
    play(state, "♠6")
    assert state.result is None
    events = play(state, "♠4")
    assert isinstance(events[-1], GameOver)
    result = state.result
    assert result is not None and result.winners == (0,)
    assert result.ranking == (0, 2, 1)
    # B held 20 cards when it went out: not the winner's 0.
    assert result.scores == (0, 20, 1)


def test_rule_24_several_seats_out_rank_after_those_playing_last_out_first() -> None:
    big = [x for x in FULL_DECK if x.suit is Suit.HEARTS][:12] + cards("♦2 ♦3 ♦4 ♦5 ♦6 ♦7 ♦8")
    state = oc.position(
        [cards("♠3 ♠4"), big, cards("♠5 ♠6 ♠7 ♠8"), cards("♣2 ♣3 ♣4")], c("♠9"), current=1
    )
    take(state)  # B goes bankrupt with 20
    state.forfeit(3)  # D leaves holding 3
    play(state, "♠5")
    play(state, "♠3")
    play(state, "♠6")
    play(state, "♠4")
    result = state.result
    assert result is not None
    assert result.ranking == (0, 2, 3, 1)
    assert result.scores == (0, 20, 2, 3)
    # The same result survives a snapshot.
    restored = oc.restore(state.snapshot()).result
    assert restored == result


def test_rule_24_the_last_survivor_scores_the_cards_it_holds() -> None:
    big = [x for x in FULL_DECK if x.suit is Suit.HEARTS][:12] + cards("♦2 ♦3 ♦4 ♦5 ♦6 ♦7 ♦8")
    state = oc.position([cards("♠3 ♠4"), big, cards("♠5")], c("♠9"), current=1)
    state.forfeit(2)
    take(state)
    result = state.result
    assert result is not None and result.winners == (0,)
    assert result.ranking == (0, 1, 2)
    assert result.scores == (2, 20, 1)


def test_rule_25_invalid_choice_changes_nothing() -> None:
    state = oc.position([cards("♥3 ♠4"), cards("♠5")], c("♠9"))
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="does not match"):
        play(state, "♥3")
    with pytest.raises(IllegalAction, match="You don't have ♣3"):
        play(state, "♣3")
    with pytest.raises(IllegalAction, match="not your turn: Player A"):
        state.apply(1, oc.Take())
    assert state.snapshot() == before


@pytest.mark.parametrize(
    ("open_card", "refused", "reason"),
    [
        ("♥A", "♠5", "♠5 does not match: play a ♥ card, another A or a joker, or take a card."),
        ("♦8", "♠5", "♠5 does not match: play a ♦ card, another 8 or a joker, or take a card."),
        ("JKB", "♥5", "♥5 does not match: play a ♠ or ♣ card or a joker, or take a card."),
        ("JKC", "♠5", "♠5 does not match: play a ♥ or ♦ card or a joker, or take a card."),
    ],
)
def test_rule_25_a_refusal_says_what_would_match(open_card: str, refused: str, reason: str) -> None:
    state = oc.position([cards(refused), cards("♣3")], c(open_card))
    with pytest.raises(IllegalAction) as caught:
        play(state, refused)
    assert caught.value.reason == reason


def test_rule_26_the_public_table() -> None:
    state = oc.position(
        [cards("♣2 ♦4"), cards("♠2"), cards("♥2 ♦8 ♦9"), cards("♦5")], c("♣3"), current=0
    )
    play(state, "♣2")
    view = state.view(None)
    assert view.phase == 2
    assert view.deck_count == 54 - 6
    assert view.counts == (1, 1, 3, 1)
    assert view.order == (1, 2, 3, 0)
    assert (view.current, view.next_seat, view.direction, view.offense) == (1, 2, 1, 2)
    assert view.open_card == c("♣2") and view.suits == (Suit.CLUBS,)


def test_rule_27_hands_are_private() -> None:
    state = oc.new(3, seed=5)
    mine = state.view(1)
    assert mine.hand == state.hand(1)
    assert state.view(None).hand is None
    public = repr(state.view(None))
    for seat in range(3):
        for card in state.hand(seat):
            assert repr(card) not in public
    assert mine.playable == ()  # not B's turn
