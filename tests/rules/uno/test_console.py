"""Rule 19: ``deckhand play uno N`` driven line by line by another program, as a judge is."""

from __future__ import annotations

import contextlib
import io
import os
import queue
import select
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO

import pytest

from bot.console.uno import play
from rules.uno import State
from rules.uno.cards import CARD_CODES

ROOT = Path(__file__).resolve().parents[3]
COLOURS = ("red", "green", "blue", "yellow")
Rig = Callable[..., State]
READ_TIMEOUT = 10.0


def hand(state: State, seat: int) -> list[str]:
    return [CARD_CODES[c] for c in state.hands[seat]]


class TimedLines:
    """A pipe's lines, each awaited at most ``READ_TIMEOUT`` seconds (a reader thread), so a
    judge that forgets to flush fails the test instead of hanging it."""

    def __init__(self, stream: IO[str]) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._pump, args=(stream,), daemon=True).start()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line)
        self._lines.put("")  # the end of the output

    def readline(self) -> str:
        """The next line ("" at the end); fails after ``READ_TIMEOUT`` seconds of silence."""
        try:
            return self._lines.get(timeout=READ_TIMEOUT)
        except queue.Empty:
            raise AssertionError(
                f"the judge printed nothing for {READ_TIMEOUT} s (a block not flushed?)"
            ) from None


def read_block(out: TimedLines) -> list[str]:
    """Lines up to ``Start Turn`` or the winner's line."""
    block: list[str] = []
    while True:
        line = out.readline()
        assert line, f"the judge stopped mid-block: {block}"
        block.append(line.rstrip("\n"))
        if line.startswith(("Start Turn", "player ")) and line.rstrip().endswith(("Turn", "!")):
            return block


def choose(hand: list[str], current: str) -> str:
    """A driver that knows the rules: first playable card, wilds named after its colours."""
    colour, _, rank = current.partition("_")
    for i, card in enumerate(hand):
        c, _, r = card.partition("_")
        if c == "none":
            held = [h.partition("_")[0] for h in hand if not h.startswith("none")]
            named = max(COLOURS, key=held.count)
            return f"{i} {named}"
        if c == colour or r == rank or colour == "none":
            return str(i)
    return ""


def judge(*args: str) -> subprocess.Popen[str]:
    # Buffered as a judge's pipe is by default, so only the console's own flushes show.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "uno", *args],
        cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, bufsize=1,
    )  # fmt: skip


def drive(players: int, seed: int, ruleset: str) -> list[str]:
    proc = judge(str(players), "--seed", str(seed), "--ruleset", ruleset)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        out = TimedLines(proc.stdout)
        transcript = [out.readline().rstrip("\n") for _ in range(2 * players)]
        expected = [w for i in range(players) for w in ("add players", f"player {i} added")]
        assert transcript == expected
        turns = 0
        while True:
            block = read_block(out)
            transcript += block
            if block[-1].endswith("wins !"):
                break
            assert block[-5] == "Current Card:"
            assert block[-3] == "Current Turn:"
            hands = [block[2 + 2 * i].split() for i in range(players)]
            assert [block[1 + 2 * i] for i in range(players)] == [
                f"player(id={i}) has cards:" for i in range(players)
            ]
            turn = int(block[-2])
            lines = ["9999"] * players  # the other players' lines must not count
            lines[turn] = choose(hands[turn], block[-4])
            proc.stdin.write("\n".join(lines) + "\n")
            proc.stdin.flush()
            turns += 1
            assert turns < 3000
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
    finally:
        proc.kill()
        proc.wait()
    return transcript


@pytest.mark.parametrize("ruleset", ["seed", "official"])
def test_rule_19_a_script_drives_a_full_three_player_game(ruleset: str) -> None:
    transcript = drive(3, seed=11, ruleset=ruleset)
    winner_line = transcript[-1]
    assert winner_line.startswith("player ") and winner_line.endswith(" wins !")
    winner = int(winner_line.split()[1])
    assert transcript[-8 + 2 * winner + 2] == ""  # the winner's hand is empty
    assert transcript[2 * 3] == "Start Game!"
    assert all(
        m in ("End Turn", "Obey the rule!End Turn")
        for m in transcript[7:]
        if m.endswith("End Turn")
    )


