"""The scorer body every judging scorer shares, and the fields and figures most of them use."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence

from inspect_ai.model import get_model
from inspect_ai.scorer import Metric, Score, Scorer, Target
from inspect_ai.solver import TaskState

from liveqa_inspect.caveats import grades_itself
from liveqa_inspect.judging.errored import unless_errored
from liveqa_inspect.judging.grade import grade
from liveqa_inspect.judging.panel import Panel, check_panel
from liveqa_inspect.judging.prompts import JudgePrompt
from liveqa_inspect.judging.solvers import jurors
from liveqa_inspect.stats.agreement import agreement, confusion
from liveqa_inspect.stats.names import level_name

logger = logging.getLogger(__name__)

Fields = Callable[[TaskState, Target], Mapping[str, str | Sequence[str]]]


def answer_fields(state: TaskState, target: Target) -> dict[str, str | list[str]]:
    # target.target keeps the references apart; Target.text would join them into one.
    return {
        "question": state.input_text,
        "references": list(target.target),
        "answer": state.output.completion,
    }


def grading_scorer(
    prompt: JudgePrompt, fields: Fields, default: str | None, cache: bool, panel: Panel
) -> Scorer:
    """`default` None judges with the evaluated model (live_qa_judge), a model name with that
    pinned judge. A model grading its own answers is biased: said once a scorer and model."""
    check_panel(panel)
    warned: set[str] = set()

    @unless_errored
    async def score(state: TaskState, target: Target) -> Score:
        judges = jurors(default)
        subject = str(get_model()) if default is not None else None
        if subject not in warned and subject in [str(judge) for judge in judges]:
            warned.add(subject)
            logger.warning(grades_itself(subject))
        result = await grade(
            judges, prompt, fields(state, target), answer=state.output.completion, panel=panel,
            cache=cache, epoch=state.epoch,
        )  # fmt: skip
        if "human_level" in state.metadata:
            result.explanation = f"{human_note(state)}\n\n{result.explanation}"
        return result

    return score


def human_note(state: TaskState) -> str:
    """Put first, so that Inspect View shows the human's level beside the judge's."""
    meta = state.metadata
    label = meta.get("expert_label") or f"grade {meta.get('human_grade')}"
    return f"Human level: {level_name(float(meta['human_level']))} ({label}). The judge's verdict:"


def agreement_metrics(levels: list[float]) -> list[Metric]:
    """What every judge-against-humans scorer reports (its jurors: the `verdicts` scorer)."""
    return [agreement(levels), confusion(levels)]
