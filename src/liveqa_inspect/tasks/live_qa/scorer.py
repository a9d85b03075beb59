"""live_qa's judge: the pinned default, on the four LiveQA levels."""

from __future__ import annotations

from inspect_ai.scorer import Scorer, scorer

from liveqa_inspect.judging.panel import Panel
from liveqa_inspect.judging.prompts import LIVEQA_JUDGE, LIVEQA_SCALE
from liveqa_inspect.judging.scorer import answer_fields, grading_scorer
from liveqa_inspect.judging.settings import DEFAULT_JUDGE
from liveqa_inspect.tasks.live_qa.metrics import judge_metrics

_LEVELS = list(LIVEQA_SCALE.levels)


@scorer(metrics=judge_metrics(_LEVELS))
def live_qa_scorer(cache: bool = True, panel: Panel = "mean") -> Scorer:
    """Judge-graded score on the four LiveQA levels (0, 0.3, 0.7, 1)."""
    return grading_scorer(LIVEQA_JUDGE, answer_fields, DEFAULT_JUDGE, cache, panel)
