"""The one bootstrap: every interval in a log and in the report is drawn here, with one setting,
for all resamples at once: over rows of drawn item indices (for a mean, exactly scipy's percentile
bootstrap with the same generator: tested) or, for a few distinct pairs, their drawn counts."""

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from liveqa_inspect.stats.names import ci_keys

RESAMPLES = 10_000
SEED = 20170
"""Every interval is seeded: a log always reports, and its report prints, the same interval."""


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


Figures = dict[str, Estimate]
"""Figures by the names a log's metrics give them, each with its interval."""


def resample_rows(n: int) -> np.ndarray:
    """The seeded draws: RESAMPLES rows of n item indices (the same rows keep pairs paired)."""
    return np.random.default_rng(SEED).integers(0, n, size=(RESAMPLES, n))


def tallied_estimates(
    figures: Callable[..., dict[str, np.ndarray]], *columns: np.ndarray
) -> Figures:
    """`figures` of n items, the rows of `columns`, with intervals. It gets the distinct rows, as
    columns, and their counts: the items', then (from 2 items) in each of RESAMPLES seeded draws
    of n (multinomial: `resample_rows`' draws counted; for agreement far faster, RESULTS.md)."""
    distinct, counts = np.unique(np.column_stack(columns), axis=0, return_counts=True)
    n, weights = int(counts.sum()), [counts[None, :]]
    if n >= 2:
        weights.append(np.random.default_rng(SEED).multinomial(n, counts / n, size=RESAMPLES))
    found = figures(*distinct.T, np.vstack(weights).astype(float))
    return {key: Estimate(float(v[0]), *percentile_interval(v[1:]), n) for key, v in found.items()}


def redrawn_counts(*counts: np.ndarray) -> list[np.ndarray]:
    """Independent samples, each as its distinct items' counts: each sample's counts (the first
    row), then RESAMPLES seeded multinomial redraws of them (as `tallied_estimates` draws one
    sample), each sample from its own stream of SEED so that no two samples' draws move
    together. A sample of no items has rows of 0."""
    rows = []
    for stream, given in zip(np.random.SeedSequence(SEED).spawn(len(counts)), counts, strict=True):
        n = int(given.sum())
        drawn = np.zeros((RESAMPLES, len(given)))
        if n:
            drawn = np.random.default_rng(stream).multinomial(n, given / n, size=RESAMPLES)
        rows.append(np.vstack([given[None, :], drawn]).astype(float))
    return rows


def percentile_interval(values: np.ndarray) -> tuple[float, float]:
    """95% percentile interval of the defined resample values; NaN when none is defined."""
    values = values[~np.isnan(values)]
    if len(values) == 0:
        return math.nan, math.nan
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


def estimate(statistic: Callable[[np.ndarray], np.ndarray], n: int) -> Estimate:
    """`statistic` of the n items, a figure for each row of item indices (the items themselves are
    the row `arange(n)`), with its interval over the seeded resamples of them. Not scipy's
    `bootstrap`: its interval is NaN when any resample's figure is (a ratio with nothing drawn)."""
    value = float(statistic(np.arange(n)[None, :])[0]) if n else math.nan
    if n < 2:
        return Estimate(value, n=n)
    return Estimate(value, *percentile_interval(statistic(resample_rows(n))), n=n)


def mean_estimate(values: np.ndarray | list[float]) -> Estimate:
    """The mean of the defined values with its interval."""
    defined = np.asarray(values, dtype=float)[~np.isnan(values)]
    return estimate(lambda rows: defined[rows].mean(axis=1), len(defined))


def mean_interval(values: np.ndarray) -> tuple[float, float]:
    found = mean_estimate(values)
    return found.low, found.high


def one_sided_p(resampled: np.ndarray) -> float:
    """The one-sided p-value of a figure above 0: the share of its resamples at or below 0, with
    one added to both counts so a finite number of resamples never claims p = 0."""
    return float((1 + np.sum(resampled <= 0)) / (1 + len(resampled)))
