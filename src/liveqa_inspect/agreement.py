"""How a judge agrees with human assessors: the metrics of the live_qa_judge task.

Each score is the judge's level for one human-judged answer; the human level sits in the sample's
metadata (`human_level`). Inspect drops unscored samples before metrics run, so every figure is over
the answers the judge gave a readable verdict on, and the log's `unscored_samples` counts the rest.
With several epochs a judge's averaged level is rounded to the nearest level for the level-wise
figures (agreement, kappa, confusion); MAE, bias and rho use the averaged value itself.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric, value_to_float
from scipy.stats import spearmanr
from sklearn.metrics import cohen_kappa_score

from liveqa_inspect.judge import LEVELS
from liveqa_inspect.metrics import BOOTSTRAP_SEED

AGREEMENT_RESAMPLES = 2_000
"""Fewer than the mean's 10,000: kappa and rho are refitted on every resample."""

_to_float = value_to_float()
_LEVELS = np.array(LEVELS)

PairStatistic = Callable[[np.ndarray, np.ndarray], float]


def level_index(values: np.ndarray) -> np.ndarray:
    """0..3 for 0, 0.3, 0.7, 1; the nearest level for an epoch-averaged value."""
    return np.abs(values[:, None] - _LEVELS[None, :]).argmin(axis=1)


def exact_agreement(judge: np.ndarray, human: np.ndarray) -> float:
    return float((level_index(judge) == level_index(human)).mean())


def within_one(judge: np.ndarray, human: np.ndarray) -> float:
    return float((np.abs(level_index(judge) - level_index(human)) <= 1).mean())


def quadratic_kappa(judge: np.ndarray, human: np.ndarray) -> float:
    """Cohen's kappa weighted by squared level distance; 0 for a judge that ignores the answer."""
    j, h = level_index(judge), level_index(human)
    if len(set(j) | set(h)) < 2:
        return math.nan
    return float(cohen_kappa_score(h, j, labels=[0, 1, 2, 3], weights="quadratic"))


def spearman(judge: np.ndarray, human: np.ndarray) -> float:
    """Rank correlation; NaN when either side is constant and ranks say nothing."""
    if len(judge) < 2 or np.ptp(judge) == 0 or np.ptp(human) == 0:
        return math.nan
    return float(spearmanr(judge, human).statistic)


def mean_absolute_error(judge: np.ndarray, human: np.ndarray) -> float:
    return float(np.abs(judge - human).mean())


def mean_bias(judge: np.ndarray, human: np.ndarray) -> float:
    """Judge minus human: above 0 the judge is lenient, below 0 strict."""
    return float((judge - human).mean())


AGREEMENT_STATISTICS: dict[str, PairStatistic] = {
    "exact_agreement": exact_agreement,
    "within_one": within_one,
    "kappa_quadratic": quadratic_kappa,
    "spearman_rho": spearman,
    "mae": mean_absolute_error,
    "bias": mean_bias,
}


def paired_bootstrap(
    judge: np.ndarray, human: np.ndarray, statistic: PairStatistic
) -> tuple[float, float]:
    """Seeded percentile 95% CI, resampling answers with their pairs kept together."""
    if len(judge) < 2:
        return math.nan, math.nan
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    draws = rng.integers(0, len(judge), size=(AGREEMENT_RESAMPLES, len(judge)))
    values = np.array([statistic(judge[i], human[i]) for i in draws])
    values = values[~np.isnan(values)]
    if len(values) == 0:
        return math.nan, math.nan
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


def pairs(scores: list[SampleScore]) -> tuple[np.ndarray, np.ndarray]:
    """(judge levels, human levels) of the scored answers."""
    judge = np.array([_to_float(s.score.value) for s in scores], dtype=float)
    human = np.array([float((s.sample_metadata or {})["human_level"]) for s in scores])
    return judge, human


@metric
def agreement() -> Metric:
    """Every agreement figure, each with a seeded bootstrap 95% interval."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        judge, human = pairs(scores)
        result: dict[str, float] = {}
        for name, statistic in AGREEMENT_STATISTICS.items():
            empty = len(judge) == 0
            result[name] = math.nan if empty else statistic(judge, human)
            low, high = paired_bootstrap(judge, human, statistic)
            result[f"{name}_ci_low"], result[f"{name}_ci_high"] = low, high
        return result

    return compute


@metric
def confusion() -> Metric:
    """Counts of (human level, judge level) pairs: `human_<h>/judge_<j>`, all 16 cells."""

    def compute(scores: list[SampleScore]) -> dict[str, int]:
        judge, human = pairs(scores)
        j, h = level_index(judge), level_index(human)
        return {
            f"human_{LEVELS[hi]:g}/judge_{LEVELS[ji]:g}": int(((h == hi) & (j == ji)).sum())
            for hi in range(len(LEVELS))
            for ji in range(len(LEVELS))
        }

    return compute


@metric
def reference_spearman() -> Metric:
    """Rho of each reference-overlap metric with the human level: the floor a judge must beat."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        human = np.array([float((s.sample_metadata or {})["human_level"]) for s in scores])
        if not scores:
            return {}
        names = list(dict(scores[0].score.value).keys())
        return {
            f"{name}_spearman_rho": spearman(
                np.array([float(dict(s.score.value)[name]) for s in scores]), human
            )
            for name in names
        }

    return compute
