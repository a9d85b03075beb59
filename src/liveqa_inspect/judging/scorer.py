"""The scorer body every judging scorer shares (who judges, resolved), its fields and figures."""

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence

from inspect_ai.model import Model, get_model, model_roles
from inspect_ai.scorer import Metric, Score, Scorer, Target
from inspect_ai.solver import TaskState

from liveqa_inspect.caveats import grades_itself
from liveqa_inspect.judging.errored import unless_errored
from liveqa_inspect.judging.grade import JUDGE_ROLE, grade
from liveqa_inspect.judging.panel import PanelRule, check_panel
from liveqa_inspect.judging.preflight import check_roles
from liveqa_inspect.judging.prompts import JudgePrompt
from liveqa_inspect.judging.record import Bound
from liveqa_inspect.stats.agreement import agreement, confusion
from liveqa_inspect.stats.names import level_name

logger = logging.getLogger(__name__)

Fields = Callable[[TaskState, Target], Mapping[str, str | Sequence[str]]]
Ask = Callable[[Mapping[str, str | Sequence[str]], str], Awaitable[Score]]  # fields, answer
Graded = Callable[[Ask, TaskState, Target], Awaitable[Score]]  # a Score of several asks


def answer_fields(state: TaskState, target: Target) -> dict[str, str | list[str]]:
    # target.target keeps the references apart; Target.text would join them into one.
    return {
        "question": state.input_text,
        "references": list(target.target),
        "answer": state.output.completion,
    }


def juror_models(default: str | None) -> tuple[list[Model], Bound]:
    """The grader role's models (a panel: all of them), else `default` (None: the evaluated
    model), made without a role as a pinned judge always was; roles bind at eval. With what
    bound them, which every score records. The roles are checked as a run starts
    (preflight.py), and here again for a re-grading, where none does."""
    check_roles()
    bound = model_roles().get(JUDGE_ROLE)
    if bound is None:
        return [get_model(default)], "evaluated model" if default is None else "default judge"
    return list(bound) if isinstance(bound, list) else [bound], "grader role"


def grading_scorer(
    prompt: JudgePrompt,
    fields: Fields,
    default: str | None,
    cache: bool,
    panel: PanelRule,
    graded: Graded | None = None,
) -> Scorer:
    """`default` None judges with the evaluated model (live_qa_judge), a model name with that
    pinned judge. A model grading its own answers is biased: said once a scorer and model.
    `graded`: a Score made of several asks (None: the fields' answer, asked once)."""
    check_panel(panel)
    warned: set[str] = set()

    @unless_errored
    async def score(state: TaskState, target: Target) -> Score:
        models, bound = juror_models(default)
        subject = str(get_model()) if default is not None else None
        if subject not in warned and subject in [str(model) for model in models]:
            warned.add(subject)
            logger.warning(grades_itself(subject))

        async def ask(shown: Mapping[str, str | Sequence[str]], answer: str) -> Score:
            return await grade(models, prompt, shown, answer, panel, cache, state.epoch, bound)

        if graded is None:
            result = await ask(fields(state, target), state.output.completion)
        else:
            result = await graded(ask, state, target)
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
