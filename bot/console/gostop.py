"""``deckhand play gostop``: the seed's 2-player Matgo (남군 and 북군) at one terminal.

The seed (a textbook's console game) draws North at the top, the blanket (담요) between the
players, the deck as ``???`` with the card it flips beside it, each side's captured cards and
South's hand at the bottom, then asks ``내고 싶은 화투를 선택하세요(1~N,0:종료)``. This console
keeps that screen and the seed's prompts and messages (``설사했습니다.``, ``쪽입니다.``, ...),
and plays docs/rules/gostop.md with the engine: when a card could take either of two floor cards
the blanket marks them ``[1]`` ``[2]`` and asks ``어떤 카드를 선택하시겠습니까?(1~2)``; it also
asks what the seed has no rule for (a shake, a bomb, a chongtong), and Go or Stop with the
seed's ``추가 점수를 획득했습니다.(0:스톱, 1:계속)``. The game ends with the score sheet.

South moves first, as in the seed. Against the computer (the default) North's hand is hidden;
with ``--opponent human`` both hands show and each side answers on its turn; ``--level easy``
or ``hard`` sets how well the computer plays (``북군(고수)`` on the screen; normal, the
default, is the seed's screen as ever). ``0`` asks
``정말 끝낼겁니까?(0:예,1:아니오)`` and quits on ``0``; an invalid answer is asked again with
the seed's ``무효한 번호입니다...``; the end of input ends the program quietly (exit status 0).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from bot.i18n import t
from bot.text.gostop import (
    card_name,
    cards_text,
    in_floor_order,
    month_name,
    pile_lines,
    result_lines,
)
from rules.engine import Action, Event, GameOver
from rules.gostop import (
    Bomb,
    ChongtongChoice,
    Go,
    GostopView,
    Phase,
    Play,
    State,
    Stop,
    TakeFlip,
    new,
)
from rules.gostop.ai import choose_action
from rules.gostop.cards import HwatuCard
from rules.gostop.events import (
    Bombed,
    Captured,
    CardPlayed,
    ChongtongWin,
    Flipped,
    GoCalled,
    InstantPoints,
    Shook,
    Special,
    Stolen,
    Stopped,
)
from rules.levels import Level

__all__ = ["NAMES", "add_arguments", "play", "run", "screen"]

LANG = "ko"
SOUTH, NORTH = 0, 1
NAMES = ("남군", "북군")
RULE = "-" * 64
CARD_PROMPT = "내고 싶은 화투를 선택하세요(1~{n},0:종료) "
QUIT_PROMPT = "정말 끝낼겁니까?(0:예,1:아니오)"
CHOICE_PROMPT = "어떤 카드를 선택하시겠습니까?(1~{n})"
GO_STOP_PROMPT = "추가 점수를 획득했습니다.(0:스톱, 1:계속)"
SHAKE_PROMPT = "{month} 석 장을 보여 주고 흔들겠습니까?(0:아니오,1:예)"
BOMB_PROMPT = "{month} 석 장으로 폭탄을 하겠습니까?(0:아니오,1:예)"
CHONGTONG_PROMPT = "총통입니다. 10점을 받고 끝내겠습니까?(0:계속,1:끝내기)"
INVALID = "무효한 번호입니다. 지정한 범위에 맞게 다시 입력해 주세요."
GAME_OVER = "게임이 끝났습니다."
# Not in the seed (it has no nagari): said in its 합니다체.
REDEALT = "바닥에 같은 달 패 네 장이 깔려 다시 돌렸습니다. 이번 판은 {times}배입니다."
NAGARI = "나가리입니다. 아무도 이기지 못했습니다."
SHEET = "점수표"
# The seed's messages for what happens in a turn (its OutPrompt calls), and ours in its voice.
SPECIALS = {
    "ppuk": "설사했습니다.",
    "jjok": "쪽입니다.",
    "ttadak": "따닥입니다.",
    "sweep": "싹쓸이입니다.",
    "stack": "한꺼번에 세 장을 먹었습니다.",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--seed N`` deals a reproducible game; ``--opponent`` is North: computer or human;
    ``--level`` how well the computer plays."""
    parser.add_argument("--seed", type=int, default=None, help="seed for a reproducible game")
    parser.add_argument(
        "--opponent",
        choices=("computer", "human"),
        default="computer",
        help="who plays North (default: the computer)",
    )
    parser.add_argument(
        "--level",
        choices=[level.value for level in Level],
        default=Level.NORMAL.value,
        help="how well the computer plays North (default: normal)",
    )


def run(args: argparse.Namespace) -> int:
    """Play on standard input and output; a reader that closes the pipe ends it (exit 1)."""
    try:
        return play(
            sys.stdin,
            sys.stdout,
            seed=args.seed,
            computer=args.opponent == "computer",
            level=Level(args.level),
        )
    except BrokenPipeError:
        # Nothing more can be shown: point stdout at devnull so the flush at exit is quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


# -- the screen -------------------------------------------------------------------------------


