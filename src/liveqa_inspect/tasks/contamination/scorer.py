"""How much of the true remainder each completion reproduces: ROUGE-L (Golchin & Surdeanu's
measure) and the longest run of words shared with it, which a reproduced text leaves and a
paraphrase does not. A refusal scores 0 and is flagged: an empty reply, one the content filter
stopped, or one that opens as refusals do ("I'm sorry") and its remainder does not. The figures,
once for the log's metrics and the report: of each item's epoch mean, the overlaps and their
paired difference (the headline) with its p; of every completion, the counts."""

import math
import re
from difflib import SequenceMatcher
from typing import NamedTuple

import numpy as np
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from liveqa_inspect.judging.errored import unless_errored
from liveqa_inspect.overlap import worker
from liveqa_inspect.stats import bootstrap, names
from liveqa_inspect.stats.bootstrap import Estimate, Figures
from liveqa_inspect.tasks.contamination.solver import GENERAL, GUIDED, Replies

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


class Overlaps(NamedTuple):
    overlaps: Figures  # each instruction's mean ROUGE-L with the remainder, a refusal counting 0
    difference: Estimate
    p: float  # one-sided, of a difference above 0; NaN below two items


def column(scores: list[SampleScore], key: str) -> np.ndarray:
    return np.array([float(s.score.value[key]) for s in scores])  # type: ignore[index]


def paired_difference(guided: np.ndarray, general: np.ndarray) -> tuple[Estimate, float]:
    """The mean difference with its interval, and the p of the same seeded resamples."""
    differences = guided - general
    found = bootstrap.mean_estimate(differences)
    if len(differences) < 2:
        return found, math.nan
    resampled = differences[bootstrap.resample_rows(len(differences))].mean(axis=1)
    return found, bootstrap.one_sided_p(resampled)


def completion_stats(scores: list[SampleScore]) -> Overlaps:
    guided, general = (column(scores, names.overlap_key(name)) for name in (GUIDED, GENERAL))
    means = {GUIDED: bootstrap.mean_estimate(guided), GENERAL: bootstrap.mean_estimate(general)}
    return Overlaps(means, *paired_difference(guided, general))


@metric
def completion_figures() -> Metric:
    def compute(scores: list[SampleScore]) -> dict[str, float]:
        found = completion_stats(scores)
        means = {names.overlap_key(name): mean.value for name, mean in found.overlaps.items()}
        return {**means, **found.difference.named(names.DIFFERENCE), names.DIFFERENCE_P: found.p}

    return compute


def reproduced(scores: list[SampleScore]) -> dict[str, int]:
    """Counted per completion: a share of an item's epoch mean would round one epoch of two."""
    guided, general = (column(scores, names.verbatim_key(name)) for name in (GUIDED, GENERAL))
    counted = {
        names.COMPLETIONS: len(scores),
        names.SHORT: column(scores, names.SHORT).sum(),
        names.verbatim_key(GUIDED): guided.sum(),
        names.verbatim_key(GENERAL): general.sum(),
        names.verbatim_key(names.BOTH): (guided * general).sum(),
    }
    for name in (GUIDED, GENERAL):
        counted[names.refused_key(name)] = column(scores, names.refused_key(name)).sum()
    return {key: int(value) for key, value in counted.items()}


@metric(scores="unreduced")
def reproductions() -> Metric:
    def compute(scores: list[SampleScore]) -> dict[str, float]:
        return dict(reproduced(scores))

    return compute


@scorer(metrics=[completion_figures(), reproductions()])
def completion_overlap() -> Scorer:
    """Each instruction's overlap with the remainder, and guided minus general."""
    worker.started()

    @unless_errored
    async def score(state: TaskState, target: Target) -> Score:
        replies = state.store_as(Replies)
        value: dict[str, float] = {names.SHORT: int(len(words(target.text)) < VERBATIM_WORDS)}
        for name in (GUIDED, GENERAL):
            given = replies.completions[name], replies.stop_reasons[name]
            rouge_l, run, refused = await worker.run(overlap, target.text, *given)
            value |= {
                names.overlap_key(name): rouge_l,
                names.run_key(name): run,
                names.verbatim_key(name): int(run >= VERBATIM_WORDS),
                names.refused_key(name): int(refused),
            }
        difference = value[names.overlap_key(GUIDED)] - value[names.overlap_key(GENERAL)]
        return Score(value={names.DIFFERENCE: difference, **value})

    return score
