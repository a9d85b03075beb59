"""A judge's reply shape as a llama.cpp grammar, so a small local judge always writes a verdict.

Left free, a small open-weight model rarely writes the `<score>` tags our prompts ask for (SmolLM2
-135M: never, in 5 of 5 tries), and every sample goes unscored. A llama.cpp server takes a GBNF
grammar with the request and samples only replies it accepts, so the reply is exactly the format
every judge prompt asks for: a reasoning, then one of the scale's levels, spelled as the rubric
spells it. The reasoning is bounded, so a model that would ramble cannot run out of tokens before
its verdict: with no token cap (ours sets none), the grammar alone ends the reply.
"""

from __future__ import annotations

import json
from typing import Any

from inspect_ai.model import GenerateConfig, Model

from liveqa_inspect.judging.prompts import Scale

REASONING_CHARS = 600
"""Room for the "at most three sentences" the prompts ask for (about 60 words), twice over."""

REASONING_CHAR_CLASS = "[^<]"
"""Anything but `<`: no tag can open inside the reasoning."""

OPEN = "<reasoning>"
BETWEEN = "</reasoning>\n<score>"
CLOSE = "</score>"
"""The reply format of every judge prompt, e.g. `<reasoning>...</reasoning>\\n<score>0.7</score>`
(a test checks each prompt's own example against it)."""

LLAMA_CPP_APIS = ("gguf", "llama-cpp-python")
"""Model APIs served by llama.cpp: this package's local server and Inspect's own provider."""


def level_names(scale: Scale) -> list[str]:
    """The levels as the rubric writes them (`0.3`, not `0.30`; `5`, not `5.0`)."""
    return [f"{level:g}" for level in scale.levels]


def gbnf(scale: Scale) -> str:
    """The grammar of a verdict on `scale`: a bounded reasoning, then exactly one level."""
    levels = " | ".join(json.dumps(name) for name in level_names(scale))
    return (
        f"root ::= {json.dumps(OPEN)} reasoning {json.dumps(BETWEEN)} level {json.dumps(CLOSE)}\n"
        f"reasoning ::= {REASONING_CHAR_CLASS}{{1,{REASONING_CHARS}}}\n"
        f"level ::= {levels}\n"
    )


def served_by_llama_cpp(judge: Model) -> bool:
    return str(judge).split("/", 1)[0] in LLAMA_CPP_APIS


def verdict_grammar(judge: Model, user: GenerateConfig, scale: Scale) -> dict[str, Any]:
    """What to add to a judge's request so a llama.cpp server can only reply with a verdict.

    Nothing for other APIs, nor when the user constrains the reply already (a grammar of their
    own in `extra_body`, or a `response_schema`): theirs is kept as it is. The grammar goes in
    `extra_body`, next to whatever else the user put there, and so into the config recorded with
    every score and into Inspect's cache key.
    """
    extra = user.extra_body or {}
    if not served_by_llama_cpp(judge) or "grammar" in extra or user.response_schema is not None:
        return {}
    return {"extra_body": {**extra, "grammar": gbnf(scale)}}
