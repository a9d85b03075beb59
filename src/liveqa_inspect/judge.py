"""The one judging path: build the judge prompt, ask every juror, read the verdicts, make the Score.

Every task that judges grades through `grade`, so the prompt a judge is measured on in
live_qa_judge is exactly the prompt it grades with in live_qa. A judge is one model or a panel of
them (the grader role bound to a list); a single judge is a panel of one.
"""

from __future__ import annotations

import html
import re
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from inspect_ai.model import CachePolicy, GenerateConfig, Model, get_model, model_roles

# Private, pinned below 0.4 (pyproject's lint ignore says why): no public call tells a task built
# by eval(), its roles bound, from one built before eval() is called.
from inspect_ai.model._model import active_model
from inspect_ai.scorer import Score
from inspect_ai.util import LimitExceededError, collect

from liveqa_inspect.errors import ArgumentError
from liveqa_inspect.prompts import JudgePrompt, Scale

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
"""Inspect's retries of a failing judge request (after the provider's own): a judge that answers
every request with an error ends the run in about two minutes instead of retrying for hours.
Raise it with the role's config (`max_retries: 20`) or Inspect's `--max-retries`."""

JUDGE_DEFAULTS = GenerateConfig(
    temperature=0.0, max_tokens=256, seed=JUDGE_SEED, max_retries=JUDGE_MAX_RETRIES
)
"""HELM's judge settings (temperature 0, 256 tokens), a fixed seed and a bounded retry budget.
Defaults only: whatever the user set for the judge wins, field by field."""

REASONING_DEFAULTS = GenerateConfig(seed=JUDGE_SEED, max_retries=JUDGE_MAX_RETRIES)
"""For a reasoning judge, no token cap or temperature of ours: 256 tokens would be spent on
reasoning before any verdict, and reasoning models fix their own sampling."""

LEVEL_DIGITS = 6
"""A panel's or an epoch's mean level is rounded to this, so View shows 0.7, not
0.6999999999999998; far finer than any difference a judge's levels can make."""

Panel = Literal["mean", "median", "majority"]
PANELS: tuple[str, ...] = get_args(Panel)

_TAG = re.compile(r"<[\s/]*(score|reasoning)\s*>", re.IGNORECASE)
"""An opening or closing verdict tag. One character class before the name and no lazy `.*?`
between tags, so a scan is linear in the reply however many unclosed tags it holds."""


class JudgeError(RuntimeError):
    """A judge request failed after its retries; the message names the judge."""


def neutralise(text: str) -> str:
    """Escape markup in untrusted text so it cannot close a delimiter or forge a verdict tag."""
    return html.escape(text, quote=False)


def numbered(tag: str, items: Sequence[str]) -> str:
    return "\n\n".join(
        f'<{tag} n="{n}">\n{neutralise(item)}\n</{tag}>' for n, item in enumerate(items, start=1)
    )


def build_judge_prompt(prompt: JudgePrompt, **fields: str | Sequence[str]) -> str:
    """The judge's input: the trusted rubric around escaped fields.

    A text field is escaped in place; a list field named `<tag>s` (`references`, `passages`)
    becomes numbered `<tag n="1">` blocks, so the judge can cite them apart.
    """
    rendered = {
        name: neutralise(value) if isinstance(value, str) else numbered(name[:-1], value)
        for name, value in fields.items()
    }
    return prompt.template.format(**rendered)


@dataclass(frozen=True)
class Verdict:
    level: float
    reasoning: str


def _tagged(reply: str, name: str) -> list[str]:
    """The texts between each opening `name` tag and the closing tag after it; unclosed ones
    are left out."""
    texts: list[str] = []
    start: int | None = None
    for match in _TAG.finditer(reply):
        if match.group(1).lower() != name:
            continue
        closing = "/" in match.group(0)
        if not closing:
            start = match.end()
        elif start is not None:
            texts.append(reply[start : match.start()])
            start = None
    return texts


def parse_verdict(reply: str, scale: Scale) -> Verdict | None:
    """Read the `<score>` tags: None unless there is one, and all of them name the same level.

    A reply whose tags disagree (`<score>0</score> ... e.g. <score>0.7</score>`) says two things,
    so it is not read as either; the same level repeated is fine.
    """
    scores = _tagged(reply, "score")
    if not scores:
        return None
    levels = {scale.read(text.strip()) for text in scores}
    if len(levels) != 1 or None in levels:
        return None
    [level] = levels
    reasonings = _tagged(reply, "reasoning")
    reasoning = reasonings[-1].strip() if reasonings else _TAG.sub("", reply).strip()
    assert level is not None
    return Verdict(level=level, reasoning=reasoning)


