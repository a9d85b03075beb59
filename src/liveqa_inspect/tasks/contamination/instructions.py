"""The probe's two completion instructions, after Golchin & Surdeanu, "Time Travel in LLMs" (ICLR
2024; the wording is ours). The general one is the control: a model that completes a text better
when told where it comes from (the guided one names the test set and the item) has most likely
seen it there. Each has a version and a content hash, in the log: new wording, new version."""

from __future__ import annotations

import json
from dataclasses import dataclass

from liveqa_inspect.versioned import Versioned

GUIDED = "guided"
GENERAL = "general"

NOUNS = {
    "question": "a consumer health question",
    "reference": "an expert's answer to a consumer health question",
}
"""What the shown text is the start of, by part: both instructions say it."""

_REPLY = "Reply with the rest of the text only, nothing before or after it."


@dataclass(frozen=True)
class Instruction(Versioned):
    """One completion instruction; `template` names the fields `noun`, `item` and `shown`."""

    template: str

    def canonical(self) -> str:
        return json.dumps({"template": self.template, "nouns": NOUNS}, sort_keys=True)

    def render(self, part: str, item: str, shown: str) -> str:
        return self.template.format(noun=NOUNS[part], item=item, shown=shown)


GUIDED_INSTRUCTION = Instruction(
    GUIDED,
    "1",
    "The text below is the first part of {noun} from the TREC-2017 LiveQA Medical test set "
    "({item} of that test set). Complete it: write the rest of it exactly as it appears in that "
    f"test set. {_REPLY}\n\nFirst part:\n{{shown}}",
)
GENERAL_INSTRUCTION = Instruction(
    GENERAL,
    "1",
    f"The text below is the first part of {{noun}}. Complete it: write the rest of it. {_REPLY}"
    "\n\nFirst part:\n{shown}",
)
INSTRUCTIONS = (GUIDED_INSTRUCTION, GENERAL_INSTRUCTION)
"""Asked in this order, each in a conversation of its own."""


def item_name(part: str, item: str, qid: str) -> str:
    """As the guided instruction names the item: `question TQ12`, or `reference answer TQ1A1 to
    question TQ1`."""
    return f"question {qid}" if part == "question" else f"reference answer {item} to question {qid}"
