"""How a judge agrees with the humans (`human_level`): live_qa_judge's and expert_qa_claims' metrics
and the functions the report calls for them. Figures that count levels count a value between
levels (a panel's or an epoch mean) at `stats.levels.level_index`; the others use the values."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from liveqa_inspect.stats.bootstrap import Estimate, percentile_interval, resample_rows
from liveqa_inspect.stats.levels import level_index
from liveqa_inspect.stats.names import KAPPA, confusion_key, floor_key
from liveqa_inspect.stats.values import human_levels, score_values

Array = np.ndarray


class Pairs:
    """Judge and human ratings of the same items as (judge, human) pairs of arrays, a row for each
    draw of the items by `rows` (None: the items): their values, the level each counts at, its
    place on the scale and its code among the distinct values (all ranks need)."""

    def __init__(
        self, judge: Array, human: Array, levels: Sequence[float], rows: Array | None = None
    ) -> None:
        items = np.asarray(judge, dtype=float), np.asarray(human, dtype=float)
        draw = np.arange(len(items[0]))[None, :] if rows is None else rows
        steps = np.arange(len(levels), dtype=float)
        at, place = (lambda v: level_index(v, levels)), (lambda v: np.interp(v, levels, steps))
        self.values, self.at, self.place, self.codes = (
            tuple(found(v)[draw] for v in items) for found in (np.asarray, at, place, value_codes)
        )


def value_codes(values: np.ndarray) -> np.ndarray:
    return np.unique(values, return_inverse=True)[1].reshape(values.shape).astype(np.int32)


def quadratic_kappa(p: Pairs) -> np.ndarray:
    """Cohen's kappa weighted by squared level distance; 0 for a judge that ignores the item.

    On each rating's place on the scale: on levels exactly the weighted kappa of the confusion
    matrix, and a value between levels needs no rounding. NaN where judge and human together use
    a single value (a chance disagreement under 1e-18 is a rounding residue of identical ones).
    Hand-written: sklearn's is over twice as slow here (benchmarks/RESULTS.md)."""
    judge, human = p.place
    observed = ((judge - human) ** 2).mean(axis=1)
    chance = judge.var(axis=1) + human.var(axis=1) + (judge.mean(axis=1) - human.mean(axis=1)) ** 2
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(chance > 1e-18, 1.0 - observed / chance, math.nan)


def average_ranks(codes: np.ndarray) -> np.ndarray:
    """Each row's ranks, ties at their average, from value codes: the count of smaller values in
    the row plus the middle of its ties, with no sort of the resamples.
    Hand-written: scipy's rankdata(axis=1) is over twice as slow here (benchmarks/RESULTS.md)."""
    rows, width = codes.shape[0], int(codes.max()) + 1
    cells = (np.arange(rows)[:, None] * width + codes).ravel()
    counts = np.bincount(cells, minlength=rows * width).reshape(rows, width)
    middle = np.cumsum(counts, axis=1) - counts + (counts + 1) / 2
    return np.take_along_axis(middle, codes, axis=1)


def rank_correlation(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Spearman's rho of each row pair of value codes (or values), as scipy's spearmanr; NaN where
    either side is constant and ranks say nothing."""
    a, b = np.atleast_2d(a), np.atleast_2d(b)
    ra, rb = (average_ranks(value_codes(x) if x.dtype.kind == "f" else x) for x in (a, b))
    ra, rb = ra - ra.mean(axis=1, keepdims=True), rb - rb.mean(axis=1, keepdims=True)
    denominator = np.sqrt((ra**2).sum(axis=1) * (rb**2).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, (ra * rb).sum(axis=1) / denominator, math.nan)


AGREEMENT_STATISTICS: dict[str, Callable[[Pairs], np.ndarray]] = {
    "exact_agreement": lambda p: np.equal(*p.at).mean(axis=1),
    "within_one": lambda p: (np.abs(np.subtract(*p.at, dtype=int)) <= 1).mean(axis=1),
    KAPPA: quadratic_kappa,
    "spearman_rho": lambda p: rank_correlation(*p.codes),
    "mae": lambda p: np.abs(np.subtract(*p.values)).mean(axis=1),
    "bias": lambda p: np.subtract(*p.values).mean(axis=1),  # above 0 the judge is lenient
}
FIGURES: tuple[str, ...] = tuple(AGREEMENT_STATISTICS)
"""Level-wise figures first, then rho, then the value-wise ones: the report's row order."""


def agreement_figures(judge: Array, human: Array, levels: Sequence[float]) -> dict[str, Estimate]:
    """Every figure with its seeded paired-bootstrap 95% interval (items resampled in pairs)."""
    n = len(judge)
    rows = np.vstack([np.arange(n), *([resample_rows(n)] if n >= 2 else [])])  # the items first
    p = Pairs(judge, human, levels, rows)
    found = {name: f(p) if n else np.full(1, math.nan) for name, f in AGREEMENT_STATISTICS.items()}
    return {
        name: Estimate(float(v[0]), *percentile_interval(v[1:]), n=n) for name, v in found.items()
    }


def named(figures: dict[str, Estimate]) -> dict[str, float]:
    """Figures with their intervals under the names a log's metrics give them."""
    return {key: value for name, e in figures.items() for key, value in e.named(name).items()}


@metric
def agreement(levels: list[float]) -> Metric:
    """Every agreement figure of the judge (or panel), each with a seeded bootstrap interval."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return named(agreement_figures(score_values(scores), human_levels(scores), levels))

    return compute


def confusion_matrix(scores: list[SampleScore], levels: Sequence[float]) -> np.ndarray:
    """Counts, rows the human level and columns the judge level, both in rising order."""
    k = len(levels)
    human, judge = (level_index(v, levels) for v in (human_levels(scores), score_values(scores)))
    return np.bincount(human.astype(int) * k + judge, minlength=k * k).reshape(k, k)


@metric
def confusion(levels: list[float]) -> Metric:
    """Counts of (human level, judge level) pairs: `human_<h>/judge_<j>`, every cell."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        cells = np.ndenumerate(confusion_matrix(scores, levels))
        return {confusion_key(levels[h], levels[j]): float(n) for (h, j), n in cells}

    return compute


def reference_rhos(scores: list[SampleScore]) -> dict[str, float]:
    """Each reference-overlap metric's rho with the human level: the floor a judge must beat."""
    human, values = human_levels(scores), [dict(s.score.value) for s in scores]  # type: ignore[arg-type]
    return {
        name: float(rank_correlation(np.array([float(v[name]) for v in values]), human)[0])
        for name in (values[0] if values else ())
    }


@metric
def reference_spearman() -> Metric:
    """`<metric>_spearman_rho` of each reference-overlap metric (see `reference_rhos`)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return {floor_key(name): rho for name, rho in reference_rhos(scores).items()}

    return compute
