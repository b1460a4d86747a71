"""95% confidence intervals for the computer-player benchmark (``benchmarks/ai.py``).

A win share is a binomial proportion: its interval is Wilson's, which stays inside [0, 1] and
is honest for shares near 0 or 1 where the normal approximation is not. A mean of points per
game uses the normal approximation, fine for the thousands of games each case plays.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

Z95 = 1.959963984540054  # the two-sided 95% quantile of the standard normal


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The 95% interval of a share ``successes / trials`` (a draw may count as half)."""
    if trials <= 0:
        raise ValueError("an interval needs at least one trial")
    share = successes / trials
    denominator = 1 + z * z / trials
    centre = (share + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(share * (1 - share) / trials + z * z / (4 * trials * trials))
    half /= denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of ``values`` with its 95% interval: ``(mean, low, high)``."""
    if len(values) < 2:
        raise ValueError("an interval needs at least two values")
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half
