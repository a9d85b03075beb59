"""The corrected means: hand-computed values, the refusals of a judge that cannot be inverted, the
simplex constraint, seeding, and the prediction-powered mean against ppi-python."""

from __future__ import annotations

import math

import numpy as np
import pytest

from liveqa_inspect.stats.bootstrap import Estimate
from liveqa_inspect.stats.corrected import (
    NotIdentifiable,
    conditional,
    corrected_mean,
    human_only_mean,
    powered_rows,
    prediction_powered_mean,
    simplex_shares,
)

LEVELS = [0.0, 0.3, 0.7, 1.0]
NIST_COUNTS = (413, 72, 71, 25)


def pairs(counts: dict[tuple[float, float], int]) -> tuple[np.ndarray, np.ndarray]:
    """(judge, human) arrays holding each (judge, human) pair as often as counted."""
    judge = [j for (j, _), n in counts.items() for _ in range(n)]
    human = [h for (_, h), n in counts.items() for _ in range(n)]
    return np.array(judge), np.array(human)


# Two levels: human 0 judged 0 for 8 in 10, human 1 judged 1 for 7 in 10.
TWO = [0.0, 1.0]
CALIBRATION = pairs({(0.0, 0.0): 8, (1.0, 0.0): 2, (0.0, 1.0): 3, (1.0, 1.0): 7})


def test_two_levels_give_the_rogan_gladen_estimate() -> None:
    # Judged 1 for half the answers: p = (0.5 - 0.2) / (0.7 - 0.2) = 0.6 of them are 1.
    found = corrected_mean(*CALIBRATION, np.array([0.0, 1.0] * 10), TWO)
    assert isinstance(found, Estimate)
    assert found.value == pytest.approx(0.6)
    assert found.low < 0.6 < found.high and found.n == 20


def test_the_shares_are_a_distribution_where_the_inverse_is_not() -> None:
    # Judged 1 for 1 in 10: the inverse's share of 1 is (0.1 - 0.2) / 0.5 = -0.2; the closest
    # distribution is all 0.
    found = corrected_mean(*CALIBRATION, np.array([1.0] + [0.0] * 9), TWO)
    assert isinstance(found, Estimate) and found.value == pytest.approx(0.0)
    assert 0.0 <= found.low <= found.high <= 1.0  # clipped to the scale


def test_simplex_shares_are_the_inverse_inside_and_a_distribution_outside() -> None:
    confusion = conditional(np.array([[6.0, 3, 1, 0], [2, 5, 2, 1], [0, 2, 6, 2], [0, 1, 2, 7]]))
    inside = np.array([0.1, 0.2, 0.3, 0.4])
    assert simplex_shares(confusion, confusion @ inside) == pytest.approx(inside)
    rng = np.random.default_rng(0)
    for shares in rng.dirichlet(np.ones(4) * 0.3, size=20):
        found = simplex_shares(confusion, shares)
        assert found.min() >= 0 and found.sum() == pytest.approx(1.0)
        inverse = np.linalg.solve(confusion, shares)
        if inverse.min() >= 0:
            assert found == pytest.approx(inverse)


def test_a_perfect_judge_is_corrected_to_its_own_mean() -> None:
    human = np.repeat(LEVELS, NIST_COUNTS)
    graded = np.array([0.3, 0.7, 0.7, 1.0, 1.0, 1.0, 0.7, 0.0])
    found = corrected_mean(human, human, graded, LEVELS)
    assert isinstance(found, Estimate) and found.value == pytest.approx(graded.mean())


def test_the_same_inputs_give_the_same_interval() -> None:
    graded = np.array([0.0, 1.0, 1.0, 0.0, 1.0] * 4)
    assert corrected_mean(*CALIBRATION, graded, TWO) == corrected_mean(*CALIBRATION, graded, TWO)
    judge, human = np.array([0.7, 1.0, 0.3] * 5), np.array([0.7, 0.7, 0.3] * 5)
    others = np.array([1.0, 0.7] * 20)
    assert prediction_powered_mean(others, judge, human) == prediction_powered_mean(
        others, judge, human
    )


def test_smollm2s_calibration_is_not_identifiable() -> None:
    """SmolLM2-135M gave 0.7 to every one of the 581 NIST answers (docs/local-models.md)."""
    human = np.repeat(LEVELS, NIST_COUNTS)
    found = corrected_mean(np.full(581, 0.7), human, np.full(104, 0.7), LEVELS)
    assert isinstance(found, NotIdentifiable)
    assert str(found) == (
        "not identifiable: the judge gave 0.7 to all 581 calibration answers: its verdict says "
        "nothing of their human level"
    )


