"""The judged tasks' epoch reducer."""

import math

import numpy as np
from inspect_ai.scorer import Score, ScoreReducer, mean_score, score_reducer

from liveqa_inspect.judging.panel import LEVEL_DIGITS
from liveqa_inspect.stats.values import to_float


@score_reducer(name="judge_epochs")
def judge_epochs() -> ScoreReducer:
    """Inspect's mean over epochs (an unread epoch left out, as Inspect leaves out an unscored
    one), keeping what Inspect's reducers drop: each epoch's level (`epoch_levels`, NaN where
    unread), each juror's mean over the epochs it gave a verdict in, and, for a sample read in no
    epoch, the first epoch's reason (Inspect keeps a reason only where every epoch's agrees).
    One epoch's score is its own reduction: Inspect reduces every scorer's scores again at each
    progress refresh, so it is returned as it is."""
    reduce_mean = mean_score()

    def reduce(scores: list[Score]) -> Score:
        if len(scores) == 1:
            return scores[0]
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
        # The judge's score holds its level as its value, the verdicts score in its metadata.
        said = [(s.metadata or {}).get("level", s.value) for s in scores]
        levels = [math.nan if level is None else to_float(level) for level in said]
        if all(math.isnan(level) for level in levels):
            reduced.reason = scores[0].reason
        reduced.metadata = {**first, "jurors": jurors, "epoch_levels": levels}
        return reduced

    return reduce
