"""What the judge could not grade, and a panel's jurors: the `verdicts` scorer's figures.

Inspect hands a scorer's metrics only the samples it scored, so the judge scorer's own metrics
cannot see a sample the judge left unscored. The `verdicts` scorer scores every sample the judge
saw (judging/verdicts.py), so these figures rest on all of them: how many the judge scored and
left unscored, and why; with several epochs, how many epochs gave no readable level and were left
out of their sample's mean, and how often the judge gave the same level in every epoch; and for a
panel, each juror's mean level, its agreement with the humans where the task has them, and the
jurors' ordinal Krippendorff's alpha, each over every sample the juror gave a verdict on, whatever
the panel's rule. Under `majority` the panel scores only the samples its jurors agree on: over
those alone, jurors who disagree would look as if they always agreed.

The metric and the report call the same functions here; only `verdict_figures` names them.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, Score, krippendorff_alpha, metric

from liveqa_inspect.stats.agreement import agreement_figures, named
from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.stats.names import (
    ALPHA,
    EPOCH_AGREEMENT,
    MEAN,
    SCORED,
    UNREAD_EPOCHS,
    UNSCORED,
    juror_key,
    unscored_key,
)
from liveqa_inspect.stats.values import juror_levels, to_float

NO_REASON = "no_reason_recorded"


@dataclass(frozen=True)
class Counts:
    scored: int
    unscored: int
    reasons: dict[str, int]
    """The unscored samples by reason, in the reasons' alphabetical order."""


def counts(scores: list[SampleScore]) -> Counts:
    read = [to_float(s.score.value) > 0 for s in scores]
    reasons = Counter(
        s.score.reason or NO_REASON for s, r in zip(scores, read, strict=True) if not r
    )
    return Counts(sum(read), len(scores) - sum(read), dict(sorted(reasons.items())))


@dataclass(frozen=True)
class Epochs:
    unread: int
    """Epochs without a readable level in samples that still have one (their mean is over the
    others)."""
    agreement: float
    """The share of samples read in every epoch whose level is the same in each: 1 for a
    deterministic judge, NaN when no sample was read in every epoch."""


def epoch_figures(scores: list[SampleScore]) -> Epochs | None:
    """None with one epoch, where there is nothing to count or compare."""
    epochs = [np.asarray((s.score.metadata or {}).get("epoch_levels") or [], float) for s in scores]
    if not any(len(levels) > 1 for levels in epochs):
        return None
    unread = [int(np.isnan(levels).sum()) for levels in epochs]
    stable = [len(set(levels)) == 1 for levels, n in zip(epochs, unread, strict=True) if not n]
    return Epochs(
        unread=sum(n for levels, n in zip(epochs, unread, strict=True) if n < len(levels)),
        agreement=float(np.mean(stable)) if stable else math.nan,
    )


@dataclass(frozen=True)
class Juror:
    mean: float
    agreement: dict[str, Estimate] = field(default_factory=dict)
    """With the humans, where every sample has a human level; else empty."""


@dataclass(frozen=True)
class Panel:
    jurors: dict[str, Juror]
    alpha: float


def jurors_alpha(matrix: np.ndarray) -> float:
    """Inspect's ordinal Krippendorff's alpha over each sample's verdicts: abstentions left out,
    samples with fewer than two verdicts skipped; 1 exactly when the jurors always agree."""
    units = [
        SampleScore(score=Score(value=[float(v) for v in row if not math.isnan(v)]))
        for row in matrix
        if (~np.isnan(row)).sum() >= 2
    ]
    alpha = krippendorff_alpha(level="ordinal")
    return float(alpha(units)) if units else math.nan  # type: ignore[arg-type]


def panel_figures(scores: list[SampleScore]) -> Panel | None:
    """Each juror over the samples it gave a verdict on, and the jurors' alpha; None for one
    judge."""
    names, matrix = juror_levels(scores)
    if len(names) < 2:
        return None
    humans = [s.sample_metadata or {} for s in scores]
    measured = all("human_level" in meta for meta in humans)
    levels = (scores[0].score.metadata or {}).get("levels") or []
    human = np.array([float(meta.get("human_level", math.nan)) for meta in humans])
    jurors = {}
    for name, column in zip(names, matrix.T, strict=True):
        graded = ~np.isnan(column)
        jurors[name] = Juror(
            mean=float(column[graded].mean()) if graded.any() else math.nan,
            agreement=agreement_figures(column[graded], human[graded], levels) if measured else {},
        )
    return Panel(jurors, jurors_alpha(matrix))


@metric
def verdict_figures() -> Metric:
    """The counts, always; with epochs their figures; for a panel its jurors' (see above)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        found = counts(scores)
        result: dict[str, float] = {SCORED: found.scored, UNSCORED: found.unscored}
        result.update({unscored_key(reason): n for reason, n in found.reasons.items()})
        epochs = epoch_figures(scores)
        if epochs is not None:
            result.update({UNREAD_EPOCHS: epochs.unread, EPOCH_AGREEMENT: epochs.agreement})
        panel = panel_figures(scores)
        if panel is not None:
            for name, juror in panel.jurors.items():
                result[juror_key(name, MEAN)] = juror.mean
                result.update({juror_key(name, k): v for k, v in named(juror.agreement).items()})
            result[ALPHA] = panel.alpha
        return result

    return compute
