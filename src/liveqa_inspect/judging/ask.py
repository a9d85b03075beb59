"""Asking one juror: the ask-and-retry loop, its cache policy, and what it said."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspect_ai.model import CachePolicy, Model
from inspect_ai.util import LimitExceededError

from liveqa_inspect._inspect_private import resolved_config
from liveqa_inspect.judging.prompts import Scale
from liveqa_inspect.judging.settings import JUDGE_ATTEMPTS, call_config
from liveqa_inspect.judging.verdict import Verdict, parse_verdict


class JudgeError(RuntimeError):
    """A judge request failed after its retries; the message names the judge."""


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

    Each attempt has its own cache entry, so a re-run replays exactly the replies that were used,
    an unreadable first reply and its readable retry alike, and sends nothing. A model listed
    again in the panel needs no scope of its own: its seed differs, and Inspect's cache key holds
    the config sent."""
    effective = resolved_config(juror).merge(call_config(juror, scale, 0, epoch, repeat))
    call = JurorCall(model=str(juror), config=effective.model_dump(exclude_none=True))
    for attempt in range(JUDGE_ATTEMPTS):
        scopes = {"epoch": str(epoch), "attempt": str(attempt)}
        policy = CachePolicy(per_epoch=False, scopes=scopes) if cache else False
        try:
            output = await juror.generate(
                prompt_text, config=call_config(juror, scale, attempt, epoch, repeat), cache=policy
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
