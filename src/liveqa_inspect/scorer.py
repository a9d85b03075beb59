"""The live_qa scorer: the pinned judge grades each answer against every expert reference."""

from __future__ import annotations

import logging

from inspect_ai.model import get_model
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from liveqa_inspect.judge import DEFAULT_JUDGE, JUDGE_ROLE, grade
from liveqa_inspect.metrics import judge_metrics
from liveqa_inspect.prompts import LIVEQA_JUDGE

logger = logging.getLogger(__name__)

_warned: set[tuple[str, str]] = set()


def warn_if_self_judged(judge_name: str, subject: str) -> None:
    """A model grading its own answers is biased; say so once a run rather than once a sample."""
    if judge_name == subject and (judge_name, subject) not in _warned:
        _warned.add((judge_name, subject))
        logger.warning(
            "The judge (%s) is the model under test: it grades its own answers, which biases "
            "the score. Bind another judge with --model-role grader=<model>.",
            judge_name,
        )


@scorer(metrics=judge_metrics(["focus_category", "question_type"]))
def live_qa_scorer(cache: bool = True) -> Scorer:
    """Judge-graded score on the four LiveQA levels (0, 0.3, 0.7, 1); `cache` caches the judge."""

    async def score(state: TaskState, target: Target) -> Score:
        # Resolved here, not at task build, so the client is only made when scoring starts.
        judge = get_model(role=JUDGE_ROLE, default=DEFAULT_JUDGE)
        warn_if_self_judged(str(judge), str(get_model()))
        return await grade(
            judge,
            LIVEQA_JUDGE,
            question=state.input_text,
            references=list(target.target),
            answer=state.output.completion,
            cache=cache,
        )

    return score
