"""The computer-player benchmark's contract: each section's rows, and the driver's skips."""

from __future__ import annotations

import importlib.util
from types import ModuleType

import pytest

import rules.crazyeights.ai as crazyeights_ai
import rules.onecard.ai as onecard_ai
import rules.uno.ai as uno_ai
from benchmarks import ai_blackjack, ai_crazyeights, ai_onecard, ai_uno
from benchmarks.ai import run_games
from benchmarks.harness import Report

SHARE_METRICS = {"games", "win share", "win share 95% low", "win share 95% high"}
LEVEL_CASES = (
    "easy vs random",
    "normal vs random",
    "hard vs random",
    "normal vs easy",
    "hard vs easy",
    "hard vs normal",
)


@pytest.fixture(autouse=True)
def quick_hard(monkeypatch: pytest.MonkeyPatch) -> None:
    """A small search budget: the rows do not depend on it, and the test stays fast."""
    for module in (uno_ai, onecard_ai, crazyeights_ai):
        monkeypatch.setattr(module, "HARD_ROLLOUTS", 4)
        monkeypatch.setattr(module, "HARD_MIN_WORLDS", 1)


def rows(report: Report) -> dict[str, dict[str, float]]:
    table: dict[str, dict[str, float]] = {}
    for m in report.results:
        table.setdefault(m.case, {})[m.metric] = m.value
    return table


def check_section(report: Report, game: str, extra: tuple[str, ...]) -> dict[str, dict[str, float]]:
    table = rows(report)
    assert set(table) == {f"{game} {case}" for case in (*LEVEL_CASES, *extra)}
    for case, metrics in table.items():
        assert set(metrics) >= SHARE_METRICS, case
        assert metrics["win share 95% low"] <= metrics["win share"] <= metrics["win share 95% high"]
        assert metrics["games"] >= 2
        # The hard player's decisions are timed; nobody else's are.
        assert ("decision p99" in metrics) == (" hard vs " in f" {case}")
    return table


@pytest.mark.parametrize(
    "module", [ai_uno, ai_onecard, ai_crazyeights], ids=["uno", "onecard", "crazyeights"]
)
def test_sections_add_a_share_and_interval_per_match(module: ModuleType) -> None:
    report = Report("ai")
    module.run(report, games=4, seed=1)
    if module in (ai_onecard, ai_crazyeights):
        game = module.__name__.removeprefix("benchmarks.ai_")
        table = check_section(report, game, ("normal vs greedy", "hard vs greedy"))
    else:
        peer = ("normal vs uno-rule-v1",) if importlib.util.find_spec("rlcard") else ()
        table = check_section(report, "uno", peer)
    assert table[f"{module.__name__[14:]} normal vs random"]["games"] == 4
    targets = [n for n in report.notes if n.startswith("target ")]
    assert any("hard vs normal: win share >= 55%" in n for n in targets)
    assert any("normal vs easy: win share >= 50%" in n for n in targets)


def test_uno_without_rlcard_skips_only_that_match(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_uno, "rlcard_player", lambda: None)
    report = Report("ai")
    ai_uno.run(report, games=2, seed=1)
    check_section(report, "uno", ())
    assert "uno normal vs uno-rule-v1: skipped, rlcard is not installed" in report.notes


def test_the_driver_notes_a_game_without_a_section() -> None:
    report = Report("ai")
    run_games(report, ("nosuchgame",), 2, 1)
    assert report.notes == ["nosuchgame: skipped, there is no benchmarks/ai_nosuchgame.py"]
    assert report.results == []


def test_sections_in_processes_add_the_same_figures_in_the_same_order() -> None:
    # The quick search budget above reaches the processes: they are forked from this one.
    alone, together = Report("ai"), Report("ai")
    run_games(alone, ("uno", "blackjack", "nosuchgame"), 4, 1)
    run_games(together, ("uno", "blackjack", "nosuchgame"), 4, 1, jobs=2)

    def figures(report: Report) -> list[object]:
        return [m for m in report.results if m.unit != "ms"]  # times differ run to run

    assert figures(together) == figures(alone)
    assert len(together.results) == len(alone.results)
    assert together.results[0].case.startswith("uno ")
    assert together.results[-1].case.startswith("blackjack ")
    # The notes in the same order (their times aside).
    assert [n.split(":")[0] for n in together.notes] == [n.split(":")[0] for n in alone.notes]


def test_a_section_without_games_plays_its_own_size(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_blackjack, "GAMES", 12)
    report = Report("ai")
    run_games(report, ("blackjack",), None, 1)
    assert {m.case for m in report.results} >= {"blackjack easy, 12 hands"}
    assert report.notes[-1].startswith("blackjack: 12 a match, section took ")
