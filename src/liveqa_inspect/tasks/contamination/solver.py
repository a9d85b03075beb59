"""The probe's solver: the same shown text under each instruction, in conversations apart.

Each instruction is asked in a conversation of its own, so the control never sees the guided
question or its reply. Both replies are kept in the sample's store (for the scorer) and both
exchanges in its messages, each model call under a span named for its instruction, so Inspect
View shows the guided and the general call and reply side by side in the transcript.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessage, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import StoreModel, span
from pydantic import Field

from liveqa_inspect.tasks.contamination.instructions import INSTRUCTIONS, item_name


class Replies(StoreModel):
    """Each instruction's completion and why its generation stopped, by instruction name."""

    completions: dict[str, str] = Field(default_factory=dict)
    stop_reasons: dict[str, str] = Field(default_factory=dict)


@solver
def guided_and_general() -> Solver:
    """Ask for the rest of the sample's input under every instruction, in turn."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        part = str(state.metadata["part"])
        item = item_name(part, str(state.sample_id), str(state.metadata["qid"]))
        replies = state.store_as(Replies)
        exchanges: list[ChatMessage] = []
        for instruction in INSTRUCTIONS:
            async with span(instruction.name):
                prompt = instruction.render(part, item, state.input_text)
                state.messages = [ChatMessageUser(content=prompt)]
                state = await generate(state)
            exchanges += state.messages
            # Reassigned, not mutated in place, so the store records the change.
            replies.completions = {**replies.completions, instruction.name: state.output.completion}
            replies.stop_reasons = {
                **replies.stop_reasons,
                instruction.name: state.output.stop_reason,
            }
        state.messages = exchanges
        return state

    return solve