def _numbered(cards: Sequence[HwatuCard]) -> str:
    return "  ".join(f"{n}){card_name(c, LANG)}" for n, c in enumerate(cards, 1))


def _hand_line(
    view: GostopView, seat: int, *, shown: bool, numbered: bool, level: Level = Level.NORMAL
) -> str:
    size = view.hand_sizes[seat]
    if not shown:
        cards = " ".join(["???"] * size)
    elif numbered:
        cards = _numbered(view.hand or ())
    else:
        cards = " ".join(card_name(c, LANG) for c in view.hand or ())
    # A computer's level beside its name (``북군(고수)``); a normal one as the seed showed it.
    name = (
        NAMES[seat] if level is Level.NORMAL else NAMES[seat] + t(f"level.tag.{level.value}", LANG)
    )
    return f"{name} 손패 {size}장: {cards}".rstrip()


def _blanket(view: GostopView, marks: Sequence[HwatuCard]) -> str:
    groups = []
    for _, cards, stack in view.floor:
        names = " ".join(
            (f"[{marks.index(c) + 1}]" if c in marks else "") + card_name(c, LANG) for c in cards
        )
        if stack is not None and stack >= 0:
            names += f"(설사:{NAMES[stack]})"
        groups.append(names)
    return "담요: " + ("  ".join(groups) if groups else "(비었음)")


def _pae(view: GostopView, seat: int) -> list[str]:
    score = view.piles[seat].score
    extras = [f"{score}점"]
    if view.goes[seat]:
        extras.append(f"{view.goes[seat]}고")
    if view.shakes[seat]:
        extras.append(f"흔들기 {view.shakes[seat]}")
    if view.bombs[seat]:
        extras.append(f"폭탄 {view.bombs[seat]}")
    if view.instant[seat]:
        extras.append(f"즉시 {view.instant[seat]}점")
    return [f"{NAMES[seat]}이 먹은 패 ({', '.join(extras)})", *pile_lines(view.piles[seat], LANG)]


def screen(
    views: tuple[GostopView, GostopView],
    turn: int | None,
    *,
    computer: bool,
    marks: Sequence[HwatuCard] = (),
    level: Level = Level.NORMAL,
) -> str:
    """The seed's screen: North and its captured cards, the deck, the blanket, South's
    captured cards and South's hand; the hand of the player to move numbered. ``views``:
    each seat's own view (North's hand shows only against a human; a computer North's
    ``level`` beside its name)."""
    north, south = views[NORTH], views[SOUTH]
    deck = f"덱: ??? ({south.pile_size}장)"
    if south.flipped is not None:
        deck = f"덱: ??? {card_name(south.flipped, LANG)}"
    lines = [
        RULE,
        _hand_line(
            north,
            NORTH,
            shown=not computer,
            numbered=turn == NORTH,
            level=level if computer else Level.NORMAL,
        ),
        *_pae(north, NORTH),
        "",
        deck,
        _blanket(south, marks),
        "",
        *_pae(south, SOUTH),
        _hand_line(south, SOUTH, shown=True, numbered=turn == SOUTH),
        RULE,
    ]
    return "\n".join(lines)


# -- what happened ----------------------------------------------------------------------------


def event_lines(events: Sequence[Event]) -> list[str]:
    """The turn in the seed's voice: its messages for 설사, 쪽, 따닥, 싹쓸이 and three cards
    taken at once, and in the same voice what it leaves unsaid."""
    lines = []
    for event in events:
        line = _event_line(event)
        if line:
            lines.append(line)
    return lines


def _event_line(event: Event) -> str:
    match event:
        case CardPlayed(seat=seat, card=card):
            return f"{NAMES[seat]}이 {card_name(card, LANG)} 패를 냈습니다."
        case Shook(seat=seat, cards=cards):
            return f"{NAMES[seat]}이 흔들었습니다. ({cards_text(cards, LANG)})"
        case Bombed(seat=seat, cards=cards):
            return f"{NAMES[seat]}이 폭탄을 했습니다. ({cards_text(cards, LANG)})"
        case Flipped(card=card):
            return f"덱에서 {card_name(card, LANG)} 패를 뒤집었습니다."
        case Captured(seat=seat, cards=cards):
            return f"{NAMES[seat]}이 {cards_text(cards, LANG)} 패를 먹었습니다."
        case Special(name=name):
            return SPECIALS.get(name, "")
        case Stolen(seat=seat, card=card):
            return f"{NAMES[seat]}이 상대의 {card_name(card, LANG)} 패를 가져왔습니다."
        case InstantPoints(seat=seat, points=points):
            return f"{NAMES[seat]}이 {points}점을 바로 받았습니다."
        case GoCalled(seat=seat, count=count, score=score):
            return f"{NAMES[seat]}이 {count}고를 불렀습니다. ({score}점)"
        case Stopped(seat=seat, score=score, automatic=automatic):
            if automatic:
                return f"마지막 패라서 {NAMES[seat]}이 스톱합니다. ({score}점)"
            return f"{NAMES[seat]}이 스톱했습니다. ({score}점)"
        case ChongtongWin(seat=seat, month=month):
            return f"총통입니다. {NAMES[seat]}이 {month_name(month, LANG)} 네 장을 모두 들었습니다."
        case GameOver(result=result):
            if not result.winners:
                return "나가리입니다. 아무도 스톱하지 못했습니다."
            winner = result.winners[0]
            return f"{NAMES[winner]}이 {result.scores[winner]}점으로 이겼습니다."
    return ""