def test_a_judge_that_barely_tells_levels_apart_is_not_identifiable() -> None:
    # 0.7 for every answer but one a level, which it grades right: the matrix is near singular.
    human = np.repeat(LEVELS, NIST_COUNTS)
    judge = np.full(581, 0.7)
    judge[np.cumsum((0,) + NIST_COUNTS[:-1])] = LEVELS
    found = corrected_mean(judge, human, np.full(10, 0.7), LEVELS)
    assert isinstance(found, NotIdentifiable)
    assert str(found).startswith("not identifiable: the judge's verdicts barely tell the human")
    assert "is 0.002, under 0.05" in str(found)


def test_a_level_without_calibration_answers_is_not_identifiable() -> None:
    found = corrected_mean(np.array([0.0, 0.3, 0.7]), np.array([0.0, 0.3, 0.7]), [1.0], LEVELS)
    assert str(found) == (
        "not identifiable: no calibration answer has the human level 1, so how the judge grades "
        "such answers is unknown"
    )


def test_no_graded_answers_is_no_figure() -> None:
    found = corrected_mean(*CALIBRATION, np.array([]), TWO)
    assert isinstance(found, Estimate) and math.isnan(found.value)


# Recorded once with ppi-python 0.2.3 (`ppi_py.ppi_mean_pointestimate` and `ppi_mean_ci`,
# alpha=0.05), installed beside the package, not in it: it pulls numba, statsmodels, pandas,
# scikit-learn and gdown, for two formulas.
HAND_HUMAN = np.array([1, 0.7, 0.7, 1, 0.3, 0.7, 1, 0, 0.7, 1, 0.7, 0.3])
HAND_JUDGE = np.array([1, 1, 0.7, 1, 0.7, 0.7, 1, 0.3, 1, 1, 0.7, 0.7])
OTHERS = np.array([1, 1, 0.7, 0.7, 1, 0.3, 1, 1, 0.7, 0, 1, 0.7, 1, 1, 0.7, 0.3, 1, 0.7, 1, 1])
PPI = (0.66166858, (0.51843033, 0.80490683))


def counts_of(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    distinct, counts = np.unique(values, axis=0, return_counts=True)
    return distinct, counts[None, :].astype(float)


def test_the_prediction_powered_mean_and_its_error_are_ppi_pythons() -> None:
    value, (low, high) = PPI
    judged, weights = counts_of(np.column_stack([HAND_JUDGE, HAND_HUMAN]))
    others, others_weights = counts_of(OTHERS)
    means, errors = powered_rows(judged, weights, others, others_weights)
    assert means[0] == pytest.approx(value, abs=1e-8)
    assert errors[0] == pytest.approx((high - low) / 2 / 1.959963984540054, abs=1e-8)
    found = prediction_powered_mean(OTHERS, HAND_JUDGE, HAND_HUMAN)
    assert found.value == pytest.approx(value, abs=1e-8) and found.n == 12
    # The studentized interval is not ppi-python's normal one, and wider at n = 12.
    assert found.low < low and found.high > value


def test_the_human_only_mean_is_the_hand_grades_mean() -> None:
    found = human_only_mean(HAND_HUMAN)
    assert found.value == pytest.approx(HAND_HUMAN.mean()) and found.n == 12
    assert found.low < HAND_HUMAN.mean() < found.high
    # Every answer graded by hand: nothing left for the judge to add.
    everyone = prediction_powered_mean(np.array([]), HAND_JUDGE, HAND_HUMAN)
    assert everyone.value == pytest.approx(found.value)


def test_a_judge_that_agrees_with_the_humans_narrows_the_interval() -> None:
    rng = np.random.default_rng(1)
    human = rng.choice(LEVELS, size=200, p=[0.1, 0.2, 0.3, 0.4])
    judge = human.copy()
    judge[rng.random(200) < 0.1] = 0.7  # right for about nine answers in ten
    found = prediction_powered_mean(judge[30:], judge[:30], human[:30])
    alone = human_only_mean(human[:30])
    assert found.high - found.low < 0.8 * (alone.high - alone.low)
    assert found.low < human.mean() < found.high
