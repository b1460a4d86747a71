"""The seed program written out plainly, as the tests' independent reference (rules 7, 11).

It follows the seed's C++ step by step with its own strings (``"10s"``, ``"Ac"``) and its
own ``rand()``, sharing no code with the engine, so a test comparing the two catches a
mistake in either.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class CRand:
    """``srand``/``rand`` of the Microsoft C runtime, written out again."""

    def __init__(self, seed: int) -> None:
        self.state = seed % 2**32

    def rand(self) -> int:
        self.state = (self.state * 214013 + 2531011) % 2**32
        return (self.state // 65536) % 32768


def value(cards: Sequence[str]) -> int:
    """Aces count 11 until that would go over 21 (the seed's 6.1), one at a time."""
    total = 0
    aces = 0
    for card in cards:
        rank = card[:-1]
        if rank == "A":
            total += 11
            aces += 1
        elif rank in ("J", "Q", "K"):
            total += 10
        else:
            total += int(rank)
    while total > 21 and aces:
        total -= 10
        aces -= 1
    return total


@dataclass
class Game:
    """Everything a seed run produced."""

    hands: list[list[str]]
    house: list[str]
    outcomes: list[str]  # "Win" / "Lose" / "Draw"
    house_blackjack: bool


def shuffled(seed: int, swaps: int = 1000) -> tuple[list[str], CRand]:
    """The seed's shoe after ``shuffle_cards()`` (``swaps`` swaps), and the generator after it."""
    rng = CRand(seed)
    cards = []
    for _ in range(4):
        for i in range(1, 14):
            name = {1: "A", 11: "J", 12: "Q", 13: "K"}.get(i, str(i))
            cards += [name + "c", name + "h", name + "d", name + "s"]
    for _ in range(swaps):
        a = rng.rand() % len(cards)
        b = rng.rand() % len(cards)
        cards[a], cards[b] = cards[b], cards[a]
    return cards, rng


def play(seed: int, players: int, player1: Sequence[str] = ()) -> Game:
    """Run the seed program; Player1 answers from ``player1`` (then stands)."""
    cards, rng = shuffled(seed)
    hands: list[list[str]] = [[] for _ in range(players)]
    house: list[str] = []
    for _ in range(2):
        for hand in hands:
            hand.append(cards.pop())
        house.append(cards.pop())
    if value(house) == 21:
        return Game(hands, house, ["Lose"] * players, True)
    answers = list(player1)
    for seat, hand in enumerate(hands):
        while value(hand) <= 21:
            if seat == 0:
                hit = bool(answers) and answers.pop(0) == "Hit"
            elif value(hand) < 14:
                hit = True
            elif value(hand) > 17:
                hit = False
            else:
                hit = rng.rand() % 2 == 1
            if not hit:
                break
            hand.append(cards.pop())
    while value(house) <= 16:
        house.append(cards.pop())
    outcomes = []
    for hand in hands:
        if value(hand) > 21:
            outcomes.append("Lose")
        elif value(house) > 21 or value(hand) > value(house):
            outcomes.append("Win")
        elif value(hand) == value(house):
            outcomes.append("Draw")
        else:
            outcomes.append("Lose")
    return Game(hands, house, outcomes, False)
