"""The epoch reducer of the judged tasks."""

from __future__ import annotations

import math

import numpy as np
from inspect_ai.scorer import Score, ScoreReducer, mean_score, score_reducer

from liveqa_inspect.judging.panel import LEVEL_DIGITS
from liveqa_inspect.stats.values import to_float


def epoch_level(score: Score) -> float:
    """NaN where the judge gave no level: the judge's score holds it as its value; the verdicts
    score, whose value says whether there was one, in its metadata."""
    meta = score.metadata or {}
    if "level" in meta:
        return math.nan if meta["level"] is None else float(meta["level"])
    return to_float(score.value)


@score_reducer(name="judge_epochs")
def judge_epochs() -> ScoreReducer:
    """Inspect's mean over epochs, an unread epoch left out as Inspect leaves out an unscored one,
    keeping what Inspect's reducers drop (they keep the first epoch's metadata, and a reason only
    where all agree): each epoch's level (`epoch_levels`, NaN where unread), each juror's mean
    level over the epochs it gave a verdict in, and a sample never read the first epoch's reason.
    """
    reduce_mean = mean_score()

    def reduce(scores: list[Score]) -> Score:
        reduced = reduce_mean(scores)
        first = scores[0].metadata or {}
        if "jurors" not in first or isinstance(scores[0].value, dict):
            return reduced
        reduced.value = round(to_float(reduced.value), LEVEL_DIGITS)
        rosters = [s.metadata["jurors"] for s in scores if s.metadata and s.metadata["jurors"]]
        jurors = []
        for index, juror in enumerate(first["jurors"]):
            given = [float(r[index]["level"]) for r in rosters if r[index]["level"] is not None]
            level = round(float(np.mean(given)), LEVEL_DIGITS) if given else None
            jurors.append({**juror, "level": level})
        levels = [epoch_level(s) for s in scores]
        if all(math.isnan(level) for level in levels):
            reduced.reason = scores[0].reason
        reduced.metadata = {**first, "jurors": jurors, "epoch_levels": levels}
        return reduced

    return reduce
