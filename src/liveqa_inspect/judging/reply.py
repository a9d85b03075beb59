"""The reply every judge prompt asks for, `<reasoning>...</reasoning>\\n<score>0.7</score>`: read
back into a verdict, and held to that shape on a llama.cpp judge by a grammar.

Left free, a small open-weight model rarely writes the `<score>` tags, and every sample goes
unscored. A llama.cpp server takes a GBNF grammar with the request and samples only replies it
accepts. The grammar's reasoning is bounded, so a model that would ramble cannot run out of
tokens before its verdict: with no token cap (ours sets none), the grammar alone ends the reply.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import GenerateConfig, Model

from liveqa_inspect.judging.prompts import Scale

OPEN, BETWEEN, CLOSE = "<reasoning>", "</reasoning>\n<score>", "</score>"
"""The reply's tags (a test checks each prompt's own example against them)."""

REASONING_CHARS = 600
"""Room for the "at most three sentences" the prompts ask for (about 60 words), twice over."""

LLAMA_CPP_APIS = ("gguf", "llama-cpp-python")
"""Model APIs served by llama.cpp: this package's local server and Inspect's own provider."""

_TAG = re.compile(r"<[\s/]*(score|reasoning)\s*>", re.IGNORECASE)
"""An opening or closing tag. One character class before the name and no lazy `.*?` between
tags, so a scan is linear in the reply however many unclosed tags it holds."""


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
    level = levels.pop() if len(levels) == 1 else None
    if left_open or level is None:
        return None
    reasonings, _ = _tagged(reply, "reasoning")
    reasoning = reasonings[-1].strip() if reasonings else _TAG.sub("", reply).strip()
    return Verdict(level=level, reasoning=reasoning)


def gbnf(scale: Scale) -> str:
    """The grammar of a verdict on `scale`: a reasoning of anything but `<` (no tag can open
    inside it), then exactly one level, spelled as the rubric spells it."""
    levels = " | ".join(json.dumps(name) for name in scale.names)
    return (
        f"root ::= {json.dumps(OPEN)} reasoning {json.dumps(BETWEEN)} level {json.dumps(CLOSE)}\n"
        f"reasoning ::= [^<]{{1,{REASONING_CHARS}}}\n"
        f"level ::= {levels}\n"
    )


def verdict_grammar(judge: Model, user: GenerateConfig, scale: Scale) -> dict[str, Any]:
    """What to add to a judge's request so a llama.cpp server can only reply with a verdict.

    Nothing for other APIs, nor when the user constrains the reply already (a grammar of their
    own in `extra_body`, or a `response_schema`): theirs is kept as it is. The grammar goes in
    `extra_body`, next to whatever else the user put there, and so into the config recorded with
    every score and into Inspect's cache key.
    """
    extra = user.extra_body or {}
    served = str(judge).split("/", 1)[0] in LLAMA_CPP_APIS
    if not served or "grammar" in extra or user.response_schema is not None:
        return {}
    return {"extra_body": {**extra, "grammar": gbnf(scale)}}
