"""``deckhand play onecard``: the One Card seed program at one terminal (rule 28).

Every seat is a human at the same keyboard, as in the seed. Before each phase the program
prints the seed's debug dump (the whole main deck and every hand, in turn order from the
current player), then the table (Figure 1) and asks for an index. A wrong index or a card
that may not be played is refused with the reason and asked again, without penalty (rule
25). End of input ends the program quietly with exit status 0.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

import rules.onecard as oc
from bot.text.onecard import (
    CARDS_PER_LINE,
    card_text,
    event_lines,
    hand_text,
    open_line,
    refusal_text,
    seat_label,
    status_line,
)
from rules.cards import Suit, whole_number
from rules.engine import IllegalAction

__all__ = ["add_arguments", "debug_dump", "play", "run", "seed_program_table"]

PLAYERS_PROMPT = "Enter the number of players(between 2 and 4): "
INDEX_PROMPT = "Enter the index: "
PATTERN_PROMPT = "Enter the pattern(1:♠ 2:◆ 3:♥ 4:♣): "
PATTERNS = {"1": Suit.SPADES, "2": Suit.DIAMONDS, "3": Suit.HEARTS, "4": Suit.CLUBS}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--seed N`` makes the deal and every draw reproducible (rule 4)."""
    parser.add_argument("--seed", type=int, default=None, help="seed for a reproducible game")


def run(args: argparse.Namespace) -> int:
    """Play on standard input and output."""
    return play(sys.stdin, sys.stdout, seed=args.seed)


def _rows(texts: list[str]) -> list[str]:
    return [" ".join(texts[i : i + CARDS_PER_LINE]) for i in range(0, len(texts), CARDS_PER_LINE)]


def debug_dump(state: oc.State) -> str:
    """The seed's debug output: the main deck, then each hand in turn order (seed ①)."""
    deck = state.main_deck()
    lines = [f"Main deck<{len(deck)}>:", *_rows([card_text(c) for c in deck]), ""]
    for seat in state.turn_order():
        hand = state.hand(seat)
        lines.append(f"{oc.NAMES[seat]}<{len(hand)}>: " + " ".join(card_text(c) for c in hand))
    return "\n".join(lines)


def seed_program_table(view: oc.OneCardView) -> str:
    """Figure 1's table, with the current player's hand at the bottom (rule 28).

    As in the seed, the other players sit along the top counter-clockwise: the seat before
    the current one first.
    """
    current = view.current
    assert current is not None
    others = []
    seat = current
    for _ in range(view.players - 1):
        seat = (seat - 1) % view.players
        if view.playing[seat]:
            others.append(seat)
    body = [
        f"Table<{view.deck_count}>",
        "",
        "      ".join(seat_label(s, view.counts[s]) for s in others),
        "",
        open_line(view),
        "",
        seat_label(current, view.counts[current]),
        "",
        status_line(view),
        "",
        *hand_text(view).splitlines(),
    ]
    return "\n".join([f"Phase {view.phase}", "*****", *(f"| {b}".rstrip() for b in body), "|*****"])


def _ask(stdin: TextIO, stdout: TextIO, prompt: str) -> str | None:
    stdout.write(prompt)
    stdout.flush()
    line = stdin.readline()
    if not line:
        stdout.write("\n")
        return None
    return line.strip()


def _choose(state: oc.State, stdin: TextIO, stdout: TextIO) -> oc.PlayCard | oc.Take | None:
    """Ask until the current player names a move the rules accept; ``None`` at end of input."""
    seat = state.current_seat
    assert seat is not None
    hand = state.hand(seat)
    while True:
        answer = _ask(stdin, stdout, INDEX_PROMPT)
        if answer is None:
            return None
        index = whole_number(answer)
        if index is None or not 1 <= index <= len(hand) + 1:
            stdout.write(f"Enter a number from 1 to {len(hand) + 1}\n")
            continue
        if index == len(hand) + 1:
            return oc.Take()
        card = hand[index - 1]
        if not any(
            isinstance(a, oc.PlayCard) and a.card is card for a in state.legal_actions(seat)
        ):
            try:  # not playable: the engine refuses with the reason and changes nothing
                state.apply(seat, oc.PlayCard(card, Suit.SPADES if card.rank == 7 else None))
            except IllegalAction as refused:
                stdout.write(refusal_text(refused) + "\n")
            continue
        if card.rank != 7:
            return oc.PlayCard(card)
        while True:
            pattern = _ask(stdin, stdout, PATTERN_PROMPT)
            if pattern is None:
                return None
            if pattern in PATTERNS:
                return oc.PlayCard(card, PATTERNS[pattern])
            stdout.write("Enter a number from 1 to 4\n")


def play(
    stdin: TextIO,
    stdout: TextIO,
    *,
    seed: int | None = None,
    deal: Callable[[int], oc.State] | None = None,
) -> int:
    """Run the seed program; ``deal(players)`` may set up a given position (for tests)."""
    while True:
        answer = _ask(stdin, stdout, PLAYERS_PROMPT)
        if answer is None:
            return 0
        players = whole_number(answer)
        if players is not None and 2 <= players <= 4:
            break
        stdout.write("Enter 2, 3 or 4\n")
    state = deal(players) if deal is not None else oc.new(players, seed=seed)
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        stdout.write(debug_dump(state) + "\n\n" + seed_program_table(state.view(seat)) + "\n")
        action = _choose(state, stdin, stdout)
        if action is None:
            return 0
        for line in event_lines(state.apply(seat, action)):
            stdout.write(line + "\n")
        stdout.write("\n")
    return 0
