"""Every move the adapter offers a member parses into a legal move, in every game
(docs/design.md §4): the hand's menu (and the second menus a pick opens), the suggestions of
each command option it completes, the game's buttons (Blackjack's moves are only buttons: the
hand's, and the public table's for the seat to act: each parses, and where the profile says
its buttons are its moves, each is an offered one) and the text of the turn's edit box.

At the decisions of every play-out (each of a game's first hundred, then one in four: see
``Step.thorough``), for each seat with moves (the seat to act, and a seat
that may move out of turn), in English and Korean by turns: each menu value goes through
:meth:`picked` (second menus followed to their end) and :meth:`parse`, and must give an
offered move or one doing exactly what an offered move does (or, where ``legal_actions``
does not list every legal move, one the engine accepts). A suggestion is sent as its
command sends it (the profile's ``commands``); one that asks for more (One Card's 7 its
suit, an Uno wild its colour) is completed as its menu completes it. Menus and suggestions
hold at most 25 options of at most 100 characters (Discord's limits).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from bot.games import MAX_OPTIONS, Control, Move, Option, Rendered
from cogs.common.buttons import EDIT
from rules.engine import IllegalAction
from tests.conformance.harness import (
    GAMES,
    LOCALES,
    SESSION_VERBS,
    Case,
    Fork,
    Step,
    names,
    picked_moves,
    play_all,
)

ARRANGE = "arrange"  # the move the edit box's text comes back as (GameAdapter.edit_text)
MOST_CHARACTERS = 100  # Discord's limit of an option's label and value


def assert_discord_accepts(options: Sequence[Option], what: str) -> None:
    assert len(options) <= MAX_OPTIONS, f"{what}: {len(options)} options"
    for option in options:
        assert 0 < len(option.label) <= MOST_CHARACTERS, f"{what}: label {option.label!r}"
        assert 0 < len(option.value) <= MOST_CHARACTERS, f"{what}: value {option.value!r}"


def menus(case: Case) -> Callable[[Step], None]:
    adapter, profile = case.adapter, case.profile
    seats = case.deal.seats

    def legal(fork: Fork, seat: int, move: Move, what: str) -> bool:
        """Whether ``move`` parses into a legal move; a parse refused fails the test."""
        try:
            action = adapter.parse(*move)
        except IllegalAction as refusal:
            raise AssertionError(f"{what} {move} does not parse: {refusal.reason}") from None
        verdict = fork.judge(seat, action, alias=not profile.open_moves)
        return verdict in ("listed", "alias") or (profile.open_moves and verdict == "accepted")

    def offered_controls(hand: Rendered, seat: int, step: Step, locale: str) -> list[Control]:
        """The game's buttons ``seat`` is offered: its hand's, and the public table's when
        it is the seat to act (they are pressed by whoever is); not the session's own, nor
        the one that opens the edit box (``EDIT``: its text is checked below)."""
        tables = [hand]
        if seat == step.seat:
            tables.append(adapter.table(step.state.view(None), (), names(locale, seats), locale))
        return [
            c
            for t in tables
            for c in t.controls
            if c.action not in SESSION_VERBS and (c.action, c.arg) != (EDIT, None)
        ]

    def check(step: Step) -> None:
        state = step.state
        if state.is_over or not step.thorough:
            return
        locale = LOCALES[step.number % len(LOCALES)]
        fork = Fork(adapter, state)
        for seat in range(seats):
            if not fork.listed(seat):
                continue
            view = state.view(seat)
            hand = adapter.hand(view, names(locale, seats), locale)
            if hand.menu is not None:
                assert_discord_accepts(hand.menu.options, f"seat {seat}'s menu")
                for option in hand.menu.options:
                    for move in picked_moves(adapter, view, option.value, locale, seats):
                        assert legal(fork, seat, move, f"menu value {option.value!r} as"), (
                            f"seat {seat}'s menu value {option.value!r} is no legal move {move}"
                        )
            for option_name, verb in profile.commands.items():
                suggested = adapter.suggest(view, option_name, "", locale)
                assert_discord_accepts(suggested, f"seat {seat}'s suggestions")
                for option in suggested:
                    if legal(fork, seat, (verb, option.value), "suggestion"):
                        continue
                    completed = picked_moves(adapter, view, option.value, locale, seats)
                    assert completed != [(verb, option.value)] and all(
                        legal(fork, seat, move, "completed suggestion") for move in completed
                    ), f"seat {seat}'s suggestion {option.value!r} for {option_name} is no move"
            for control in offered_controls(hand, seat, step, locale):
                move = (control.action, control.arg)
                is_move = legal(fork, seat, move, "button")  # a parse refused fails
                assert is_move or not profile.button_moves, (
                    f"seat {seat}'s button {move} is no move"
                )
            text = adapter.edit_text(view, locale) if seat == step.seat else None
            if text is not None:
                assert ARRANGE in adapter.verbs
                assert legal(fork, seat, (ARRANGE, text), "the edit box"), text

    return check


@pytest.mark.parametrize("name", GAMES)
def test_every_menu_value_and_suggestion_parses_into_a_legal_move(name: str) -> None:
    assert play_all(name, menus) > 20
