"""The `verdicts` scorer: what the judge said about every sample, and the figures over them.

Inspect leaves a sample the judge could not grade (`Score.unscored`: under `majority`, jurors
who disagree) out of every metric of the judge's scorer. This scorer reads the judge's score back
and is never unscored (1 where the judge gave a level, 0 where it gave none, the levels in its
metadata), so its figures rest on every sample: the unscored and why; with epochs, the unread
epochs and how often every epoch agreed; for a panel, each juror over every sample it graded and
the jurors' Krippendorff's alpha. The metric and the report call the same functions.
"""

import math
from collections import Counter
from dataclasses import dataclass

import numpy as np
from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    krippendorff_alpha,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState

from liveqa_inspect.judging.errored import unless_errored
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


@dataclass(frozen=True)
class EpochFigures:
    unread: int  # epochs without a level in samples that have one (their mean is of the others)
    agreement: float  # share of samples read in every epoch with one level in all (NaN: none)


def epoch_figures(scores: list[SampleScore]) -> EpochFigures | None:
    """None with one epoch, where there is nothing to count or compare."""
    epochs = [np.asarray((s.score.metadata or {}).get("epoch_levels") or [], float) for s in scores]
    if not any(len(levels) > 1 for levels in epochs):
        return None
    unread = [int(np.isnan(levels).sum()) for levels in epochs]
    stable = [len(set(levels)) == 1 for levels, n in zip(epochs, unread, strict=True) if not n]
    return EpochFigures(
        unread=sum(n for levels, n in zip(epochs, unread, strict=True) if n < len(levels)),
        agreement=float(np.mean(stable)) if stable else math.nan,
    )


@dataclass(frozen=True)
class JurorFigures:
    mean: float
    agreement: dict[str, Estimate]  # with the humans where every sample has a human level, or {}


@dataclass(frozen=True)
class PanelFigures:
    jurors: dict[str, JurorFigures]
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


def panel_figures(scores: list[SampleScore]) -> PanelFigures | None:
    """Each juror over the samples it gave a verdict on, and the jurors' alpha (None: one judge)."""
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
        jurors[name] = JurorFigures(
            mean=float(column[graded].mean()) if graded.any() else math.nan,
            agreement=agreement_figures(column[graded], human[graded], levels) if measured else {},
        )
    return PanelFigures(jurors, jurors_alpha(matrix))


def counts(scores: list[SampleScore]) -> dict[str, float]:
    """The scored and unscored samples, and why each unscored one went unscored (a sample whose
    epochs differ on why, Inspect's reducer keeping no reason, as `no_reason_recorded`)."""
    unread = [s for s in scores if not to_float(s.score.value) > 0]
    reasons = Counter(s.score.reason or "no_reason_recorded" for s in unread)
    found: dict[str, float] = {SCORED: len(scores) - len(unread), UNSCORED: len(unread)}
    return found | {unscored_key(reason): reasons[reason] for reason in sorted(reasons)}


@metric
def verdict_figures() -> Metric:
    """The counts, always; with epochs their figures; for a panel its jurors' (see above)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        result = counts(scores)
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


@scorer(metrics=[verdict_figures()])
def verdicts(judge: str, levels: list[float]) -> Scorer:
    """Whether the judge gave a level (1) or none (0), with its level and each juror's.

    Args:
        judge: The judge scorer's name in the log, whose score this one reads back.
        levels: The judge's scale, on which its jurors are measured against human levels.
    """

    @unless_errored
    async def score(state: TaskState, target: Target) -> Score:
        judged = (state.scores or {}).get(judge)
        if judged is None:
            raise RuntimeError(f"The verdicts scorer found no score of {judge} to read.")
        level = to_float(judged.value)
        read = not math.isnan(level)
        jurors = (judged.metadata or {}).get("jurors") or []
        return Score(
            value=1.0 if read else 0.0,
            reason=judged.reason,
            explanation="The judge gave a level." if read else "The judge gave no level.",
            metadata={
                "level": level if read else None,
                "levels": levels,
                "jurors": [{"model": j["model"], "level": j["level"]} for j in jurors],
            },
        )

    return score
