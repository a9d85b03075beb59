"""The one bootstrap: every interval in a log and in the report is drawn here, with one setting.

A figure is computed for all resamples at once, over a resamples-by-items matrix of indices or,
for a few distinct pairs of values, of how many times each is drawn. For a mean, the draws and
the interval are exactly scipy's `bootstrap(method="percentile")` with the same generator (tested).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from liveqa_inspect.stats.names import ci_keys

RESAMPLES = 10_000
SEED = 20170
"""Every interval is seeded: the same log always reports, and the report always prints, the same
interval."""


@dataclass(frozen=True)
class Estimate:
    """A figure over n items with its 95% interval (NaN bounds where n < 2 leaves no spread)."""

    value: float
    low: float = math.nan
    high: float = math.nan
    n: int = 0

    def named(self, name: str) -> dict[str, float]:
        """The figure and its bounds as a log's metrics name them."""
        return dict(zip((name, *ci_keys(name)), (self.value, self.low, self.high), strict=True))


def resample_rows(n: int) -> np.ndarray:
    """The seeded draws: RESAMPLES rows of n item indices (the same rows keep pairs paired)."""
    return np.random.default_rng(SEED).integers(0, n, size=(RESAMPLES, n))


def tallied_estimates(
    figures: Callable[..., dict[str, np.ndarray]], *columns: np.ndarray
) -> dict[str, Estimate]:
    """`figures` of n items, the rows of `columns`, with intervals. It gets the distinct rows, as
    columns, and their counts: the items', then (from 2 items) in each of RESAMPLES seeded draws
    of n. Counts of items drawn with replacement are multinomial: `resample_rows`' draws counted."""
    distinct, counts = np.unique(np.column_stack(columns), axis=0, return_counts=True)
    n, weights = int(counts.sum()), [counts[None, :]]
    if n >= 2:
        weights.append(np.random.default_rng(SEED).multinomial(n, counts / n, size=RESAMPLES))
    found = figures(*distinct.T, np.vstack(weights).astype(float))
    return {key: Estimate(float(v[0]), *percentile_interval(v[1:]), n) for key, v in found.items()}


def percentile_interval(values: np.ndarray) -> tuple[float, float]:
    """95% percentile interval of the defined resample values; NaN when none is defined."""
    values = values[~np.isnan(values)]
    if len(values) == 0:
        return math.nan, math.nan
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


Statistic = Callable[[np.ndarray], np.ndarray]
"""A figure for each row of item indices: the sample itself is the row `arange(n)`."""


def estimate(statistic: Statistic, n: int) -> Estimate:
    """`statistic` on the n items, with its interval over the seeded resamples of them."""
    value = float(statistic(np.arange(n)[None, :])[0]) if n else math.nan
    if n < 2:
        return Estimate(value, n=n)
    return Estimate(value, *percentile_interval(statistic(resample_rows(n))), n=n)


def mean_estimate(values: np.ndarray) -> Estimate:
    """The mean of the defined values with its interval."""
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    if len(values) == 0:
        return Estimate(math.nan)
    return Estimate(float(values.mean()), *mean_interval(values), len(values))


def mean_interval(values: np.ndarray) -> tuple[float, float]:
    """95% interval of the mean; NaN where fewer than two values leave nothing to vary."""
    if len(values) < 2:
        return math.nan, math.nan
    return percentile_interval(values[resample_rows(len(values))].mean(axis=1))


def one_sided_p(resampled: np.ndarray) -> float:
    """The one-sided p-value of a figure above 0: the share of its resamples at or below 0, with
    one added to both counts so a finite number of resamples never claims p = 0."""
    return float((1 + np.sum(resampled <= 0)) / (1 + len(resampled)))
