"""How a judge agrees with human assessors: the metrics of live_qa_judge and expert_qa_claims.

Each score is the judge's level for one human-judged item; the human level sits in the sample's
metadata (`human_level`), both on the task's scale. Inspect drops unscored samples before metrics
run, so every figure is over the items the judge gave a readable verdict on, and the log's
`unscored_samples` counts the rest. With several epochs a judge's averaged level is rounded to
the nearest level for the level-wise figures (agreement, kappa, confusion); MAE, bias and rho use
the averaged value itself.

Every figure is computed for all bootstrap resamples at once (one array operation over a
resamples-by-items matrix) rather than refitted resample by resample, so the 2,000-resample
intervals over 581 answers take milliseconds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from liveqa_inspect.metrics.bootstrap import percentile_interval, resample_rows
from liveqa_inspect.metrics.keys import (
    KAPPA,
    ci_keys,
    confusion_key,
    floor_key,
    juror_key,
    juror_names,
)
from liveqa_inspect.metrics.values import human_levels, score_values


class Pairs:
    """Judge and human ratings of the same items, as rows of resamples (one row: the sample).

    `rows` (resamples by items, of item indices) draws the resamples. Levels and value codes are
    found once on the items and then drawn with them, not recomputed on every resample.
    """

    def __init__(
        self,
        judge: np.ndarray,
        human: np.ndarray,
        levels: Sequence[float],
        rows: np.ndarray | None = None,
    ) -> None:
        judge, human = np.asarray(judge, dtype=float), np.asarray(human, dtype=float)
        self.levels = np.asarray(levels, dtype=float)
        draw = rows if rows is not None else np.arange(len(judge))[None, :]
        self.judge, self.human = judge[draw], human[draw]
        self.judge_index = level_index(judge, self.levels)[draw]
        self.human_index = level_index(human, self.levels)[draw]
        self.judge_codes = value_codes(judge)[draw]
        self.human_codes = value_codes(human)[draw]


def value_codes(values: np.ndarray) -> np.ndarray:
    """Each value's place among the distinct values: ranks need only their order."""
    return np.unique(values, return_inverse=True)[1].reshape(values.shape).astype(np.int32)


def level_index(values: np.ndarray, levels: np.ndarray) -> np.ndarray:
    """0..k-1 for each level; the nearest level for an epoch-averaged value."""
    return np.abs(values[..., None] - levels).argmin(axis=-1).astype(np.int8)


def exact_agreement(p: Pairs) -> np.ndarray:
    return (p.judge_index == p.human_index).mean(axis=1)


def within_one(p: Pairs) -> np.ndarray:
    return (np.abs(p.judge_index - p.human_index) <= 1).mean(axis=1)


def quadratic_kappa(p: Pairs) -> np.ndarray:
    """Cohen's kappa weighted by squared level distance; 0 for a judge that ignores the item.

    NaN where judge and human together use a single level: agreement then says nothing.
    """
    rows, n = p.judge_index.shape
    k = len(p.levels)
    cells = (np.arange(rows)[:, None] * k * k + p.human_index * k + p.judge_index).ravel()
    observed = np.bincount(cells, minlength=rows * k * k).reshape(rows, k, k) / n
    expected = observed.sum(axis=2)[:, :, None] * observed.sum(axis=1)[:, None, :]
    grid = np.arange(k)
    weights = (grid[:, None] - grid[None, :]) ** 2 / (k - 1) ** 2
    disagreement = (weights * observed).sum(axis=(1, 2))
    chance = (weights * expected).sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(chance > 0, 1.0 - disagreement / chance, math.nan)


def spearman(p: Pairs) -> np.ndarray:
    """Rank correlation; NaN where either side is constant and ranks say nothing."""
    return rank_correlation(p.judge_codes, p.human_codes)


def average_ranks(codes: np.ndarray) -> np.ndarray:
    """Each row's ranks, ties at their average rank (scipy's `rankdata`), from value codes.

    A row's rank of a value is the count of smaller values in the row plus the middle of its
    ties: one count per row and code, with no sort of the resamples.
    """
    rows, n = codes.shape
    width = int(codes.max()) + 1
    cells = (np.arange(rows)[:, None] * width + codes).ravel()
    counts = np.bincount(cells, minlength=rows * width).reshape(rows, width)
    middle = np.cumsum(counts, axis=1) - counts + (counts + 1) / 2
    return np.take_along_axis(middle, codes, axis=1)


