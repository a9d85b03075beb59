"""Agreement metrics of a judge with human levels, run through the real epoch reducer."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pytest_inspect_evals.metrics import assert_agreeing_epochs_change_nothing, run_metrics
from scipy.stats import spearmanr
from sklearn.metrics import cohen_kappa_score

from liveqa_inspect.judging.prompts import LIVEQA_SCALE
from liveqa_inspect.stats.agreement import (
    Pairs,
    agreement,
    confusion,
    quadratic_kappa,
    rank_correlation,
    reference_spearman,
)
from liveqa_inspect.stats.bootstrap import mean_interval, tallied_estimates
from tests.helpers import human_metadata

pytestmark = pytest.mark.usefixtures("words_as_tokens")  # for pytest_inspect_evals

LEVELS = list(LIVEQA_SCALE.levels)

HUMAN = [1.0, 0.7, 0.3, 0.0, 0.0, 0.3, 0.7, 1.0]


def test_agreement_reads_reduced_scores() -> None:
    judge = [0.7, 0.7, 0.3, 0.0, 0.3, 0.3, 1.0, 1.0]
    assert_agreeing_epochs_change_nothing(
        [agreement(LEVELS), confusion(LEVELS)], judge, metadata=human_metadata(HUMAN)
    )


def test_perfect_judge() -> None:
    values = run_metrics(
        [agreement(LEVELS), confusion(LEVELS)], [[h] for h in HUMAN], metadata=human_metadata(HUMAN)
    )
    assert values["exact_agreement"] == 1.0
    assert values["kappa_quadratic"] == pytest.approx(1.0)
    assert values["spearman_rho"] == pytest.approx(1.0)
    assert values["mae"] == 0.0 and values["bias"] == 0.0
    assert values["human_1/judge_1"] == 2 and values["human_1/judge_0"] == 0


def test_hand_checked_off_by_one_judge() -> None:
    # Each judge level one step above the human's (1 stays 1 -> one step below: 0.7).
    judge = [0.7, 1.0, 0.7, 0.3, 0.3, 0.7, 1.0, 0.7]
    values = run_metrics(
        [agreement(LEVELS), confusion(LEVELS)], [[j] for j in judge], metadata=human_metadata(HUMAN)
    )
    assert values["exact_agreement"] == 0.0
    assert values["within_one"] == 1.0
    diffs = np.array(judge) - np.array(HUMAN)
    assert values["mae"] == pytest.approx(np.abs(diffs).mean())
    assert values["bias"] == pytest.approx(diffs.mean())
    assert values["human_0/judge_0.3"] == 2
    # Every resample of a judge that is never exact gives 0: the interval is exactly [0, 0].
    assert values["exact_agreement_ci_low"] == values["exact_agreement_ci_high"] == 0.0
    assert values["within_one_ci_low"] == values["within_one_ci_high"] == 1.0


def test_constant_judge_kappa_is_zero() -> None:
    values = run_metrics(
        [agreement(LEVELS)], [[0.3] for _ in HUMAN], metadata=human_metadata(HUMAN)
    )
    assert values["kappa_quadratic"] == pytest.approx(0.0)
    assert math.isnan(values["spearman_rho"])


def test_counted_resamples_are_the_bootstrap_of_the_items() -> None:
    """Drawing how often each distinct value occurs is drawing the items with replacement: a
    mean's interval is the index bootstrap's (scipy's) to within Monte Carlo error."""
    values = np.random.default_rng(7).choice(LEVELS, size=200)

    def mean(v: np.ndarray, weights: np.ndarray) -> dict[str, np.ndarray]:
        return {"mean": (weights * v).sum(axis=1) / weights.sum(axis=1)}

    counted = tallied_estimates(mean, values)["mean"]
    assert (counted.value, counted.n) == (pytest.approx(values.mean()), 200)
    assert (counted.low, counted.high) == pytest.approx(mean_interval(values), abs=0.005)


def test_kappa_of_one_category_is_undefined() -> None:
    pairs = Pairs(np.array([1.0, 0.7]), np.array([1.0, 0.7]), LEVELS)
    assert math.isnan(quadratic_kappa(pairs, np.array([[2.0, 0.0]]))[0])


def test_reference_spearman_is_the_rank_correlation_per_metric() -> None:
    rouge = [0.9, 0.6, 0.4, 0.1, 0.2, 0.3, 0.5, 0.8]
    scores = [[{"rouge_l": r, "bleu_1": 0.5}] for r in rouge]
    values = run_metrics([reference_spearman()], scores, metadata=human_metadata(HUMAN))
    assert values["rouge_l_spearman_rho"] > 0.9
    assert math.isnan(values["bleu_1_spearman_rho"])


@pytest.mark.parametrize("n", [3, 12, 581])
def test_vectorised_kappa_and_rho_are_sklearns_and_scipys_on_random_data(n: int) -> None:
    """Every resample row of the fast path against the libraries it replaces, row by row:
    random levels, a bias towards agreement, and rows drawn with repeats as the bootstrap does,
    each weighing an item by how many times the row draws it."""
    rng = np.random.default_rng(n)
    human = rng.choice(LEVELS, size=n)
    judge = np.where(rng.random(n) < 0.5, human, rng.choice(LEVELS, size=n))
    rows = rng.integers(0, n, size=(60, n))
    weights = np.array([np.bincount(row, minlength=n) for row in rows], dtype=float)
    pairs = Pairs(judge, human, LEVELS)
    kappas, rhos = quadratic_kappa(pairs, weights), rank_correlation(*pairs.codes, weights)
    for row, kappa, rho in zip(rows, kappas, rhos, strict=True):
        j, h = judge[row], human[row]
        if len(set(j) | set(h)) > 1:
            index = {level: k for k, level in enumerate(LEVELS)}
            expected = cohen_kappa_score(
                [index[v] for v in h],
                [index[v] for v in j],
                weights="quadratic",
                labels=list(range(len(LEVELS))),
            )
            assert kappa == pytest.approx(expected, abs=1e-12)
        else:
            assert math.isnan(kappa)
        if len(set(j)) > 1 and len(set(h)) > 1:
            assert rho == pytest.approx(spearmanr(j, h).statistic, abs=1e-12)
        else:
            assert math.isnan(rho)
