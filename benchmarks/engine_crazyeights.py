"""Crazy Eights engine speed: random-policy decisions and games per second with 2 and 4
players.

The policy picks uniformly among ``legal_actions`` (every card that fits, an 8 once per suit,
and Draw or Pass). Each batch plays whole games, deal included; each figure is the median of
``--repeats`` (at least 5) runs. The peer is OpenSpiel's ``crazy_eights``, measured the same
way and only when ``pyspiel`` is importable, as for One Card (``engine_onecard.py``, whose
pieces this uses).
"""

from __future__ import annotations

import argparse

from engine_onecard import bench_beside_crazy_eights
from harness import Report

from rules.crazyeights import new


def bench(report: Report, args: argparse.Namespace) -> None:
    """Random-policy decisions/s and games/s with 2 and 4 players, and OpenSpiel when present
    (the smaller decisions/s ratio of the player counts is the recorded one)."""
    bench_beside_crazy_eights(
        report,
        args,
        "crazyeights",
        new,
        "OpenSpiel plays its own variant (its defaults bound the draws of a turn and the "
        "game's length), so compare decisions/s",
    )
