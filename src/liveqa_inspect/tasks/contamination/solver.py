"""The probe's two completion instructions (instructions.json), after Golchin & Surdeanu, "Time
Travel in LLMs" (ICLR 2024; the wording is ours), each asked in a conversation of its own, under a
span named for it (for Inspect View). The general one is the control, and never sees the guided
one: a model that completes a text better when told where it comes from (the guided one names the
test set and the item) has most likely seen it there."""

import json
from dataclasses import dataclass
from importlib.resources import files

from inspect_ai.model import ChatMessage, ChatMessageUser
from inspect_ai.solver import Generate, Solver, TaskState, solver
from inspect_ai.util import StoreModel, span
from pydantic import Field

from liveqa_inspect.versioned import Versioned

GUIDED, GENERAL = "guided", "general"
TEXTS = json.loads(files(__package__).joinpath("instructions.json").read_text(encoding="utf-8"))
NOUNS: dict[str, str] = TEXTS["nouns"]
"""What the shown text is the start of, by part; `items`: how the guided one names the item."""


@dataclass(frozen=True)
class Instruction(Versioned):
    template: str  # with the fields `noun`, `item` and `shown`

    def canonical(self) -> str:
        return json.dumps({"template": self.template, "nouns": NOUNS}, sort_keys=True)

    def render(self, part: str, shown: str, **ids: str) -> str:
        item = TEXTS["items"][part].format(**ids)  # `id` and `qid`
        return self.template.format(noun=NOUNS[part], item=item, shown=shown)


INSTRUCTIONS = tuple(Instruction(name, **TEXTS[name]) for name in (GUIDED, GENERAL))


class Replies(StoreModel):
    completions: dict[str, str] = Field(default_factory=dict)
    stop_reasons: dict[str, str] = Field(default_factory=dict)


@solver
def guided_and_general() -> Solver:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        part, replies = str(state.metadata["part"]), state.store_as(Replies)
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
