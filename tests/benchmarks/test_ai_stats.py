"""The benchmark's confidence intervals against values worked out by hand."""

from __future__ import annotations

import pytest

from benchmarks.ai_stats import mean_interval, wilson_interval


def test_wilson_interval_of_a_known_share() -> None:
    # 55 of 100: Wilson's 95% interval is [0.4524, 0.6438] (textbook value).
    low, high = wilson_interval(55, 100)
    assert low == pytest.approx(0.4524, abs=1e-4)
    assert high == pytest.approx(0.6438, abs=1e-4)


def test_wilson_interval_stays_inside_zero_and_one() -> None:
    low, high = wilson_interval(0, 20)
    assert low == 0.0 and 0.0 < high < 0.2
    low, high = wilson_interval(20, 20)
    assert 0.8 < low < 1.0 and high == 1.0


def test_mean_interval_narrows_with_more_values() -> None:
    mean, low, high = mean_interval([1.0, 3.0] * 50)
    assert mean == 2.0
    # stdev of 100 values alternating 1 and 3 is ~1.005; half-width 1.96 * 1.005 / 10.
    assert high - mean == pytest.approx(0.19698, abs=1e-4)
    assert mean - low == pytest.approx(high - mean)
    with pytest.raises(ValueError):
        mean_interval([1.0])
