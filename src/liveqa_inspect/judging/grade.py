"""The one judging path: ask every juror, combine their verdicts, make the Score.

Every task that judges grades through `grade`, so the prompt a judge is measured on in
live_qa_judge is exactly the prompt it grades with in live_qa. A judge is one model or a panel of
them (the grader role bound to a list); a single judge is a panel of one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from inspect_ai.model import Model
from inspect_ai.scorer import Score
from inspect_ai.util import collect

from liveqa_inspect.judging.ask import JurorCall, ask_juror
from liveqa_inspect.judging.jurors import repeats
from liveqa_inspect.judging.panel import Panel, combine
from liveqa_inspect.judging.prompts import JudgePrompt, Scale
from liveqa_inspect.judging.render import build_judge_prompt


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
