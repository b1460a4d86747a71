"""``deckhand play gostop``: the seed's South-and-North game on a terminal.

The golden transcript (``golden/gostop_seed_64.*``) is a whole game against the computer with
seed 64, typed from a fixed input file and echoed as a terminal shows it: the seed's prompts,
invalid answers asked again, a 0 taken back, a shake, a ``[1]`` ``[2]`` choice on the blanket,
two Go's then a Stop and the score sheet. The other tests check what the transcript does not
show: quitting, the end of input, a human North, the chongtong and bomb questions, the
flipped card beside ``???`` with its choice, and the command line.
"""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.console import gostop as console
from rules.gostop import Phase, Play, new
from rules.levels import Level
from tests.bot.console.test_onecard import EchoInput
from tests.rules.gostop.helpers import arrange

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).resolve().parents[3]
SEED = 64
CHONGTONG_SEED = 0  # South, dealing, holds all four of a month
BOMB_SEED = 13  # South may bomb when answering 1 to everything


def run(text: str, **options: object) -> tuple[int, str]:
    out = io.StringIO()
    code = console.play(EchoInput(text, out), out, **options)  # type: ignore[arg-type]
    return code, out.getvalue()


def test_golden_transcript_of_a_whole_game_against_the_computer() -> None:
    code, printed = run((GOLDEN / "gostop_seed_64.in").read_text(), seed=SEED)
    assert code == 0
    assert printed == (GOLDEN / "gostop_seed_64.txt").read_text()


def test_the_transcript_shows_what_the_issue_asks_for() -> None:
    printed = (GOLDEN / "gostop_seed_64.txt").read_text()
    lines = printed.splitlines()
    # North's hand hidden, South's numbered, the deck as ???, both captured piles.
    assert lines[1] == "북군 손패 10장: " + " ".join(["???"] * 10)
    assert lines[10].startswith("남군 손패 10장: 1)2열  2)2띠  3)2피")
    assert "덱: ??? (20장)" in lines and "북군이 먹은 패 (0점)" in lines
    # The seed's prompts, an invalid answer asked again, a 0 taken back.
    assert "내고 싶은 화투를 선택하세요(1~10,0:종료) x" in lines
    assert lines.count(console.INVALID) == 2
    assert "정말 끝낼겁니까?(0:예,1:아니오)1" in lines
    assert "담요: 3피  4열  6피  7띠  8피  10열  [1]11광 [2]11피" in lines
    assert "어떤 카드를 선택하시겠습니까?(1~2)1" in lines
    assert (
        "설사했습니다." in lines and "2월 석 장을 보여 주고 흔들겠습니까?(0:아니오,1:예)1" in lines
    )
    assert [line for line in lines if line.startswith("추가 점수")] == [
        "추가 점수를 획득했습니다.(0:스톱, 1:계속)1",
        "추가 점수를 획득했습니다.(0:스톱, 1:계속)1",
        "추가 점수를 획득했습니다.(0:스톱, 1:계속)0",
    ]
    # The score sheet, line by line, then the seed's last words.
    assert lines[-11:] == [
        "점수표",
        " 띠                         2점",
        " 피                         7점",
        " 단 (청단)                  3점",
        " 기본 점수                 12점",
        " 고 보너스 (2고)           +2점",
        " 흔들기 1번                  ×2",
        " 피박                        ×2",
        " (12 + 2) × 4            = 56점",
        " 합계                      56점",
        "게임이 끝났습니다.",
    ]


def test_zero_then_yes_quits_without_the_ending() -> None:
    code, printed = run("0\n0\n", seed=SEED)
    assert code == 0
    assert printed.endswith(
        "내고 싶은 화투를 선택하세요(1~10,0:종료) 0\n정말 끝낼겁니까?(0:예,1:아니오)0\n"
    )
    assert console.GAME_OVER not in printed


@pytest.mark.parametrize("typed", ["", "1\n", "1\n1\n1\n"])
def test_the_end_of_input_ends_quietly(typed: str) -> None:
    code, printed = run(typed, seed=SEED)
    assert code == 0 and printed.endswith("\n")
    assert console.GAME_OVER not in printed


def test_invalid_answers_are_asked_again_whatever_they_are() -> None:
    code, printed = run("\n-1\n1.5\n일\n11\n", seed=SEED)
    assert code == 0
    assert printed.count(console.INVALID) == 5
    assert printed.count("내고 싶은 화투를 선택하세요(1~10,0:종료) ") == 6


def test_a_is_ten_as_in_the_seed() -> None:
    _, printed = run("a\n", seed=SEED)
    assert "남군이 12띠 패를 냈습니다." in printed


def test_against_a_human_north_shows_both_hands_and_asks_each_side() -> None:
    north = new(2, seed=SEED, options={"dealer": 0}).view(1).hand
    assert north is not None
    code, printed = run("1\n" * 400, seed=SEED, computer=False)
    assert code == 0 and printed.endswith(console.GAME_OVER + "\n")
    lines = printed.splitlines()
    # North's hand shows (South is to move: not numbered), then numbered on North's turn.
    dealt = " ".join(console.card_name(c, "ko") for c in north)
    assert lines[1] == f"북군 손패 10장: {dealt}"
    assert any(line.startswith("북군 손패 10장: 1)") for line in lines)
    assert not any(line.startswith("북군 손패") and "???" in line for line in lines)
    assert "북군이 먹은 패 (0점)" in lines and "북군이 " in printed


