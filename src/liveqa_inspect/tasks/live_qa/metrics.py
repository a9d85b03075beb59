"""The model-grading judge's metrics beyond Inspect's built-ins, over the samples the judge could
grade (Inspect drops the unscored ones; the `verdicts` scorer counts them)."""

import math

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, mean, metric, stderr

from liveqa_inspect.stats.bootstrap import mean_interval
from liveqa_inspect.stats.levels import level_index
from liveqa_inspect.stats.names import MEAN_CI, share_key
from liveqa_inspect.stats.values import score_values


def level_shares(values: np.ndarray, levels: list[float]) -> dict[float, float]:
    """A value between levels counts at the one `level_index` gives it: the shares add up to 1."""
    if not len(values):
        return dict.fromkeys(levels, math.nan)
    at = level_index(values, levels)
    return {level: float((at == index).mean()) for index, level in enumerate(levels)}


@metric
def bootstrap_ci() -> Metric:
    """95% interval of the mean, seeded so the same log always reports the same interval."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return dict(zip(MEAN_CI, mean_interval(score_values(scores)), strict=True))

    return compute


@metric
def level_share(levels: list[float]) -> Metric:
    def compute(scores: list[SampleScore]) -> dict[str, float]:
        shares = level_shares(score_values(scores), levels)
        return {share_key(level): share for level, share in shares.items()}

    return compute


def judge_metrics(levels: list[float]) -> list[Metric]:
    """A panel's own figures are the `verdicts` scorer's."""
    return [mean(), stderr(), bootstrap_ci(), level_share(levels)]