def rank_correlation(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Spearman's rho of each row pair of value codes (or values), as scipy's spearmanr."""
    a, b = np.atleast_2d(a), np.atleast_2d(b)
    if a.shape[1] < 2:
        return np.full(a.shape[0], math.nan)
    ra = average_ranks(value_codes(a) if a.dtype.kind == "f" else a)
    rb = average_ranks(value_codes(b) if b.dtype.kind == "f" else b)
    ra -= ra.mean(axis=1, keepdims=True)
    rb -= rb.mean(axis=1, keepdims=True)
    denominator = np.sqrt((ra**2).sum(axis=1) * (rb**2).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, (ra * rb).sum(axis=1) / denominator, math.nan)


def mean_absolute_error(p: Pairs) -> np.ndarray:
    return np.abs(p.judge - p.human).mean(axis=1)


def mean_bias(p: Pairs) -> np.ndarray:
    """Judge minus human: above 0 the judge is lenient, below 0 strict."""
    return (p.judge - p.human).mean(axis=1)


PairStatistic = Callable[[Pairs], np.ndarray]

AGREEMENT_STATISTICS: dict[str, PairStatistic] = {
    "exact_agreement": exact_agreement,
    "within_one": within_one,
    KAPPA: quadratic_kappa,
    "spearman_rho": spearman,
    "mae": mean_absolute_error,
    "bias": mean_bias,
}
FIGURES: tuple[str, ...] = tuple(AGREEMENT_STATISTICS)
"""Level-wise figures first, then rho, then the value-wise ones: the report's row order."""


def agreement_figures(
    judge: np.ndarray, human: np.ndarray, levels: Sequence[float]
) -> dict[str, float]:
    """Every figure with its seeded paired-bootstrap 95% interval (items resampled in pairs)."""
    result: dict[str, float] = {}
    whole = Pairs(judge, human, levels)
    resampled = Pairs(judge, human, levels, resample_rows(len(judge))) if len(judge) >= 2 else None
    for name, statistic in AGREEMENT_STATISTICS.items():
        low_key, high_key = ci_keys(name)
        result[name] = float(statistic(whole)[0]) if len(judge) else math.nan
        low, high = (math.nan, math.nan)
        if resampled is not None:
            low, high = percentile_interval(statistic(resampled))
        result[low_key], result[high_key] = low, high
    return result


@metric
def agreement(levels: list[float]) -> Metric:
    """Every agreement figure of the judge (or panel), each with a seeded bootstrap interval."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return agreement_figures(score_values(scores), human_levels(scores), levels)

    return compute


@metric
def confusion(levels: list[float]) -> Metric:
    """Counts of (human level, judge level) pairs: `human_<h>/judge_<j>`, every cell."""

    def compute(scores: list[SampleScore]) -> dict[str, int]:
        p = Pairs(score_values(scores), human_levels(scores), levels)
        k = len(levels)
        counts = np.bincount(p.human_index[0] * k + p.judge_index[0], minlength=k * k).reshape(k, k)
        return {
            confusion_key(levels[h], levels[j]): int(counts[h, j])
            for h in range(k)
            for j in range(k)
        }

    return compute


def juror_levels(scores: list[SampleScore]) -> tuple[list[str], np.ndarray]:
    """Juror names and an items-by-jurors matrix of their levels (NaN where one gave none).

    An empty answer is scored without asking anyone: its row is all NaN.
    """
    rosters = [(s.score.metadata or {}).get("jurors") or [] for s in scores]
    panel = next((roster for roster in rosters if roster), [])
    names = juror_names(str(juror["model"]) for juror in panel)
    matrix = np.full((len(scores), len(names)), math.nan)
    for row, roster in enumerate(rosters):
        for column, juror in enumerate(roster[: len(names)]):
            if juror["level"] is not None:
                matrix[row, column] = float(juror["level"])
    return names, matrix


@metric
def juror_agreement(levels: list[float]) -> Metric:
    """For a panel, each juror's own agreement with the humans, beside the panel's.

    Empty for a single judge, whose figures are the panel's. A juror is measured on the items
    it gave a verdict on, so each juror's figures can rest on a different count.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        names, matrix = juror_levels(scores)
        if len(names) < 2:
            return {}
        human = human_levels(scores)
        result: dict[str, float] = {}
        for column, name in enumerate(names):
            graded = ~np.isnan(matrix[:, column])
            figures = agreement_figures(matrix[graded, column], human[graded], levels)
            result.update({juror_key(name, key): value for key, value in figures.items()})
        return result

    return compute


@metric
def epoch_agreement() -> Metric:
    """Share of items whose level is the same in every epoch: 1 for a deterministic judge.

    Read from the per-epoch levels the epoch reducer keeps; over items read in every epoch.
    NaN with a single epoch, where there is nothing to compare.
    """

    def compute(scores: list[SampleScore]) -> float:
        stable = []
        for score in scores:
            epochs = (score.score.metadata or {}).get("epoch_levels") or []
            if len(epochs) < 2 or any(math.isnan(float(level)) for level in epochs):
                continue
            stable.append(len({float(level) for level in epochs}) == 1)
        return float(np.mean(stable)) if stable else math.nan

    return compute


@metric
def reference_spearman() -> Metric:
    """Rho of each reference-overlap metric with the human level: the floor a judge must beat."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        if not scores:
            return {}
        human = human_levels(scores)
        names = list(dict(scores[0].score.value).keys())
        return {
            floor_key(name): float(
                rank_correlation(
                    np.array([float(dict(s.score.value)[name]) for s in scores]), human
                )[0]
            )
            for name in names
        }

    return compute
