"""What the table saw a player lack (``OneCardView.unfit``), and the hard player's worlds
that keep to it: a player who took cards held nothing that played (a joker only counts
against an attack: one is worth keeping for defence)."""

from __future__ import annotations

import random

import pytest

import rules.onecard as oc
from rules.cards import FULL_DECK, Card, parse_card
from rules.engine import SnapshotError
from rules.onecard import PlayCard, Take
from rules.onecard.ai import choose_action
from rules.onecard.search import sample_world
from rules.onecard.state import OneCardView, playable_mask


def cards(text: str) -> list[Card]:
    return [parse_card(t) for t in text.split()]


def _mask_of(text: str) -> int:
    return sum(1 << card.index for card in cards(text))


def test_taking_marks_the_cards_held_before_the_draw() -> None:
    state = oc.position([cards("♥3 ♦4 JKB"), cards("♠9 ♠5")], parse_card("♠8"))
    assert state.view(1).unfit == ()
    state.apply(0, Take())
    mask = playable_mask(parse_card("♠8").index, 0, 0) & ~_mask_of("JKB JKC")
    # Seen by everyone, the seat itself and spectators alike: it took in public.
    assert state.view(1).unfit == ((mask, 3), None)
    assert state.view(None).unfit == state.view(0).unfit == state.view(1).unfit


def test_taking_an_attack_marks_every_defence_jokers_too() -> None:
    state = oc.position([cards("♥3 ♦4"), cards("♠9 JKB")], parse_card("♠2"), offense=2)
    state.apply(0, Take())
    known = state.view(1).unfit[0]
    assert known == (playable_mask(parse_card("♠2").index, 0, 2), 2)
    assert (known[0] >> parse_card("JKB").index) & 1


def test_a_card_of_the_mask_was_taken_later() -> None:
    # The first seed whose card taken is a spade, which plays on ♠9.
    for seed in range(100):
        state = oc.position([cards("♥3 ♦4 ♥9"), cards("♠9 ♥5")], parse_card("♠8"), seed=seed)
        state.apply(0, Take())
        taken = state.hand(0)[-1]
        # Not a 7: it would need a suit named; not an A: it would attack.
        if taken.suit.value == "♠" and taken.rank.label not in ("7", "A"):
            break
    known = state.view(0).unfit[0]
    assert known is not None and known[1] == 3 and (known[0] >> taken.index) & 1
    state.apply(1, PlayCard(parse_card("♠9")))
    state.apply(0, PlayCard(taken))  # fits ♠8 too: taken since, so all three still known
    assert state.view(0).unfit[0] == (known[0], 3)


def test_a_card_outside_the_mask_counts_down() -> None:
    state = oc.position([cards("♥3 ♦4 ♥9"), cards("♠9 ♥5")], parse_card("♠8"))
    state.apply(0, Take())
    known = state.view(0).unfit[0]
    assert known is not None and known[1] == 3
    state.apply(1, PlayCard(parse_card("♠9")))
    state.apply(0, PlayCard(parse_card("♥9")))  # a 9: one of the three may be gone
    assert state.view(0).unfit[0] == (known[0], 2)


def test_going_out_forgets_the_hand() -> None:
    state = oc.position([cards("♥3 ♦4"), cards("♠9 ♠5"), cards("♠10 ♠J")], parse_card("♠8"))
    state.apply(0, Take())
    assert state.view(1).unfit != ()
    state.forfeit(0)
    assert state.view(1).unfit == ()


def test_snapshots_keep_it_and_older_snapshots_restore_without_it() -> None:
    state = oc.position([cards("♥3 ♦4"), cards("♠9 ♠5")], parse_card("♠8"))
    state.apply(0, Take())
    snapshot = state.snapshot()
    assert oc.restore(snapshot).view(1) == state.view(1)
    older = {key: value for key, value in snapshot.items() if key != "unfit"}
    assert oc.restore(older).view(1).unfit == ()


@pytest.mark.parametrize(
    "unfit", [[[5, 3]], [[5, 3], None, None], [[-1, 3], None], [[5, 4], None], [[5, 0], None]]
)
def test_a_damaged_record_of_it_is_refused(unfit: list[object]) -> None:
    # Too few or too many seats, no such mask, more cards than the hand (three after the
    # take), none at all.
    state = oc.position([cards("♥3 ♦4"), cards("♠9 ♠5")], parse_card("♠8"))
    state.apply(0, Take())
    with pytest.raises(SnapshotError, match="table saw"):
        oc.restore({**state.snapshot(), "unfit": unfit})


def test_taking_from_an_empty_deck_marks_the_whole_hand() -> None:
    state = oc.position([cards("♥3 ♦4"), cards("♠9 ♠5")], parse_card("♠8"))
    state._deck.clear()  # rule 12: nothing to take, the turn passes
    state.apply(0, Take())
    assert state.view(1).unfit[0] == (
        playable_mask(parse_card("♠8").index, 0, 0) & ~_mask_of("JKB JKC"),
        2,
    )


def test_going_bankrupt_forgets_the_hand() -> None:
    many = cards("♥2 ♥3 ♥4 ♥5 ♥6 ♥7 ♥8 ♥9 ♥10 ♥J ♥Q ♥K ♥A ♦2 ♦3 ♦4 ♦5 ♦6 ♦7")
    state = oc.position([many, cards("♠9 ♠5"), cards("♠10 ♠J")], parse_card("♠8"))
    state.apply(0, Take())  # past the limit: out of the game (rule 22)
    assert state.view(1).bankrupt[0]
    assert state.view(1).unfit == ()


def _taken_position() -> tuple[OneCardView, int, tuple[int, int]]:
    """A view of a seeded heads-up game just after the other seat took holding 4 cards,
    that seat and what is known of it."""
    for seed in range(300):
        state = oc.new(2, seed=seed)
        for _ in range(60):
            if state.is_over:
                break
            seat = state.current_seat
            assert seat is not None
            view = state.view(seat)
            known = view.unfit[1 - seat] if view.unfit else None
            if known is not None and known[1] >= 4 and view.deck_count > 15:
                return view, 1 - seat, known
            state.apply(seat, choose_action(view))
    raise AssertionError("no game had a player take holding four cards")


def test_worlds_deal_a_player_who_took_nothing_that_played() -> None:
    view, other, (mask, count) = _taken_position()
    assert view.seat is not None
    rng = random.Random(3)
    for _ in range(300):
        world = sample_world(view, rng)()
        assert world.view(view.seat) == view
        fitting = [i for i in world.hand(other) if (mask >> i.index) & 1]
        assert len(fitting) <= view.counts[other] - count


def test_worlds_deal_the_cards_outside_the_mask_alike() -> None:
    view, other, (mask, count) = _taken_position()
    assert view.seat is not None
    seen = {card.index for card in view.hand or ()} | {view.open_card.index}
    outside = [i for i in range(54) if i not in seen and not (mask >> i) & 1]
    assert len(outside) > 15
    rng = random.Random(9)
    worlds = 3_000
    held = dict.fromkeys(outside, 0)
    for _ in range(worlds):
        for card in sample_world(view, rng)().hand(other):
            if card.index in held:
                held[card.index] += 1
    total = sum(held.values())
    assert total >= worlds * count
    expected = total / len(outside)
    for index, times in held.items():
        assert abs(times - expected) < 5 * (expected + 1) ** 0.5, FULL_DECK[index].code
