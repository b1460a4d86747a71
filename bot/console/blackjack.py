"""``deckhand play blackjack SEED PLAYERS``: the Blackjack seed program at a terminal (rule 13).

Player1 reads ``Hit`` / ``Stand`` lines from standard input; every other seat is the seed's
computer player, and the game is the seed program's for that seed (rule 11), so the screen
is the seed's transcript line for line. Player1's words are printed as the seed's screen
shows them (there the terminal echoed them), so a piped run reads like the seed's. Unknown
input is asked again with a hint on standard error, leaving standard output the seed's
screen; end of input stands.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import TextIO

import rules.blackjack as bj
from bot.cli import USAGE_ERROR
from bot.games.blackjack import engine_options
from bot.i18n import t
from rules.cards import Card, Suit
from rules.engine import Event, IllegalAction, Outcome
from rules.levels import Level

__all__ = [
    "HINT",
    "SeedProgramTranscript",
    "add_arguments",
    "card_name",
    "play",
    "run",
]

HINT = "Type Hit or Stand."
_SUIT_LETTERS = {Suit.CLUBS: "c", Suit.HEARTS: "h", Suit.DIAMONDS: "d", Suit.SPADES: "s"}
_OUTCOME_TAGS = {Outcome.WIN: "[Win]", Outcome.LOSE: "[Lose]", Outcome.DRAW: "[Draw]"}
_WORDS: dict[str, bj.Hit | bj.Stand] = {
    "hit": bj.Hit(),
    "h": bj.Hit(),
    "stand": bj.Stand(),
    "s": bj.Stand(),
}


def card_name(card: Card) -> str:
    """The seed's card name: rank then suit letter, e.g. ``10s``, ``Ac`` (rule 13)."""
    return card.rank.label + _SUIT_LETTERS[card.suit]


# The seed program reads both arguments with ``stoi`` into a C ``int``.
_C_INT_MIN, _C_INT_MAX = -(2**31), 2**31 - 1
_C_INT = re.compile(r"[+-]?[0-9]{1,10}")  # ASCII digits only: Python's int() takes "1_000", "١٢"


def _c_int(text: str, what: str, low: int = _C_INT_MIN, high: int = _C_INT_MAX) -> int:
    """``text`` as an integer from ``low`` to ``high``, written as a sign and ASCII digits."""
    value = int(text) if _C_INT.fullmatch(text) else None
    if value is None or not low <= value <= high:
        raise argparse.ArgumentTypeError(
            f"{what} must be a whole number from {low} to {high}, not {text[:20]!r}"
        )
    return value


def _seed(text: str) -> int:
    # A negative seed is the seed program's too: srand() takes it modulo 2**32.
    return _c_int(text, "the seed")


def _players(text: str) -> int:
    return _c_int(text, "the number of players", bj.MIN_PLAYERS, bj.MAX_PLAYERS)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The seed's two command-line arguments: random seed and number of players."""
    parser.add_argument(
        "seed", type=_seed, help="the seed program's random seed, a C int, e.g. 100"
    )
    parser.add_argument("players", type=_players, help="number of players, 1 to 7")
    parser.add_argument(
        "--level",
        choices=[level.value for level in Level],
        default=Level.NORMAL.value,
        help="how well the computer players play (default: normal, the seed's)",
    )


def run(args: argparse.Namespace) -> int:
    """Play on standard input and output."""
    try:
        return play(
            sys.stdin,
            sys.stdout,
            sys.stderr,
            seed=args.seed,
            players=args.players,
            level=Level(args.level),
        )
    except BrokenPipeError:
        # The reader left (``... | head``): stop quietly, and keep Python's exit-time flush
        # from failing on the same closed pipe.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


