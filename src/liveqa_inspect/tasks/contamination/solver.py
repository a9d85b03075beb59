"""The shown text under each instruction in conversations apart, so the control never sees the
guided one; each call under a span named for its instruction, for Inspect View."""

from __future__ import annotations

from inspect_ai.model import ChatMessage, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import StoreModel, span
from pydantic import Field

from liveqa_inspect.tasks.contamination.instructions import INSTRUCTIONS


class Replies(StoreModel):
    completions: dict[str, str] = Field(default_factory=dict)
    stop_reasons: dict[str, str] = Field(default_factory=dict)


@solver
def guided_and_general() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        part = str(state.metadata["part"])
        replies = state.store_as(Replies)
        ids = {"id": str(state.sample_id), "qid": str(state.metadata["qid"])}
        exchanges: list[ChatMessage] = []
        for instruction in INSTRUCTIONS:
            async with span(name := instruction.name):
                prompt = instruction.render(part, state.input_text, **ids)
                state.messages = [ChatMessageUser(content=prompt)]
                state = await generate(state)
            exchanges += state.messages
            # Reassigned, not mutated in place, so the store records the change.
            replies.completions = {**replies.completions, name: state.output.completion}
            replies.stop_reasons = {**replies.stop_reasons, name: state.output.stop_reason}
        state.messages = exchanges  # both exchanges, in the log
        return state

    return solve
