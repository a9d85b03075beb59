"""HELM's reference-overlap metrics, with exactly the values rouge-score and nltk give (tested).

Those libraries redo work on every call: rouge-score fills a pure-Python LCS table and stems every
word again, nltk tokenizes each text again for each BLEU order. Here each text is tokenized and
each word stemmed once, by the libraries' own tokenizers, the LCS is rapidfuzz's bit-parallel
`LCSseq` over token ids, and BLEU counts only the orders HELM weighs. What follows the counting is
the libraries' own arithmetic, so each value is the same float. nltk loads with this module: the
scorers run it in the worker process of `overlap/worker.py`."""

import math
import re
import string
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from types import SimpleNamespace
from typing import Self

from nltk.metrics.scores import f_measure
from nltk.stem.porter import PorterStemmer
from nltk.tokenize import word_tokenize
from nltk.translate.bleu_score import brevity_penalty
from rapidfuzz.distance import LCSseq
from rouge_score.scoring import fmeasure
from rouge_score.tokenize import tokenize

_TEXTS = 1024
"""Texts kept in each cache: every reference of live_qa's questions and the answers in flight."""

_STEMMER = SimpleNamespace(stem=lru_cache(maxsize=1 << 16)(PorterStemmer().stem))
"""rouge-score's stemmer (NLTK_EXTENSIONS), each word stemmed once."""
_DROP_PUNCTUATION = str.maketrans("", "", string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_BLEU_ORDERS = (1, 4)


@lru_cache(maxsize=_TEXTS)
def normalize_text(text: str) -> str:
    """HELM's (QuAC's) normalizer: lowercase, no punctuation, no articles, single spaces."""
    return " ".join(_ARTICLES.sub(" ", text.lower().translate(_DROP_PUNCTUATION)).split())


@lru_cache(maxsize=_TEXTS)
def rouge_tokens(text: str) -> tuple[str, ...]:
    """rouge-score's tokens: lowercase alphanumeric runs, those over 3 characters stemmed."""
    return tuple(tokenize(text, _STEMMER))


@lru_cache(maxsize=_TEXTS)
def _rouge_reference(text: str) -> tuple[dict[str, int], list[int]]:
    """A reference's ROUGE tokens as ids, and the id of each distinct token."""
    vocabulary: dict[str, int] = {}
    return vocabulary, [vocabulary.setdefault(t, len(vocabulary)) for t in rouge_tokens(text)]


class _Ngrams:
    """A text's Treebank unigrams and 4-grams (HELM's BLEU orders), as nltk counts them."""

    __slots__ = ("counts", "length")

    def __init__(self, tokens: Sequence[str]) -> None:
        self.length = len(tokens)
        # The n-grams are the n shifted copies zipped, the shortest setting the count.
        self.counts = {
            n: Counter(zip(*(tokens[i:] for i in range(n)), strict=False)) for n in _BLEU_ORDERS
        }

    def precision(self, reference: Self, order: int) -> tuple[int, int]:
        """(clipped matches, n-grams) of one order against one reference; at least 1 n-gram."""
        matches = sum((self.counts[order] & reference.counts[order]).values())  # the least of each
        return matches, max(1, self.length - order + 1)


@lru_cache(maxsize=_TEXTS)
def _ngrams(text: str) -> _Ngrams:
    return _Ngrams(word_tokenize(text, preserve_line=True))


def _bleu(gold: str, pred: str, order: int) -> float:
    """nltk's unsmoothed `sentence_bleu([gold tokens], pred tokens, weights)` with HELM's weights,
    all on `order`. nltk adds `w * log(p)` over four orders with `math.fsum`; the orders weighted
    0 add exact zeros, so only `order`'s term is computed, and the rest is nltk's arithmetic."""
    reference, hypothesis = _ngrams(gold), _ngrams(pred)
    unigrams = hypothesis.precision(reference, 1)
    if unigrams[0] == 0:  # nltk returns 0 when no unigram matches
        return 0.0
    matches, total = unigrams if order == 1 else hypothesis.precision(reference, order)
    # nltk's method0: an order with no match counts as the smallest float, not as 0.
    p = matches / total if matches else sys.float_info.min
    return float(brevity_penalty(reference.length, hypothesis.length) * math.exp(math.log(p)))


def exact_match(gold: str, pred: str) -> float:
    return float(bool(pred) and gold.strip() == pred.strip())


def quasi_exact_match(gold: str, pred: str) -> float:
    return float(bool(pred) and normalize_text(gold) == normalize_text(pred))


def f1_score(gold: str, pred: str) -> float:
    """nltk's `f_measure` of the sets of normalized words (HELM's: duplicates count once), 0
    where nltk's is None (either set empty)."""
    return float(f_measure(*(frozenset(normalize_text(t).split()) for t in (gold, pred))) or 0.0)


def rouge_l(gold: str, pred: str) -> float:
    """ROUGE-L F-measure with Porter stemming, as rouge-score's `RougeScorer(["rougeL"],
    use_stemmer=True)` computes it (`_score_lcs`). Tokens absent from the reference cannot be in a
    common subsequence, so they are left out of the LCS but still count in the precision."""
    (vocabulary, ids), tokens = _rouge_reference(gold), rouge_tokens(pred)
    if not ids or not tokens:
        return 0.0
    common = LCSseq.similarity(ids, [vocabulary[t] for t in tokens if t in vocabulary])
    return float(fmeasure(common / len(tokens), common / len(ids)))


def bleu_1(gold: str, pred: str) -> float:
    return _bleu(gold, pred, 1)


def bleu_4(gold: str, pred: str) -> float:
    return _bleu(gold, pred, 4)


METRICS: dict[str, Callable[[str, str], float]] = {
    metric.__name__: metric
    for metric in (exact_match, quasi_exact_match, f1_score, rouge_l, bleu_1, bleu_4)
}
"""HELM's names for the metrics, in the order the scorer reports them."""


def reference_scores(answer: str, references: Sequence[str]) -> dict[str, float]:
    """Each metric's best score over `references`, for the stripped `answer` (HELM's score_1)."""
    if not references:
        raise ValueError("reference metrics need at least one reference")
    pred = answer.strip()
    return {
        name: max(metric(gold, pred) for gold in references) for name, metric in METRICS.items()
    }
