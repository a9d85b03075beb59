"""live_qa_judge's scorer: the judge measured, on live_qa's very prompt."""

from __future__ import annotations

from inspect_ai.scorer import Scorer, scorer

from liveqa_inspect.judging.panel import Panel
from liveqa_inspect.judging.prompts import LIVEQA_JUDGE, LIVEQA_SCALE
from liveqa_inspect.judging.scorer import agreement_metrics, answer_fields, grading_scorer

_LEVELS = list(LIVEQA_SCALE.levels)


@scorer(metrics=agreement_metrics(_LEVELS))
def judge_agreement_scorer(cache: bool = True, panel: Panel = "mean") -> Scorer:
    """The judge's level for a human-judged answer: the grader role if bound, else the model
    under evaluation."""
    return grading_scorer(LIVEQA_JUDGE, answer_fields, None, cache, panel)
