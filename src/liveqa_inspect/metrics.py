"""Metrics of the judged tasks beyond Inspect's built-ins, and the epoch reducer they read.

Inspect drops unscored (NaN) samples before any metric runs and reports how many in the log's
`unscored_samples`, so every figure here is over the samples the judge could grade. Per-group
figures (focus category, question type, field) are left to the report, where each row can carry
its n and interval instead of widening the log's results to dozens of unlabelled columns.
"""

from __future__ import annotations

import math

import numpy as np
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    ScoreReducer,
    krippendorff_alpha,
    mean,
    mean_score,
    metric,
    score_reducer,
    stderr,
    value_to_float,
)

from liveqa_inspect.agreement import BOOTSTRAP_SEED, juror_levels, score_values
from liveqa_inspect.judge import LEVEL_DIGITS
from liveqa_inspect.metric_keys import ALPHA, MEAN, MEAN_CI, juror_key, share_key

BOOTSTRAP_RESAMPLES = 10_000

_to_float = value_to_float()


def bootstrap_interval(values: np.ndarray) -> tuple[float, float]:
    """Seeded percentile bootstrap 95% CI; NaN where fewer than two values leave nothing to vary."""
    from scipy.stats import bootstrap

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
        return dict(zip(MEAN_CI, bootstrap_interval(score_values(scores)), strict=True))

    return compute


@metric
def level_share(levels: list[float]) -> Metric:
    """Share of graded samples at each level; with several epochs, averaged values match none."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values = score_values(scores)
        return {
            share_key(level): float(np.isclose(values, level).mean()) if len(values) else math.nan
            for level in levels
        }

    return compute


@metric
def panel_figures() -> Metric:
    """For a panel: each juror's mean level and the jurors' ordinal Krippendorff's alpha.

    Empty for a single judge. Alpha is 1 exactly when the jurors agree on every sample; it is
    computed by Inspect's own `krippendorff_alpha` over the jurors' verdicts of each sample
    (abstentions left out, samples with fewer than two verdicts skipped).
    """
    alpha = krippendorff_alpha(level="ordinal")

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        names, matrix = juror_levels(scores)
        if len(names) < 2:
            return {}
        result = {
            juror_key(name, MEAN): float(np.nanmean(column)) if (~np.isnan(column)).any()
            else math.nan
            for name, column in zip(names, matrix.T, strict=True)
        }
        units = [
            SampleScore(score=Score(value=[float(v) for v in row if not math.isnan(v)]))
            for row in matrix
        ]
        usable = [unit for unit in units if len(unit.score.value) >= 2]  # type: ignore[arg-type]
        result[ALPHA] = float(alpha(usable)) if usable else math.nan  # type: ignore[arg-type]
        return result

    return compute


def judge_metrics(levels: list[float]) -> list[Metric]:
    """The metrics of every judged task: at most 8 figures, and a panel's own beside them."""
    return [mean(), stderr(), bootstrap_ci(), level_share(levels), panel_figures()]


@score_reducer(name="judge_epochs")
def judge_epochs() -> ScoreReducer:
    """Inspect's mean over epochs, keeping what the judge said in each epoch.

    Inspect's reducers keep the first epoch's metadata only, so a judge's self-consistency
    across epochs (live_qa_judge's `epoch_agreement`) and each juror's level could not be read
    back. This keeps every epoch's level (`epoch_levels`, NaN where unread) and each juror's mean
    level over the epochs it gave a verdict in.
    """
    reduce_mean = mean_score()

    def reduce(scores: list[Score]) -> Score:
        reduced = reduce_mean(scores)
        first = scores[0].metadata
        if not isinstance(first, dict) or "jurors" not in first or isinstance(
            scores[0].value, dict
        ):
            return reduced
        reduced.value = round(_to_float(reduced.value), LEVEL_DIGITS)
        jurors = []
        for index, juror in enumerate(first["jurors"]):
            given = [
                float(s.metadata["jurors"][index]["level"])
                for s in scores
                if s.metadata and s.metadata["jurors"] and s.metadata["jurors"][index]["level"]
                is not None
            ]
            level = round(float(np.mean(given)), LEVEL_DIGITS) if given else None
            jurors.append({**juror, "level": level})
        reduced.metadata = {
            **first,
            "jurors": jurors,
            "epoch_levels": [_to_float(s.value) for s in scores],
        }
        return reduced

    return reduce
