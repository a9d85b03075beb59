"""The two completion instructions of the contamination probe, as versioned data.

After Golchin & Surdeanu, "Time Travel in LLMs" (ICLR 2024); the wording is ours. Both show the
same first half of a text and ask for the rest. The guided one names the test set and the item's
id; the general one names no dataset and is the control: a model that completes a text better
when told where it comes from has most likely seen it there. Like the judge prompts, each
instruction carries a version and a content hash that go into the log, so a change of wording is
a change of version.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

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
class Instruction:
    """One completion instruction; `template` names the fields `noun`, `item` and `shown`."""

    name: str
    version: str
    template: str

    @property
    def sha256(self) -> str:
        """The hash of everything the instruction can say: its template and the part nouns."""
        text = json.dumps({"template": self.template, "nouns": NOUNS}, sort_keys=True)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def provenance(self) -> dict[str, str]:
        return {"name": self.name, "version": self.version, "sha256": self.sha256}

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
