"""The scorers that judge: the pinned judge of live_qa and expert_qa, and live_qa_judge's.

All three grade through `grade_state` and so `judge.grade`; live_qa and live_qa_judge share the
live_qa prompt, so a judge is measured in live_qa_judge on exactly the prompt it grades with.
"""

from __future__ import annotations

import logging

from inspect_ai.model import Model, get_model
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from liveqa_inspect.agreement import agreement, confusion
from liveqa_inspect.judge import DEFAULT_JUDGE, JUDGE_ROLE, grade
from liveqa_inspect.metrics import judge_metrics
from liveqa_inspect.prompts import EXPERT_QA_JUDGE, LIVEQA_JUDGE, JudgePrompt

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


async def grade_state(
    judge: Model,
    state: TaskState,
    target: Target,
    cache: bool,
    prompt: JudgePrompt = LIVEQA_JUDGE,
    **context: str,
) -> Score:
    return await grade(
        judge,
        prompt,
        question=state.input_text,
        references=list(target.target),
        answer=state.output.completion,
        cache=cache,
        **context,
    )


@scorer(metrics=judge_metrics(["focus_category", "question_type"]))
def live_qa_scorer(cache: bool = True) -> Scorer:
    """Judge-graded score on the four LiveQA levels (0, 0.3, 0.7, 1); `cache` caches the judge."""

    async def score(state: TaskState, target: Target) -> Score:
        # Resolved in score(), so the judge's client is made when scoring starts, not at build.
        judge = get_model(role=JUDGE_ROLE, default=DEFAULT_JUDGE)
        warn_if_self_judged(str(judge), str(get_model()))
        return await grade_state(judge, state, target, cache)

    return score


@scorer(metrics=[agreement(), confusion()])
def judge_agreement_scorer(cache: bool = True) -> Scorer:
    """The model under evaluation is the judge: its level for a human-judged answer."""

    async def score(state: TaskState, target: Target) -> Score:
        return await grade_state(get_model(), state, target, cache)

    return score


@scorer(metrics=judge_metrics(["field"]))
def expert_qa_scorer(cache: bool = True) -> Scorer:
    """The pinned judge on ExpertQA, with a rubric worded for experts of the question's field."""

    async def score(state: TaskState, target: Target) -> Score:
        judge = get_model(role=JUDGE_ROLE, default=DEFAULT_JUDGE)
        warn_if_self_judged(str(judge), str(get_model()))
        field = str(state.metadata["field"])
        return await grade_state(judge, state, target, cache, EXPERT_QA_JUDGE, field=field)

    return score
