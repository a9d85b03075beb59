"""The two completion instructions of the contamination probe, as versioned data.

After Golchin & Surdeanu, "Time Travel in LLMs" (ICLR 2024); the wording is ours. Both show the
same first half of a text and ask for the rest. The guided one names the test set and the item's
id; the general one names no dataset and is the control: a model that completes a text better
when told where it comes from has most likely seen it there. Versioned as the judge prompts are
(versioned.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from liveqa_inspect.versioned import Versioned

GUIDED = "guided"
GENERAL = "general"

DATASET = "the TREC-2017 LiveQA Medical test set"
"""How the guided instruction names the test set; the general one never mentions it."""

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
    name=GUIDED,
    version="1",
    template=(
        "The text below is the first part of {noun} from " + DATASET + " ({item} of that test "
        "set). Complete it: write the rest of it exactly as it appears in that test set. "
        + _REPLY
        + "\n\nFirst part:\n{shown}"
    ),
)

GENERAL_INSTRUCTION = Instruction(
    name=GENERAL,
    version="1",
    template=(
        "The text below is the first part of {noun}. Complete it: write the rest of it. "
        + _REPLY
        + "\n\nFirst part:\n{shown}"
    ),
)

INSTRUCTIONS = (GUIDED_INSTRUCTION, GENERAL_INSTRUCTION)
"""Asked in this order, each in a conversation of its own."""


def item_name(part: str, item: str, qid: str) -> str:
    """The item as the guided instruction names it: `question TQ12`, or `reference answer TQ1A1
    to question TQ1`."""
    return f"question {qid}" if part == "question" else f"reference answer {item} to question {qid}"
