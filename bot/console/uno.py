"""``deckhand play uno N``: the course judge's Uno protocol (docs/rules/uno.md rule 19).

The judge prints ``add players`` / ``player i added`` for each player, then before every
turn a block: the last turn's message (``Start Game!``, ``End Turn`` or
``Obey the rule!End Turn``), every hand as ``COLOR_num`` codes, ``Current Card:``,
``Current Turn:`` and ``Start Turn``. It then reads **N** lines, one per player, of which only
the current player's counts: ``rank [COLOR]`` (``rank`` is the 0-based index in that hand),
an empty line to draw. It ends with the hands and ``player i wins !``. Each block is flushed,
so another program can drive the judge line by line.

With ``--ruleset official`` the same lines also answer the official choices: after drawing
a playable card, its index plays it and an empty line keeps it; facing a Wild Draw Four,
``challenge`` challenges and an empty line takes the cards; a wild turned first asks for a
colour name. A line the official rules refuse prints ``Obey the rule!`` and the judge takes
the safe action instead (draw, take the cards, keep the drawn card, a random colour).

``--house`` takes ``stacking``, ``draw_until_playable`` and ``seven_zero`` (a 7's line may
name the seat to swap with after the rank); ``jump_in`` is refused, as only the current
player's line is read. A reader that closes the pipe early ends the judge quietly.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TextIO

from rules.cards import whole_number
from rules.engine import Action, IllegalAction
from rules.uno import (
    HOUSE_RULES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    CardParseError,
    Challenge,
    ChooseColour,
    Draw,
    Pass,
    Play,
    RuleBroken,
    State,
    new,
    parse_colour,
)
from rules.uno.cards import CARD_CODES, CARD_RANK, WILD, top_code

__all__ = ["add_arguments", "play", "run"]

USAGE_ERROR = 2
OBEY = "Obey the rule!"
# Not jump_in (rule 17): the judge reads only the current player's line, so nobody else
# could ever jump in; the option is refused rather than accepted and never usable.
CONSOLE_RULES = ("stacking", "draw_until_playable", "seven_zero")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``players`` plus ``--seed``, ``--ruleset`` and the house-rule switches."""
    parser.add_argument("players", type=int, help=f"{MIN_PLAYERS} to {MAX_PLAYERS}")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="seed of the deal")
    parser.add_argument(
        "--ruleset",
        choices=("seed", "official"),
        default="seed",
        metavar="R",
        help="seed (the judge's rules, default) or official (Mattel's)",
    )
    parser.add_argument(
        "--house",
        action="append",
        choices=CONSOLE_RULES,
        default=[],
        metavar="RULE",
        help=f"a house rule, repeatable: {', '.join(CONSOLE_RULES)} (not jump_in: only the "
        "current player's line is read)",
    )


def run(args: argparse.Namespace) -> int:
    """Play one game on standard input and output."""
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        print(
            f"deckhand play uno: players must be {MIN_PLAYERS} to {MAX_PLAYERS}, "
            f"not {args.players}",
            file=sys.stderr,
        )
        return USAGE_ERROR
    options: dict[str, object] = {"ruleset": args.ruleset}
    for rule in args.house:
        options[rule] = True
    assert set(CONSOLE_RULES) <= set(HOUSE_RULES)
    state = new(args.players, seed=args.seed, options=options)
    try:
        return play(state, sys.stdin, sys.stdout)
    except BrokenPipeError:
        # The reading program closed the pipe (`| head -1`): stop quietly. Python's recipe:
        # point stdout at devnull so the flush at exit does not fail (and print) again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


def play(state: State, stdin: TextIO, stdout: TextIO) -> int:
    """Run the judge protocol for ``state`` until someone wins; 1 if the input runs out."""
    n = state.n
    seed_program_rules = state.seed_program_rules
    for i in range(n):
        stdout.write(f"add players\nplayer {i} added\n")
    message = "Start Game!"
    while not state.is_over:
        _write_block(state, message, stdout)
        lines = []
        for _ in range(n):
            line = stdin.readline()
            if not line:
                print("deckhand play uno: input ended before the game did", file=sys.stderr)
                return 1
            lines.append(line.strip())
        seat = state.turn
        action = _read_action(state, lines[seat])
        try:
            events = state.apply(seat, action)
        except IllegalAction:
            # Official rules refuse; the judge then takes the safe action, as a turn timer
            # would, so a confused player cannot stall the table.
            state.apply(seat, _safe_action(state))
            if state.phase == 1 and not state.is_over:
                state.apply(seat, Pass())  # the drawn card is kept: the turn is over
            message = OBEY + "End Turn"
            continue
        broke = any(isinstance(e, RuleBroken) for e in events)
        drew = seed_program_rules and isinstance(action, Draw) and not lines[seat]
        message = (OBEY if broke or drew else "") + "End Turn"
    stdout.write(message + "\n")
    _write_hands(state, stdout)
    result = state.result
    assert result is not None
    for winner in result.winners:
        stdout.write(f"player {winner} wins !\n")
    if not result.winners:  # a blocked table with a tie for fewest points (rules/uno/state.py)
        stdout.write("nobody wins !\n")
    stdout.flush()
    return 0


def _safe_action(state: State) -> Action:
    if state.phase == 1:
        return Pass()
    if state.phase == 2:
        return ChooseColour(state.rng.randbelow(4))
    return Draw()


def _read_action(state: State, line: str) -> Action:
    """One input line as an action; what cannot be read becomes a rule-breaking play."""
    words = line.split()
    phase = state.phase
    if phase == 2:  # a wild turned first (official): the line names the colour
        try:
            return ChooseColour(int(parse_colour(words[0]))) if words else ChooseColour(-1)
        except CardParseError:
            return ChooseColour(-1)
    if not words:
        return Pass() if phase == 1 else Draw()
    if words[0].lower() in ("c", "challenge"):
        return Challenge()
    try:
        index = int(words[0])
    except ValueError:
        return Play(-1)  # not a rank: the seed's "rank not legal"
    hand = state.hands[state.turn]
    if not 0 <= index < len(hand):
        return Play(index)  # rule 11: no such card
    rank = CARD_RANK[hand[index]]
    colour: int | None = None
    target: int | None = None
    for word in words[1:]:
        number = whole_number(word.removeprefix("-"))
        if number is not None:
            target = -number if word.startswith("-") else number
            continue
        try:
            colour = int(parse_colour(word))
        except CardParseError:
            colour = None  # rule 12: a missing (or unreadable) colour is drawn at random
    # The seed: a colour counts only on W and W+4; likewise a target only on a 7 that swaps.
    if rank < WILD:
        colour = None
    if not (state.seven_zero and rank == 7 and len(hand) > 1):
        target = None
    return Play(index, colour, target)


def _write_hands(state: State, stdout: TextIO) -> None:
    for i, hand in enumerate(state.hands):
        stdout.write(f"player(id={i}) has cards:\n{' '.join(CARD_CODES[c] for c in hand)}\n")


def _write_block(state: State, message: str, stdout: TextIO) -> None:
    stdout.write(message + "\n")
    _write_hands(state, stdout)
    stdout.write(f"Current Card:\n{top_code(state.top, state.colour)}\n")
    stdout.write(f"Current Turn:\n{state.turn}\nStart Turn\n")
    stdout.flush()
