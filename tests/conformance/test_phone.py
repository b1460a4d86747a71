"""Every table and hand fits a phone, in English and Korean (docs/design.md §4), in every game.

At every decision of every play-out the public table (with the last move's log), the hand
of the seat to act and what the mover alone is told are drawn in both languages, names of
one to 32 characters at the table; every few decisions, and at the end, every seat's hand
too. No line of a code block may pass 40 columns (a Hangul syllable counts two), and no
column may line up under one width of East Asian ambiguous characters and not the other
(``tests/phone.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import pytest

from bot.games import Rendered
from bot.text.width import PHONE_COLUMNS, columns
from tests.conformance.harness import GAMES, LOCALES, Case, Step, names, play_all
from tests.phone import misaligned

EVERY_HAND_EACH = 8  # every this many decisions, every seat's hand is drawn


@functools.lru_cache(maxsize=8192)
def problems(body: str) -> tuple[list[str], list[str]]:
    """The lines of a code block wider than a phone, and those whose columns shift where
    ambiguous characters take two (remembered: most blocks come again at the next move)."""
    lines = body.splitlines()
    return [line for line in lines if columns(line) > PHONE_COLUMNS], misaligned(lines)


def assert_fits(table: Rendered | None, what: str) -> None:
    """The code block of ``table`` fits a phone's width, its columns under both measures."""
    if table is None:
        return
    wide, shifted = problems(table.body)
    assert not wide, f"{what}: lines wider than {PHONE_COLUMNS} columns: {wide}"
    assert not shifted, f"{what}: columns that shift where ambiguous characters take two: {shifted}"


def fits(case: Case) -> Callable[[Step], None]:
    adapter = case.adapter
    seats = case.deal.seats

    def check(step: Step) -> None:
        state = step.state
        every = step.number % EVERY_HAND_EACH == 0 or state.is_over
        shown = range(seats) if every else [s for s in [step.seat] if s is not None]
        for locale in LOCALES:
            seated = names(locale, seats)
            table = adapter.table(state.view(None), step.events, seated, locale)
            assert_fits(table, f"the {locale} table")
            for seat in shown:
                hand = adapter.hand(state.view(seat), seated, locale)
                assert_fits(hand, f"seat {seat}'s {locale} hand")
            if step.played is not None and step.played.kind == "act":
                mover = step.played.seat
                said = adapter.private(state.view(mover), step.events, seated, locale)
                assert_fits(said, f"what seat {mover} alone is told in {locale}")

    return check


@pytest.mark.parametrize("name", GAMES)
def test_every_table_and_hand_fits_a_phone_in_english_and_korean(name: str) -> None:
    assert play_all(name, fits) > 20
