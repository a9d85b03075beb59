"""The default judge checked before any answer is paid for; a human-judged text as the output."""

from inspect_ai.model import ModelOutput, get_model, model_roles
from inspect_ai.solver import Generate, Solver, TaskState, solver
from rich.text import Text

from liveqa_inspect._inspect_private import PrerequisiteError, sample_is_scored
from liveqa_inspect.errors import ArgumentError
from liveqa_inspect.judging.grade import JUDGE_ROLE


def check_roles() -> None:
    """A role no task reads (a misspelt `--model-role grade=...`) would leave the default judge,
    a paid one, grading in silence: refused, before any model is called."""
    if unread := sorted(model_roles().keys() - {JUDGE_ROLE}):
        raise ArgumentError(
            f"--model-role {', '.join(unread)}: no task of liveqa_inspect reads "
            f"{'this role' if len(unread) == 1 else 'these roles'}. The one role read is "
            f"'{JUDGE_ROLE}', the judge: --model-role {JUDGE_ROLE}=MODEL (docs/judge.md)."
        )


@solver
def judges_ready(default: str) -> Solver:
    """The default judge made (not kept: the scorer resolves who judges) as a sample to be scored
    starts with no grader bound (Inspect made that as the eval started): a judge that cannot be
    made costs no answer. None in a `--no-score` run (Inspect tells a task only there): no key."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        check_roles()  # also in a `--no-score` run, and not taken for the default's failure
        if JUDGE_ROLE in model_roles() or not sample_is_scored():
            return state
        try:
            get_model(default)
        except PrerequisiteError as error:
            plain = Text.from_markup(str(error.message)).plain.removeprefix("ERROR: ")
            cause = ": ".join(filter(None, plain.splitlines()))
            raise RuntimeError(
                f"The default judge {default} cannot be made ({cause}). Set its key, or "
                f"bind another judge with --model-role {JUDGE_ROLE}=MODEL, or generate without "
                "judging (--no-score) and grade later with `inspect score` (docs/judge-cost.md)"
            ) from None
        return state

    return solve


@solver
def given_answer(key: str = "answer") -> Solver:
    """The human-judged text (metadata `key`: an answer, a claim) as the sample's output."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = ModelOutput.from_content("human-judged", str(state.metadata[key]))
        return state

    return solve
