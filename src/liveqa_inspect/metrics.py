"""Metrics beyond Inspect's built-ins: a seeded bootstrap interval, level shares and group sizes.

Inspect drops unscored (NaN) samples before any metric runs and reports how many in the log's
`unscored_samples`, so every figure here is over the samples the judge could grade.
"""

from __future__ import annotations

import math

import numpy as np
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    grouped,
    mean,
    metric,
    stderr,
    value_to_float,
)
from scipy.stats import bootstrap

from liveqa_inspect.judge import LEVELS

BOOTSTRAP_SEED = 20170
BOOTSTRAP_RESAMPLES = 10_000

_to_float = value_to_float()


def _values(scores: list[SampleScore]) -> np.ndarray:
    return np.array([_to_float(score.score.value) for score in scores], dtype=float)


def bootstrap_interval(values: np.ndarray) -> tuple[float, float]:
    """Seeded percentile bootstrap 95% CI; NaN where fewer than two values leave nothing to vary."""
    if len(values) < 2:
        return math.nan, math.nan
    result = bootstrap(
        (values,),
        np.mean,
        n_resamples=BOOTSTRAP_RESAMPLES,
        confidence_level=0.95,
        method="percentile",
        rng=np.random.default_rng(BOOTSTRAP_SEED),
    )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


@metric
def bootstrap_ci() -> Metric:
    """95% interval of the mean, seeded so the same log always reports the same interval."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        low, high = bootstrap_interval(_values(scores))
        return {"ci_low": low, "ci_high": high}

    return compute


@metric
def level_share() -> Metric:
    """Share of graded samples at each level; with several epochs, averaged values match none."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values = _values(scores)
        if len(values) == 0:
            return {f"share_{level:g}": math.nan for level in LEVELS}
        return {
            f"share_{level:g}": float(np.isclose(values, level).mean()) for level in LEVELS
        }

    return compute


@metric
def count() -> Metric:
    """How many graded samples a figure rests on: a group's n."""

    def compute(scores: list[SampleScore]) -> int:
        return len(scores)

    return compute


def judge_metrics(group_keys: list[str]) -> list[Metric]:
    """The metrics of every judged task: overall figures, then mean and n per metadata group."""
    metrics = [mean(), stderr(), bootstrap_ci(), level_share()]
    for key in group_keys:
        metrics.append(grouped(mean(), key, all=False, name_template=f"{key}/{{group_name}}"))
        metrics.append(grouped(count(), key, all=False, name_template=f"n/{key}/{{group_name}}"))
    return metrics
