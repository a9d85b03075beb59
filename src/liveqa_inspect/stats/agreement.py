"""How a judge agrees with human assessors: the metrics of live_qa_judge and expert_qa_claims.

Each score is the judge's level for one human-judged item; the human level sits in the sample's
metadata (`human_level`), both on the task's scale. Inspect drops unscored samples before metrics
run, so every figure is over the items the judge gave a readable verdict on. A level between
levels (a panel's or an epoch mean) follows the one rule of `metrics.levels`. Every figure is
computed for all bootstrap resamples in one array operation (`metrics.bootstrap` says why).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from liveqa_inspect.stats.bootstrap import Estimate, percentile_interval, resample_rows
from liveqa_inspect.stats.levels import Placed, counted
from liveqa_inspect.stats.names import KAPPA, confusion_key, floor_key
from liveqa_inspect.stats.values import human_levels, score_values


class Pairs:
    """Judge and human ratings of the same items, as rows of resamples drawn by `rows` (resamples
    by items, of item indices; none: one row, the sample). Levels and value codes are found once on
    the items and then drawn with them, not recomputed on every resample."""

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
        self.judge_placed = Placed.on(judge, self.levels).drawn(draw)
        self.human_placed = Placed.on(human, self.levels).drawn(draw)
        self.judge_codes = value_codes(judge)[draw]
        self.human_codes = value_codes(human)[draw]


def value_codes(values: np.ndarray) -> np.ndarray:
    """Each value's place among the distinct values: ranks need only their order."""
    return np.unique(values, return_inverse=True)[1].reshape(values.shape).astype(np.int32)


def share_where(p: Pairs, hit: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
    """Share of each row's items counted where `hit(human index, judge index)` holds."""
    total = np.zeros(p.judge.shape)
    for weight, (human, judge) in counted(p.human_placed, p.judge_placed):
        total += weight * hit(human, judge)
    return total.mean(axis=1)


def exact_agreement(p: Pairs) -> np.ndarray:
    return share_where(p, lambda human, judge: human == judge)


def within_one(p: Pairs) -> np.ndarray:
    return share_where(p, lambda human, judge: np.abs(human - judge) <= 1)


CHANCE_FLOOR = 1e-18
"""Below this the chance disagreement is a rounding residue of identical ratings, not a spread."""


def quadratic_kappa(p: Pairs) -> np.ndarray:
    """Cohen's kappa weighted by squared level distance; 0 for a judge that ignores the item.

    1 - the pairs' mean squared distance over that of every judge-human pairing (the chance
    disagreement), on each rating's place on the scale: on levels this is exactly the weighted
    kappa of the confusion matrix, and a value between levels needs no rounding. NaN where judge
    and human together use a single value: agreement then says nothing.
    """
    judge, human = p.judge_placed.place, p.human_placed.place
    observed = ((judge - human) ** 2).mean(axis=1)
    chance = judge.var(axis=1) + human.var(axis=1) + (judge.mean(axis=1) - human.mean(axis=1)) ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(chance > CHANCE_FLOOR, 1.0 - observed / chance, math.nan)


def spearman(p: Pairs) -> np.ndarray:
    """Rank correlation; NaN where either side is constant and ranks say nothing."""
    return rank_correlation(p.judge_codes, p.human_codes)


def average_ranks(codes: np.ndarray) -> np.ndarray:
    """Each row's ranks, ties at their average rank (scipy's `rankdata`), from value codes: the
    count of smaller values in the row plus the middle of its ties, one count per row and code,
    with no sort of the resamples."""
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


AGREEMENT_STATISTICS: dict[str, Callable[[Pairs], np.ndarray]] = {
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
) -> dict[str, Estimate]:
    """Every figure with its seeded paired-bootstrap 95% interval (items resampled in pairs)."""
    whole = Pairs(judge, human, levels)
    resampled = Pairs(judge, human, levels, resample_rows(len(judge))) if len(judge) >= 2 else None
    result: dict[str, Estimate] = {}
    for name, statistic in AGREEMENT_STATISTICS.items():
        value = float(statistic(whole)[0]) if len(judge) else math.nan
        interval = percentile_interval(statistic(resampled)) if resampled else (math.nan, math.nan)
        result[name] = Estimate(value, *interval, n=len(judge))
    return result


def named(figures: dict[str, Estimate]) -> dict[str, float]:
    """Figures with their intervals under the names a log's metrics give them."""
    return {key: value for name, e in figures.items() for key, value in e.named(name).items()}


@metric
def agreement(levels: list[float]) -> Metric:
    """Every agreement figure of the judge (or panel), each with a seeded bootstrap interval."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return named(agreement_figures(score_values(scores), human_levels(scores), levels))

    return compute


@metric
def confusion(levels: list[float]) -> Metric:
    """Counts of (human level, judge level) pairs: `human_<h>/judge_<j>`, every cell; an item
    halfway between two levels counts half in each of its cells."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        p = Pairs(score_values(scores), human_levels(scores), levels)
        k = len(levels)
        counts = sum(
            w * np.bincount(h[0].astype(int) * k + j[0], minlength=k * k)
            for w, (h, j) in counted(p.human_placed, p.judge_placed)
        )
        cells = itertools.product(levels, repeat=2)
        return {confusion_key(h, j): float(n) for (h, j), n in zip(cells, counts, strict=True)}

    return compute


@metric
def reference_spearman() -> Metric:
    """Rho of each reference-overlap metric with the human level: the floor a judge must beat."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        if not scores:
            return {}
        human = human_levels(scores)
        values = [dict(s.score.value) for s in scores]
        return {
            floor_key(name): float(
                rank_correlation(np.array([float(v[name]) for v in values]), human)[0]
            )
            for name in values[0]
        }

    return compute
