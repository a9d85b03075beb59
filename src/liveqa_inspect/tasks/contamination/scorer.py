"""How much of the true remainder each completion reproduces: ROUGE-L (Golchin & Surdeanu's
measure, the reference metrics' own function) and the longest run of words shared with it, which
a reproduced text leaves and a paraphrase does not. A refusal scores 0 and is flagged: an empty
reply, one the content filter stopped, or one that opens as refusals do ("I'm sorry") and its
remainder does not."""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from liveqa_inspect.overlap import worker
from liveqa_inspect.stats.names import (
    DIFFERENCE, SHORT, overlap_key, refused_key, run_key, verbatim_key,
)  # fmt: skip
from liveqa_inspect.tasks.contamination.instructions import GENERAL, GUIDED
from liveqa_inspect.tasks.contamination.metrics import completion_figures, reproductions
from liveqa_inspect.tasks.contamination.solver import Replies

_WORD = re.compile(r"[^\W_]+")  # letters and digits: case and punctuation do not break a run
_REFUSAL = re.compile(
    r"^\W*(?:i['’]?m sorry|i am sorry|sorry\b|i apologi[sz]e|i can(?:not|['’]?t)\b|i can not\b"
    r"|i(?:['’]m| am) (?:not able|unable)\b|i (?:won['’]?t|will not)\b|as an ai\b)",
    re.IGNORECASE,
)

VERBATIM_WORDS = 13
"""The shortest run shared with the remainder that is a reproduction, not chance: the n-gram
length of GPT-3's and lm-evaluation-harness's decontamination. A shorter remainder can show none:
its few words, repeated whole, are often a guess ("...what are the side effects?")."""


def words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


@dataclass(frozen=True)
class Overlap:
    rouge_l: float
    run: int
    shared: str  # the shared run's words, as `words` reads them
    refused: bool

    @property
    def verbatim(self) -> bool:
        return self.run >= VERBATIM_WORDS

    def described(self, name: str) -> str:
        if self.refused:
            return f"{name}: refused or empty, scored 0"
        return f"{name}: ROUGE-L {self.rouge_l:.3f}, {self.run} words in a row shared with the rest"


def overlap(remainder: str, completion: str, stop_reason: str = "stop") -> Overlap:
    """Run in the worker process (overlap/worker.py): ROUGE-L loads nltk."""
    from liveqa_inspect.overlap.text_overlap import rouge_l

    opens_as_refusal = bool(_REFUSAL.match(completion)) and not _REFUSAL.match(remainder)
    if stop_reason == "content_filter" or not completion.strip() or opens_as_refusal:
        return Overlap(0.0, 0, "", refused=True)
    said, rest = words(completion), words(remainder)
    # Without difflib's "junk" heuristic, which skips words common in a long text, cutting runs.
    run = SequenceMatcher(None, rest, said, autojunk=False).find_longest_match()
    shared = " ".join(said[run.b : run.b + run.size])
    return Overlap(rouge_l(remainder, completion.strip()), run.size, shared, refused=False)


@scorer(metrics=[completion_figures(), reproductions()])
def completion_overlap() -> Scorer:
    """Each instruction's overlap with the remainder, and guided minus general."""
    worker.started()

    async def score(state: TaskState, target: Target) -> Score:
        replies = state.store_as(Replies)
        found = {name: await worker.run(overlap, target.text, replies.completions[name],
                                        replies.stop_reasons[name])
                 for name in (GUIDED, GENERAL)}  # fmt: skip
        value: dict[str, float] = {
            DIFFERENCE: found[GUIDED].rouge_l - found[GENERAL].rouge_l,
            SHORT: int(len(words(target.text)) < VERBATIM_WORDS),
        }
        for name, result in found.items():
            value |= {overlap_key(name): result.rouge_l, run_key(name): result.run,
                      verbatim_key(name): int(result.verbatim),
                      refused_key(name): int(result.refused)}  # fmt: skip
        return Score(
            value=value,
            explanation="; ".join(result.described(name) for name, result in found.items())
            + f". Difference {value[DIFFERENCE]:+.3f}.",
            metadata={
                name: {"completion": replies.completions[name], "shared": result.shared}
                for name, result in found.items()
            },
        )

    return score
