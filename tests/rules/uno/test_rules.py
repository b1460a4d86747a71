"""One test (or more) per numbered rule of docs/rules/uno.md, on tables dealt by hand: the
cards and the deal, the official ruleset (rules 1-10), a blocked table, and the contract.

The seed ruleset (rules 11-14) is in test_seed_rules.py, the house rules (15-18) in
test_house_rules.py."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest

from rules.engine import Action, GameOver, IllegalAction, Outcome
from rules.uno import (
    CallUno,
    CardsDrawn,
    CatchUno,
    Challenge,
    ChallengeResolved,
    ChooseColour,
    DirectionChanged,
    Draw,
    FirstCard,
    Pass,
    Play,
    Reshuffled,
    Skipped,
    UnoAnnounced,
    UnoCaught,
    deal,
    new,
)
from rules.uno.cards import CARD_CODES, CARD_RANK, DECK_SIZE
from tests.rules.uno.conftest import Rig
from tests.rules.uno.helpers import BLUE, GREEN, RED, YELLOW, all_cards, hand, top

# -- cards and deal ------------------------------------------------------------------------


def test_rule_1_deck_has_108_cards_in_the_right_mix() -> None:
    counts = Counter(CARD_CODES)
    assert DECK_SIZE == 108 == sum(counts.values())
    for colour in ("red", "green", "blue", "yellow"):
        assert counts[f"{colour}_0"] == 1
        for rank in (*map(str, range(1, 10)), "+2", "R", "S"):
            assert counts[f"{colour}_{rank}"] == 2
    assert counts["none_W"] == 4
    assert counts["none_W+4"] == 4
    assert len(counts) == 4 * 13 + 2


@pytest.mark.parametrize("players", range(2, 11))
def test_rule_2_deal_seven_each_to_2_to_10_players(players: int) -> None:
    state = new(players, seed=players)
    assert [len(h) for h in state.hands] == [7] * players
    assert len(state.discard) == 1
    assert len(state.pile) == 108 - 7 * players - 1
    assert all_cards(state) == list(range(108))


def test_rule_2_random_starting_player_and_player_limits() -> None:
    starts = {new(4, seed=s, options={"ruleset": "seed"}).turn for s in range(60)}
    assert starts == {0, 1, 2, 3}
    for bad in (1, 11, 0):
        with pytest.raises(ValueError, match="2 to 10"):
            new(bad)


def test_rule_3_empty_draw_pile_reshuffles_discards_under_the_top(rig: Rig) -> None:
    state = rig([["red_1", "blue_2"], ["green_3"]], "red_5")
    under = state.pile[:]
    state.discard = [*under[:-1], state.discard[0]]  # everything else is discarded
    state.pile = [under[-1]]
    top_before = state.top
    state.apply(0, Draw())  # takes the last card
    assert state.phase == 0 or state.pile == []
    if state.phase == 1:
        state.apply(0, Pass())
    events = state.apply(1, Draw())
    assert any(isinstance(e, Reshuffled) for e in events)
    assert state.top == top_before
    assert len(state.discard) == 1
    assert all_cards(state) == list(range(108))


def test_rule_3_nothing_to_draw_gives_nothing(rig: Rig) -> None:
    state = rig([["red_1", "blue_2"], ["green_3"]], "yellow_5")
    rest = state.pile
    state.pile = []
    state.hands[1] += rest  # every other card is held
    events = state.apply(0, Draw())
    assert ("CardsDrawn", 0) in [(type(e).__name__, getattr(e, "count", None)) for e in events]
    assert state.turn == 1
    assert all_cards(state) == list(range(108))


# -- official ruleset ----------------------------------------------------------------------


def test_rule_4_first_card_skip_skips_the_first_player(rig: Rig) -> None:
    state = rig([["red_1"], ["red_2"], ["red_3"]], first="red_S", turn=0)
    assert state.turn == 1
    assert top(state) == "red_S"


def test_rule_4_first_card_draw_two_draws_and_skips(rig: Rig) -> None:
    state = rig([["red_1"], ["red_2"], ["red_3"]], first="blue_+2", turn=1)
    assert len(state.hands[1]) == 3
    assert state.turn == 2


def test_rule_4_first_card_reverse(rig: Rig) -> None:
    three = rig([["red_1"], ["green_2"], ["red_3"]], first="green_R", turn=1)
    assert three.direction == -1
    assert three.turn == 1
    three.apply(1, Play(0))
    assert three.turn == 0
    two = rig([["red_1"], ["red_2"]], first="green_R", turn=0)
    assert two.turn == 1  # with two players it acts as a skip


def test_rule_4_first_card_wild_first_player_names_colour_then_plays(rig: Rig) -> None:
    state = rig([["blue_1", "red_9"], ["red_2"]], first="none_W", turn=0)
    assert state.legal_actions(0) == tuple(ChooseColour(c) for c in range(4))
    with pytest.raises(IllegalAction):
        state.apply(0, Play(0))
    state.apply(0, ChooseColour(BLUE))
    assert top(state) == "blue_W"
    assert state.turn == 0
    state.apply(0, Play(0))
    assert top(state) == "blue_1"


def test_rule_4_first_card_wild_draw_four_goes_back(rig: Rig) -> None:
    state = rig([["blue_1"], ["red_2"]], first="none_W+4", turn=0)
    assert CARD_RANK[state.top] != 14
    assert all_cards(state) == list(range(108))


@pytest.mark.parametrize("ruleset", ["official", "seed"])
def test_rule_4_the_deal_says_what_the_first_card_did(ruleset: str) -> None:
    seen = set()
    for seed in range(400):
        state, events = deal(3, seed=seed, options={"ruleset": ruleset})
        assert state.snapshot() == new(3, seed=seed, options={"ruleset": ruleset}).snapshot()
        first = events[0]
        assert isinstance(first, FirstCard) and first.card == CARD_CODES[state.discard[0]]
        rank = first.card.partition("_")[2]
        acts = ruleset == "official" and rank in ("S", "R", "+2", "W")
        assert first.effect is acts
        expected: list[object] = []
        if acts and rank == "S":
            expected = [Skipped(first.seat)]
        elif acts and rank == "+2":
            expected = [CardsDrawn(first.seat, 2), Skipped(first.seat)]
            assert len(state.hands[first.seat]) == 9
        elif acts and rank == "R":
            expected = [DirectionChanged(-1)]
        assert events[1:] == expected
        assert state.turn == (first.seat + (1 if expected[-1:] == [Skipped(first.seat)] else 0)) % 3
        seen.add(rank if acts else "none")
    assert seen == ({"S", "R", "+2", "W", "none"} if ruleset == "official" else {"none"})


def test_rule_5_match_colour_or_symbol_or_wild(rig: Rig) -> None:
    state = rig([["red_1", "blue_5", "green_9", "none_W", "yellow_+2"], ["red_2"]], "red_5")
    playable = {hand(state, 0)[a.index] for a in state.legal_actions(0) if isinstance(a, Play)}
    assert playable == {"red_1", "blue_5", "none_W"}
    before = state.snapshot()
    with pytest.raises(IllegalAction, match="matches neither"):
        state.apply(0, Play(2))
    assert state.snapshot() == before  # refused: nothing changed
    state.apply(0, Play(3, YELLOW))
    assert top(state) == "yellow_W"


def test_rule_5_wild_draw_four_without_the_colour_survives_a_challenge(rig: Rig) -> None:
    # Rule 5 is enforced by the challenge of rule 8 (see rules/uno/state.py): an honest
    # Wild Draw Four stands, and the challenger pays for doubting it.
    honest = rig([["blue_1", "none_W+4"], ["red_2"], ["blue_3"]], "red_5")
    assert Play(1, BLUE) in honest.legal_actions(0)
    honest.apply(0, Play(1, BLUE))
    assert ChallengeResolved(1, 0, False) in honest.apply(1, Challenge())
    assert len(honest.hands[0]) == 1
    assert len(honest.hands[1]) == 7


def test_rule_5_wild_draw_four_held_with_the_colour_is_a_bluff_the_challenge_catches(
    rig: Rig,
) -> None:
    # Holding red, the W+4 breaks rule 5. As at a real table it goes down unseen (rule 8's
    # penalty needs it to), and the challenge catches it: the bluffer draws the four.
    bluff = rig([["red_1", "none_W+4"], ["red_2"], ["blue_3"]], "red_5")
    assert Play(1, BLUE) in bluff.legal_actions(0)
    bluff.apply(0, Play(1, BLUE))
    assert top(bluff) == "blue_W+4"
    assert ChallengeResolved(1, 0, True) in bluff.apply(1, Challenge())
    assert len(bluff.hands[0]) == 5
    assert len(bluff.hands[1]) == 1


def test_rule_6_draw_then_play_the_drawn_card_at_once(rig: Rig) -> None:
    state = rig([["blue_1", "green_2"], ["red_2"]], "red_5", pile=["red_7"])
    state.apply(0, Draw())
    assert hand(state, 0)[-1] == "red_7"
    assert state.turn == 0
    assert set(state.legal_actions(0)) == {Play(2), Pass()}
    with pytest.raises(IllegalAction, match="only play the card you drew"):
        state.apply(0, Play(0))
    state.apply(0, Play(2))
    assert top(state) == "red_7"
    assert state.turn == 1


def test_rule_6_keep_the_drawn_card_or_unplayable_passes(rig: Rig) -> None:
    keep = rig([["blue_1"], ["red_2"]], "red_5", pile=["red_7"])
    keep.apply(0, Draw())
    keep.apply(0, Pass())
    assert keep.turn == 1
    assert hand(keep, 0) == ["blue_1", "red_7"]
    dead = rig([["blue_1"], ["red_2"]], "red_5", pile=["green_7"])
    dead.apply(0, Draw())
    assert dead.turn == 1
    with pytest.raises(IllegalAction):
        dead.apply(1, Pass())


def test_rule_7_skip_reverse_and_two_player_reverse(rig: Rig) -> None:
    skip = rig([["red_S", "red_1"], ["red_2"], ["red_3"]], "red_5")
    events = skip.apply(0, Play(0))
    assert Skipped(1) in events
    assert skip.turn == 2
    rev = rig([["red_R", "red_1"], ["red_2"], ["red_3"]], "red_5", turn=0)
    rev.apply(0, Play(0))
    assert rev.direction == -1
    assert rev.turn == 2
    duel = rig([["red_R", "red_1"], ["red_2"]], "red_5")
    duel.apply(0, Play(0))
    assert duel.turn == 0  # acts as a skip


def test_rule_7_draw_two_and_wild_draw_four(rig: Rig) -> None:
    two = rig([["red_+2", "red_1"], ["blue_2"], ["red_3"]], "red_5")
    two.apply(0, Play(0))
    assert len(two.hands[1]) == 3
    assert two.turn == 2
    wild = rig([["none_W", "red_1"], ["blue_2"]], "red_5")
    wild.apply(0, Play(0, GREEN))
    assert (top(wild), wild.turn) == ("green_W", 1)
    four = rig([["none_W+4", "blue_1"], ["blue_2"], ["red_3"]], "red_5")
    four.apply(0, Play(0, GREEN))
    assert four.turn == 1
    assert four.pending == 4
    four.apply(1, Draw())  # takes the four and is skipped
    assert len(four.hands[1]) == 5
    assert four.turn == 2


def test_rule_8_challenge_upheld_offender_draws_four(rig: Rig) -> None:
    state = rig([["none_W+4", "red_1", "blue_1"], ["blue_2"], ["red_3"]], "red_5")
    state.apply(0, Play(0, GREEN))  # holding red_1: a bluff
    assert state.pending == 4
    events = state.apply(1, Challenge())
    assert ChallengeResolved(1, 0, True) in events
    assert len(state.hands[0]) == 6
    assert len(state.hands[1]) == 1
    assert state.turn == 1  # the challenger is not skipped, and plays on green
    assert state.pending == 0
    assert top(state) == "green_W+4"
    with pytest.raises(IllegalAction):
        state.apply(1, Challenge())


def test_rule_8_challenge_refused_challenger_draws_six_and_sees_the_hand(rig: Rig) -> None:
    state = rig([["none_W+4", "blue_1"], ["blue_2"], ["red_3"]], "red_5")
    state.apply(0, Play(0, GREEN))
    assert Challenge() in state.legal_actions(1)
    events = state.apply(1, Challenge())
    assert ChallengeResolved(1, 0, False) in events
    assert len(state.hands[1]) == 7
    assert state.turn == 2
    assert state.view(1).revealed == (0, ("blue_1",))
    assert state.view(2).revealed is None
    assert state.view(None).revealed is None
    assert "blue_1" not in repr(events)


def test_rule_9_uno_is_announced_automatically(rig: Rig) -> None:
    state = rig([["red_1", "red_2"], ["blue_2", "blue_3"]], "red_5")
    events = state.apply(0, Play(0))
    assert UnoAnnounced(0) in events
    with pytest.raises(IllegalAction):
        state.apply(1, CatchUno(0))


def test_rule_9_option_uno_call_catch_and_safe_call(rig: Rig) -> None:
    state = rig([["red_1", "red_2"], ["blue_2", "blue_3"], ["green_1"]], "red_5", uno_call=True)
    events = state.apply(0, Play(0))
    assert UnoAnnounced(0) not in events
    assert CatchUno(0) in state.legal_actions(2)
    events = state.apply(2, CatchUno(0))
    assert UnoCaught(0, 2) in events
    assert len(state.hands[0]) == 3
    safe = rig([["red_1", "red_2"], ["blue_2", "blue_3"], ["green_1"]], "red_5", uno_call=True)
    safe.apply(0, CallUno())
    assert CallUno() not in safe.legal_actions(0)
    before = safe.snapshot()
    with pytest.raises(IllegalAction, match="already"):
        safe.apply(0, CallUno())
    assert safe.snapshot() == before
    assert UnoAnnounced(0) in safe.apply(0, Play(0))
    with pytest.raises(IllegalAction):
        safe.apply(2, CatchUno(0))
    nobody = rig([["red_1", "red_2"], ["blue_2"], ["green_1"]], "red_5", uno_call=True)
    before = nobody.snapshot()
    with pytest.raises(IllegalAction, match="Nobody"):
        nobody.apply(0, CatchUno(-1))  # -1 is not "nobody exposed": the last seat drew two
    assert nobody.snapshot() == before
    late = rig([["red_1", "red_2"], ["red_4", "blue_3"], ["green_1"]], "red_5", uno_call=True)
    late.apply(0, Play(0))
    late.apply(1, Play(0))  # the next player acted: too late to catch
    with pytest.raises(IllegalAction):
        late.apply(2, CatchUno(0))


def test_rule_9_option_uno_call_under_the_seed_ruleset(rig: Rig) -> None:
    state = rig(
        [["red_1", "red_2"], ["blue_2", "blue_3"], ["green_1"]],
        "red_5",
        ruleset="seed",
        uno_call=True,
    )
    assert CallUno() in state.legal_actions(0)
    events = state.apply(0, Play(0))
    assert UnoAnnounced(0) not in events
    assert UnoCaught(0, 2) in state.apply(2, CatchUno(0))
    assert len(state.hands[0]) == 3
    safe = rig(
        [["red_1", "red_2"], ["blue_2", "blue_3"], ["green_1"]],
        "red_5",
        ruleset="seed",
        uno_call=True,
    )
    safe.apply(0, CallUno())
    assert UnoAnnounced(0) in safe.apply(0, Play(0))
    assert not any(isinstance(a, CatchUno) for s in range(3) for a in safe.legal_actions(s))


def test_rule_10_go_out_on_an_action_card_and_score(rig: Rig) -> None:
    state = rig([["red_+2"], ["blue_2", "none_W", "green_S"], ["yellow_7"]], "red_5")
    events = state.apply(0, Play(0))
    assert isinstance(events[-1], GameOver)
    assert len(state.hands[1]) == 5  # the final +2 still counts
    result = state.result
    assert result is not None
    expected = sum(
        {"+2": 20, "S": 20, "R": 20, "W": 50, "W+4": 50}.get(
            CARD_CODES[c].split("_")[1], CARD_RANK[c]
        )
        for h in state.hands
        for c in h
    )
    assert result.scores[0] == expected
    assert result.outcomes[0] is Outcome.WIN
    assert result.ranking[0] == 0
    assert result.ranking[1] == 2  # yellow_7 is fewer points than seat 1's hand
    assert state.current_seat is None
    assert state.legal_actions(1) == ()
    with pytest.raises(IllegalAction, match="over"):
        state.apply(1, Draw())


# -- a blocked table ----------------------------------------------------------------------


def test_rule_3_blocked_table_ends_with_fewest_points_winning(rig: Rig) -> None:
    # Documented cap (rules/uno/state.py): nobody can play and nothing is left to draw.
    state = rig([["blue_1", "blue_2"], ["green_9", "green_3"], ["yellow_5"]], "red_5")
    state.hands[2] += state.pile  # every other card is held: nothing to draw
    state.pile = []
    for seat in (0, 1):
        state.apply(seat, Draw())
        assert not state.is_over
    playable_left = [c for c in state.hands[2] if state.playable(c)]  # seat 2 holds no play
    state.hands[0] += playable_left
    state.hands[2] = [c for c in state.hands[2] if c not in playable_left]
    events = state.apply(2, Draw())
    assert isinstance(events[-1], GameOver)
    result = state.result
    assert result is not None
    assert result.winners == (1,)  # green_9 + green_3 = 12 points, the fewest
    assert result.ranking[0] == 1


# -- the contract: what legal_actions does not list is refused ------------------------------


@pytest.mark.parametrize("ruleset", ["official", "seed"])
def test_a_colour_or_target_the_card_cannot_take_is_refused(rig: Rig, ruleset: str) -> None:
    state = rig(
        [["red_1", "none_W", "red_7", "blue_2"], ["blue_3", "blue_4"]], "red_5", ruleset=ruleset
    )
    before = state.snapshot()
    for action, reason in [
        (Play(0, BLUE), "Only a wild"),  # a colour on an ordinary card
        (Play(0, None, 1), "swaps"),  # a target without seven_zero
        (Play(2, None, 1), "swaps"),
        (Play(1, 4), "Name red, green, blue or yellow"),
        (Play(1, -1), "Name red, green, blue or yellow"),
        (Play(1, RED, 1), "swaps"),
        (Play(3, BLUE), "Only a wild"),  # refused before rule 11 could penalise it
    ]:
        assert action not in state.legal_actions(0)
        with pytest.raises(IllegalAction, match=reason):
            state.apply(0, action)
        assert state.snapshot() == before


@pytest.mark.parametrize("ruleset", ["official", "seed"])
def test_a_seven_swaps_only_with_another_seat_and_never_as_the_last_card(
    rig: Rig, ruleset: str
) -> None:
    state = rig(
        [["red_7", "red_1"], ["blue_3"], ["green_4"]], "red_5", ruleset=ruleset, seven_zero=True
    )
    before = state.snapshot()
    for target in (0, 3, -1):
        assert Play(0, None, target) not in state.legal_actions(0)
        with pytest.raises(IllegalAction, match="swap"):
            state.apply(0, Play(0, None, target))
        assert state.snapshot() == before
    last = rig([["red_7"], ["blue_3"]], "red_5", ruleset=ruleset, seven_zero=True)
    assert [a for a in last.legal_actions(0) if isinstance(a, Play)] == [Play(0)]
    with pytest.raises(IllegalAction, match="swaps"):
        last.apply(0, Play(0, None, 1))
    events = last.apply(0, Play(0))  # going out on a 7 swaps nothing
    assert isinstance(events[-1], GameOver)


def test_seed_lists_the_plays_it_accepts_without_a_colour_or_target(rig: Rig) -> None:
    state = rig(
        [["none_W", "red_7", "blue_1"], ["blue_3"]], "red_5", ruleset="seed", seven_zero=True
    )
    legal = state.legal_actions(0)
    assert Play(0) in legal  # rule 12: the colour is drawn at random
    assert Play(1) in legal  # a 7 without a target swaps with the next player
    official = rig([["none_W", "red_7", "blue_1"], ["blue_3"]], "red_5", seven_zero=True)
    assert Play(0) not in official.legal_actions(0)
    assert Play(1) not in official.legal_actions(0)


def test_a_foreign_action_is_refused_with_its_own_code(rig: Rig) -> None:
    @dataclass(frozen=True)
    class Hit(Action):
        pass

    state = rig([["red_1"], ["blue_3"]], "red_5")
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, Hit())
    # Not Blackjack's "unknown_action", which the bot's catalog words for Blackjack.
    assert refused.value.code == "not_an_uno_move"


def test_views_hide_other_hands(rig: Rig) -> None:
    state = rig([["blue_1", "red_2"], ["green_9"]], "red_5")
    mine = state.view(0)
    assert mine.hand == ("blue_1", "red_2")
    assert mine.hand_counts == (2, 1)
    assert "green_9" not in repr(mine)
    spectator = state.view(None)
    assert spectator.hand is None
    assert spectator.legal == ()
    assert "blue_1" not in repr(spectator)
    assert spectator.top == "red_5"


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown Uno option"):
        new(2, options={"stack": True})
    with pytest.raises(ValueError, match="ruleset"):
        new(2, options={"ruleset": "house"})
    state = new(2, seed=1, options={"ruleset": "seed", "jump_in": 1})
    assert state.snapshot()["options"]["jump_in"] is True
