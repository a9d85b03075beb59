"""The one judging path (what a judge is sent, each juror asked, the panel's Score): every task
grades through `grade`, so live_qa_judge measures a judge on the very prompt live_qa grades with."""

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.model import CachePolicy, GenerateConfig, Model
from inspect_ai.scorer import Score
from inspect_ai.util import LimitExceededError, collect

from liveqa_inspect._inspect_private import resolved_config
from liveqa_inspect.judging.grammar import gbnf
from liveqa_inspect.judging.panel import PanelRule, combine
from liveqa_inspect.judging.prompts import JudgePrompt, build_judge_prompt
from liveqa_inspect.judging.record import Bound, JudgeRecord
from liveqa_inspect.judging.reply import parse_verdict
from liveqa_inspect.providers.constraints import constrained
from liveqa_inspect.stats.names import level_name

JUDGE_ROLE = "grader"
JUDGE_ATTEMPTS = 3
"""Requests for a readable verdict before the juror abstains."""
REPEAT_SEED_STRIDE = 10_000
"""Seed distance between two listings of one model in a panel: beyond any one juror's seeds."""
JUDGE_DEFAULTS = GenerateConfig(temperature=0.0, seed=42, max_retries=5)
"""HELM's judge temperature (0), a fixed seed and 5 retries of a failing request (a judge failing
every request ends the run in minutes, not hours), each only where the user set nothing. No token
cap: HELM's 256 tokens starve a judge that thinks before it answers (docs/judge.md)."""
_DEFAULTS = JUDGE_DEFAULTS.model_dump(exclude_none=True)


def filled(user: GenerateConfig) -> dict[str, Any]:
    """Our defaults where the user set nothing, but no temperature for a reasoning judge (its API
    refuses or ignores it): what a judge grades with beyond its own settings."""
    reasons = user.reasoning_effort not in (None, "none") or bool(user.reasoning_tokens)
    return {
        key: value
        for key, value in _DEFAULTS.items()
        if getattr(user, key) is None and not (key == "temperature" and reasons)
    }


def call_config(
    juror: Model, prompt: JudgePrompt, attempt: int, epoch: int, repeat: int, user: GenerateConfig
) -> GenerateConfig:
    """Our defaults where the user set nothing (`filled`); the seed moved with each attempt, epoch
    and repeat of a model, so each is a new draw; the reply's grammar where the judge's provider
    takes one (providers/)."""
    fill = filled(user)
    base = _DEFAULTS["seed"] if user.seed is None else user.seed
    fill["seed"] = base + attempt + JUDGE_ATTEMPTS * (epoch - 1) + REPEAT_SEED_STRIDE * repeat
    return GenerateConfig(**fill, **constrained(juror, user, lambda: gbnf(prompt.scale)))


async def ask_juror(
    juror: Model, prompt: JudgePrompt, text: str, cache: bool, epoch: int, repeat: int
) -> dict[str, Any]:
    """Asked until a verdict can be read, at most JUDGE_ATTEMPTS times, each attempt with its own
    cache entry: a re-run replays exactly the replies used. A repeated model's seeds differ."""
    user = resolved_config(juror)
    configs = [call_config(juror, prompt, n, epoch, repeat, user) for n in range(JUDGE_ATTEMPTS)]
    replies: list[str] = []
    for attempt, config in enumerate(configs):
        scopes = {"epoch": str(epoch), "attempt": str(attempt)}
        policy = CachePolicy(per_epoch=False, scopes=scopes) if cache else False
        try:
            output = await juror.generate(text, config=config, cache=policy)
        except LimitExceededError:
            raise
        except Exception as error:
            # The API's own error, not tenacity's wrapper of the last retry.
            last = getattr(error, "last_attempt", None)
            cause = (last.exception() if last is not None else None) or error
            raise RuntimeError(f"The judge {juror} failed: {cause}") from error
        replies.append(output.completion)
        if verdict := parse_verdict(output.completion, prompt.scale):
            break
    return {
        "model": str(juror),
        "level": verdict and verdict.level,
        "reasoning": verdict and verdict.reasoning,
        "attempts": len(replies),
        "replies": replies,
        "config": user.merge(configs[0]).model_dump(exclude_none=True),
    }


def explain(jurors: Sequence[Mapping[str, Any]], level: float | str, prompt: JudgePrompt) -> str:
    """What Inspect View shows beside the score: each juror's level and reasoning."""
    if len(jurors) == 1 and jurors[0]["level"] is not None:
        return str(jurors[0]["reasoning"])
    failed = isinstance(level, str) and len(jurors) > 1
    lines = [f"The panel gave no level ({level})."] if failed else []
    unread = f"(no <score> tags all holding one of {prompt.scale.describe()}). Last reply:"
    for juror in jurors:
        if juror["level"] is None:
            said = f"no readable verdict in {juror['attempts']} attempts {unread}\n"
            said += juror["replies"][-1]
        else:
            said = f"{level_name(juror['level'])}. {juror['reasoning']}"
        lines.append(f"{juror['model']}: {said}")
    return "\n\n".join(lines)


def sent(user: GenerateConfig) -> dict[str, Any]:
    """A judge's settings as every call sends them, from its own (`user`), but for the seed's move
    (`call_config`): what a judge record holds, also the default judge's and an old log's."""
    return user.merge(GenerateConfig(**filled(user))).model_dump(exclude_none=True)


async def grade(
    juror_models: Sequence[Model],
    prompt: JudgePrompt,
    fields: Mapping[str, str | Sequence[str]],
    answer: str,
    panel: PanelRule = "mean",
    cache: bool = True,
    epoch: int = 1,
    bound: Bound = "grader role",
) -> Score:
    """0 with reason no_response for an empty answer; unscored, with the panel's reason, when it
    gives no level. One juror is asked directly: `collect` adds a task group and a span. Every
    score records who judged (judging/record.py)."""
    names = [str(model) for model in juror_models]
    settings = [sent(resolved_config(model)) for model in juror_models]
    record = JudgeRecord.of(names, panel, bound, settings)
    about = {"judge": record.metadata(), "prompt": prompt.provenance()}
    if not answer.strip():
        return Score(
            value=0.0,
            answer=answer,
            reason="no_response",
            explanation="The answer is empty; it scores 0 and the judge was not asked.",
            metadata={**about, "jurors": []},
        )
    text = build_judge_prompt(prompt, **fields)
    asks = [
        ask_juror(model, prompt, text, cache, epoch, names[:index].count(names[index]))
        for index, model in enumerate(juror_models)
    ]
    jurors = [await asks[0]] if len(asks) == 1 else await collect(*asks)
    level = combine([juror["level"] for juror in jurors], panel)
    said = {"answer": answer, "explanation": explain(jurors, level, prompt)}
    said["metadata"] = {**about, "jurors": jurors}
    if isinstance(level, str):
        return Score.unscored(reason=level, **said)
    return Score(value=level, **said)
