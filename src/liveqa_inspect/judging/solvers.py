"""Who judges, made ready before any answer is paid for; a human-judged text as the output."""

from __future__ import annotations

from inspect_ai.model import Model, ModelOutput, get_model, model_roles
from inspect_ai.solver import Generate, Solver, TaskState, solver

from liveqa_inspect._inspect_private import eval_is_building_tasks
from liveqa_inspect.judging.grade import JUDGE_ROLE


def jurors(default: str | None) -> list[Model]:
    """The grader role's models, else `default` (None: the evaluated model); roles bind at eval."""
    bound = model_roles().get(JUDGE_ROLE)
    if bound is None:
        return [get_model(default)]
    return list(bound) if isinstance(bound, list) else [bound]


@solver
def judges_ready(default: str | None) -> Solver:
    """Every judge's client, made before the model under test is called; the pinned default at once
    as `inspect eval` builds the task, so a missing API key ends the run in Inspect's one line."""
    if default is not None and eval_is_building_tasks() and JUDGE_ROLE not in model_roles():
        get_model(default)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        jurors(default)
        return state

    return solve


@solver
def given_answer(key: str = "answer") -> Solver:
    """The human-judged text (metadata `key`: an answer, a claim) as the sample's output."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = ModelOutput.from_content("human-judged", str(state.metadata[key]))
        return state

    return solve