def test_a_chongtong_is_asked_at_the_first_turn() -> None:
    state = new(2, seed=CHONGTONG_SEED, options={"dealer": 0})
    assert state.phase == Phase.CHONGTONG and state.current_seat == 0
    code, printed = run("1\n", seed=CHONGTONG_SEED)
    assert code == 0
    assert console.CHONGTONG_PROMPT + "1" in printed.splitlines()
    assert "총통입니다. 남군이" in printed and printed.endswith(console.GAME_OVER + "\n")
    assert " 합계                      10점" in printed.splitlines()


def test_a_bomb_is_asked_and_played() -> None:
    code, printed = run("1\n" * 400, seed=BOMB_SEED)
    assert code == 0
    assert any(line.endswith("폭탄을 하겠습니까?(0:아니오,1:예)1") for line in printed.splitlines())
    assert "남군이 폭탄을 했습니다." in printed


def test_the_flipped_card_shows_beside_the_deck_with_its_choice() -> None:
    # South plays 8피b onto nothing; the flipped 12쌍피 could take 12열 or 12띠.
    state = arrange(
        (("8피b", "10열", "10띠"), ("11광", "11피a")), ["12열", "12띠"], ["12쌍피", "5피a"]
    )
    code, printed = run("1\n2\n", state=state)
    lines = printed.splitlines()
    assert "덱: ??? 12쌍피" in lines and "담요: 8피  [1]12열 [2]12띠" in lines
    assert "어떤 카드를 선택하시겠습니까?(1~2)2" in lines
    assert "남군이 12쌍피, 12띠 패를 먹었습니다." in lines
    assert state.phase != Phase.FLIP_CHOICE and code == 0


def test_a_shake_can_be_declined() -> None:
    state = arrange(
        (("2열", "2띠", "2피a", "10열"), ("11광", "11피a")), ["3피a"], ["12쌍피", "5피a", "6피a"]
    )
    assert any(isinstance(a, Play) and a.shake for a in state.legal_actions(0))
    code, printed = run("1\n0\n", state=state)
    assert "2월 석 장을 보여 주고 흔들겠습니까?(0:아니오,1:예)0" in printed.splitlines()
    assert "남군이 2열 패를 냈습니다." in printed and "흔들었습니다" not in printed
    assert code == 0 and state.view(None).shakes == (0, 0)


def deckhand(*args: str, answers: str = "") -> subprocess.CompletedProcess[str]:
    """``deckhand`` run as a program, ``answers`` on its standard input."""
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        input=answers,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_the_command_line_plays_and_refuses_a_bad_opponent() -> None:
    answers = (GOLDEN / "gostop_seed_64.in").read_text()
    done = deckhand("play", "gostop", "--seed", str(SEED), answers=answers)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.endswith(console.GAME_OVER + "\n")
    bad = deckhand("play", "gostop", "--opponent", "robot")
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and "robot" in bad.stderr


def test_a_reader_closing_the_pipe_ends_it_quietly() -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "gostop", "--seed", str(SEED)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    ) as program:
        assert program.stdin is not None and program.stdout is not None
        # The program waits for its first answer: nothing more is written until it comes.
        assert program.stdout.readline() == console.RULE + "\n"
        program.stdout.close()  # as `| head -1` does
        program.stdin.write("1\n" * 20)
        program.stdin.close()
        assert program.wait(timeout=60) == 1
        assert program.stderr is not None and program.stderr.read() == ""


def test_the_level_is_refused_unless_known_and_shown_beside_the_computer() -> None:
    answers = (GOLDEN / "gostop_seed_64.in").read_text()
    hard = deckhand("play", "gostop", "--seed", str(SEED), "--level", "hard", answers=answers)
    assert hard.returncode == 0 and hard.stderr == ""
    assert hard.stdout.splitlines()[1] == "북군(고수) 손패 10장: " + " ".join(["???"] * 10)
    bad = deckhand("play", "gostop", "--level", "expert")
    assert bad.returncode == 2 and bad.stdout == ""
    assert len(bad.stderr.splitlines()) == 1 and "expert" in bad.stderr


@pytest.mark.parametrize("level", list(Level))
def test_the_computer_plays_at_the_level_with_its_own_replayable_rng(
    level: Level, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[tuple[Level, float]] = []
    real = console.choose_action

    def record(view: Any, level: Level = Level.NORMAL, rng: random.Random | None = None) -> Any:
        assert rng is not None
        asked.append((level, rng.random()))
        return real(view, level, rng)

    monkeypatch.setattr(console, "choose_action", record)
    answers = (GOLDEN / "gostop_seed_64.in").read_text()
    runs = []
    for _ in range(2):
        asked.clear()
        code, printed = run(answers, seed=SEED, level=level)
        assert code == 0
        runs.append((list(asked), printed))
    assert runs[0] == runs[1] and runs[0][0]
    assert {given for given, _ in runs[0][0]} == {level}
    korean = {
        Level.EASY: "북군(초보) 손패",
        Level.NORMAL: "북군 손패",
        Level.HARD: "북군(고수) 손패",
    }
    assert korean[level] in runs[0][1]
