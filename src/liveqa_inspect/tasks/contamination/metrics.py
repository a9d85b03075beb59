"""The probe's figures, once for the log's metrics and the report: of each item's epoch mean, the
overlaps and their paired difference (the headline) with its p; of every completion, the counts."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from liveqa_inspect.stats import bootstrap, names
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.tasks.contamination.instructions import GENERAL, GUIDED


class Figures(NamedTuple):
    overlaps: dict[str, Estimate]  # mean ROUGE-L with the remainder, a refusal counting 0
    difference: Estimate
    p: float  # one-sided, of a difference above 0; NaN below two items


def column(scores: list[SampleScore], key: str) -> np.ndarray:
    return np.array([float(s.score.value[key]) for s in scores])  # type: ignore[index]


def paired_difference(guided: np.ndarray, general: np.ndarray) -> tuple[Estimate, float]:
    """The mean difference with its interval, and the p of the same seeded resamples."""
    differences = guided - general
    if len(differences) < 2:
        return bootstrap.mean_estimate(differences), math.nan
    resampled = differences[bootstrap.resample_rows(len(differences))].mean(axis=1)
    return bootstrap.mean_estimate(differences), bootstrap.one_sided_p(resampled)


def completion_stats(scores: list[SampleScore]) -> Figures:
    guided, general = (column(scores, names.overlap_key(name)) for name in (GUIDED, GENERAL))
    means = {GUIDED: bootstrap.mean_estimate(guided), GENERAL: bootstrap.mean_estimate(general)}
    return Figures(means, *paired_difference(guided, general))


@metric
def completion_figures() -> Metric:
    def compute(scores: list[SampleScore]) -> dict[str, float]:
        found = completion_stats(scores)
        means = {names.overlap_key(name): mean.value for name, mean in found.overlaps.items()}
        return {**means, **found.difference.named(names.DIFFERENCE), names.DIFFERENCE_P: found.p}

    return compute


def reproduced(scores: list[SampleScore]) -> dict[str, int]:
    """Per completion: a share of an item's epoch mean would round one epoch of two to 0 or 1."""
    guided, general = (column(scores, names.verbatim_key(name)) for name in (GUIDED, GENERAL))
    refused = {names.refused_key(name): column(scores, names.refused_key(name)).sum()
               for name in (GUIDED, GENERAL)}  # fmt: skip
    counted = {names.COMPLETIONS: len(scores), names.SHORT: column(scores, names.SHORT).sum(),
               names.verbatim_key(GUIDED): guided.sum(), names.verbatim_key(GENERAL): general.sum(),
               names.verbatim_key(names.BOTH): (guided * general).sum(), **refused}  # fmt: skip
    return {key: int(value) for key, value in counted.items()}


@metric(scores="unreduced")
def reproductions() -> Metric:
    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return dict(reproduced(scores))

    return compute
