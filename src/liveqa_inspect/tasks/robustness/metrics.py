"""How a judge's level moves when an answer is perturbed: live_qa_judge_robustness's metrics.

Each score holds one answer's level in each version: the original's and each perturbation's
(NaN where the verdict could not be read; a perturbation that did not apply to the answer is
absent). A pair is the original and one perturbed version of the same answer. A pair with a
verdict unreadable on either side is left out of every figure and counted (`<name>_unreadable`).

For each perturbation: the share of its pairs that moved as they should (unchanged, for one
expected to hold; lowered, for one expected to lower) and the mean shift (perturbed minus
original), each with a seeded paired-bootstrap interval (pairs resampled whole). Levels are
compared as levels, under the agreement figures' one rule (stats/levels.py): a panel's or an
epoch mean counts at its nearest level, half at each if halfway (a pair at its lower levels for
one half and its upper for the other), so such a pair can count half as moved; the shift uses
the values themselves.

Two summaries: robustness, the unchanged share over every pair of the perturbations that should
hold, and sensitivity, the lowered share over every pair of those that should lower. One
answer gives several pairs to a summary, and they are not independent (a judge that misreads an
answer misreads its versions too), so a summary's interval resamples answers, each with all its
pairs: the figure of a resample is its pairs' hits over its pairs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, Score, metric

from liveqa_inspect.stats.bootstrap import mean_interval, percentile_interval, resample_rows
from liveqa_inspect.stats.levels import Placed, counted
from liveqa_inspect.stats.names import (
    LOWERED,
    PAIRS,
    ROBUSTNESS,
    SENSITIVITY,
    SHIFT,
    UNCHANGED,
    UNREADABLE,
    ci_keys,
    juror_key,
    pair_key,
)
from liveqa_inspect.stats.values import juror_levels, to_float
from liveqa_inspect.tasks.robustness.perturbations import ORIGINAL, PERTURBATIONS, Expect, expected

SUMMARIES: dict[str, Expect] = {ROBUSTNESS: "hold", SENSITIVITY: "lower"}
"""Each summary and the perturbations it pools: those expected to hold, or to lower."""


@dataclass(frozen=True)
class Versions:
    """Each answer's level in each version (NaN: unreadable, or not applied) and, for each
    perturbation, which answers it was applied to."""

    levels: Mapping[str, np.ndarray]
    applied: Mapping[str, np.ndarray]

    def pairs(self, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(original, perturbed, read, applied) over every answer; `read`: applied, and both
        levels read."""
        original, perturbed, applied = self.levels[ORIGINAL], self.levels[name], self.applied[name]
        read = applied & ~np.isnan(original) & ~np.isnan(perturbed)
        return original, perturbed, read, applied


def selected(names: Sequence[Sequence[str]]) -> list[str]:
    """The perturbations any answer was asked for, in PERTURBATIONS' order."""
    asked = {name for answer in names for name in answer}
    return [name for name in PERTURBATIONS if name in asked]


def versions_of(values: Sequence[Mapping[str, float]], names: Sequence[str]) -> Versions:
    """Versions from each answer's levels by version name (a score's value)."""
    return Versions(
        levels={
            name: np.array([to_float(value.get(name, math.nan)) for value in values], dtype=float)
            for name in [ORIGINAL, *names]
        },
        applied={name: np.array([name in value for value in values], dtype=bool) for name in names},
    )


Moved = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""Whether a pair moved one way, from its original's level index to its perturbed one's."""

AS_EXPECTED: dict[Expect, Moved] = {
    "hold": lambda start, end: end == start,
    "lower": lambda start, end: end < start,
}
"""Moved as it should: unchanged, for a perturbation expected to hold; lowered, for one expected
to lower."""


def share_moved(
    original: np.ndarray, perturbed: np.ndarray, scale: np.ndarray, moved: Moved
) -> np.ndarray:
    """For each pair, the share of it that moved the `moved` way: 1 or 0 on levels, and a half
    where a level is halfway between two, both levels of the pair counted at their lower levels
    for one half and their upper for the other (stats/levels.py), so an unmoved value is
    unchanged. Meaningless where a level is not read."""
    before = Placed.on(np.nan_to_num(original, nan=scale[0]), scale)
    after = Placed.on(np.nan_to_num(perturbed, nan=scale[0]), scale)
    share = np.zeros(len(original))
    for weight, (start, end) in counted(before, after):
        share += weight * moved(start, end)
    return share


def moved_as_expected(versions: Versions, name: str, scale: np.ndarray) -> np.ndarray:
    """The share of each of one perturbation's pairs that moved as it should, on every answer."""
    original, perturbed, _, _ = versions.pairs(name)
    return share_moved(original, perturbed, scale, AS_EXPECTED[expected(name)])


def estimate(name: str, values: np.ndarray) -> dict[str, float]:
    """The mean of `values` and its seeded bootstrap interval, under `name`."""
    low_key, high_key = ci_keys(name)
    low, high = mean_interval(values)
    return {name: float(values.mean()) if len(values) else math.nan, low_key: low, high_key: high}


