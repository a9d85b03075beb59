"""A judge's mean level corrected for how the judge errs (docs/corrected-scores.md), two ways:

- by its calibration against human grades of other answers (live_qa_judge on NIST's): the label-
  shift estimator of Lipton, Wang and Smola (2018), the judge's confusion P(judge level | human
  level) inverted on the graded answers' judge levels;
- by a team's own human grades of a random subset of the graded answers: prediction-powered
  inference (Angelopoulos et al. 2023), power-tuned as PPI++ (2023).

Both intervals were chosen by their coverage in benchmarks/bench_corrected.py (RESULTS.md): the
textbook intervals fell short of 95% where a modern model's answers sit, near the top level."""

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np

from liveqa_inspect.stats.agreement import confusion_counts
from liveqa_inspect.stats.bootstrap import Estimate, percentile_interval, redrawn_counts
from liveqa_inspect.stats.levels import level_index
from liveqa_inspect.stats.names import level_name

Array = np.ndarray

MIN_SINGULAR = 0.05
"""The smallest singular value of the judge's confusion P(judge level | human level) below which
its verdicts are not inverted: an error of one point in the shares of judge levels could move the
solved shares of human levels by more than 20 points. A constant judge has 0; the simulation's
near-constant judge (0.7 for 95% of answers, else the right level) about 0.02 as estimated."""
UNDEFINED_SHARE = 0.025
"""The share of bootstrap resamples allowed no corrected mean (a human level drawn no calibration
answer, a matrix that cannot be inverted at all) before the interval is refused: one tail's."""
SINGULAR = 1e-12
"""A determinant this close to 0 is a matrix that cannot be inverted at all (a rounding residue)."""


@dataclass(frozen=True)
class NotIdentifiable:
    """Why the judge's verdicts cannot be inverted into human levels: said instead of a number."""

    reason: str

    def __str__(self) -> str:
        return f"not identifiable: {self.reason}"


def conditional(counts: Array) -> Array:
    """P(judge level | human level), columns the human level, from counts whose rows are the human
    level (`confusion_counts`); of a stack of them too. A level with no answers has a 0 column."""
    totals = counts.sum(axis=-1, keepdims=True)
    return np.swapaxes(counts / np.maximum(totals, 1), -1, -2)


def simplex_shares(confusion: Array, shares: Array) -> Array:
    """The distribution of human levels whose judge levels come closest (least squares) to the
    observed shares: exact, over every support (15 for four levels), the best of the solutions
    that are distributions. On the support of all levels it is the inverse's solution."""
    k = len(shares)
    best, gap = np.full(k, math.nan), math.inf
    for size in range(1, k + 1):
        for support in map(list, combinations(range(k), size)):
            a = confusion[:, support]
            system = np.block([[a.T @ a, np.ones((size, 1))], [np.ones((1, size)), 0.0]])
            x = np.linalg.solve(system, np.append(a.T @ shares, 1.0))[:size]
            found = float(np.sum((a @ x - shares) ** 2))
            if x.min() >= -1e-12 and found < gap - 1e-15:
                best, gap = np.zeros(k), found
                best[support] = x.clip(0)
    return best


def corrected_mean(
    calibration_judge: Array, calibration_human: Array, judge: Array, levels: Sequence[float]
) -> Estimate | NotIdentifiable:
    """The mean human level of the answers the judge graded `judge`, from its calibration pairs
    (its level and the human's on other answers); each value counts at its level (`level_index`).

    The shares of human levels are solved under the constraint that they are a distribution;
    the figure is their mean level. The interval resamples calibration pairs and graded answers
    independently and takes each resample's unconstrained solution (the inverse, clipped to the
    scale): the constrained solution's resamples pile up against the edge where a level's true
    share is near 0, and their interval covered 90% there in development runs (RESULTS.md). A
    resample that cannot be inverted at all is left out; past UNDEFINED_SHARE of them the figure
    is refused."""
    levels = np.asarray(levels, dtype=float)
    judge = np.asarray(judge, dtype=float)
    if not len(judge):
        return Estimate(math.nan)
    calibration = confusion_counts(calibration_human, calibration_judge, levels)
    if refused := unidentifiable(calibration, levels):
        return refused
    graded = np.bincount(level_index(judge, levels), minlength=len(levels))
    counts, judged = redrawn_counts(calibration.ravel(), graded.astype(float))
    confusions = conditional(counts.reshape(-1, len(levels), len(levels)))
    defined = (counts.reshape(-1, len(levels), len(levels)).sum(axis=2) > 0).all(axis=1)
    defined &= np.abs(np.linalg.det(confusions)) >= SINGULAR
    if (undefined := 1 - defined[1:].mean()) > UNDEFINED_SHARE:
        return NotIdentifiable(
            f"{undefined:.1%} of the bootstrap resamples of the calibration cannot be inverted "
            f"(more than {UNDEFINED_SHARE:.1%}): calibrate on more answers of each human level"
        )
    shares = judged[defined] / len(judge)
    means = np.linalg.solve(confusions[defined], shares[..., None])[..., 0] @ levels
    low, high = np.clip(percentile_interval(means[1:]), levels[0], levels[-1])
    value = float(simplex_shares(confusions[0], judged[0] / len(judge)) @ levels)
    return Estimate(value, float(low), float(high), len(judge))


