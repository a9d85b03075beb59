"""The probe's figures, computed here once for the log's metric and for the report. The headline
is the paired difference, guided minus general (items resampled with both completions kept
together), with its one-sided p. The log names only the two overlaps' means; the report prints
their intervals too."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, metric

from liveqa_inspect.stats import bootstrap, names
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.tasks.contamination.instructions import GENERAL, GUIDED


@dataclass(frozen=True)
class Instructed:
    overlap: Estimate  # mean ROUGE-L with the remainder, a refusal counting 0
    verbatim: float
    refused: int  # items refused or empty; of an epoch mean, refused in any epoch counts once


@dataclass(frozen=True)
class Figures:
    instructions: dict[str, Instructed]
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
    overlaps = {name: column(scores, names.overlap_key(name)) for name in (GUIDED, GENERAL)}
    instructions = {
        name: Instructed(
            bootstrap.mean_estimate(overlap),
            float(column(scores, names.verbatim_key(name)).mean()) if scores else math.nan,
            int((column(scores, names.refused_key(name)) > 0).sum()),
        )
        for name, overlap in overlaps.items()
    }
    return Figures(instructions, *paired_difference(overlaps[GUIDED], overlaps[GENERAL]))


@metric
def completion_figures() -> Metric:
    def compute(scores: list[SampleScore]) -> dict[str, float]:
        found = completion_stats(scores)
        result = {names.overlap_key(n): i.overlap.value for n, i in found.instructions.items()}
        result.update({**found.difference.named(names.DIFFERENCE), names.DIFFERENCE_P: found.p})
        for name, instructed in found.instructions.items():
            result[names.verbatim_key(name)] = instructed.verbatim
            result[names.refused_key(name)] = instructed.refused
        return result

    return compute