class SeedProgramTranscript:
    """Turns a game's events into the seed program's screen lines (rule 13).

    It follows the hands from the events alone, since computer seats and the House play
    several steps inside one ``apply``.
    """

    def __init__(self, players: int, level: Level = Level.NORMAL) -> None:
        self.players = players
        # Beside each computer's name unless normal (the seed's screen): ``Player2 (hard)``.
        self.tag = "" if level is Level.NORMAL else " " + t(f"level.tag.{level.value}", "en")
        self.hands: list[list[Card]] = [[] for _ in range(players)]
        self.hole: Card | None = None  # the House's first card, once shown
        self.house_up: list[Card] = []  # the House's other cards
        self.house_blackjack = False

    def _line(self, name: str, cards: Sequence[Card]) -> str:
        total = bj.hand_total(c.index for c in cards)
        bust = " - Bust !!" if total > bj.BLACKJACK else ""
        return f"{name}: {', '.join(map(card_name, cards))} ({total}){bust}"

    def _name(self, seat: int) -> str:
        return f"Player{seat + 1}" + (self.tag if seat else "")  # Player1 is the member

    def _player(self, seat: int) -> str:
        return self._line(self._name(seat), self.hands[seat])

    def _house(self) -> str:
        if self.hole is None:
            return "House: HIDDEN, " + ", ".join(map(card_name, self.house_up))
        return self._line("House", [self.hole, *self.house_up])

    def lines(self, events: Iterable[Event]) -> Iterator[str]:
        """The screen lines for ``events``, in order."""
        for event in events:
            yield from self._event(event)

    def _event(self, event: Event) -> Iterator[str]:
        if isinstance(event, bj.Dealt):
            self.hands = [list(hand) for hand in event.hands]
            self.house_up = [event.up_card]
            yield self._house()
            for seat in range(self.players):
                yield self._player(seat)
            yield ""
        elif isinstance(event, bj.HouseBlackjack):
            self.hole = event.hole
            self.house_blackjack = True
        elif isinstance(event, bj.TurnStarted):
            yield f"--- {self._name(event.seat)} turn ---"
            yield self._player(event.seat)
        elif isinstance(event, bj.CardDrawn):
            self.hands[event.seat].append(event.card)
            yield "Hit"
            yield self._player(event.seat)
            if event.bust:
                yield ""
        elif isinstance(event, bj.Stood):
            yield "Stand"
            yield self._player(event.seat)
            yield ""
        elif isinstance(event, bj.HouseTurn):
            self.hole = event.hole
            yield "--- House turn ---"
            yield self._house()
        elif isinstance(event, bj.HouseDrew):
            self.house_up.append(event.card)
            yield "Hit"
            yield self._house()
            if event.bust:
                yield ""
        elif isinstance(event, bj.HouseStood):
            yield "Stand"
            yield self._house()
            yield ""
        elif isinstance(event, bj.GameOver):
            yield "--- Game Results ---"
            yield self._house()
            for seat, outcome in enumerate(event.result.outcomes):
                yield f"{_OUTCOME_TAGS[outcome]} {self._player(seat)}"
            if not self.house_blackjack:
                # The seed's screen ends a played-out game with a blank line, but not a game
                # the House's 21 ended at the deal (compare its cases [2 4] and [100 4]).
                yield ""


def _ask(stdin: TextIO, stderr: TextIO) -> bj.Hit | bj.Stand:
    """Player1's move: ``Hit`` or ``Stand`` (any case, or ``h`` / ``s``); end of input stands.

    Anything else is asked again, with the hint on ``stderr``: the screen stays the seed's.
    """
    while True:
        line = stdin.readline()
        if not line:
            return bj.Stand()
        action = _WORDS.get(line.strip().lower())
        if action is not None:
            return action
        stderr.write(HINT + "\n")
        stderr.flush()


def play(
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    *,
    seed: int,
    players: int,
    level: Level = Level.NORMAL,
) -> int:
    """Run the seed program for ``seed`` and ``players``; Player1 reads ``stdin``, the
    screen goes to ``stdout`` and hints about unknown input to ``stderr``. The computer
    players play at ``level``; an engine that refuses it says why on ``stderr`` (exit 2)."""
    try:
        state = bj.new(players, seed=seed, options=engine_options(range(1, players), level))
    except IllegalAction as refused:
        stderr.write(f"deckhand play blackjack: {refused.reason}\n")
        return USAGE_ERROR
    transcript = SeedProgramTranscript(players, level)

    def show(events: Iterable[Event]) -> None:
        for line in transcript.lines(events):
            stdout.write(line + "\n")
        stdout.flush()

    show(state.opening_events)
    while not state.is_over:
        seat = state.current_seat
        assert seat is not None
        show(state.apply(seat, _ask(stdin, stderr)))
    return 0