def pair_figures(versions: Versions, name: str, scale: np.ndarray) -> dict[str, float]:
    """One perturbation's pairs read and left out, the share that moved as they should
    (unchanged, or lowered) and the mean shift, each share with its interval."""
    original, perturbed, read, applied = versions.pairs(name)
    share = UNCHANGED if expected(name) == "hold" else LOWERED
    return {
        pair_key(name, PAIRS): float(read.sum()),
        pair_key(name, UNREADABLE): float((applied & ~read).sum()),
        **estimate(pair_key(name, share), moved_as_expected(versions, name, scale)[read]),
        **estimate(pair_key(name, SHIFT), (perturbed - original)[read]),
    }


def outcomes(
    versions: Versions, expect: Expect, scale: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """For each answer, over its read pairs of the perturbations expected to `expect`: how many
    went as expected (unchanged for `hold`, lowered for `lower`) and how many were read."""
    n = len(versions.levels[ORIGINAL])
    hits, counts = np.zeros(n), np.zeros(n)
    for name in versions.applied:
        if expected(name) != expect:
            continue
        _, _, read, _ = versions.pairs(name)
        hits += read * moved_as_expected(versions, name, scale)
        counts += read
    return hits, counts


def pooled(hits: np.ndarray, counts: np.ndarray, rows: np.ndarray | slice) -> np.ndarray:
    """Hits over pairs, summed over the answers of each row of `rows` (a slice: all of them)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.atleast_2d(hits[rows]).sum(axis=1) / np.atleast_2d(counts[rows]).sum(axis=1)


def summary_figures(versions: Versions, scale: np.ndarray) -> dict[str, float]:
    """Robustness and sensitivity, each with its answer-resampled interval, its pairs read and
    its pairs left out."""
    result: dict[str, float] = {}
    for summary, expect in SUMMARIES.items():
        hits, counts = outcomes(versions, expect, scale)
        graded = counts > 0
        hits, counts = hits[graded], counts[graded]
        low, high = math.nan, math.nan
        if len(counts) >= 2:
            low, high = percentile_interval(pooled(hits, counts, resample_rows(len(counts))))
        low_key, high_key = ci_keys(summary)
        result[summary] = float(pooled(hits, counts, slice(None))[0]) if len(counts) else math.nan
        result[low_key], result[high_key] = low, high
        result[pair_key(summary, PAIRS)] = float(counts.sum())
        result[pair_key(summary, UNREADABLE)] = float(
            sum(
                (applied & ~versions.pairs(name)[2]).sum()
                for name, applied in versions.applied.items()
                if expected(name) == expect
            )
        )
    return result


def robustness_figures(versions: Versions, scale: Sequence[float]) -> dict[str, float]:
    """Every figure: the summaries first, then each perturbation's."""
    levels = np.asarray(scale, dtype=float)
    result = summary_figures(versions, levels)
    for name in versions.applied:
        result.update(pair_figures(versions, name, levels))
    return result


def score_versions(scores: list[SampleScore]) -> Versions:
    """The levels of the scores' versions; which perturbations were asked for is read from the
    samples, as a metric cannot see the task's arguments."""
    names = selected([(s.sample_metadata or {}).get("perturbations", []) for s in scores])
    return versions_of([dict(s.score.value) for s in scores], names)  # type: ignore[arg-type]


def version_scores(scores: list[SampleScore], name: str) -> list[SampleScore]:
    """Each answer's grading of one version, as `juror_levels` reads a grading; an answer the
    version was not applied to has no jurors."""
    return [
        SampleScore(
            score=Score(value=math.nan, metadata=(s.score.metadata or {})["versions"].get(name, {}))
        )
        for s in scores
    ]


def juror_versions(scores: list[SampleScore], panel: Versions) -> dict[str, Versions]:
    """For a panel, each juror's own Versions (applied as the panel's); empty for one judge."""
    jurors, _ = juror_levels(version_scores(scores, ORIGINAL))
    if len(jurors) < 2:
        return {}
    by_version = {}
    for name in panel.levels:
        found, matrix = juror_levels(version_scores(scores, name))
        by_version[name] = matrix if found else np.full((len(scores), len(jurors)), math.nan)
    return {
        juror: Versions({v: matrix[:, j] for v, matrix in by_version.items()}, panel.applied)
        for j, juror in enumerate(jurors)
    }


@metric
def robustness(levels: list[float]) -> Metric:
    """Robustness and sensitivity, and each perturbation's figures, each with its interval."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return robustness_figures(score_versions(scores), levels)

    return compute


@metric
def juror_robustness(levels: list[float]) -> Metric:
    """For a panel, every robustness figure of each juror alone (`juror/<model>/robustness`);
    empty for a single judge. A juror's pair is read when that juror read both versions."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        result: dict[str, float] = {}
        for juror, versions in juror_versions(scores, score_versions(scores)).items():
            figures = robustness_figures(versions, levels)
            result.update({juror_key(juror, key): value for key, value in figures.items()})
        return result

    return compute
