"""Scripted mockllm models keyed on prompt content, so tests do not depend on call order."""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelOutput,
    ModelUsage,
    get_model,
)

Script = Callable[[str, GenerateConfig], str]
"""Reply text from the prompt text and the generate config (seed, temperature) of the call."""


def output(text: str) -> ModelOutput:
    # usage is set so Inspect does not fetch a tokenizer (offline) to count tokens.
    result = ModelOutput.from_content(model="mockllm/model", content=text)
    result.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return result


def scripted_model(script: Script, name: str = "model") -> Model:
    """A mockllm model replying `script(prompt, config)`; `.calls` keeps every (prompt, config)."""
    calls: list[tuple[str, GenerateConfig]] = []

    def reply(
        messages: list[ChatMessage], _tools: object, _choice: object, config: GenerateConfig
    ) -> ModelOutput:
        prompt = "\n".join(message.text for message in messages)
        calls.append((prompt, config))
        return output(script(prompt, config))

    model = get_model(f"mockllm/{name}", custom_outputs=reply)
    model.calls = calls  # type: ignore[attr-defined]
    return model


def verdict(level: str, reasoning: str = "Scripted reasoning.") -> str:
    return f"<reasoning>{reasoning}</reasoning>\n<score>{level}</score>"
