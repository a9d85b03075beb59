"""The ExpertQA scorers: the pinned judge on long-form answers, and judges of claims."""

from __future__ import annotations

from inspect_ai.scorer import Scorer, Target, scorer
from inspect_ai.solver import TaskState

from liveqa_inspect.judging.panel import Panel
from liveqa_inspect.judging.prompts import (
    CLAIM_CORRECTNESS_JUDGE,
    CLAIM_SUPPORT_JUDGE,
    EXPERT_QA_JUDGE,
    LIVEQA_SCALE,
)
from liveqa_inspect.judging.scorer import agreement_metrics, answer_fields, grading_scorer
from liveqa_inspect.judging.settings import DEFAULT_JUDGE
from liveqa_inspect.tasks.expert_qa.claims_metrics import majority_share, wrong_claim_detection
from liveqa_inspect.tasks.live_qa.metrics import judge_metrics

_LEVELS = list(LIVEQA_SCALE.levels)
_CORRECTNESS = list(CLAIM_CORRECTNESS_JUDGE.scale.levels)
_SUPPORT = list(CLAIM_SUPPORT_JUDGE.scale.levels)


def expert_fields(state: TaskState, target: Target) -> dict[str, str | list[str]]:
    return {**answer_fields(state, target), "field": str(state.metadata["field"])}


def correctness_fields(state: TaskState, _: Target) -> dict[str, str | list[str]]:
    return {key: str(state.metadata[key]) for key in ("field", "question", "answer", "claim")}


def support_fields(state: TaskState, _: Target) -> dict[str, str | list[str]]:
    return {"claim": str(state.metadata["claim"]), "passages": list(state.metadata["passages"])}


@scorer(metrics=judge_metrics(_LEVELS))
def expert_qa_scorer(cache: bool = True, panel: Panel = "mean") -> Scorer:
    """The pinned judge on ExpertQA, with a rubric worded for experts of the question's field."""
    return grading_scorer(EXPERT_QA_JUDGE, expert_fields, DEFAULT_JUDGE, cache, panel)


@scorer(metrics=[*agreement_metrics(_CORRECTNESS), wrong_claim_detection(), majority_share()])
def claim_correctness_scorer(cache: bool = True, panel: Panel = "mean") -> Scorer:
    """The judge's 1-5 correctness rating of an expert-labelled ExpertQA claim."""
    return grading_scorer(CLAIM_CORRECTNESS_JUDGE, correctness_fields, None, cache, panel)


@scorer(metrics=agreement_metrics(_SUPPORT))
def claim_support_scorer(cache: bool = True, panel: Panel = "mean") -> Scorer:
    """The judge's 1-3 rating of how far a claim's passages support it."""
    return grading_scorer(CLAIM_SUPPORT_JUDGE, support_fields, None, cache, panel)
