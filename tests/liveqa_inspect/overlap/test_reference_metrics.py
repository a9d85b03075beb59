"""HELM's reference metrics on cases whose values are worked out by hand in the comments."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import get_model
from inspect_ai.solver import generate

from liveqa_inspect.overlap.reference import METRIC_NAMES, _values, reference_overlap
from liveqa_inspect.overlap.text_overlap import (
    bleu_1,
    bleu_4,
    exact_match,
    f1_score,
    normalize_text,
    quasi_exact_match,
    reference_scores,
    rouge_l,
)
from tests.helpers import QUIET, output


def test_normalize_text_drops_case_punctuation_articles_and_extra_spaces() -> None:
    assert normalize_text("  The Cat, an  apple!\n") == "cat apple"


def test_exact_match_ignores_only_surrounding_whitespace() -> None:
    assert exact_match("Paris", " Paris \n") == 1.0
    assert exact_match("Paris", "paris") == 0.0
    assert exact_match("Paris", "") == 0.0


def test_quasi_exact_match_compares_normalized_text() -> None:
    # "The Paris!" -> "paris"; "paris" -> "paris".
    assert quasi_exact_match("paris", "The Paris!") == 1.0
    assert quasi_exact_match("paris", "london") == 0.0
    assert quasi_exact_match("paris", "") == 0.0


def test_f1_is_over_word_sets() -> None:
    # pred {cat, sat} (article dropped), gold {cat, sat, down}:
    # precision 2/2, recall 2/3, F1 = 2 * 1 * (2/3) / (1 + 2/3) = 0.8.
    assert f1_score("cat sat down", "the cat sat") == pytest.approx(0.8)
    # Sets, not bags: "cat cat sat" is {cat, sat}, the gold's set, so F1 1.0
    # (SQuAD's bag-of-tokens F1 would give precision 2/3, F1 0.8).
    assert f1_score("cat sat", "cat cat sat") == pytest.approx(1.0)
    # Nothing left after normalizing: nltk's f_measure gives None, HELM scores 0.
    assert f1_score("cat", "the") == 0.0


def test_rouge_l_is_lcs_f_measure_with_stemming() -> None:
    # gold 6 tokens, pred 5 tokens, LCS "the cat on the mat" = 5:
    # precision 5/5, recall 5/6, F = 2 * (5/6) / (1 + 5/6) = 10/11.
    assert rouge_l("the cat sat on the mat", "the cat on the mat") == pytest.approx(10 / 11)
    # Porter stems: cats -> cat, running/runs -> run, so the token lists match.
    assert rouge_l("cats running", "cat runs") == pytest.approx(1.0)


def test_bleu_1_is_unigram_precision_times_brevity_penalty() -> None:
    # pred [cat, sat]: both in gold, precision 1; hyp 2 < ref 3 tokens: BP = exp(1 - 3/2).
    assert bleu_1("cat sat down", "cat sat") == pytest.approx(math.exp(-0.5))


def test_bleu_4_is_four_gram_precision_alone() -> None:
    # 5 tokens each, BP 1. Pred 4-grams: (the cat sat on) matches, (cat sat on rugs) does not:
    # 4-gram precision 1/2. BLEU-1 is 4/5 unigrams.
    gold, pred = "the cat sat on mats", "the cat sat on rugs"
    assert bleu_4(gold, pred) == pytest.approx(0.5)
    assert bleu_1(gold, pred) == pytest.approx(0.8)
    # Fewer than 4 tokens: no 4-gram, and unsmoothed nltk (like HELM) gives ~1e-308, not 0.
    assert 0.0 <= bleu_4("cat sat", "cat sat") < 1e-300


def test_bleu_tokenizes_multi_sentence_text_without_nltk_downloads() -> None:
    # Tokens [It, hurts., See, a, doctor, .] on both sides: every n-gram matches.
    text = "It hurts. See a doctor."
    assert bleu_1(text, text) == pytest.approx(1.0)
    assert bleu_4(text, text) == pytest.approx(1.0)


def test_reference_scores_takes_the_best_reference_for_each_metric() -> None:
    references = ["dog ran away quickly", "the cat sat on the mat"]
    answer = " The cat sat on the mat. "
    # Against the 2nd reference (the 1st shares no word):
    # exact: "The cat sat on the mat." != "the cat sat on the mat" -> 0.
    # quasi / F1 / ROUGE-L: identical after normalizing or rouge's tokenizer -> 1.
    # BLEU tokens: pred [The, cat, sat, on, the, mat, .] (7), gold [the, cat, sat, on, the, mat]:
    # case-sensitive clipped unigram matches cat, sat, on, the, mat = 5/7, BP 1 (pred longer).
    # Pred 4-grams: (The cat sat on) no, (cat sat on the) yes, (sat on the mat) yes,
    # (on the mat .) no -> 2/4.
    expected = {
        "exact_match": 0.0,
        "quasi_exact_match": 1.0,
        "f1_score": 1.0,
        "rouge_l": 1.0,
        "bleu_1": 5 / 7,
        "bleu_4": 0.5,
    }
    assert reference_scores(answer, references) == pytest.approx(expected)
    assert reference_scores(answer, references[::-1]) == pytest.approx(expected)


@pytest.mark.parametrize("answer", ["", "  \n"])
def test_empty_answer_scores_zero_everywhere(answer: str) -> None:
    assert reference_scores(answer, ["the cat sat on the mat"]) == dict.fromkeys(METRIC_NAMES, 0.0)


def test_reference_scores_needs_a_reference() -> None:
    with pytest.raises(ValueError, match="at least one reference"):
        reference_scores("an answer", [])


def test_scorer_reports_each_metric_mean_through_inspect_eval(tmp_path: Path) -> None:
    dataset = MemoryDataset(
        [
            # The answer is the 2nd reference exactly (6 tokens): 1.0 on every metric.
            Sample(input="q1", target=["a dog", "the cat sat on the mat"]),
            # "the cat sat" vs "cat sat down": exact 0, quasi 0, F1 0.8 (see above);
            # ROUGE-L LCS "cat sat": P = R = 2/3; BLEU-1 2/3 (same length, BP 1);
            # BLEU-4 no 4-gram: ~0.
            Sample(input="q2", target=["cat sat down"]),
        ]
    )
    model = get_model(
        "mockllm/model",
        custom_outputs=[output("the cat sat on the mat"), output("the cat sat")],
    )
    task = Task(dataset=dataset, solver=generate(), scorer=reference_overlap())
    # One sample at a time, so the scripted outputs meet the samples in order.
    [log] = eval(task, model=model, max_samples=1, log_dir=str(tmp_path), **QUIET)

    assert log.status == "success", log.error
    assert log.results is not None
    reported = {
        score.name: {name: metric.value for name, metric in score.metrics.items()}
        for score in log.results.scores
    }
    expected_means = {
        "exact_match": 0.5,
        "quasi_exact_match": 0.5,
        "f1_score": 0.9,
        "rouge_l": 5 / 6,
        "bleu_1": 5 / 6,
        "bleu_4": 0.5,
    }
    assert set(reported) == set(METRIC_NAMES)
    for name, mean in expected_means.items():
        assert reported[name]["mean"] == pytest.approx(mean), name
        assert "stderr" in reported[name], name
    # Two values 1 and 0: sample std sqrt(1/2), stderr sqrt(1/2) / sqrt(2) = 0.5.
    assert reported["exact_match"]["stderr"] == pytest.approx(0.5)


def test_values_are_computed_once_for_an_answer_and_its_references(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each candidate judge's run over the same answers reads them from the package's cache."""
    monkeypatch.setenv("LIVEQA_INSPECT_CACHE_DIR", str(tmp_path))
    first = asyncio.run(_values("the cat sat", ["cat sat down"]))
    assert first["f1_score"] == pytest.approx(0.8)
    [cached] = (tmp_path / "overlap").iterdir()
    cached.write_text(json.dumps({**first, "f1_score": 0.25}))
    assert asyncio.run(_values("the cat sat", ["cat sat down"]))["f1_score"] == 0.25
    assert asyncio.run(_values("the cat sat", ["cat sat"]))["f1_score"] == 1.0
    cached.write_text('{"f1_sc')  # cut short by a crash: computed again
    assert asyncio.run(_values("the cat sat", ["cat sat down"])) == first