def user_config(judge: Model) -> GenerateConfig:
    """What Inspect would send for this judge with no config of ours.

    That is the role's own config (`--model-role grader={model: ..., max_tokens: ...}`), plus
    Inspect's flags (`--temperature`, `--seed`, ...) when the judge is the model under evaluation,
    plus the operational flags every model inherits (`--max-retries`, `--timeout`). Inspect keeps
    this resolution private; it is pinned with inspect_ai below 0.4.
    """
    return judge._resolve_config(None)


def reasons(judge: Model, config: GenerateConfig) -> bool:
    """Whether the judge reasons before it answers: asked for, or a reasoning model."""
    if config.reasoning_effort not in (None, "none") or config.reasoning_tokens:
        return True
    has_reasoning = getattr(judge.api, "has_reasoning_options", None)
    return bool(has_reasoning()) if callable(has_reasoning) else False


def call_config(judge: Model, attempt: int, epoch: int, repeat: int = 0) -> GenerateConfig:
    """The config passed with one request: our defaults where the user set nothing, and a seed.

    A config passed to `generate()` wins over the model's own, so only fields the user left
    unset are passed, and the seed. The seed starts at the user's (or ours) and moves with each
    attempt and epoch: a retry gets a real second chance, and each epoch is a new draw for a
    judge sampled above temperature 0. `repeat` counts the earlier jurors of the same model in
    the panel, so a model listed twice gives two draws, not one copied.
    """
    user = user_config(judge)
    defaults = REASONING_DEFAULTS if reasons(judge, user) else JUDGE_DEFAULTS
    fill = {
        key: value
        for key, value in defaults.model_dump(exclude_none=True).items()
        if getattr(user, key) is None
    }
    base = user.seed if user.seed is not None else JUDGE_SEED
    fill["seed"] = base + attempt + JUDGE_ATTEMPTS * (epoch - 1) + REPEAT_SEED_STRIDE * repeat
    return GenerateConfig(**fill)


def repeats(judges: Sequence[Model]) -> list[int]:
    """For each juror, how many jurors before it are the same model."""
    names = [str(judge) for judge in judges]
    return [names[:index].count(name) for index, name in enumerate(names)]


@dataclass
class JurorCall:
    """What one juror said over all attempts, kept whether or not it could be read."""

    model: str
    config: dict[str, Any]
    verdict: Verdict | None = None
    replies: list[str] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "level": None if self.verdict is None else self.verdict.level,
            "reasoning": None if self.verdict is None else self.verdict.reasoning,
            "attempts": len(self.replies),
            "replies": self.replies,
            "config": self.config,
        }


async def ask_juror(
    juror: Model, prompt_text: str, scale: Scale, cache: bool, epoch: int, repeat: int = 0
) -> JurorCall:
    """Ask until a verdict can be read, at most JUDGE_ATTEMPTS times.

    Each attempt has its own cache entry (scoped by epoch and attempt), so a re-run replays
    exactly the replies that were used, an unreadable first reply and its readable retry alike,
    and sends nothing. A model listed again in the panel needs no scope of its own: its seed
    differs, and Inspect's cache key holds the config sent. API failures are not caught: after
    Inspect's retries they raise, named.
    """
    effective = user_config(juror).merge(call_config(juror, 0, epoch, repeat))
    call = JurorCall(model=str(juror), config=effective.model_dump(exclude_none=True))
    for attempt in range(JUDGE_ATTEMPTS):
        policy: CachePolicy | bool = (
            CachePolicy(per_epoch=False, scopes={"epoch": str(epoch), "attempt": str(attempt)})
            if cache
            else False
        )
        try:
            output = await juror.generate(
                prompt_text, config=call_config(juror, attempt, epoch, repeat), cache=policy
            )
        except LimitExceededError:
            raise
        except Exception as error:
            raise JudgeError(f"The judge {juror} failed: {cause(error)}") from error
        call.replies.append(output.completion)
        call.verdict = parse_verdict(output.completion, scale)
        if call.verdict is not None:
            break
    return call


