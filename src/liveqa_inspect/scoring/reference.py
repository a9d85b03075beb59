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
"""

from __future__ import annotations

import re
import string
import warnings
from functools import cache
from typing import Any

from inspect_ai.scorer import Score, Scorer, Target, mean, scorer, stderr
from inspect_ai.solver import TaskState

from liveqa_inspect.metrics.agreement import reference_spearman

_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


@cache
def _rouge_l_scorer() -> Any:
    """Built once, on first use: the scorer holds a stemmer, and HELM also builds it once.

    nltk and rouge-score load here and not at import: every `inspect` command imports this
    package through its entry point, and they would cost a second of start-up to each.
    """
    from rouge_score import rouge_scorer

    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)


def normalize_text(text: str) -> str:
    """HELM's (QuAC's) normalizer: lowercase, no punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def exact_match(gold: str, pred: str) -> float:
    """1.0 iff the stripped texts are identical."""
    if not pred:
        return 0.0
    return float(gold.strip() == pred.strip())


def quasi_exact_match(gold: str, pred: str) -> float:
    """1.0 iff the texts are identical after `normalize_text`."""
    if not pred:
        return 0.0
    return float(normalize_text(gold) == normalize_text(pred))


def f1_score(gold: str, pred: str) -> float:
    """F1 of the sets of normalized words (HELM's definition: duplicates count once)."""
    from nltk.metrics.scores import f_measure

    result = f_measure(set(normalize_text(gold).split()), set(normalize_text(pred).split()))
    # nltk returns None when either set is empty (precision or recall is 0/0).
    return 0.0 if result is None else float(result)


def rouge_l(gold: str, pred: str) -> float:
    """ROUGE-L F-measure with Porter stemming, as rouge_score computes it."""
    return float(_rouge_l_scorer().score(gold, pred)["rougeL"].fmeasure)


def _bleu(gold: str, pred: str, weights: tuple[float, float, float, float]) -> float:
    """Unsmoothed nltk sentence BLEU against one reference, on Treebank word tokens."""
    from nltk.tokenize import word_tokenize
    from nltk.translate.bleu_score import sentence_bleu

    with warnings.catch_warnings():
        # nltk warns for every n-gram order with no overlap, even those weighted 0; on free-text
        # answers that is nearly every sample, and the value it returns is already HELM's.
        warnings.simplefilter("ignore", UserWarning)
        return float(
            sentence_bleu(
                [word_tokenize(gold, preserve_line=True)],
                word_tokenize(pred, preserve_line=True),
                weights=weights,
            )
        )


def bleu_1(gold: str, pred: str) -> float:
    """Unigram precision times the brevity penalty."""
    return _bleu(gold, pred, (1, 0, 0, 0))


def bleu_4(gold: str, pred: str) -> float:
    """4-gram precision alone times the brevity penalty (HELM's weights (0, 0, 0, 1))."""
    return _bleu(gold, pred, (0, 0, 0, 1))


_METRICS = {
    "exact_match": exact_match,
    "quasi_exact_match": quasi_exact_match,
    "f1_score": f1_score,
    "rouge_l": rouge_l,
    "bleu_1": bleu_1,
    "bleu_4": bleu_4,
}
# HELM's names for the metrics, in the order the scorer reports them.
METRIC_NAMES = tuple(_METRICS)


def reference_scores(answer: str, references: list[str]) -> dict[str, float]:
    """Each metric's best score over `references`, for the stripped `answer` (HELM's score_1)."""
    if not references:
        raise ValueError("reference metrics need at least one reference")
    pred = answer.strip()
    return {
        name: max(metric(gold, pred) for gold in references) for name, metric in _METRICS.items()
    }


def _reference_score(state: TaskState, target: Target) -> Score:
    # target.target keeps the references apart; Target.text would join them into one.
    completion = state.output.completion
    references = list(target.target)
    values = reference_scores(completion, references)
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

    async def score(state: TaskState, target: Target) -> Score:
        return _reference_score(state, target)

    return score


@scorer(metrics=[reference_spearman()])
def reference_floor() -> Scorer:
    """The same metrics on human-judged answers, reported as their rho with the human grades."""

    async def score(state: TaskState, target: Target) -> Score:
        return _reference_score(state, target)

    return score
