"""The one judging path: ask every juror, combine their verdicts, make the Score.

Every task that judges grades through `grade`, so the prompt a judge is measured on in
live_qa_judge is exactly the prompt it grades with in live_qa. A judge is one model or a panel of
them (the grader role bound to a list); a single judge is a panel of one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.model import CachePolicy, Model
from inspect_ai.scorer import Score
from inspect_ai.util import LimitExceededError, collect

from liveqa_inspect._inspect_private import resolved_config
from liveqa_inspect.judging.panel import Panel, combine
from liveqa_inspect.judging.prompts import JudgePrompt, Scale, build_judge_prompt
from liveqa_inspect.judging.reply import parse_verdict
from liveqa_inspect.judging.settings import JUDGE_ATTEMPTS, call_config


class JudgeError(RuntimeError):
    """A judge request failed after its retries; the message names the judge."""


async def ask_juror(
    juror: Model, text: str, scale: Scale, cache: bool, epoch: int, repeat: int
) -> dict[str, Any]:
    """What one juror said, asked until a verdict can be read, at most JUDGE_ATTEMPTS times.

    Each attempt has its own cache entry, so a re-run replays exactly the replies that were used,
    an unreadable first reply and its readable retry alike, and sends nothing. A model listed
    again in the panel needs no scope of its own: its seed differs, and Inspect's cache key holds
    the config sent. The record keeps the config of the first attempt as Inspect resolves it."""
    user = resolved_config(juror)
    configs = [call_config(juror, scale, n, epoch, repeat, user) for n in range(JUDGE_ATTEMPTS)]
    replies: list[str] = []
    verdict = None
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
            raise JudgeError(f"The judge {juror} failed: {cause}") from error
        replies.append(output.completion)
        verdict = parse_verdict(output.completion, scale)
        if verdict is not None:
            break
    return {
        "model": str(juror),
        "level": None if verdict is None else verdict.level,
        "reasoning": None if verdict is None else verdict.reasoning,
        "attempts": len(replies),
        "replies": replies,
        "config": user.merge(configs[0]).model_dump(exclude_none=True),
    }


def explain(jurors: Sequence[Mapping[str, Any]], level: float | None, scale: Scale) -> str:
    """What Inspect View shows beside the score: each juror's level and reasoning."""
    if len(jurors) == 1 and jurors[0]["level"] is not None:
        return str(jurors[0]["reasoning"])
    lines = []
    for juror in jurors:
        if juror["level"] is None:
            last = juror["replies"][-1] if juror["replies"] else ""
            lines.append(
                f"{juror['model']}: no readable verdict in {juror['attempts']} attempts (no "
                f"<score> tags all holding one of {scale.describe()}). Last reply:\n{last}"
            )
        else:
            lines.append(f"{juror['model']}: {juror['level']:g}. {juror['reasoning']}")
    if level is None and len(jurors) > 1:
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
    """Grade one answer: 0 with reason no_response when empty, unscored when unreadable.

    A juror whose model is listed before it in the panel is a repeat: its seeds differ. One juror
    is asked directly: `collect` would add a task group and a span to every sample."""
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
    names = about["judge_models"]
    asks = [
        ask_juror(judge, text, prompt.scale, cache, epoch, names[:index].count(names[index]))
        for index, judge in enumerate(judges)
    ]
    jurors = [await asks[0]] if len(asks) == 1 else await collect(*asks)
    level = combine([juror["level"] for juror in jurors], panel)
    metadata = {**about, "jurors": jurors}
    explanation = explain(jurors, level, prompt.scale)
    if level is None:
        return Score.unscored(
            reason="grader_failed", answer=answer, explanation=explanation, metadata=metadata
        )
    return Score(value=level, answer=answer, explanation=explanation, metadata=metadata)
