"""The `verdicts` scorer: what the judge said about a sample, as a score that always has a value.

Inspect leaves a sample the judge could not grade (`Score.unscored`) out of every metric of the
judge's scorer. How many such samples there were and why, and what each juror of a panel said
about them, would then be told nowhere: under `majority`, a sample whose jurors disagree is
exactly such a sample. This scorer runs after the judge's, reads its score back (it asks no model)
and is never unscored: its value is 1 where the judge gave a level and 0 where it gave none, and
its metadata holds that level and each juror's. Its metrics (judging/verdict_figures.py) see
every sample the judge saw.
"""

from __future__ import annotations

import math

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from liveqa_inspect.judging.verdict_figures import verdict_figures
from liveqa_inspect.stats.values import to_float


@scorer(metrics=[verdict_figures()])
def verdicts(judge: str, levels: list[float]) -> Scorer:
    """Whether the judge gave a level (1) or none (0), with its level and each juror's.

    Args:
        judge: The judge scorer's name in the log, whose score this one reads back.
        levels: The judge's scale, on which its jurors are measured against human levels.
    """

    async def score(state: TaskState, target: Target) -> Score:
        judged = (state.scores or {}).get(judge)
        if judged is None:
            raise RuntimeError(f"The verdicts scorer found no score of {judge} to read.")
        level = to_float(judged.value)
        read = not math.isnan(level)
        jurors = (judged.metadata or {}).get("jurors") or []
        return Score(
            value=1.0 if read else 0.0,
            answer=judged.answer,
            reason=judged.reason,
            explanation="The judge gave a level." if read else "The judge gave no level.",
            metadata={
                "level": level if read else None,
                "levels": levels,
                "jurors": [{"model": j["model"], "level": j["level"]} for j in jurors],
            },
        )

    return score
