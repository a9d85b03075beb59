"""How a judge's level moves when an answer is perturbed: live_qa_judge_robustness's figures
(docs/judge_robustness.md says what each is). A pair is compared at the levels its two values
count at (`level_index`), so it moved or it did not; the shift uses the values. An answer's pairs
are not independent (a judge that misreads an answer misreads its versions too), so an interval
resamples answers, each with all its pairs."""

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, Score, metric

from liveqa_inspect.judging.verdicts import epoch_figures
from liveqa_inspect.stats import names as keys
from liveqa_inspect.stats.bootstrap import Estimate, estimate, mean_estimate
from liveqa_inspect.stats.levels import level_index
from liveqa_inspect.stats.values import juror_levels, to_float
from liveqa_inspect.tasks.robustness.dataset import ORIGINAL, PERTURBATIONS, Expect, expected

SUMMARIES: dict[str, Expect] = {keys.ROBUSTNESS: "hold", keys.SENSITIVITY: "lower"}
MOVE: dict[Expect, int] = {"hold": 0, "lower": -1}
SHARE: dict[Expect, str] = {"hold": keys.UNCHANGED, "lower": keys.LOWERED}
Scores = Sequence[SampleScore]


@dataclass(frozen=True)
class Pooled:
    """A share of pairs as expected, of `n` read and `left_out`; a perturbation's mean shift."""

    share: Estimate
    n: int
    left_out: int
    shift: Estimate | None = None

    def named(self, name: str) -> dict[str, float]:
        counts = {keys.PAIRS: float(self.n), keys.UNREADABLE: float(self.left_out)}
        counts = {keys.pair_key(name, key): value for key, value in counts.items()}
        if self.shift is None:  # a summary, named as itself
            return self.share.named(name) | counts
        share = self.share.named(keys.pair_key(name, SHARE[expected(name)]))
        return counts | share | self.shift.named(keys.pair_key(name, keys.SHIFT))


Shares = dict[str, Pooled]
"""Each perturbation's and summary's share of pairs as expected, by name."""


def level(score: SampleScore, version: str) -> float:
    """An answer's level in one version: NaN where unreadable, or not made."""
    return to_float(score.score.value.get(version, math.nan))  # type: ignore[union-attr]


def pairs(scores: Scores, name: str, scale: Sequence[float]) -> list[np.ndarray]:
    """Each answer's pair: read (both levels read), left out (made, not read), its move (-1, 0 or
    1 between the levels counted at; meaningless where not read) and its shift."""
    original, perturbed = (np.array([level(s, v) for s in scores]) for v in (ORIGINAL, name))
    read = ~np.isnan(original) & ~np.isnan(perturbed)
    made = np.array([name in s.score.value for s in scores], dtype=bool)  # type: ignore[operator]
    start, end = (level_index(np.nan_to_num(v, nan=scale[0]), scale) for v in (original, perturbed))
    return [read, made & ~read, np.sign(end - start), perturbed - original]


def asked(scores: Scores) -> list[str]:
    """In the task's order, read off the samples: a metric cannot see the task's arguments."""
    found = {n for s in scores for n in (s.sample_metadata or {}).get("perturbations", [])}
    return [name for name in PERTURBATIONS if name in found]


def outcomes(scores: Scores, names: Sequence[str], scale: Sequence[float]) -> list:
    """Per answer, over its pairs of `names` (expected alike): as expected, read, left out."""
    hits, counts, left = (np.zeros(len(scores)) for _ in range(3))
    for name in names:
        read, unread, move, _ = pairs(scores, name, scale)
        hits += read & (move == MOVE[expected(name)])
        counts += read
        left += unread
    return [hits, counts, left]


def pooled(hits: np.ndarray, counts: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Hits over pairs, summed over the answers of each row of `rows`."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return hits[rows].sum(axis=1) / counts[rows].sum(axis=1)


def robustness_figures(scores: Scores, scale: Sequence[float]) -> Shares:
    """The summaries, then each perturbation's figures."""
    names = asked(scores)

    def pooled_figures(group: Sequence[str], shift: Estimate | None = None) -> Pooled:
        hits, counts, left = outcomes(scores, group, scale)
        graded = counts > 0
        share = estimate(lambda rows: pooled(hits[graded], counts[graded], rows), int(graded.sum()))
        return Pooled(share, int(counts.sum()), int(left.sum()), shift)

    figures = {
        summary: pooled_figures([n for n in names if expected(n) == way])
        for summary, way in SUMMARIES.items()
    }
    for name in names:  # a shift is NaN where either level is: the mean leaves it out
        figures[name] = pooled_figures([name], mean_estimate(pairs(scores, name, scale)[3]))
    return figures


def summary_difference(
    first: Scores, other: Scores, summary: str, scale: Sequence[float]
) -> Estimate:
    """`other`'s summary minus `first`'s (a score of each answer, in one order) over the
    perturbations both ran, each resample drawing the same answers, each with all its pairs."""
    theirs = asked(other)
    group = [n for n in asked(first) if n in theirs and expected(n) == SUMMARIES[summary]]
    mine, yours = (outcomes(side, group, scale)[:2] for side in (first, other))
    return estimate(lambda rows: pooled(*yours, rows) - pooled(*mine, rows), len(first))


def as_judged(scores: Scores, version: str) -> list[SampleScore]:
    """Each answer's grading of one version, as a judged task's score records it."""
    meta = [(s.score.metadata or {})["versions"].get(version, {}) for s in scores]
    return [SampleScore(score=Score(value=0, metadata=m)) for m in meta]


def unread_epochs(scores: Scores) -> int:
    """Epochs left out of a version's mean: live_qa's `unread_epochs`, over every version."""
    epochs = epoch_figures([g for v in [ORIGINAL, *asked(scores)] for g in as_judged(scores, v)])
    return 0 if epochs is None else epochs.unread


def juror_figures(scores: Scores, scale: Sequence[float]) -> dict[str, Shares]:
    """For a panel, each juror's figures as if it had judged alone; empty for one judge."""
    graded = {v: juror_levels(as_judged(scores, v)) for v in [ORIGINAL, *asked(scores)]}

    def alone(s: SampleScore, i: int, j: int) -> SampleScore:
        value = {v: float(graded[v][1][i, j]) if graded[v][0] else math.nan for v in s.score.value}
        return SampleScore(score=Score(value=value), sample_metadata=s.sample_metadata)

    panel = graded[ORIGINAL][0] if len(graded[ORIGINAL][0]) > 1 else []
    return {
        juror: robustness_figures([alone(s, i, j) for i, s in enumerate(scores)], scale)
        for j, juror in enumerate(panel)
    }


@metric
def robustness(levels: list[float]) -> Metric:
    """The figures, the epochs left out, and for a panel each juror's (`juror/<model>/...`)."""

    def named(found: Shares) -> dict[str, float]:
        return {k: v for name, each in found.items() for k, v in each.named(name).items()}

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        result = named(robustness_figures(scores, levels))
        result[keys.UNREAD_EPOCHS] = float(unread_epochs(scores))
        for juror, found in juror_figures(scores, levels).items():
            result |= {keys.juror_key(juror, key): value for key, value in named(found).items()}
        return result

    return compute
