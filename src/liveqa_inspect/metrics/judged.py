"""Metrics of the judged tasks beyond Inspect's built-ins.

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
    krippendorff_alpha,
    mean,
    metric,
    stderr,
)

from liveqa_inspect.metrics.agreement import juror_levels
from liveqa_inspect.metrics.bootstrap import mean_interval
from liveqa_inspect.metrics.keys import ALPHA, MEAN, MEAN_CI, juror_key, share_key
from liveqa_inspect.metrics.values import score_values


@metric
def bootstrap_ci() -> Metric:
    """95% interval of the mean, seeded so the same log always reports the same interval."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return dict(zip(MEAN_CI, mean_interval(score_values(scores)), strict=True))

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
            juror_key(name, MEAN): float(np.nanmean(column))
            if (~np.isnan(column)).any()
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