def cause(error: BaseException) -> BaseException:
    """The API's own error behind Inspect's retries (tenacity wraps the last one it saw)."""
    last = getattr(error, "last_attempt", None)
    failed = last.exception() if last is not None else None
    return failed if failed is not None else error


def combine(levels: Sequence[float | None], panel: Panel) -> float | None:
    """The panel's level, or None: more than half of the jurors must have given a verdict.

    `mean` and `median` combine the verdicts given; `majority` needs one level given by more
    than half of the whole panel, so an abstention withholds a vote without lowering the bar.
    """
    given = [level for level in levels if level is not None]
    if 2 * len(given) <= len(levels):
        return None
    if panel == "mean":
        return round(statistics.fmean(given), LEVEL_DIGITS)
    if panel == "median":
        return round(float(statistics.median(given)), LEVEL_DIGITS)
    level, votes = Counter(given).most_common(1)[0]
    return level if 2 * votes > len(levels) else None


def check_panel(panel: str) -> None:
    if panel not in PANELS:
        raise ArgumentError(f"panel must be one of {', '.join(PANELS)}; got {panel!r}.")


def jurors(default: str | None) -> list[Model]:
    """Who judges: every model bound to the grader role, else `default` (None: the evaluated
    model). Called when scoring or setup starts, never at task build, where roles are unknown."""
    bound = model_roles().get(JUDGE_ROLE)
    if isinstance(bound, list):
        return list(bound)
    if bound is not None:
        return [bound]
    return [get_model(default)] if default else [get_model()]


def default_judge_made_early(default: str | None) -> None:
    """Make the pinned default judge while `inspect eval` builds the task, when no grader is bound.

    Inspect binds the roles before it builds tasks, so here an unbound grader means the default
    judges. A client that cannot be made (no API key) then stops the run with Inspect's one-line
    error before it starts, instead of a traceback from the first sample's setup. A task built
    before eval() is called cannot know its roles yet: `judges_ready` then stops the run before
    any answer instead.
    """
    if default is None or active_model() is None or JUDGE_ROLE in model_roles():
        return
    get_model(default)


def explain(calls: Sequence[JurorCall], level: float | None, scale: Scale) -> str:
    """What Inspect View shows beside the score: each juror's level and reasoning."""
    if len(calls) == 1 and calls[0].verdict is not None:
        return calls[0].verdict.reasoning
    lines = []
    for call in calls:
        if call.verdict is None:
            last = call.replies[-1] if call.replies else ""
            lines.append(
                f"{call.model}: no readable verdict in {len(call.replies)} attempts (no "
                f"<score> tags all holding one of {scale.describe()}). Last reply:\n{last}"
            )
        else:
            lines.append(f"{call.model}: {call.verdict.level:g}. {call.verdict.reasoning}")
    if level is None and len(calls) > 1:
        lines.insert(0, "The panel gave no level (too few verdicts, or no majority).")
    return "\n\n".join(lines)


async def grade(
    judges: Sequence[Model],
    prompt: JudgePrompt,
    fields: Mapping[str, str | Sequence[str]],
    answer: str,
    panel: Panel = "mean",
    cache: bool = True,
    epoch: int = 1,
) -> Score:
    """Grade one answer: 0 with reason no_response when empty, unscored when unreadable."""
    about: dict[str, Any] = {
        "judge_models": [str(judge) for judge in judges],
        "panel": panel,
        "prompt": prompt.provenance(),
    }
    if not answer.strip():
        return Score(
            value=0.0,
            answer=answer,
            reason="no_response",
            explanation="The answer is empty; it scores 0 and the judge was not asked.",
            metadata={**about, "jurors": []},
        )
    text = build_judge_prompt(prompt, **fields)
    calls = await collect(
        *(
            ask_juror(judge, text, prompt.scale, cache, epoch, repeat)
            for judge, repeat in zip(judges, repeats(judges), strict=True)
        )
    )
    level = combine([None if c.verdict is None else c.verdict.level for c in calls], panel)
    metadata = {**about, "jurors": [call.record() for call in calls]}
    explanation = explain(calls, level, prompt.scale)
    if level is None:
        return Score.unscored(
            reason="grader_failed", answer=answer, explanation=explanation, metadata=metadata
        )
    return Score(value=level, answer=answer, explanation=explanation, metadata=metadata)
