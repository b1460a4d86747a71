"""Only the seat to act has moves, and a move the game does not offer is refused with a
reason and changes nothing (docs/design.md §2), in every game.

At every decision of every play-out the other seats have no move (unless the rules give
them one out of turn), and another seat playing the seat's move, a seat that is not at the
table and a move of no game are refused with a reason and the snapshot unchanged. At the
decisions that try moves on copies (``Step.thorough``) a move out of turn the rules offer
is accepted, the seat's own offered moves are all tried now and then, and moves that are
not offered must be refused the same way: moves that look like an offered one with one
field changed, moves offered earlier in the game, and what the adapter makes of a verb no
game has or of a nonsense argument. Every verb its menus, buttons and commands send is one
the adapter lists (``verbs``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection
from typing import Any

import pytest

from rules.engine import Action, IllegalAction
from tests.conformance.harness import (
    GAMES,
    NONSENSE_ARGS,
    NONSENSE_VERBS,
    SESSION_VERBS,
    Case,
    Fork,
    Nonsense,
    Step,
    field_values,
    game,
    menu_moves,
    nonsense_actions,
    play_all,
)

OFFERED_EVERY = 7  # every this many decisions, each offered move is applied to a copy
MUTATIONS = 4  # moves that look like an offered one tried at each decision


def assert_refused(state: Any, seat: int, action: Action) -> None:
    """``action`` by ``seat`` raises ``IllegalAction`` with a reason and changes nothing."""
    before = state.snapshot()
    try:
        state.apply(seat, action)
    except IllegalAction as refusal:
        assert refusal.reason, f"{action!r} by seat {seat} refused without a reason"
        assert refusal.code, f"{action!r} by seat {seat} refused without a code"
    else:
        raise AssertionError(f"{action!r} by seat {seat} was accepted, though not offered")
    assert state.snapshot() == before, f"refusing {action!r} by seat {seat} changed the state"


def assert_not_played(
    case: Case, fork: Fork, state: Any, seat: int, action: Action, *, listable: Collection[type]
) -> None:
    """A move not offered is refused, or is another name of an offered one; only where the
    game's rules say so may it be accepted all the same: as a penalised move, or as a kind
    of move ``legal_actions`` never lists (``listable``: the kinds it has listed)."""
    profile = case.profile
    lenient = profile.lenient(state, seat, action)
    if fork.judge(seat, action, alias=not lenient) != "accepted" or lenient:
        return
    if profile.open_moves and type(action) not in listable:
        return  # a table edit: legal moves the game does not list
    raise AssertionError(f"{action!r} by seat {seat} was accepted, though not offered")


def turns(case: Case) -> Callable[[Step], None]:
    adapter, profile = case.adapter, case.profile
    seats = case.deal.seats
    seen: dict[type, set[Action]] = defaultdict(set)  # moves offered so far, by kind
    values: dict[str, list[Any]] = defaultdict(list)  # what each field of them held
    verbs: tuple[str, ...] = adapter.verbs

    def check(step: Step) -> None:
        state, seat, pick = step.state, step.seat, step.rng
        everyone = [state.legal_actions(s) for s in range(seats)]
        for listed in everyone:
            for action in listed:
                if action not in seen[type(action)]:
                    seen[type(action)].add(action)
                    for name, value in field_values(action).items():
                        if value not in values[name]:
                            values[name].append(value)
        earlier = [a for kind in seen.values() for a in kind]
        if seat is None:
            assert state.is_over and state.result is not None
            assert not any(everyone), "a move is offered after the end"
            for other in range(seats):
                for action in pick.sample(earlier, min(3, len(earlier))):
                    assert_refused(state, other, action)
            return
        listed = list(everyone[seat])
        assert listed, f"seat {seat} is to act and has no move"
        for other in range(seats):
            if other != seat:
                extra = [a for a in everyone[other] if not profile.out_of_turn(state, other, a)]
                assert not extra, f"seat {other} has moves out of turn: {extra}"
        idle = [s for s in range(seats) if s != seat and not everyone[s]]
        for other in [*pick.sample(idle, min(2, len(idle))), -1, seats]:  # and no seat
            assert_refused(state, other, pick.choice(listed))
        assert_refused(state, seat, Nonsense())
        if not step.thorough:
            return
        fork = Fork(adapter, state)
        for other in range(seats):
            if other != seat and everyone[other]:  # out of turn, by the rules: accepted
                fork.outcome(other, pick.choice(list(everyone[other])))
        if step.number % OFFERED_EVERY == 0:
            for action in listed:
                fork.outcome(seat, action)  # IllegalAction fails the test
        candidates = nonsense_actions(listed, values, pick)
        candidates = pick.sample(candidates, min(MUTATIONS, len(candidates)))
        candidates += pick.sample(earlier, min(2, len(earlier)))
        for action in candidates:
            if action not in listed:
                assert_not_played(case, fork, state, seat, action, listable=seen.keys())
        if step.number % OFFERED_EVERY == 3:
            view = state.view(seat)
            seated = [str(s) for s in range(seats)]
            used = {verb for verb, _ in menu_moves(adapter, view, "en", seats)}
            public = adapter.table(state.view(None), (), seated, "en")
            for table in (adapter.hand(view, seated, "en"), public):
                used |= {c.action for c in table.controls if c.action not in SESSION_VERBS}
            used |= set(profile.commands.values())
            assert used <= set(verbs), f"verbs the adapter does not list: {used - set(verbs)}"
            for verb in verbs:
                for arg in (None, pick.choice(NONSENSE_ARGS)):
                    try:
                        action = adapter.parse(verb, arg)
                    except IllegalAction as refusal:
                        assert refusal.reason, f"parse({verb!r}, {arg!r}) gave no reason"
                        continue
                    if action not in listed:
                        assert_not_played(case, fork, state, seat, action, listable=seen.keys())

    return check


@pytest.mark.parametrize("name", GAMES)
def test_only_the_seat_to_act_moves_and_what_is_not_offered_changes_nothing(name: str) -> None:
    assert play_all(name, turns) > 20


@pytest.mark.parametrize("name", GAMES)
def test_a_verb_no_game_has_is_refused_with_a_reason(name: str) -> None:
    adapter = game(name).adapter
    for verb in NONSENSE_VERBS:
        for arg in (None, *NONSENSE_ARGS):
            with pytest.raises(IllegalAction) as refused:
                adapter.parse(verb, arg)
            assert refused.value.reason, (verb, arg)
