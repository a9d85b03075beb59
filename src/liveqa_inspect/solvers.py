"""Solvers of our own: live_qa_judge shows the judge a human-judged answer instead of generating."""

from __future__ import annotations

from inspect_ai.model import ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver


@solver
def given_answer() -> Solver:
    """Put the sample's judged answer where a generated one would be, for the same scorer path."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = ModelOutput.from_content(
            model="human-judged", content=str(state.metadata["answer"])
        )
        return state

    return solve