def test_rule_19_bad_arguments_are_one_line_and_exit_2() -> None:
    # jump_in is refused: only the current player's line is read, so nobody could jump in.
    for args in (
        ["1"],
        ["11"],
        ["x"],
        ["3", "--ruleset", "house"],
        [],
        ["3", "--house", "jump_in"],
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "bot", "play", "uno", *args],
            check=False, cwd=ROOT, capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert proc.returncode == 2, args
        assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
        assert proc.stdout == ""


def test_rule_19_a_colour_or_number_after_an_ordinary_card_is_ignored(rig: Rig) -> None:
    # The seed: COLOR "takes effect only when the card played is W or W+4".
    state = rig([["red_1", "red_2", "blue_3"], ["red_9", "yellow_3"]], "red_5", ruleset="seed")
    out = io.StringIO()
    assert play(state, io.StringIO("0 blue\n\n\n0 blue 0\n0 green 1\n\n"), out) == 1
    assert (hand(state, 0), hand(state, 1)) == (["blue_3"], ["yellow_3"])
    assert "Obey the rule!End Turn" not in out.getvalue()


@pytest.mark.parametrize("line", ["", "1"])
def test_rule_11_blank_line_under_stacking_is_the_penalty_it_is_called(rig: Rig, line: str) -> None:
    # A blank line and an illegal card (green_4 on red_+2) are the same rule 11 penalty:
    # the pending two plus one card, and the message says so.
    state = rig(
        [["red_+2", "red_1"], ["blue_3", "green_4"], ["yellow_1"]],
        "red_5",
        ruleset="seed",
        stacking=True,
    )
    out = io.StringIO()
    assert play(state, io.StringIO(f"0\n\n\n\n{line}\n\n"), out) == 1
    assert len(state.hands[1]) == 2 + 2 + 1
    messages = [m for m in out.getvalue().splitlines() if m.endswith("End Turn")]
    assert messages == ["End Turn", "Obey the rule!End Turn"]


def test_rule_19_a_reader_closing_early_ends_the_judge_quietly() -> None:
    proc = judge("3", "--seed", "1")
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    try:
        ready, _, _ = select.select([proc.stdout], [], [], READ_TIMEOUT)
        assert ready, "the judge printed nothing (a block not flushed?)"
        assert os.read(proc.stdout.fileno(), 100).startswith(b"add players\n")
        proc.stdout.close()  # as `deckhand play uno 3 | head -1` does
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.write("\n" * 300)
            proc.stdin.close()
        assert proc.wait(timeout=30) == 1
        assert proc.stderr.read() == ""  # no traceback
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize(("line", "obey"), [("blue", False), ("Blue", False), ("purple", True)])
def test_rule_19_official_colour_line_after_a_wild_first_card(
    rig: Rig, line: str, obey: bool
) -> None:
    # Official rule 4: the first player names the colour of a wild turned first, then plays.
    state = rig(
        [["blue_1", "red_9"], ["red_2", "green_3"]], first="none_W", turn=0, ruleset="official"
    )
    out = io.StringIO()
    assert play(state, io.StringIO(f"{line}\n\n"), out) == 1
    printed = out.getvalue().split("\n")
    first, second = (i for i, text in enumerate(printed) if text == "Current Card:")
    assert printed[first + 1 : first + 4] == ["none_W", "Current Turn:", "0"]
    assert printed[second - 5] == ("Obey the rule!End Turn" if obey else "End Turn")
    # The colour is named (at random when unreadable) and the same player is to play.
    named = printed[second + 1]
    assert named == "blue_W" if not obey else named.endswith("_W") and named != "none_W"
    assert printed[second + 2 : second + 4] == ["Current Turn:", "0"]
    assert hand(state, 0) == ["blue_1", "red_9"]
