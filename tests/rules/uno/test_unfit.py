"""What the table saw a player lack (``UnoView.unfit``), and the hard player's worlds that
keep to it: a player who drew and passed held nothing that played on that top card."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from rules.engine import SnapshotError
from rules.uno import Draw, Pass, Play, new, restore
from rules.uno.ai import choose_action
from rules.uno.cards import CARD_CODES
from rules.uno.search import sample_world
from rules.uno.state import _PLAYABLE, UnoView
from tests.rules.uno.conftest import Rig


def _fits(colour: str, rank: str, code: str) -> bool:
    c, _, r = code.partition("_")
    return c == colour or r == rank or r in ("W", "W+4")


def test_a_draw_that_does_not_fit_marks_the_whole_hand(rig: Rig) -> None:
    state = rig([["blue_1", "green_2"], ["red_9", "red_8"]], "red_5", pile=["yellow_3"])
    assert state.view(1).unfit == ()
    state.apply(0, Draw())
    assert state.turn == 1
    # Seen by everyone, the seat itself and spectators alike: it drew in public.
    assert state.view(1).unfit == (("red", "5", 3), None)
    assert state.view(None).unfit == state.view(0).unfit == state.view(1).unfit


def test_passing_on_a_drawn_card_that_fits_leaves_that_card_out(rig: Rig) -> None:
    state = rig([["blue_1", "green_2"], ["red_9", "red_8"]], "red_5", pile=["red_3"])
    state.apply(0, Draw())
    state.apply(0, Pass())
    assert state.view(1).unfit == (("red", "5", 2), None)


def test_a_card_that_fits_was_drawn_later_any_other_counts_down(rig: Rig) -> None:
    state = rig(
        [["blue_1", "green_2", "blue_7"], ["red_9", "blue_9", "green_6", "yellow_6"]],
        "red_5",
        pile=["yellow_3", "red_6", "yellow_8"],
    )
    state.apply(0, Draw())  # yellow 3: nothing of four cards fits red 5
    assert state.view(0).unfit == (("red", "5", 4), None)
    state.apply(1, Play(0))  # red 9
    state.apply(0, Draw())  # red 6 plays on red 9
    state.apply(0, Play(4))
    # Red 6 fits red 5: it was drawn since, so all four it holds are still known.
    assert state.view(0).unfit == (("red", "5", 4), None)
    state.apply(1, Play(1))  # green 6
    state.apply(0, Play(1))  # green 2 may have been one of the four
    assert state.view(0).unfit == (("red", "5", 3), None)
    state.apply(1, Draw())  # yellow 8 does not fit green 2
    assert state.view(0).unfit == (("red", "5", 3), ("green", "2", 3))


def test_the_count_never_exceeds_the_hand(rig: Rig) -> None:
    # A player may draw holding a card that plays (the table cannot tell); when it plays
    # that card later, what is known shrinks with the hand.
    state = rig([["red_1", "blue_2"], ["red_9", "green_8"]], "red_5", pile=["yellow_3"])
    state.apply(0, Draw())  # holding red 1, which plays
    assert state.view(1).unfit == (("red", "5", 3), None)
    state.apply(1, Play(0))  # red 9
    state.apply(0, Play(0))  # red 1 fits red 5: "drawn since", yet it holds two cards now
    assert state.view(1).unfit == (("red", "5", 2), None)


def test_a_swapped_hand_takes_what_is_known_with_it(rig: Rig) -> None:
    state = rig(
        [["blue_1", "green_2"], ["red_7", "red_8", "blue_4"], ["yellow_1", "yellow_2"]],
        "red_5",
        pile=["yellow_3"],
        seven_zero=True,
    )
    state.apply(0, Draw())
    assert state.view(1).unfit == (("red", "5", 3), None, None)
    state.apply(1, Play(0, target=0))
    assert state.view(1).unfit == (None, ("red", "5", 3), None)


def test_the_seed_rules_pass_on_a_card_that_fits_so_nothing_is_known(rig: Rig) -> None:
    state = rig(
        [["blue_1", "green_2"], ["red_9", "red_8"]], "red_5", pile=["yellow_3"], ruleset="seed"
    )
    state.apply(0, Draw())
    assert state.view(1).unfit == ()


def test_leaving_forgets_the_hand(rig: Rig) -> None:
    hands = [["blue_1", "green_2"], ["red_9", "red_8"], ["red_1", "red_2"]]
    state = rig(hands, "red_5", pile=["yellow_3"])
    state.apply(0, Draw())
    state.forfeit(0)
    assert state.view(1).unfit == ()


def test_snapshots_keep_it_and_older_snapshots_restore_without_it(rig: Rig) -> None:
    state = rig([["blue_1", "green_2"], ["red_9", "red_8"]], "red_5", pile=["yellow_3"])
    state.apply(0, Draw())
    snapshot = state.snapshot()
    assert restore(snapshot).view(1) == state.view(1)
    older = {key: value for key, value in snapshot.items() if key != "unfit"}
    assert restore(older).view(1) == replace(state.view(1), unfit=())


@pytest.mark.parametrize(
    "unfit", [[[5, 3]], [[5, 3], None, None], [[75, 3], None], [[5, 4], None], [[5, 0], None]]
)
def test_a_damaged_record_of_it_is_refused(rig: Rig, unfit: list[object]) -> None:
    # Too few or too many seats, no such top card, more cards than the hand, none at all.
    state = rig([["blue_1", "green_2"], ["red_9", "red_8"]], "red_5", pile=["yellow_3"])
    state.apply(0, Draw())
    with pytest.raises(SnapshotError, match="table saw"):
        restore({**state.snapshot(), "unfit": unfit})


def test_drawing_until_a_card_plays_then_passing_counts_all_but_that_card(rig: Rig) -> None:
    state = rig(
        [["blue_1", "green_2"], ["red_9", "red_8"]],
        "red_5",
        pile=["yellow_3", "green_4", "red_1"],
        draw_until_playable=True,
    )
    state.apply(0, Draw())  # yellow 3, green 4, then red 1, which plays
    state.apply(0, Pass())
    assert state.view(1).unfit == (("red", "5", 4), None)


def test_a_zero_turns_what_is_known_with_the_hands(rig: Rig) -> None:
    hands = [["blue_1", "green_2"], ["red_0", "red_8", "blue_4"], ["yellow_1", "yellow_2"]]
    state = rig(hands, "red_5", pile=["yellow_3"], seven_zero=True)
    state.apply(0, Draw())
    state.apply(1, Play(0))  # red 0: every hand moves one seat on, in the direction of play
    assert state.view(1).unfit == (None, ("red", "5", 3), None)


def test_a_jump_in_counts_like_any_play(rig: Rig) -> None:
    hands = [
        ["green_6", "blue_1"],
        ["red_6", "red_8"],
        ["green_6", "green_8"],
        ["yellow_1", "yellow_2"],
    ]
    state = rig(hands, "red_4", pile=["yellow_3"], jump_in=True)
    state.apply(0, Draw())
    assert state.view(1).unfit == (("red", "4", 3), None, None, None)
    state.apply(1, Play(0))  # red 6
    state.apply(2, Play(0))  # green 6: seat 3 to play...
    state.apply(0, Play(0))  # ...when seat 0 jumps in with the other green 6
    assert state.turn != 3
    assert state.view(1).unfit == (("red", "4", 2), None, None, None)


def _passed_position() -> tuple[UnoView, int, tuple[str, str, int]]:
    """A view of a seeded heads-up game just after the other seat drew and passed, that
    seat and what is known of it."""
    for seed in range(200):
        state = new(2, seed=seed)
        for _ in range(60):
            if state.is_over:
                break
            seat = state.turn
            view = state.view(seat)
            known = view.unfit[1 - seat] if view.unfit else None
            if known is not None and known[2] >= 5 and view.draw_pile > 20:
                return view, 1 - seat, known
            state.apply(seat, choose_action(view))
    raise AssertionError("no game had a player pass holding five cards")


def test_worlds_deal_a_player_who_passed_nothing_that_fits() -> None:
    view, other, (colour, rank, count) = _passed_position()
    assert view.seat is not None
    rng = random.Random(3)
    for _ in range(300):
        world = sample_world(view, rng)()
        assert world.view(view.seat) == view
        fitting = [c for c in world.hands[other] if _fits(colour, rank, CARD_CODES[c])]
        assert len(fitting) <= view.hand_counts[other] - count


def test_worlds_deal_the_cards_that_do_not_fit_alike() -> None:
    # Among the unseen cards that do not fit, each is as likely in the hand as any other;
    # and the table lookup the sampler uses agrees with the rule (colour, rank or wild).
    view, other, (colour, rank, count) = _passed_position()
    assert view.seat is not None
    key = ("red", "green", "blue", "yellow").index(colour) * 15 + (
        *map(str, range(10)),
        "+2",
        "R",
        "S",
        "W",
        "W+4",
    ).index(rank)
    assert all(
        bool(_PLAYABLE[key][card]) == _fits(colour, rank, code)
        for card, code in enumerate(CARD_CODES)
    )
    rng = random.Random(9)
    worlds = 3_000
    held: dict[int, int] = {}
    unfit_unseen: set[int] = set()
    for _ in range(worlds):
        world = sample_world(view, rng)()
        hand = world.hands[other]
        unfit_unseen.update(c for c in (*hand, *world.pile) if not _PLAYABLE[key][c])
        for card in hand:
            if not _PLAYABLE[key][card]:
                held[card] = held.get(card, 0) + 1
    seen = set(view.hand or ())
    fair = [c for c in unfit_unseen if CARD_CODES[c] not in seen]
    assert len(fair) > 20
    # At least ``count`` unfit cards a world, spread evenly over the unfit unseen ones.
    total = sum(held.get(c, 0) for c in unfit_unseen)
    assert total >= worlds * count
    expected = total / len(unfit_unseen)
    for card in fair:
        assert abs(held.get(card, 0) - expected) < 5 * (expected + 1) ** 0.5, CARD_CODES[card]
