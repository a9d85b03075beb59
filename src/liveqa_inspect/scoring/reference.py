"""HELM's reference-overlap metrics for open-ended generation, as an Inspect scorer.

These let a LiveQA run be compared with HELM's numbers for the same task, next to the judge
score. Every definition follows crfm-helm's
``src/helm/benchmark/metrics/evaluate_reference_metrics.py`` (the functions ``normalize_text``,
``exact_match``, ``quasi_exact_match``, ``f1_score``, ``rouge_score``/``get_rouge_function``,
``bleu_1`` and ``bleu_4``), and ``compute_reference_metrics`` in the same file, which takes each
metric as the max over the gold references of ``score(gold, pred)`` with ``pred`` the stripped
completion. The metric names are the keys of its ``metric_fn_mapping``.

- ``exact_match``: 1 iff ``gold.strip() == pred.strip()``; case and punctuation count.
- ``quasi_exact_match``: 1 iff both are equal after ``normalize_text`` (QuAC's normalizer:
  lowercase, drop ASCII punctuation, drop the articles a/an/the, collapse whitespace).
- ``f1_score``: nltk's ``f_measure`` over the *sets* of normalized words. Unusual: unlike
  SQuAD's token F1, repeated words count once (``"cat cat"`` vs ``"cat"`` scores 1.0).
- ``rouge_l``: ``rouge_score`` ``RougeScorer(["rougeL"], use_stemmer=True)`` F-measure
  (its own tokenizer: lowercase, alphanumeric runs, Porter stems); sentence-level LCS, not
  the summary-level ``rougeLsum``.
- ``bleu_1`` / ``bleu_4``: nltk ``sentence_bleu`` with weights ``(1, 0, 0, 0)`` and
  ``(0, 0, 0, 1)``, with no smoothing (nltk's default ``method0``). Unusual: ``bleu_4`` is the
  4-gram precision alone (times the brevity penalty), not the geometric mean of 1- to 4-gram
  precisions usually called BLEU-4; with no 4-gram in common nltk returns a value of about
  1e-308 rather than exactly 0, as HELM does. Both are case-sensitive, on unnormalized text.

One difference from HELM, forced by running offline: HELM tokenizes for BLEU with nltk's
``word_tokenize``, which first splits sentences with the Punkt model, a data file nltk downloads
at run time. Here the same Treebank word tokenizer runs on the whole text
(``word_tokenize(text, preserve_line=True)``, no download), so a period that ends a sentence
*inside* the text stays on its word (``"sat."``) where HELM splits it off; tokens are otherwise
the same. BLEU on multi-sentence answers can therefore differ slightly from HELM's.

An empty answer scores 0 on every metric, as in HELM (its exact-match functions return 0 for an
empty prediction and the overlap metrics have nothing to overlap).

The values are computed by ``scoring/text_overlap.py``, the same floats as rouge-score and nltk
give at a tenth of the time or less, in the worker process of ``scoring/worker.py``.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState

from liveqa_inspect.metrics.agreement import reference_spearman
from liveqa_inspect.scoring import worker

METRIC_NAMES = ("exact_match", "quasi_exact_match", "f1_score", "rouge_l", "bleu_1", "bleu_4")
"""HELM's names for the metrics, in the order the scorer reports them: the keys of
text_overlap.METRICS, spelled out here because that module loads nltk (a test keeps them equal)."""


def _in_worker(answer: str, references: Sequence[str]) -> dict[str, float]:
    """text_overlap's scores, called in the worker process, which imported it when it started."""
    from liveqa_inspect.scoring.text_overlap import reference_scores

    return reference_scores(answer, references)


async def _reference_score(state: TaskState, target: Target) -> Score:
    # target.target keeps the references apart; Target.text would join them into one.
    completion = state.output.completion
    references = list(target.target)
    values = await worker.run(_in_worker, completion, references)
    figures = ", ".join(f"{name} {value:.3g}" for name, value in values.items())
    return Score(
        value=values,
        answer=completion,
        explanation=(
            f"HELM's overlap of the answer with the references, each the best of "
            f"{len(references)} references: {figures}."
        ),
    )


@scorer(metrics={name: [mean(), stderr()] for name in METRIC_NAMES})
def reference_overlap() -> Scorer:
    """HELM's reference-overlap metrics of the completion against every reference answer."""
    worker.started()

    async def score(state: TaskState, target: Target) -> Score:
        return await _reference_score(state, target)

    return score


@scorer(metrics=[reference_spearman()])
def reference_floor() -> Scorer:
    """The same metrics on human-judged answers, reported as their rho with the human grades."""
    worker.started()

    async def score(state: TaskState, target: Target) -> Score:
        return await _reference_score(state, target)

    return score
