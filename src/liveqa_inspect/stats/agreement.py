"""How a judge agrees with the humans (`human_level`): live_qa_judge's and expert_qa_claims' metrics
and the functions the report calls for them. Figures that count levels count a value between
levels (a panel's or an epoch mean) at `stats.levels.level_index`; the others use the values."""

import math
from collections.abc import Callable, Sequence

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from liveqa_inspect.stats.bootstrap import Estimate, Figures, tallied_estimates
from liveqa_inspect.stats.levels import level_index
from liveqa_inspect.stats.names import KAPPA, confusion_key, pair_key
from liveqa_inspect.stats.values import human_levels, score_values

Array = np.ndarray


class Pairs:
    """Judge and human ratings of the same items as (judge, human) pairs of arrays: their values,
    the level each counts at, its place on the scale and its code among the distinct values."""

    def __init__(self, judge: Array, human: Array, levels: Sequence[float]) -> None:
        self.values = np.asarray(judge, dtype=float), np.asarray(human, dtype=float)
        steps = np.arange(len(levels), dtype=float)
        self.at = tuple(level_index(v, levels) for v in self.values)
        self.place = tuple(np.interp(v, levels, steps) for v in self.values)
        self.codes = tuple(value_codes(v) for v in self.values)


def value_codes(values: Array) -> Array:
    return np.unique(values, return_inverse=True)[1]


def mean_of(weights: Array, values: Array) -> Array:
    """Each row's mean of the items' values (or of its own row of them) weighted by the row."""
    return (weights * values).sum(axis=1) / weights.sum(axis=1)


def quadratic_kappa(p: Pairs, weights: Array) -> Array:
    """Cohen's kappa weighted by squared level distance; 0 for a judge that ignores the item. On
    each rating's place on the scale: on levels exactly the weighted kappa of the confusion
    matrix, and a value between levels needs no rounding. NaN where judge and human together use
    a single value (a chance disagreement under 1e-18 is a rounding residue of identical ones).
    Hand-written: sklearn's takes one resample a call."""
    (judge, human), means = p.place, [mean_of(weights, side)[:, None] for side in p.place]
    spreads = [mean_of(weights, (side - m) ** 2) for side, m in zip(p.place, means, strict=True)]
    chance = sum(spreads) + ((means[0] - means[1]) ** 2)[:, 0]
    observed = mean_of(weights, (judge - human) ** 2)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(chance > 1e-18, 1.0 - observed / chance, math.nan)


def centred_ranks(codes: Array, weights: Array) -> Array:
    """Each item's rank in each row, ties at their average, less the mean rank: the weight of the
    smaller values plus the middle of its ties, from each row's weight of each value code. One row
    (a reference metric's hundreds of distinct values) by counting, not through a codes-by-codes
    matrix: its figures are recomputed at every progress refresh. The weights are whole numbers,
    so both sums are exact and equal."""
    size = int(codes.max()) + 1
    if len(weights) == 1:
        counts = np.bincount(codes, weights=weights[0], minlength=size)[None, :]
    else:
        counts = weights @ np.eye(size)[codes]
    middle = np.cumsum(counts, axis=1) - counts + (counts + 1) / 2
    return middle[:, codes] - (weights.sum(axis=1, keepdims=True) + 1) / 2


def rank_correlation(a: Array, b: Array, weights: Array) -> Array:
    """Spearman's rho of the items' value codes weighted by each row, as scipy's spearmanr of
    the items each weight repeats; NaN where either side is constant and ranks say nothing."""
    ra, rb = centred_ranks(a, weights), centred_ranks(b, weights)
    denominator = np.sqrt((weights * ra**2).sum(axis=1) * (weights * rb**2).sum(axis=1))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(denominator > 0, (weights * ra * rb).sum(axis=1) / denominator, math.nan)


