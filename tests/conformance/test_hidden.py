"""No view and no public table shows a hidden card (docs/design.md §2 and §4), in every game.

A view is what a seat may see; text and computer players read nothing else. So two states
that differ only in what a seat may not see must show that seat the same view. At decisions
of every play-out, the cards a seat (or a spectator) may not see are exchanged in a copy of
the snapshot (its profile names them: other seats' hands, the draw pile, a face-down card):
two cards of the pile, a hand's card with one of the pile, cards of two other hands. The
copy must show that seat exactly the view it showed before, offer it the same moves, and
answer a move it tries that is not offered with the same refusal (a reason never names a
card its reader may not see).

A move's public table is drawn from the spectator's view and the move's events. So the
move is made again on a copy whose other seats' hands were exchanged the same way, and the
public table after it must read the same in every language, unless the move ends the game
(final scores may count the hands) or the rules make its outcome depend on a hidden hand
(the profile's ``reveals``). A private step (Rummikub's staging) changes no one else's view.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from rules.engine import Action, GameOver, IllegalAction, SnapshotError
from tests.conformance.harness import (
    GAMES,
    LOCALES,
    Case,
    Step,
    cases,
    names,
    nonsense_actions,
    play_all,
)
from tests.conformance.profile import Slot


def exchange(a: Sequence[Slot], b: Sequence[Slot], pick: random.Random) -> bool:
    """Exchange a card of ``a`` with a different card of ``b``; whether one was found."""
    if not a or not b:
        return False
    for _ in range(8):
        (one, i), (two, j) = pick.choice(a), pick.choice(b)
        if one[i] != two[j]:
            one[i], two[j] = two[j], one[i]
            return True
    return False


def exchange_hidden(
    hands: Sequence[Sequence[Slot]], stock: Sequence[Slot], pick: random.Random
) -> bool:
    """Two cards of the stock, a hand's card with the stock's, and cards of two hands
    exchanged (those that can be); whether anything changed."""
    held = [hand for hand in hands if hand]
    changed = exchange(stock, stock, pick)
    if held:
        changed |= exchange(pick.choice(held), stock, pick)
    if len(held) >= 2:
        one, two = pick.sample(held, 2)
        changed |= exchange(one, two, pick)
    elif held:
        changed |= exchange(held[0], held[0], pick)
    return changed


class Hidden:
    """The checks of one play-out, counting the copies tried (a profile whose hidden
    places restore refuses would check nothing)."""

    def __init__(self, case: Case, tally: dict[str, int]) -> None:
        self.case = case
        self.tally = tally
        self.before: str | None = None  # the last decision's snapshot, as JSON

    def __call__(self, step: Step) -> None:
        state, pick = step.state, step.rng
        text = json.dumps(state.snapshot())
        if not state.is_over:
            viewers: list[int | None] = [*range(self.case.deal.seats), None]
            most = 3 if step.thorough else 1
            for n, viewer in enumerate(pick.sample(viewers, min(most, len(viewers)))):
                self.same_view(state, text, viewer, pick, answers=n == 0 and step.thorough)
        if self.before is not None and step.played is not None:
            if step.thorough:
                self.same_public_table(step)
            self.private_step(step)
        self.before = text

    def copy(self, text: str, hidden_from: int | None, pick: random.Random, stock: bool) -> Any:
        """A state restored from ``text`` with what ``hidden_from`` may not see exchanged;
        ``None`` if nothing could be exchanged or restore refuses the copy."""
        profile = self.case.profile
        data = json.loads(text)
        hands = [hand for seat, hand in enumerate(profile.hands(data)) if seat != hidden_from]
        if not exchange_hidden(hands, profile.stock(data) if stock else (), pick):
            return None
        try:
            twin = self.case.adapter.restore(data)
        except SnapshotError:
            self.tally["refused"] += 1
            return None
        self.tally["tried"] += 1
        return twin

    def same_view(
        self, state: Any, text: str, viewer: int | None, pick: random.Random, *, answers: bool
    ) -> None:
        twin = self.copy(text, viewer, pick, stock=True)
        if twin is None:
            return
        assert twin.view(viewer) == state.view(viewer), (
            f"seat {viewer}'s view changed with cards it may not see"
        )
        if viewer is None:
            return
        mine = list(state.legal_actions(viewer))
        assert list(twin.legal_actions(viewer)) == mine, (
            f"seat {viewer}'s moves changed with cards it may not see"
        )
        if not answers:
            return
        seat = state.current_seat
        tried = nonsense_actions(mine or list(state.legal_actions(seat)), {}, pick)
        changed = json.dumps(twin.snapshot())
        for action in pick.sample(tried, min(2, len(tried))):
            assert self.answer(changed, viewer, action) == self.answer(text, viewer, action), (
                f"seat {viewer}'s {action!r} is answered otherwise with cards it may not see"
            )

    def answer(self, text: str, seat: int, action: Action) -> tuple[str, str, object] | None:
        """What ``seat`` is told when ``action`` is refused in the state of ``text``
        (``None``: it was accepted)."""
        try:
            self.case.adapter.restore(json.loads(text)).apply(seat, action)
        except IllegalAction as refusal:
            return (refusal.reason, refusal.code, refusal.params)
        return None

    def same_public_table(self, step: Step) -> None:
        played, adapter = step.played, self.case.adapter
        assert played is not None and self.before is not None
        if played.kind != "act" or any(isinstance(e, GameOver) for e in step.events):
            return
        if self.case.profile.reveals(played.action):
            return
        twin = self.copy(self.before, played.seat, step.rng, stock=False)
        if twin is None:
            return
        try:
            events = played.again(adapter, twin)
        except IllegalAction as refusal:
            raise AssertionError(
                f"{played} was refused once other hands changed: {refusal.reason}"
            ) from None
        if any(isinstance(e, GameOver) for e in events):
            return
        for locale in LOCALES:
            seated = names(locale, self.case.deal.seats)
            seen = adapter.table(step.state.view(None), step.events, seated, locale)
            other = adapter.table(twin.view(None), events, seated, locale)
            assert other == seen, f"after {played}, the {locale} table shows a hidden card"

    def private_step(self, step: Step) -> None:
        played, adapter = step.played, self.case.adapter
        assert played is not None and self.before is not None
        if played.kind != "act" or not adapter.private_step(step.events):
            return
        before = adapter.restore(json.loads(self.before))
        for seat in [*range(self.case.deal.seats), None]:
            if seat != played.seat:
                assert step.state.view(seat) == before.view(seat), (
                    f"{played}, a private step, changed seat {seat}'s view"
                )


def hides_anything(name: str) -> bool:
    """Whether the game's profile names any hidden card at the deal of its first play-out."""
    case = cases(name)[0]
    data = next(case.steps()).state.snapshot()
    return bool(case.profile.stock(data)) or any(case.profile.hands(data))


@pytest.mark.parametrize("name", GAMES)
def test_no_view_and_no_public_table_shows_a_hidden_card(name: str) -> None:
    tally = {"tried": 0, "refused": 0}
    play_all(name, lambda case: Hidden(case, tally))
    if hides_anything(name):
        # Copies restore refuses check nothing: most must be accepted.
        assert tally["tried"] > 10 * tally["refused"], tally
    else:
        assert tally == {"tried": 0, "refused": 0}
