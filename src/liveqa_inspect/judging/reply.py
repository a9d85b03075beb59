"""The reply every judge prompt asks for, `<reasoning>...</reasoning>\\n<score>0.7</score>`: read
back into a verdict, and held to that shape on a llama.cpp judge by a grammar (left free, a small
open-weight model rarely writes the `<score>` tags, and every sample goes unscored)."""

from __future__ import annotations

import json
import re
from typing import Any, NamedTuple

from inspect_ai.model import GenerateConfig, Model

from liveqa_inspect.judging.prompts import Scale

OPEN, BETWEEN, CLOSE = "<reasoning>", "</reasoning>\n<score>", "</score>"
REASONING_CHARS = 600
"""Room for the "at most three sentences" the prompts ask for (about 60 words), twice over: a
bounded reasoning cannot run out of tokens before its verdict, and we set no token cap."""
LLAMA_CPP_APIS = ("gguf", "llama-cpp-python")
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
    level = levels.pop() if len(levels) == 1 else None
    if left_open or level is None:
        return None
    reasonings, _ = _tagged(reply, "reasoning")
    reasoning = reasonings[-1].strip() if reasonings else _TAG.sub("", reply).strip()
    return Verdict(level=level, reasoning=reasoning)


def gbnf(scale: Scale) -> str:
    """A reasoning of anything but `<` (no tag can open inside it), then exactly one level,
    spelled as the rubric spells it."""
    levels = " | ".join(json.dumps(name) for name in scale.names)
    return (
        f"root ::= {json.dumps(OPEN)} reasoning {json.dumps(BETWEEN)} level {json.dumps(CLOSE)}\n"
        f"reasoning ::= [^<]{{1,{REASONING_CHARS}}}\n"
        f"level ::= {levels}\n"
    )


def verdict_grammar(judge: Model, user: GenerateConfig, scale: Scale) -> dict[str, Any]:
    """The grammar for a llama.cpp judge, in `extra_body` beside the user's own fields (so in the
    config recorded and the cache key); nothing where the user constrains the reply already."""
    extra = user.extra_body or {}
    served = str(judge).split("/", 1)[0] in LLAMA_CPP_APIS
    if not served or "grammar" in extra or user.response_schema is not None:
        return {}
    return {"extra_body": {**extra, "grammar": gbnf(scale)}}