def unidentifiable(calibration: Array, levels: Array) -> NotIdentifiable | None:
    """Why a calibration's counts (rows the human level) cannot be inverted, if they cannot."""
    n, judged = int(calibration.sum()), calibration.sum(axis=0)
    rows = zip(levels, calibration.sum(axis=1), strict=True)
    if missing := [level_name(level) for level, answers in rows if not answers]:
        return NotIdentifiable(
            f"no calibration answer has the human level{'s' * (len(missing) > 1)} "
            f"{', '.join(missing)}, so how the judge "
            "grades such answers is unknown"
        )
    if (judged > 0).sum() == 1:
        only = level_name(levels[int(judged.argmax())])
        return NotIdentifiable(
            f"the judge gave {only} to all {n} calibration answers: its verdict says nothing of "
            "their human level"
        )
    smallest = float(np.linalg.svd(conditional(calibration), compute_uv=False)[-1])
    if smallest < MIN_SINGULAR:
        return NotIdentifiable(
            f"the judge's verdicts barely tell the human levels apart (the smallest singular "
            f"value of P(judge level | human level) on its {n} calibration answers is "
            f"{smallest:.3f}, under {MIN_SINGULAR}): inverting them would multiply the sampling "
            f"error more than {1 / MIN_SINGULAR:.0f}-fold"
        )
    return None


def powered_rows(
    pairs: Array, weights: Array, others: Array, others_weights: Array, tuned: bool = True
) -> tuple[Array, Array]:
    """The prediction-powered mean and its standard error for each row of counts: `weights` of
    the distinct (judge, human) `pairs` of the hand-graded answers, `others_weights` of the
    distinct judge levels `others` of the answers not hand-graded. Power-tuned as ppi-python's
    `ppi_mean_ci` (lambda = cov(human, judge) / ((1 + n/N) var(judge)), clipped to [0, 1]; tested
    against it); `tuned=False` is lambda 0, the human-only mean."""
    judge, human = pairs.T
    n, rest = weights[0].sum(), others_weights[0].sum()
    mean_judge, mean_human = weights @ judge / n, weights @ human / n
    lam = np.zeros(len(weights))
    mean_others = var_others = np.zeros(len(weights))
    if rest:
        mean_others = others_weights @ others / rest
        var_others = others_weights @ others**2 / rest - mean_others**2
        if tuned:
            covariance = weights @ (judge * human) / n - mean_judge * mean_human
            total = weights @ judge + others_weights @ others
            squares = weights @ judge**2 + others_weights @ others**2
            spread = (squares - total**2 / (n + rest)) / (n + rest - 1)
            with np.errstate(invalid="ignore", divide="ignore"):
                tuning = covariance / ((1 + n / rest) * spread)
            lam = np.where(spread > 1e-15, np.clip(tuning, 0, 1), 0.0)
    rectified = mean_human - lam * mean_judge
    rectifier = weights @ (human**2) - 2 * lam * (weights @ (judge * human))
    var_rectifier = (rectifier + lam**2 * (weights @ judge**2)) / n - rectified**2
    spread_others = lam**2 * var_others.clip(0) / rest if rest else 0.0
    return lam * mean_others + rectified, np.sqrt(spread_others + var_rectifier.clip(0) / n)


def powered_estimate(others: Array, judge: Array, human: Array, tuned: bool) -> Estimate:
    """`powered_rows`' mean with a studentized (bootstrap-t) 95% interval, the hand-graded and the
    other answers resampled independently and lambda tuned again in each resample: the normal
    interval ppi-python gives covered 89-92% at n = 30 hand-graded answers (RESULTS.md)."""
    n = len(judge)
    if not n:
        return Estimate(math.nan)
    pairs, counts = np.unique(
        np.column_stack([judge, human]).astype(float), axis=0, return_counts=True
    )
    values, others_counts = np.unique(np.asarray(others, dtype=float), return_counts=True)
    weights, others_weights = redrawn_counts(counts.astype(float), others_counts.astype(float))
    means, errors = powered_rows(pairs, weights, values, others_weights, tuned)
    value = float(means[0])
    if n < 2:
        return Estimate(value, n=n)
    defined = errors[1:] > 1e-12
    if not defined.any():  # no spread in any resample: every hand grade and verdict alike
        return Estimate(value, value, value, n)
    t = (means[1:][defined] - value) / errors[1:][defined]
    low, high = percentile_interval(t)
    return Estimate(value, value - high * float(errors[0]), value - low * float(errors[0]), n)


def prediction_powered_mean(others: Array, judge: Array, human: Array) -> Estimate:
    """The mean human level of all the answers from the hand-graded ones' `judge` and `human`
    levels and the judge levels of the `others` (the answers not hand-graded): the human grades'
    mean, corrected by how far the judge's mean on the others is from its mean on them."""
    return powered_estimate(others, judge, human, tuned=True)


def human_only_mean(human: Array) -> Estimate:
    """The hand-graded answers' mean, its interval drawn as the prediction-powered one's, so the
    two widths compare."""
    human = np.asarray(human, dtype=float)
    return powered_estimate(np.array([]), human, human, tuned=False)
