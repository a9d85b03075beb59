"""What a judge is sent: the pinned default, our generation defaults and the seed policy."""

from __future__ import annotations

from inspect_ai.model import GenerateConfig, Model

from liveqa_inspect.judging.prompts import Scale
from liveqa_inspect.judging.reply import verdict_grammar

DEFAULT_JUDGE = "openai/gpt-4o-2024-05-13"
"""HELM's live_qa judge, pinned by date so a run is repeatable; override with the grader role."""
JUDGE_ROLE = "grader"
JUDGE_ATTEMPTS = 3
"""How many times an unreadable verdict is asked again before the juror abstains."""
REPEAT_SEED_STRIDE = 10_000
"""Seed distance between two listings of one model in a panel: beyond the seeds one juror uses
over its attempts and epochs, so their draws never coincide."""
JUDGE_MAX_RETRIES = 5
"""Inspect's retries of a failing judge request: a judge failing every request ends the run in
minutes, not hours."""
JUDGE_DEFAULTS = GenerateConfig(temperature=0.0, seed=42, max_retries=JUDGE_MAX_RETRIES)
"""HELM's judge temperature (0), a fixed seed and a bounded retry budget, each only where the user
set nothing. No token cap: HELM's 256 tokens starve a judge that thinks first (docs/judge.md)."""
_DEFAULTS = JUDGE_DEFAULTS.model_dump(exclude_none=True)


def call_config(
    judge: Model, scale: Scale, attempt: int, epoch: int, repeat: int, user: GenerateConfig
) -> GenerateConfig:
    """The config sent with one request, which wins over the model's own (`user`): our defaults
    where the user set nothing, but no temperature for a judge asked to reason (reasoning APIs
    refuse or ignore it); a seed, the user's or ours, moved with each attempt, epoch and repeat of
    a model in the panel, so each is a new draw; and a llama.cpp judge's verdict grammar."""
    reasons = user.reasoning_effort not in (None, "none") or bool(user.reasoning_tokens)
    fill = {
        key: value
        for key, value in _DEFAULTS.items()
        if getattr(user, key) is None and not (key == "temperature" and reasons)
    }
    base = _DEFAULTS["seed"] if user.seed is None else user.seed
    fill["seed"] = base + attempt + JUDGE_ATTEMPTS * (epoch - 1) + REPEAT_SEED_STRIDE * repeat
    fill.update(verdict_grammar(judge, user, scale))
    return GenerateConfig(**fill)
