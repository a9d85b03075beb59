"""How a provider constrains a reply beyond OpenAI's API (a llama.cpp server: a GBNF grammar). The
judging path hands any judge's request here and names no provider; the providers that take a
constraint are named here alone."""

from collections.abc import Callable
from typing import Any

from inspect_ai.model import GenerateConfig, Model

LLAMA_CPP = ("gguf", "llama-cpp-python")
"""The providers of a llama.cpp server: `gguf/`, and Inspect's own for a server the user runs
(docs/local-models.md promises both the grammar)."""


def constrained(model: Model, user: GenerateConfig, grammar: Callable[[], str]) -> dict[str, Any]:
    """The reply constrained to `grammar` (llama.cpp's `extra_body` field) where llama.cpp serves
    the model and the user constrains its reply in no way of their own; the user's other
    `extra_body` fields kept beside it."""
    extra, served = user.extra_body or {}, str(model).split("/", 1)[0] in LLAMA_CPP
    if not served or "grammar" in extra or user.response_schema is not None:
        return {}
    return {"extra_body": {**extra, "grammar": grammar()}}
