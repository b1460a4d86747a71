"""Uno's section of the computer-player benchmark (``ai.py``): heads-up matches, official
rules, no house rules.

The levels play each other and a uniformly random legal player, and the normal player meets
RLCard's rule agent ``uno-rule-v1`` through an adapter that shows it our view as RLCard's raw
state. RLCard's Uno differs from ours, so the adapter plays it by our rules, as close to its
own as they allow: RLCard has no challenge and no UNO call and does not score points (a win
is a win here too); it draws one card and plays it at once when it fits (here the agent is
offered that card, and its rule always plays what fits); its Wild Draw Four is legal only
when nothing else plays (so the adapter offers it only then: it never bluffs); a wild turned
first takes a random colour there (here the adapter names the colour the agent holds most);
+2 and +4 cards are taken without stacking in both.
"""

from __future__ import annotations

import random
from collections import Counter

from benchmarks.ai_match import Player, level_cases, run_cases
from benchmarks.harness import Report
from rules.engine import Action
from rules.uno import UnoView, new
from rules.uno.ai import choose_action
from rules.uno.events import ChooseColour, Draw, Pass, Play

GAMES = 2_000  # games a match; the hard player's matches play fewer (ai_match.hard_games)
_RL_COLOURS = "rgby"
_RL_RANKS = {"+2": "draw_2", "R": "reverse", "S": "skip", "W": "wild", "W+4": "wild_draw_4"}


def random_player(view: UnoView, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    return rng.choice(view.legal)


def _rl_code(code: str, colour: int | None) -> str:
    """Our card code (``red_5``, ``none_W``) as RLCard's (``r-5``, ``b-wild``)."""
    name, _, rank = code.partition("_")
    letter = _RL_COLOURS[colour] if colour is not None else name[0]
    return f"{letter}-{_RL_RANKS.get(rank, rank)}"


def rlcard_player() -> Player | None:
    """``uno-rule-v1`` playing through the adapter, or ``None`` when RLCard is missing."""
    try:
        import numpy as np
        from rlcard.models import load  # type: ignore[import-untyped]
    except ImportError:
        return None
    agent = load("uno-rule-v1").agents[0]

    def play(view: UnoView, rng: random.Random) -> Action:
        hand = view.hand or ()
        # Wilds in hand carry a colour in RLCard; the agent ignores it ("x-wild" is filtered).
        rl_hand = [_rl_code(code, 0 if code.startswith("none") else None) for code in hand]
        colours = Counter(c[0] for c in rl_hand if "wild" not in c)
        if view.phase == "choose_colour":
            best = max(range(4), key=lambda c: (colours[_RL_COLOURS[c]], -c))
            return next(a for a in view.legal if isinstance(a, ChooseColour) and a.colour == best)
        plays = [a for a in view.legal if isinstance(a, Play)]
        if view.pending:
            plays = []  # RLCard takes +2/+4 at once
        by_code = {_rl_code(hand[a.index], a.colour): a for a in reversed(plays)}
        options = [code for code in by_code if "wild_draw_4" not in code]
        if not options:
            options = list(by_code)
        if not options:
            return next(a for a in view.legal if isinstance(a, (Draw, Pass)))
        np.random.seed(rng.getrandbits(32))  # the agent draws from numpy's global generator
        chosen, _ = agent.eval_step(
            {"raw_legal_actions": options, "raw_obs": {"hand": rl_hand, "target": view.top}}
        )
        return by_code[chosen]

    return play


def run(report: Report, games: int, seed: int) -> None:
    """Uno's matches (see the module docstring), ``games`` a match."""
    cases = level_cases("uno", choose_action, random_player, games)
    rule_agent = rlcard_player()
    if rule_agent is None:
        report.note("uno normal vs uno-rule-v1: skipped, rlcard is not installed")
    else:
        # Twenty times the games: cheap (about 3 ms a game), and the target (52%) sits
        # close to a half: 40,000 games put the interval about half a point either way.
        cases.append(("uno normal vs uno-rule-v1", cases[1][1], rule_agent, games * 20, 0.52))
        report.note(
            "uno-rule-v1 plays our official rules through an adapter: no challenge, no UNO "
            "call or points in RLCard; its W+4 only when nothing else plays; it plays a drawn "
            "card that fits (RLCard does so automatically)"
        )
    run_cases(report, lambda deal: new(2, seed=deal), cases, seed)
