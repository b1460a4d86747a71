"""Shared benchmark plumbing: timing, the printed table and the JSON report.

JSON shape: ``{"benchmark", "results": [{"case", "metric", "value", "unit"}], "baselines":
[{"peer", "case", "metric", "value", "unit"}], "ratios": {"<peer>": speed-up}}`` where a
speed-up above 1 means Deckhand is faster.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Measurement:
    """One figure: ``value`` ``unit`` of ``metric`` in ``case``, measured on ``peer``."""

    case: str
    metric: str
    value: float
    unit: str
    peer: str = "deckhand"


@dataclass
class Report:
    """A benchmark run's figures: Deckhand's, its peers' (baselines), speed-ups and notes."""

    benchmark: str
    results: list[Measurement] = field(default_factory=list)
    baselines: list[Measurement] = field(default_factory=list)
    ratios: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def add(self, case: str, metric: str, value: float, unit: str) -> None:
        """Record a figure measured on Deckhand."""
        self.results.append(Measurement(case, metric, value, unit))

    def add_baseline(self, peer: str, case: str, metric: str, value: float, unit: str) -> None:
        """Record the same case measured on ``peer``, for comparison."""
        self.baselines.append(Measurement(case, metric, value, unit, peer))

    def set_ratio(self, peer: str, speed_up: float) -> None:
        """Record how many times faster Deckhand is than ``peer`` (above 1: faster)."""
        self.ratios[peer] = speed_up

    def note(self, text: str) -> None:
        """Add a line printed under the table and kept in the JSON."""
        self.notes.append(text)

    def print_table(self) -> None:
        """Print every figure as an aligned table, then the speed-ups and notes."""
        rows = [("who", "case", "metric", "value", "unit")]
        for m in [*self.results, *self.baselines]:
            rows.append((m.peer, m.case, m.metric, _fmt(m.value), m.unit))
        widths = [max(len(r[i]) for r in rows) for i in range(5)]
        print(
            f"== {self.benchmark} ({platform.python_implementation()} {platform.python_version()}, "
            f"{os.cpu_count()} cpus)"
        )
        for i, row in enumerate(rows):
            print(
                "  ".join(
                    c.ljust(w) if j < 3 else c.rjust(w) if j == 3 else c
                    for j, (c, w) in enumerate(zip(row, widths, strict=True))
                )
            )
            if i == 0:
                print("  ".join("-" * w for w in widths))
        for peer, ratio in self.ratios.items():
            print(f"speed-up vs {peer}: {ratio:.2f}x")
        for text in self.notes:
            print(f"note: {text}")
        print()

    def to_json(self) -> dict[str, object]:
        """The report in the JSON shape described at the top of this module."""
        return {
            "benchmark": self.benchmark,
            "results": [_entry(m, with_peer=False) for m in self.results],
            "baselines": [_entry(m, with_peer=True) for m in self.baselines],
            "ratios": self.ratios,
            "notes": self.notes,
        }

    def write_json(self, path: str | Path) -> None:
        """Write :meth:`to_json` to ``path``, creating its folder if needed."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        Path(path).write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n")


def _entry(m: Measurement, *, with_peer: bool) -> dict[str, object]:
    data = asdict(m)
    if not with_peer:
        del data["peer"]
    return data


def _fmt(value: float) -> str:
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}"


def median_rate(
    run_batch: Callable[[], int], *, repeats: int = 5, min_seconds: float = 0.3
) -> float:
    """Median over ``repeats`` runs of items per second; ``run_batch`` returns its item count.

    Each run repeats ``run_batch`` until ``min_seconds`` have passed, so short batches are
    not dominated by timer noise.
    """
    rates = []
    for _ in range(repeats):
        items = 0
        start = time.perf_counter()
        while True:
            items += run_batch()
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds:
                break
        rates.append(items / elapsed)
    return statistics.median(rates)


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def interleaved_rates(
    ours: Callable[[], int], theirs: Callable[[], int] | None, repeats: int
) -> tuple[float, float | None]:
    """Median rates of Deckhand's and a peer's batches (``None`` without a peer), their runs
    alternating so that load from elsewhere on the machine hits both alike."""
    our_rates: list[float] = []
    their_rates: list[float] = []
    for _ in range(repeats):
        our_rates.append(median_rate(ours, repeats=1))
        if theirs is not None:
            their_rates.append(median_rate(theirs, repeats=1))
    return statistics.median(our_rates), statistics.median(their_rates) if their_rates else None
