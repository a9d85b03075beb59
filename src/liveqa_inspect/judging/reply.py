"""The reply every rubric asks for (`<reasoning>` then `<score>`), read back into a verdict."""

import re
from typing import NamedTuple

from liveqa_inspect.judging.scale import Scale

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
