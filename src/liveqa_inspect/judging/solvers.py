"""Solvers of our own: the judge made ready first, and a human-judged answer in place of one."""

from __future__ import annotations

from inspect_ai.model import ModelOutput
from inspect_ai.solver import Generate, Solver, TaskState, solver

from liveqa_inspect.judging.jurors import jurors


@solver
def judges_ready(default: str | None) -> Solver:
    """Make every judge's client before the model under test is called, so a judge that cannot be
    made (say, no API key) stops the run with Inspect's own error before any answer is paid for.
    Inspect memoises the clients, so the scorer gets these same ones."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        jurors(default)
        return state

    return solve


@solver
def given_answer(key: str = "answer") -> Solver:
    """Put the human-judged text (metadata `key`: an answer, a claim) where a generated answer
    would be, so the judge grades it through the same scorer path."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.output = ModelOutput.from_content(
            model="human-judged", content=str(state.metadata[key])
        )
        return state

    return solve
