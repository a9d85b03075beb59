"""Metrics of the judged tasks beyond Inspect's built-ins, over the samples the judge could grade
(Inspect drops the unscored ones; the `verdicts` scorer counts them). Per-group figures (focus
category, question type, field) are left to the report, where each row can carry its n and
interval instead of widening the log's results to dozens of unlabelled columns.
"""

from __future__ import annotations

import math

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, mean, metric, stderr

from liveqa_inspect.stats.bootstrap import mean_interval
from liveqa_inspect.stats.levels import Placed
from liveqa_inspect.stats.names import MEAN_CI, share_key
from liveqa_inspect.stats.values import score_values


@metric
def bootstrap_ci() -> Metric:
    """95% interval of the mean, seeded so the same log always reports the same interval."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return dict(zip(MEAN_CI, mean_interval(score_values(scores)), strict=True))

    return compute


@metric
def level_share(levels: list[float]) -> Metric:
    """Share of graded samples at each level. A panel's or an epoch mean between levels counts at
    its nearest level, half at each if halfway (`metrics.levels`), so the shares add up to 1."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        placed = Placed.on(score_values(scores), np.asarray(levels, dtype=float))
        return {
            share_key(level): float(placed.at(index).mean()) if scores else math.nan
            for index, level in enumerate(levels)
        }

    return compute


def judge_metrics(levels: list[float]) -> list[Metric]:
    """The metrics of every model-grading judge scorer: 8 figures; the panel's own are the
    `verdicts` scorer's."""
    return [mean(), stderr(), bootstrap_ci(), level_share(levels)]
