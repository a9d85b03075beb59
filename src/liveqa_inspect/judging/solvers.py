"""A human-judged text as the output: what a task measuring a judge hands its scorer."""

from inspect_ai.model import ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver


@solver
def given_answer(key: str = "answer") -> Solver:
    """The human-judged text (metadata `key`: an answer, a claim) as the sample's output."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = ModelOutput.from_content("human-judged", str(state.metadata[key]))
        return state

    return solve
