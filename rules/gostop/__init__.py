"""Go-Stop, two-player Matgo (맞고): the engine of ``docs/rules/gostop.md``.

``new(2, seed=..., options=...)`` deals; ``restore(snapshot)`` rebuilds a saved game. Cards and
their codes are in :mod:`rules.gostop.cards`, scoring in :mod:`rules.gostop.scoring`, actions
and events in :mod:`rules.gostop.events`, the turn machine in :mod:`rules.gostop.state` and the
computer player in :mod:`rules.gostop.ai`.
"""

from rules.gostop.events import Bomb, ChongtongChoice, Go, Play, Stop, TakeFlip
from rules.gostop.state import GostopView, Phase, State, new, restore

__all__ = [
    "Bomb",
    "ChongtongChoice",
    "Go",
    "GostopView",
    "Phase",
    "Play",
    "State",
    "Stop",
    "TakeFlip",
    "new",
    "restore",
]
