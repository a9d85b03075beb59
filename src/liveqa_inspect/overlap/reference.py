"""HELM's reference-overlap metrics as Inspect scorers: a LiveQA run beside HELM's numbers and,
on human-judged answers, the no-model floor a judge must beat. As crfm-helm's
`evaluate_reference_metrics.py`, each is the best over the references of `score(gold, pred)`,
`pred` the stripped completion (docs/scoring.md), computed in the worker of `overlap/worker.py`
once for each answer and its references, then read from the package's cache folder."""

import contextlib
import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState

from liveqa_inspect.data.sources import cache_dir
from liveqa_inspect.judging.errored import unless_errored
from liveqa_inspect.overlap import worker
from liveqa_inspect.stats.agreement import reference_spearman

METRIC_NAMES = ("exact_match", "quasi_exact_match", "f1_score", "rouge_l", "bleu_1", "bleu_4")
"""text_overlap.METRICS' keys (tested), spelled out here: that module loads nltk."""
_CODE = Path(__file__).with_name("text_overlap.py").read_bytes()
"""What the values depend on besides the texts (the libraries are pinned): a cache key's part."""


def _in_worker(answer: str, references: Sequence[str]) -> dict[str, float]:
    from liveqa_inspect.overlap.text_overlap import reference_scores  # imported at the start

    return reference_scores(answer, references)


async def _values(answer: str, references: list[str]) -> dict[str, float]:
    """Computed once for an answer and its references, then read from the package's cache: a
    team grades the same answers with each candidate judge, and no value depends on the judge."""
    key = hashlib.sha256(_CODE + json.dumps([answer, references]).encode()).hexdigest()
    path = cache_dir() / "overlap" / f"{key}.json"
    with contextlib.suppress(OSError, ValueError):  # not cached yet, or cut short by a crash
        return json.loads(path.read_bytes())
    values = await worker.run(_in_worker, answer, references)
    with contextlib.suppress(OSError):  # a cache that cannot be written only costs time
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    return values


def _reference_scorer() -> Scorer:
    """A new body for each scorer: Inspect tags the function a scorer returns with its name."""
    worker.started()

    @unless_errored
    async def score(state: TaskState, target: Target) -> Score:
        references = list(target.target)  # apart: Target.text would join them into one
        values = await _values(state.output.completion, references)
        figures = ", ".join(f"{name} {value:.3g}" for name, value in values.items())
        best = f"each the best of {len(references)} references"
        explanation = f"HELM's overlap of the answer with the references, {best}: {figures}."
        return Score(value=values, explanation=explanation)

    return score


@scorer(metrics={name: [mean(), stderr()] for name in METRIC_NAMES})
def reference_overlap() -> Scorer:
    """HELM's reference-overlap metrics of the completion against every reference answer."""
    return _reference_scorer()


@scorer(metrics=[reference_spearman()])
def reference_floor() -> Scorer:
    """The same metrics on human-judged answers, reported as their rho with the human grades."""
    return _reference_scorer()
