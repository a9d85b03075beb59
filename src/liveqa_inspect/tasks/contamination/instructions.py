"""The probe's two completion instructions (instructions.json), after Golchin & Surdeanu, "Time
Travel in LLMs" (ICLR 2024; the wording is ours). The general one is the control: a model that
completes a text better when told where it comes from (the guided one names the test set and the
item) has most likely seen it there."""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib.resources import files

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
"""Asked in this order, each in a conversation of its own."""