# -- asking -----------------------------------------------------------------------------------


class _EndOfInput(Exception):
    """Standard input ended: the program stops quietly."""


class _Quit(Exception):
    """The player answered 0 and confirmed."""


def _input_int(stdin: TextIO, stdout: TextIO, prompt: str, low: int, high: int) -> int:
    """The seed's InputInt: a number from ``low`` to ``high`` (``a`` is 10), asked again after
    the seed's message until one comes."""
    while True:
        stdout.write(prompt)
        stdout.flush()
        line = stdin.readline()
        if not line:
            stdout.write("\n")
            raise _EndOfInput
        answer = line.strip().lower()
        value = 10 if answer == "a" else int(answer) if answer.isdecimal() else -1
        if low <= value <= high:
            return value
        stdout.write(INVALID + "\n")


def _ask_move(state: State, seat: int, stdin: TextIO, stdout: TextIO) -> Action:
    """The seed's questions for one decision of ``seat``; :class:`_Quit` on a confirmed 0."""
    view = state.view(seat)
    legal = view.legal
    if view.phase == Phase.CHONGTONG:
        return ChongtongChoice(end=_input_int(stdin, stdout, CHONGTONG_PROMPT, 0, 1) == 1)
    if view.phase == Phase.GO_STOP:
        return Go() if _input_int(stdin, stdout, GO_STOP_PROMPT, 0, 1) == 1 else Stop()
    if view.phase == Phase.FLIP_CHOICE:
        choices = in_floor_order(view.flip_choices)
        picked = _input_int(stdin, stdout, CHOICE_PROMPT.format(n=len(choices)), 1, len(choices))
        return TakeFlip(choices[picked - 1])
    hand = view.hand or ()
    while True:
        picked = _input_int(stdin, stdout, CARD_PROMPT.format(n=len(hand)), 0, len(hand))
        if picked:
            break
        if _input_int(stdin, stdout, QUIT_PROMPT, 0, 1) == 0:
            raise _Quit
    card = hand[picked - 1]
    plays = [a for a in legal if isinstance(a, Play) and a.card is card]
    marks = in_floor_order(a.target for a in plays if a.target is not None)
    month = month_name(card.month, LANG) if card.month else ""
    if marks:
        stdout.write(_blanket(view, marks) + "\n")
        chosen = _input_int(stdin, stdout, CHOICE_PROMPT.format(n=len(marks)), 1, len(marks))
        return Play(card, marks[chosen - 1])
    if any(a.shake for a in plays):
        shake = _input_int(stdin, stdout, SHAKE_PROMPT.format(month=month), 0, 1) == 1
        return Play(card, None, shake)
    bomb = any(isinstance(a, Bomb) and a.month == card.month for a in legal)
    if bomb and _input_int(stdin, stdout, BOMB_PROMPT.format(month=month), 0, 1) == 1:
        return Bomb(card.month)
    return Play(card)


def _views(state: State) -> tuple[GostopView, GostopView]:
    return state.view(SOUTH), state.view(NORTH)


def play(
    stdin: TextIO,
    stdout: TextIO,
    *,
    seed: int | None = None,
    computer: bool = True,
    state: State | None = None,
    level: Level = Level.NORMAL,
) -> int:
    """Run the game; ``state`` may set up a given position (for tests). The computer plays
    North at ``level``, its random choices its own (the same for the same ``seed``)."""
    if state is None:
        state = new(2, seed=seed, options={"dealer": SOUTH})  # South first, as in the seed
    rng = random.Random(f"computer:{seed}") if seed is not None else random.Random()
    redeals = state.view(None).redeals
    if redeals:  # rule 4: four of a month on the floor at the deal
        stdout.write(REDEALT.format(times=2**redeals) + "\n")
    try:
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            if computer and seat == NORTH:
                action = choose_action(state.view(NORTH), level, rng)
            else:
                view = state.view(seat)
                marks = in_floor_order(view.flip_choices)
                shown = screen(_views(state), seat, computer=computer, marks=marks, level=level)
                stdout.write(shown + "\n")
                action = _ask_move(state, seat, stdin, stdout)
            for line in event_lines(state.apply(seat, action)):
                stdout.write(line + "\n")
    except _EndOfInput:
        return 0
    except _Quit:
        return 0
    stdout.write(screen(_views(state), None, computer=computer, level=level) + "\n")
    if state.result is not None and state.result.winners:
        stdout.write(SHEET + "\n")
        for line in result_lines(state.view(None), LANG):
            stdout.write(line + "\n")
    else:  # a game of its own: no next game to double
        stdout.write(NAGARI + "\n")
    stdout.write(GAME_OVER + "\n")
    stdout.flush()
    return 0
