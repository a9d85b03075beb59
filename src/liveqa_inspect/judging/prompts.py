"""The judge rubrics (files of `rubrics/`, as the judge reads them) with their scale, version and
sha256 (in every score), and a sample's fields put into one, escaped."""

import html
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files

from liveqa_inspect.judging.scale import (
    CLAIM_CORRECTNESS_SCALE,
    CLAIM_SUPPORT_SCALE,
    LIVEQA_SCALE,
    Scale,
)
from liveqa_inspect.versioned import Versioned


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
