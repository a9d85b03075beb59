"""What a judge is sent: the pinned default, our generation defaults and the seed policy."""

from __future__ import annotations

from inspect_ai.model import GenerateConfig, Model

from liveqa_inspect._inspect_private import resolved_config
from liveqa_inspect.judging.prompts import Scale
from liveqa_inspect.judging.reply import verdict_grammar

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
ends the run in minutes instead of retrying for hours (docs/judge.md)."""

JUDGE_DEFAULTS = GenerateConfig(temperature=0.0, seed=JUDGE_SEED, max_retries=JUDGE_MAX_RETRIES)
"""HELM's judge temperature (0), a fixed seed and a bounded retry budget, as defaults only:
whatever the user set for the judge wins, field by field. No token cap: HELM's 256 tokens starve a
judge that thinks before it answers, and no provider-neutral way tells one apart (docs/judge.md)."""
_DEFAULTS = JUDGE_DEFAULTS.model_dump(exclude_none=True)


def call_config(
    judge: Model,
    scale: Scale,
    attempt: int,
    epoch: int,
    repeat: int = 0,
    user: GenerateConfig | None = None,
) -> GenerateConfig:
    """The config passed with one request: our defaults where the user (`user`, the model's
    resolved config) set nothing, since a config passed to `generate()` wins over the model's own;
    temperature left to the provider when the user asked the judge to reason (reasoning APIs refuse
    or ignore ours); and a seed, the user's or ours, moved with each attempt, epoch and earlier
    juror of the same model in the panel (`repeat`), so a retry gets a real second chance and an
    epoch or a repeated model is a new draw. A llama.cpp judge is also sent a verdict grammar."""
    user = resolved_config(judge) if user is None else user
    reasons = user.reasoning_effort not in (None, "none") or bool(user.reasoning_tokens)
    fill = {
        key: value
        for key, value in _DEFAULTS.items()
        if getattr(user, key) is None and not (key == "temperature" and reasons)
    }
    base = user.seed if user.seed is not None else JUDGE_SEED
    fill["seed"] = base + attempt + JUDGE_ATTEMPTS * (epoch - 1) + REPEAT_SEED_STRIDE * repeat
    fill.update(verdict_grammar(judge, user, scale))
    return GenerateConfig(**fill)
