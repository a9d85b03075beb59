"""The contamination probe's scorer: how much of the true remainder each completion reproduces.

Two measures a completion, each against the remainder of the text:

- ROUGE-L F-measure, the very function the reference metrics use (`text_overlap.rouge_l`),
  as Golchin & Surdeanu measure overlap;
- the longest run of consecutive words shared with the remainder: one long run is what a
  reproduced text leaves and a paraphrase does not. Words here are runs of letters and digits,
  lower-cased, so case and punctuation do not break a run. A run of VERBATIM_WORDS words, or of
  the whole remainder when it is shorter, makes the completion a reproduction, verbatim or nearly.

A refusal or an empty reply scores 0 on both and is flagged, so the metrics can count it. A
refusal is a reply the provider stopped for its content filter, or one that opens as refusals do
("I'm sorry", "I can't", "I am unable", "As an AI", ...): a continuation of a question or an
answer cut mid-sentence does not open that way, unless its remainder does.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from liveqa_inspect.overlap import worker
from liveqa_inspect.stats.names import (
    DIFFERENCE,
    overlap_key,
    refused_key,
    run_key,
    verbatim_key,
)
from liveqa_inspect.tasks.contamination.instructions import GENERAL, GUIDED
from liveqa_inspect.tasks.contamination.metrics import completion_figures
from liveqa_inspect.tasks.contamination.solver import Replies

_WORD = re.compile(r"[^\W_]+")
_REFUSAL = re.compile(
    r"^\W*(?:i['’]?m sorry|i am sorry|sorry\b|i apologi[sz]e|i can(?:not|['’]?t)\b|i can not\b"
    r"|i(?:['’]m| am) (?:not able|unable)\b|i (?:won['’]?t|will not)\b|as an ai\b)",
    re.IGNORECASE,
)
CONTENT_FILTER = "content_filter"

VERBATIM_WORDS = 13
"""A shared run this long is a reproduction, not a coincidence: 13 words is the n-gram length of
GPT-3's and lm-evaluation-harness's decontamination."""


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def longest_run(remainder: list[str], completion: list[str]) -> tuple[int, int]:
    """(length, start in `completion`) of the longest run of words both share, in order.

    difflib's longest match without its "junk" heuristic, which would skip words common in a
    long text and so cut runs short.
    """
    found = SequenceMatcher(None, remainder, completion, autojunk=False).find_longest_match()
    return found.size, found.b


def is_refusal(completion: str, stop_reason: str, remainder: str) -> bool:
    """Whether a reply refuses; one that opens as the remainder itself does is a reproduction."""
    opens_as_refusal = bool(_REFUSAL.match(completion)) and not _REFUSAL.match(remainder)
    return stop_reason == CONTENT_FILTER or not completion.strip() or opens_as_refusal


@dataclass(frozen=True)
class Overlap:
    """One completion against the remainder."""

    rouge_l: float
    run: int
    shared: str
    """The shared run's words, as `words` reads them."""
    verbatim: bool
    refused: bool


@cache
def rouge_l_function() -> Callable[[str, str], float]:
    """The reference metrics' ROUGE-L. It loads nltk: the scorer computes `overlap` in the
    worker process (overlap/worker.py), which imported it when the task was built."""
    from liveqa_inspect.overlap.text_overlap import rouge_l

    return rouge_l


def overlap(remainder: str, completion: str, stop_reason: str = "stop") -> Overlap:
    if is_refusal(completion, stop_reason, remainder):
        return Overlap(0.0, 0, "", verbatim=False, refused=True)
    said, rest = words(completion), words(remainder)
    run, start = longest_run(rest, said)
    return Overlap(
        rouge_l_function()(remainder, completion.strip()),
        run,
        " ".join(said[start : start + run]),
        verbatim=run > 0 and run >= min(VERBATIM_WORDS, len(rest)),
        refused=False,
    )


def described(name: str, found: Overlap) -> str:
    if found.refused:
        return f"{name}: refused or empty, scored 0"
    return f"{name}: ROUGE-L {found.rouge_l:.3f}, {found.run} words in a row shared with the rest"


@scorer(metrics=[completion_figures()])
def completion_overlap() -> Scorer:
    """Each instruction's overlap with the remainder, and guided minus general."""
    worker.started()

    async def score(state: TaskState, target: Target) -> Score:
        replies = state.store_as(Replies)
        found = {
            name: await worker.run(
                overlap, target.text, replies.completions[name], replies.stop_reasons[name]
            )
            for name in (GUIDED, GENERAL)
        }
        value: dict[str, float] = {DIFFERENCE: found[GUIDED].rouge_l - found[GENERAL].rouge_l}
        for name, result in found.items():
            value[overlap_key(name)] = result.rouge_l
            value[run_key(name)] = result.run
            value[verbatim_key(name)] = int(result.verbatim)
            value[refused_key(name)] = int(result.refused)
        return Score(
            value=value,
            explanation="; ".join(described(name, result) for name, result in found.items())
            + f". Difference {value[DIFFERENCE]:+.3f}.",
            metadata={
                name: {"completion": replies.completions[name], "shared": result.shared}
                for name, result in found.items()
            },
        )

    return score