AGREEMENT_STATISTICS: dict[str, Callable[[Pairs, Array], Array]] = {
    "exact_agreement": lambda p, w: mean_of(w, np.equal(*p.at)),
    "within_one": lambda p, w: mean_of(w, np.abs(np.subtract(*p.at, dtype=int)) <= 1),
    KAPPA: quadratic_kappa,
    "spearman_rho": lambda p, w: rank_correlation(*p.codes, w),
    "mae": lambda p, w: mean_of(w, np.abs(np.subtract(*p.values))),
    "bias": lambda p, w: mean_of(w, np.subtract(*p.values)),  # above 0 the judge is lenient
}
FIGURES: tuple[str, ...] = tuple(AGREEMENT_STATISTICS)
"""Level-wise figures first, then rho, then the value-wise ones: the report's row order."""


def agreement_figures(judge: Array, human: Array, levels: Sequence[float]) -> Figures:
    """Every figure with its seeded paired-bootstrap 95% interval (items resampled in pairs)."""
    if not len(judge):
        return {name: Estimate(math.nan) for name in FIGURES}

    def figures(judge: Array, human: Array, weights: Array) -> dict[str, Array]:
        p = Pairs(judge, human, levels)
        return {name: f(p, weights) for name, f in AGREEMENT_STATISTICS.items()}

    return tallied_estimates(figures, judge, human)


def kappa_difference(first: Array, other: Array, human: Array, levels: Sequence[float]) -> Estimate:
    """`other`'s quadratic kappa minus `first`'s, both against the same human levels, each
    resample drawing the same items for both: far narrower than two separate intervals."""
    if not len(first):
        return Estimate(math.nan)

    def difference(*columns: Array) -> dict[str, Array]:
        *judges, people, weights = columns
        a, b = (quadratic_kappa(Pairs(j, people, levels), weights) for j in judges)
        return {KAPPA: b - a}

    return tallied_estimates(difference, first, other, human)[KAPPA]


def named(figures: Figures) -> dict[str, float]:
    """Figures with their intervals under the names a log's metrics give them."""
    return {key: value for name, e in figures.items() for key, value in e.named(name).items()}


@metric
def agreement(levels: list[float]) -> Metric:
    """Every agreement figure of the judge (or panel), each with a seeded bootstrap interval."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return named(agreement_figures(score_values(scores), human_levels(scores), levels))

    return compute


def confusion_counts(human: Array, judge: Array, levels: Sequence[float]) -> Array:
    """Counts, rows the human level and columns the judge level, both in rising order."""
    k = len(levels)
    at = [level_index(np.asarray(v, dtype=float), levels).astype(int) for v in (human, judge)]
    return np.bincount(at[0] * k + at[1], minlength=k * k).reshape(k, k)


def confusion_matrix(scores: list[SampleScore], levels: Sequence[float]) -> Array:
    return confusion_counts(human_levels(scores), score_values(scores), levels)


@metric
def confusion(levels: list[float]) -> Metric:
    """Counts of (human level, judge level) pairs: `human_<h>/judge_<j>`, every cell."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        cells = np.ndenumerate(confusion_matrix(scores, levels))
        return {confusion_key(levels[h], levels[j]): float(n) for (h, j), n in cells}

    return compute


def reference_rhos(scores: list[SampleScore]) -> dict[str, float]:
    """Each reference-overlap metric's rho with the human level: the floor a judge must beat."""
    values = [dict(s.score.value) for s in scores]  # type: ignore[arg-type]
    human, ones = value_codes(human_levels(scores)), np.ones((1, len(scores)))
    columns = {name: [float(v[name]) for v in values] for name in (values[0] if values else ())}
    rhos = {name: rank_correlation(value_codes(x), human, ones) for name, x in columns.items()}
    return {name: float(rho[0]) for name, rho in rhos.items()}


@metric
def reference_spearman() -> Metric:
    """`<metric>_spearman_rho` of each reference-overlap metric (see `reference_rhos`)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return {pair_key(name, "spearman_rho"): rho for name, rho in reference_rhos(scores).items()}

    return compute
