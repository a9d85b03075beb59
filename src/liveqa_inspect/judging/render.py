"""The judge's input: the trusted rubric around untrusted text it cannot break out of."""

from __future__ import annotations

import html
from collections.abc import Sequence

from liveqa_inspect.judging.prompts import JudgePrompt


def neutralise(text: str) -> str:
    """Escape markup in untrusted text so it cannot close a delimiter or forge a verdict tag."""
    return html.escape(text, quote=False)


def numbered(tag: str, items: Sequence[str]) -> str:
    return "\n\n".join(
        f'<{tag} n="{n}">\n{neutralise(item)}\n</{tag}>' for n, item in enumerate(items, start=1)
    )


def build_judge_prompt(prompt: JudgePrompt, **fields: str | Sequence[str]) -> str:
    """The judge's input: the trusted rubric around escaped fields.

    A text field is escaped in place; a list field named `<tag>s` (`references`, `passages`)
    becomes numbered `<tag n="1">` blocks, so the judge can cite them apart.
    """
    rendered = {
        name: neutralise(value) if isinstance(value, str) else numbered(name[:-1], value)
        for name, value in fields.items()
    }
    return prompt.template.format(**rendered)
