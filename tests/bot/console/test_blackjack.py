"""``deckhand play blackjack SEED PLAYERS --level``: the computer seats' level goes to the
engine as ``computer_level`` and shows beside their names; normal is the seed's transcript
(its golden tests are in ``tests/rules/blackjack/test_console.py``)."""

from __future__ import annotations

import io
from typing import Any

import pytest

import rules.blackjack as bj
from bot.cli import USAGE_ERROR, main
from bot.console import blackjack as console
from rules.engine import IllegalAction
from rules.levels import Level


def run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("Stand\n"))
    code = main(["play", "blackjack", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("level", list(Level))
def test_the_level_reaches_the_engine_and_the_screen(
    level: Level, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    dealt: list[dict[str, Any]] = []
    real_new = bj.new

    def record(players: int, **kwargs: Any) -> Any:
        options = dict(kwargs["options"])
        dealt.append(options)
        # The engine on this branch knows no level yet: deal its own (normal) game.
        kwargs["options"] = {k: v for k, v in options.items() if k != "computer_level"}
        return real_new(players, **kwargs)

    monkeypatch.setattr(bj, "new", record)
    code, out, err = run(monkeypatch, capsys, "200", "3", "--level", level.value)
    assert code == 0 and err == ""
    expected: dict[str, Any] = {"computers": [1, 2]}
    if level is not Level.NORMAL:
        expected["computer_level"] = level.value
    assert dealt == [expected]
    lines = out.splitlines()
    player2 = "Player2:" if level is Level.NORMAL else f"Player2 ({level.value}):"
    assert any(line.startswith(player2) for line in lines), out
    assert any(line.startswith("Player1:") for line in lines)  # the member's seat: no level


def test_an_unknown_level_is_a_usage_mistake(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["play", "blackjack", "200", "3", "--level", "expert"])
    assert exit_info.value.code == USAGE_ERROR
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "expert" in err


def test_an_engine_that_refuses_the_level_says_why_in_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(players: int, **kwargs: Any) -> Any:
        raise IllegalAction("Unknown Blackjack option 'computer_level'.", code="unknown_option")

    monkeypatch.setattr(bj, "new", refuse)
    code, out, err = run(monkeypatch, capsys, "200", "3", "--level", "hard")
    assert code == USAGE_ERROR and out == ""
    assert err == "deckhand play blackjack: Unknown Blackjack option 'computer_level'.\n"
    assert console.HINT not in err
