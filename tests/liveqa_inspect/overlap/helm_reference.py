"""The reference implementation the fast metrics are held to, and long answers to hold them on.

The oracle is the package's former implementation of HELM's metrics: rouge-score and nltk called
once per (reference, answer) pair, as HELM calls them. The parity tests and
`benchmarks/bench_speed.py` both use it, so the speed-up is measured against what is tested.
"""

from __future__ import annotations

import random
import re
import string
import warnings
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from nltk.metrics.scores import f_measure
from nltk.tokenize import word_tokenize
from nltk.translate.bleu_score import sentence_bleu
from rouge_score import rouge_scorer

_PUNCTUATION = frozenset(string.punctuation)
_ARTICLES = re.compile(r"\b(a|an|the)\b")


@cache
def _rouge() -> Any:
    return rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)


def _normalize(text: str) -> str:
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def _bleu(gold: str, pred: str, weights: tuple[float, ...]) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # nltk warns for each order with no match
        return float(
            sentence_bleu(
                [word_tokenize(gold, preserve_line=True)],
                word_tokenize(pred, preserve_line=True),
                weights=weights,
            )
        )


def _f1(gold: str, pred: str) -> float:
    result = f_measure(set(_normalize(gold).split()), set(_normalize(pred).split()))
    return 0.0 if result is None else float(result)


ORACLE: dict[str, Callable[[str, str], float]] = {
    "exact_match": lambda gold, pred: float(bool(pred) and gold.strip() == pred.strip()),
    "quasi_exact_match": lambda gold, pred: float(
        bool(pred) and _normalize(gold) == _normalize(pred)
    ),
    "f1_score": _f1,
    "rouge_l": lambda gold, pred: float(_rouge().score(gold, pred)["rougeL"].fmeasure),
    "bleu_1": lambda gold, pred: _bleu(gold, pred, (1, 0, 0, 0)),
    "bleu_4": lambda gold, pred: _bleu(gold, pred, (0, 0, 0, 1)),
}


def oracle_scores(answer: str, references: Sequence[str]) -> dict[str, float]:
    """Each metric's best over the references for the stripped answer, as the scorer reports."""
    pred = answer.strip()
    return {name: max(m(gold, pred) for gold in references) for name, m in ORACLE.items()}


def long_answer(words: Sequence[str], length: int, seed: int | str) -> str:
    """Text of `length` characters from real answers' words, with the punctuation, case, digits
    and line breaks that the tokenizers treat differently."""
    rng = random.Random(seed)
    separators = [" ", " ", " ", ", ", ". ", "; ", "\n", " - ", " (", ") ", "'s ", "\n\n"]
    parts: list[str] = []
    size = 0
    while size < length:
        word = rng.choice(words)
        word = word.upper() if rng.random() < 0.05 else word
        parts.append(word + rng.choice(separators))
        size += len(parts[-1])
    return "".join(parts)[:length]
