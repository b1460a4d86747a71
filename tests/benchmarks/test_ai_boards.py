"""The board games' benchmark opponents: the random players' moves are legal, the greedy
ones take what they say, and a tiny run adds every row with its interval."""

from __future__ import annotations

import random

from benchmarks import ai_blackjack, ai_gostop, ai_rummikub
from benchmarks.harness import Report
from rules import rummikub as rk
from rules.gostop import Play, new
from rules.gostop.cards import parse_hwatu
from rules.rummikub.ai import choose_action
from tests.rules.gostop.helpers import arrange


def test_every_rummikub_placement_is_accepted_by_the_rules() -> None:
    tried = 0
    for seed in range(2):
        state = rk.new(2, seed=seed)
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            view = state.view(seat)
            for action in ai_rummikub.placements(view):
                rk.restore(state.snapshot()).apply(seat, action)  # raises if refused
                tried += 1
            state.apply(seat, choose_action(view))
    assert tried >= 60


def test_the_gostop_greedy_player_takes_the_biggest_capture() -> None:
    # 1피b takes one card; 8피b takes the three 8s on the floor (a stack of four).
    state = arrange(
        (("1피b", "8피b", "10열"), ("11광", "11피a")),
        ["1피a", "8광", "8열", "8피a"],
        ["9피a"],
        stacks={8: -1},
    )
    assert ai_gostop.greedy_player(state.view(0), random.Random(0)) == Play(parse_hwatu("8피b"))


def test_random_players_pick_among_legal_moves() -> None:
    state = new(2, seed=3)
    seat = state.current_seat
    assert seat is not None
    for n in range(20):
        action = ai_gostop.random_player(state.view(seat), random.Random(n))
        assert action in state.legal_actions(seat)


def test_tiny_sections_report_every_figure_with_its_interval() -> None:
    report = Report("tiny")
    ai_blackjack.run(report, 50, 1)
    metrics = {(m.case, m.metric) for m in report.results}
    for case, metric in list(metrics):
        if metric == "return per hand":
            assert (case, "return per hand 95% low") in metrics
            assert (case, "return per hand 95% high") in metrics
    assert sum(m.metric == "return per hand" for m in report.results) == 5
    assert len(report.notes) == 2
