"""The probe's figures, computed here once for the log's metrics and for the report: the overlaps
with the remainder and the headline, their paired difference (guided minus general, items
resampled with both completions kept together) with its one-sided p, of each item's mean over its
epochs; and the reproductions and refusals, counted over every completion."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from liveqa_inspect.stats import bootstrap
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.stats.names import (
    BOTH, COMPLETIONS, DIFFERENCE, DIFFERENCE_P, SHORT, overlap_key, refused_key, verbatim_key,
)  # fmt: skip
from liveqa_inspect.tasks.contamination.instructions import GENERAL, GUIDED


@dataclass(frozen=True)
class Figures:
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
    guided, general = (column(scores, overlap_key(name)) for name in (GUIDED, GENERAL))
    means = {GUIDED: bootstrap.mean_estimate(guided), GENERAL: bootstrap.mean_estimate(general)}
    return Figures(means, *paired_difference(guided, general))


@metric
def completion_figures() -> Metric:
    def compute(scores: list[SampleScore]) -> dict[str, float]:
        found = completion_stats(scores)
        means = {overlap_key(name): mean.value for name, mean in found.overlaps.items()}
        return {**means, **found.difference.named(DIFFERENCE), DIFFERENCE_P: found.p}

    return compute


def reproduction_counts(scores: list[SampleScore]) -> dict[str, int]:
    """Per completion: a share of an item's epoch mean would round one epoch of two to 0 or 1."""
    keys = [verbatim_key(GUIDED), verbatim_key(GENERAL), refused_key(GUIDED), refused_key(GENERAL)]
    counted = {key: int(column(scores, key).sum()) for key in [SHORT, *keys]}
    both = column(scores, verbatim_key(GUIDED)) * column(scores, verbatim_key(GENERAL))
    return {COMPLETIONS: len(scores), **counted, verbatim_key(BOTH): int(both.sum())}


@metric(scores="unreduced")
def reproductions() -> Metric:
    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return dict(reproduction_counts(scores))

    return compute
