"""Reading a judge's reply: a level on the prompt's scale, or nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass

from liveqa_inspect.judging.prompts import Scale

_TAG = re.compile(r"<[\s/]*(score|reasoning)\s*>", re.IGNORECASE)
"""An opening or closing verdict tag. One character class before the name and no lazy `.*?`
between tags, so a scan is linear in the reply however many unclosed tags it holds."""


@dataclass(frozen=True)
class Verdict:
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
    """Read the `<score>` tags: None unless there is one, and all of them name the same level.

    Tags that disagree (`<score>0</score> ... e.g. <score>0.7</score>`) say two things, and a tag
    left open (`<score>1 <score>0.3</score>`) holds a level that cannot be told apart from what
    follows: neither reply is read. The same level repeated is fine.
    """
    scores, left_open = _tagged(reply, "score")
    levels = {scale.read(text.strip()) for text in scores}
    if left_open or len(levels) != 1 or None in levels:
        return None
    [level] = levels
    reasonings, _ = _tagged(reply, "reasoning")
    reasoning = reasonings[-1].strip() if reasonings else _TAG.sub("", reply).strip()
    assert level is not None
    return Verdict(level=level, reasoning=reasoning)
