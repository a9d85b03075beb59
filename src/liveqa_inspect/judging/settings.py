"""What a judge is sent: the pinned default, our generation defaults and the seed policy."""

from __future__ import annotations

from inspect_ai.model import GenerateConfig, Model

from liveqa_inspect._inspect_private import resolved_config
from liveqa_inspect.judging.grammar import verdict_grammar
from liveqa_inspect.judging.prompts import Scale

DEFAULT_JUDGE = "openai/gpt-4o-2024-05-13"
"""HELM's live_qa judge, pinned by date so a run is repeatable; override with the grader role."""

JUDGE_ROLE = "grader"
JUDGE_SEED = 42
JUDGE_ATTEMPTS = 3
"""How many times an unreadable verdict is asked again before the juror abstains."""
REPEAT_SEED_STRIDE = 10_000
"""Seed distance between two jurors of one model in a panel (a self-consistency panel): far
beyond the seeds one juror uses over its attempts and epochs, so their draws never coincide."""
JUDGE_MAX_RETRIES = 5
"""Inspect's retries of a failing judge request: a judge that answers every request with an error
ends the run in about two minutes instead of retrying for hours (docs/judge.md)."""

JUDGE_DEFAULTS = GenerateConfig(temperature=0.0, seed=JUDGE_SEED, max_retries=JUDGE_MAX_RETRIES)
"""HELM's judge temperature (0), a fixed seed and a bounded retry budget, as defaults only:
whatever the user set for the judge wins, field by field. No token cap: HELM's 256 tokens starve a
judge that thinks before it answers, and no provider-neutral way tells one apart (docs/judge.md)."""


def asks_for_reasoning(config: GenerateConfig) -> bool:
    """Whether the user asked this judge to reason: then temperature is the provider's to fix
    (reasoning APIs refuse or ignore ours)."""
    return config.reasoning_effort not in (None, "none") or bool(config.reasoning_tokens)


def call_config(
    judge: Model, scale: Scale, attempt: int, epoch: int, repeat: int = 0
) -> GenerateConfig:
    """The config passed with one request: our defaults where the user set nothing, and a seed.

    A config passed to `generate()` wins over the model's own, so only fields the user left unset
    are passed, and the seed. The seed (the user's, or ours) moves with each attempt, epoch and
    earlier juror of the same model in the panel (`repeat`): a retry gets a real second chance, an
    epoch or a repeated model is a new draw, not one copied. A judge on a llama.cpp server is also
    sent a grammar of a verdict on `scale`, unless the user constrains it already.
    """
    user = resolved_config(judge)
    fill = {
        key: value
        for key, value in JUDGE_DEFAULTS.model_dump(exclude_none=True).items()
        if getattr(user, key) is None
        and not (key == "temperature" and asks_for_reasoning(user))
    }
    base = user.seed if user.seed is not None else JUDGE_SEED
    fill["seed"] = base + attempt + JUDGE_ATTEMPTS * (epoch - 1) + REPEAT_SEED_STRIDE * repeat
    fill.update(verdict_grammar(judge, user, scale))
    return GenerateConfig(**fill)
