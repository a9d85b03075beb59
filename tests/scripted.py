"""Scripted mockllm models keyed on prompt content, so tests do not depend on call order."""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai.model import ChatMessage, Model, ModelOutput, ModelUsage, get_model

Script = Callable[[str], str]


def output(text: str) -> ModelOutput:
    # usage is set so Inspect does not fetch a tokenizer (offline) to count tokens.
    result = ModelOutput.from_content(model="mockllm/model", content=text)
    result.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return result


def scripted_model(script: Script, name: str = "model") -> Model:
    """A mockllm model whose reply is `script(prompt text)`; it records every prompt it saw."""
    prompts: list[str] = []

    def reply(messages: list[ChatMessage], *_: object) -> ModelOutput:
        prompt = "\n".join(message.text for message in messages)
        prompts.append(prompt)
        return output(script(prompt))

    model = get_model(f"mockllm/{name}", custom_outputs=reply)
    model.prompts = prompts  # type: ignore[attr-defined]
    return model


def verdict(level: str, reasoning: str = "Scripted reasoning.") -> str:
    return f"<reasoning>{reasoning}</reasoning>\n<score>{level}</score>"
