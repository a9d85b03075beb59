"""How much of the true remainder each completion reproduces: ROUGE-L (Golchin & Surdeanu's
measure) and the longest run of words shared with it, which a reproduced text leaves and a
paraphrase does not. A refusal scores 0 and is flagged: an empty reply, one the content filter
stopped, or one that opens as refusals do ("I'm sorry") and its remainder does not."""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

from liveqa_inspect.overlap import worker
from liveqa_inspect.stats import names
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


def overlap(remainder: str, completion: str, stop_reason: str = "stop") -> tuple[float, int, bool]:
    """(ROUGE-L, the longest run shared, refused), in the worker process: ROUGE-L loads nltk."""
    from liveqa_inspect.overlap.text_overlap import rouge_l

    opens_as_refusal = bool(_REFUSAL.match(completion)) and not _REFUSAL.match(remainder)
    if stop_reason == "content_filter" or not completion.strip() or opens_as_refusal:
        return 0.0, 0, True
    said, rest = words(completion), words(remainder)
    # Without difflib's "junk" heuristic, which skips words common in a long text, cutting runs.
    run = SequenceMatcher(None, rest, said, autojunk=False).find_longest_match()
    return rouge_l(remainder, completion.strip()), run.size, False


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
            names.DIFFERENCE: found[GUIDED][0] - found[GENERAL][0],
            names.SHORT: int(len(words(target.text)) < VERBATIM_WORDS),
        }
        for name, (rouge_l, run, refused) in found.items():
            value |= {names.overlap_key(name): rouge_l, names.run_key(name): run,
                      names.verbatim_key(name): int(run >= VERBATIM_WORDS),
                      names.refused_key(name): int(refused)}  # fmt: skip
        return Score(value=value)

    return score
