"""Metrics of the contamination probe: overlap under each instruction, and their difference.

Each score's value holds, for the guided and the general instruction, the ROUGE-L of its
completion with the remainder, its longest shared run of words, whether that run makes it a
reproduction and whether it was refused (see `scoring.contamination`), and the guided-minus-general
difference.

- `<instruction>_rouge_l`: the mean overlap under each instruction (a refused item counts 0).
- `difference`, its 95% interval and `difference_p`: the mean paired difference, guided minus
  general, with a seeded paired-bootstrap interval (items resampled with both completions kept
  together) and the one-sided p-value of a difference above 0 (Golchin & Surdeanu flag a set at
  p <= 0.05). The headline.
- `<instruction>_verbatim`: the share of items reproduced verbatim or nearly (a shared run of at
  least `scoring.contamination.VERBATIM_WORDS` words, or the whole remainder when it is shorter).
- `<instruction>_refused`: how many items got a refusal or an empty reply.
"""

from __future__ import annotations

import math

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from liveqa_inspect.stats.bootstrap import one_sided_p, percentile_interval, resample_rows
from liveqa_inspect.stats.names import (
    DIFFERENCE,
    DIFFERENCE_P,
    ci_keys,
    overlap_key,
    refused_key,
    verbatim_key,
)
from liveqa_inspect.tasks.contamination.instructions import GENERAL, GUIDED

FLAG_P = 0.05
"""Golchin & Surdeanu's threshold on the one-sided p-value of the difference."""


def paired_difference(guided: np.ndarray, general: np.ndarray) -> dict[str, float]:
    """The mean of guided minus general, its 95% interval and one-sided p-value; the interval and
    p are NaN below two items, where nothing can vary."""
    differences = guided - general
    low_key, high_key = ci_keys(DIFFERENCE)
    result = {DIFFERENCE: float(differences.mean()) if len(differences) else math.nan}
    if len(differences) < 2:
        return {**result, low_key: math.nan, high_key: math.nan, DIFFERENCE_P: math.nan}
    resampled = differences[resample_rows(len(differences))].mean(axis=1)
    result[low_key], result[high_key] = percentile_interval(resampled)
    result[DIFFERENCE_P] = one_sided_p(resampled)
    return result


@metric
def completion_figures() -> Metric:
    """Every figure of the probe (see the module's docstring)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        def column(key: str) -> np.ndarray:
            return np.array([float(s.score.value[key]) for s in scores])  # type: ignore[index]

        result: dict[str, float] = {}
        for name in (GUIDED, GENERAL):
            values = column(overlap_key(name))
            result[overlap_key(name)] = float(values.mean()) if len(values) else math.nan
        result.update(paired_difference(column(overlap_key(GUIDED)), column(overlap_key(GENERAL))))
        for name in (GUIDED, GENERAL):
            reproduced = column(verbatim_key(name))
            result[verbatim_key(name)] = float(reproduced.mean()) if len(scores) else math.nan
            # Averaged over epochs, an item refused in any epoch counts once.
            result[refused_key(name)] = int((column(refused_key(name)) > 0).sum())
        return result

    return compute
