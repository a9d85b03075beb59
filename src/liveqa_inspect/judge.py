"""The one judging path: build the judge prompt, ask the judge, read its verdict, make the Score.

Every task that judges (live_qa, live_qa_judge, expert_qa) grades through `grade`, so the prompt a
judge is measured on in live_qa_judge is exactly the prompt it grades with in live_qa.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from decimal import Decimal

from inspect_ai.model import CachePolicy, GenerateConfig, Model
from inspect_ai.scorer import Score

from liveqa_inspect.prompts import JudgePrompt

DEFAULT_JUDGE = "openai/gpt-4o-2024-05-13"
"""HELM's live_qa judge, pinned by date so a run is repeatable; override with the grader role."""

JUDGE_ROLE = "grader"
JUDGE_SEED = 42
JUDGE_ATTEMPTS = 3
"""How many times an unreadable verdict is asked again before the sample is left unscored."""

JUDGE_CONFIG = GenerateConfig(temperature=0.0, max_tokens=256, seed=JUDGE_SEED)
"""HELM's judge settings (temperature 0, 256 tokens), plus a fixed seed."""

LEVELS: tuple[float, ...] = (0.0, 0.3, 0.7, 1.0)
_DECIMAL_LEVELS = {Decimal("0"): 0.0, Decimal("0.3"): 0.3, Decimal("0.7"): 0.7, Decimal("1"): 1.0}

_PLAIN_NUMBER = re.compile(r"\d*\.?\d+|\d+\.")
_SCORE_TAG = re.compile(r"<\s*score\s*>(.*?)<\s*/\s*score\s*>", re.IGNORECASE | re.DOTALL)
_REASONING_TAG = re.compile(
    r"<\s*reasoning\s*>(.*?)<\s*/\s*reasoning\s*>", re.IGNORECASE | re.DOTALL
)


def neutralise(text: str) -> str:
    """Escape markup in untrusted text so it cannot close a delimiter or forge a verdict tag."""
    return html.escape(text, quote=False)


def format_references(references: list[str]) -> str:
    return "\n\n".join(
        f'<reference n="{n}">\n{neutralise(reference)}\n</reference>'
        for n, reference in enumerate(references, start=1)
    )


def build_judge_prompt(
    prompt: JudgePrompt, question: str, references: list[str], answer: str, **context: str
) -> str:
    """The judge's input: trusted rubric around escaped question, references and answer."""
    return prompt.template.format(
        question=neutralise(question),
        references=format_references(references),
        answer=neutralise(answer),
        **{key: neutralise(value) for key, value in context.items()},
    )


@dataclass(frozen=True)
class Verdict:
    level: float
    reasoning: str


def parse_verdict(reply: str) -> Verdict | None:
    """Read the last <score> tag; None unless it holds exactly one of the four levels."""
    scores = _SCORE_TAG.findall(reply)
    if not scores:
        return None
    text = scores[-1].strip()
    if not _PLAIN_NUMBER.fullmatch(text):
        return None
    level = _DECIMAL_LEVELS.get(Decimal(text))
    if level is None:
        return None
    reasonings = _REASONING_TAG.findall(reply)
    reasoning = reasonings[-1].strip() if reasonings else _SCORE_TAG.sub("", reply).strip()
    return Verdict(level=level, reasoning=reasoning)


@dataclass
class JudgeCall:
    """What the judge said over all attempts, kept whether or not it could be read."""

    verdict: Verdict | None = None
    replies: list[str] = field(default_factory=list)


async def ask_judge(
    judge: Model, prompt_text: str, cache: bool | CachePolicy = True
) -> JudgeCall:
    """Ask until a verdict can be read, at most JUDGE_ATTEMPTS times.

    Retries bypass the cache (a cached unreadable reply would come back forever) and change the
    seed, so a deterministic judge gets a real second chance. API failures are not caught here:
    they raise so Inspect's own retries and --retry-on-error handle them.
    """
    if cache is True:
        # Not per epoch: the verdict depends on the prompt alone, and `inspect score` grades
        # outside any epoch, so a per-epoch key would never find the eval's cached replies.
        cache = CachePolicy(per_epoch=False)
    call = JudgeCall()
    for attempt in range(JUDGE_ATTEMPTS):
        output = await judge.generate(
            prompt_text,
            config=JUDGE_CONFIG.merge(GenerateConfig(seed=JUDGE_SEED + attempt)),
            cache=cache if attempt == 0 else False,
        )
        call.replies.append(output.completion)
        call.verdict = parse_verdict(output.completion)
        if call.verdict is not None:
            break
    return call


async def grade(
    judge: Model,
    prompt: JudgePrompt,
    question: str,
    references: list[str],
    answer: str,
    cache: bool | CachePolicy = True,
    **context: str,
) -> Score:
    """Grade one answer: 0 with reason no_response when empty, unscored when unreadable."""
    about = {
        "judge_model": str(judge),
        "prompt_name": prompt.name,
        "prompt_version": prompt.version,
        "prompt_sha256": prompt.sha256,
    }
    if not answer.strip():
        return Score(
            value=0.0,
            answer=answer,
            reason="no_response",
            explanation="The answer is empty; it scores 0 and the judge was not asked.",
            metadata={**about, "level": 0.0, "attempts": 0, "judge_reply": None},
        )
    call = await ask_judge(
        judge, build_judge_prompt(prompt, question, references, answer, **context), cache
    )
    metadata = {
        **about,
        "attempts": len(call.replies),
        "judge_reply": call.replies[-1],
        "judge_replies": call.replies,
    }
    if call.verdict is None:
        return Score.unscored(
            reason="grader_failed",
            answer=answer,
            explanation=(
                f"The judge's verdict could not be read in {len(call.replies)} attempts "
                "(no <score> tag holding 0, 0.3, 0.7 or 1). Last reply:\n\n" + call.replies[-1]
            ),
            metadata={**metadata, "level": None},
        )
    return Score(
        value=call.verdict.level,
        answer=answer,
        explanation=call.verdict.reasoning,
        metadata={**metadata, "level": call.verdict.level},
    )
