"""The judge prompts, as data: each rubric (a file of `rubrics/`, as the judge reads it) with its
scale, version and sha256 (in every score); a sample's fields put into one; and the reply every
rubric asks for, read back into a verdict, and its grammar for a llama.cpp judge."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from importlib.resources import files
from typing import NamedTuple

from liveqa_inspect.stats.names import level_name
from liveqa_inspect.versioned import Versioned

_PLAIN_NUMBER = re.compile(r"[0-9]*\.?[0-9]+|[0-9]+\.")


@dataclass(frozen=True)
class Scale:
    """The levels a rubric offers, in rising order: a verdict must name one of them exactly."""

    levels: tuple[float, ...]

    def read(self, text: str) -> float | None:
        """Plain decimals only (`1.0` and `0.70` too): `1e0`, `-0.3` or `0.7 or 1` are no level."""
        value = _PLAIN_NUMBER.fullmatch(text) and Decimal(text)
        return next((level for level in self.levels if Decimal(str(level)) == value), None)

    @property
    def names(self) -> list[str]:
        return [level_name(level) for level in self.levels]

    def describe(self) -> str:
        """`0, 0.3, 0.7 or 1`, as a rubric names them."""
        return ", ".join(self.names[:-1]) + " or " + self.names[-1]


LIVEQA_SCALE = Scale((0.0, 0.3, 0.7, 1.0))
CLAIM_CORRECTNESS_SCALE = Scale((1.0, 2.0, 3.0, 4.0, 5.0))
CLAIM_SUPPORT_SCALE = Scale((1.0, 2.0, 3.0))
"""No, partial or complete support; ExpertQA's support samples are only ever 2 or 3."""


@dataclass(frozen=True)
class JudgePrompt(Versioned):
    """A judge rubric with its identity and scale; `template` names the fields it shows."""

    template: str
    scale: Scale = LIVEQA_SCALE

    def canonical(self) -> str:
        return self.template


def _rubric(name: str, version: str, scale: Scale = LIVEQA_SCALE) -> JudgePrompt:
    """`rubrics/<name>.txt`, whose final newline is not part of the template."""
    text = files(__package__).joinpath("rubrics", f"{name}.txt").read_text(encoding="utf-8")
    return JudgePrompt(name, version, text.removesuffix("\n"), scale)


LIVEQA_JUDGE = _rubric("live_qa", "1")
EXPERT_QA_JUDGE = _rubric("expert_qa", "1")
CLAIM_CORRECTNESS_JUDGE = _rubric("expert_qa_claims_correctness", "1", CLAIM_CORRECTNESS_SCALE)
CLAIM_SUPPORT_JUDGE = _rubric("expert_qa_claims_support", "1", CLAIM_SUPPORT_SCALE)


def neutralise(text: str) -> str:
    """Escape markup in untrusted text so it cannot close a delimiter or forge a verdict tag."""
    return html.escape(text, quote=False)


def build_judge_prompt(prompt: JudgePrompt, **fields: str | Sequence[str]) -> str:
    """The trusted rubric around escaped fields; a list field named `<tag>s` (`references`,
    `passages`) becomes numbered `<tag n="1">` blocks, so the judge can cite them apart."""
    rendered = {
        name: neutralise(value)
        if isinstance(value, str)
        else "\n\n".join(
            f'<{name[:-1]} n="{n}">\n{neutralise(item)}\n</{name[:-1]}>'
            for n, item in enumerate(value, start=1)
        )
        for name, value in fields.items()
    }
    return prompt.template.format(**rendered)


OPEN, BETWEEN, CLOSE = "<reasoning>", "</reasoning>\n<score>", "</score>"
REASONING_CHARS = 600
"""Room for the "at most three sentences" the prompts ask for (about 60 words), twice over: a
bounded reasoning cannot run out of tokens before its verdict, and we set no token cap."""
_TAG = re.compile(r"<[\s/]*(score|reasoning)\s*>", re.IGNORECASE)
"""One character class before the name and no lazy `.*?` between tags, so a scan is linear in
the reply however many unclosed tags it holds."""


class Verdict(NamedTuple):
    level: float
    reasoning: str


def _tagged(reply: str, name: str) -> tuple[list[str], bool]:
    """The texts between each opening `name` tag and the closing tag after it, and whether a tag
    was left open: an opening tag with no closing tag before the next opening one, or the end."""
    texts: list[str] = []
    start: int | None = None
    left_open = False
    for match in _TAG.finditer(reply):
        if match.group(1).lower() != name:
            continue
        if "/" not in match.group(0):
            left_open = left_open or start is not None
            start = match.end()
        elif start is not None:
            texts.append(reply[start : match.start()])
            start = None
    return texts, left_open or start is not None


def parse_verdict(reply: str, scale: Scale) -> Verdict | None:
    """None unless every `<score>` tag is closed and names the same level: tags that disagree
    (`<score>0</score> ... e.g. <score>0.7</score>`) say two things, and what an open tag holds
    cannot be told apart from what follows (`<score>1 <score>0.3</score>`)."""
    scores, left_open = _tagged(reply, "score")
    levels = {scale.read(text.strip()) for text in scores}
    if left_open or len(levels) != 1 or None in levels:
        return None
    reasonings, _ = _tagged(reply, "reasoning")
    reasoning = reasonings[-1].strip() if reasonings else _TAG.sub("", reply).strip()
    return Verdict(levels.pop(), reasoning)


def gbnf(scale: Scale) -> str:
    """A reasoning of anything but `<` (no tag can open inside it), then one level as the rubric
    spells it: left free, a small open-weight model rarely writes the `<score>` tags."""
    levels = " | ".join(json.dumps(name) for name in scale.names)
    return (
        f"root ::= {json.dumps(OPEN)} reasoning {json.dumps(BETWEEN)} level {json.dumps(CLOSE)}\n"
        f"reasoning ::= [^<]{{1,{REASONING_CHARS}}}\n"
        f"level ::= {levels}\n"
    )
