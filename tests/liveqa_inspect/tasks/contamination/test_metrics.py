"""The contamination probe's metrics, run as an eval runs them (through the reducer)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pytest_inspect_evals.metrics import assert_agreeing_epochs_change_nothing, run_metrics
from scipy.stats import bootstrap

from liveqa_inspect.stats import bootstrap as one_bootstrap
from liveqa_inspect.stats.names import DIFFERENCE, ci_keys
from liveqa_inspect.tasks.contamination.scorer import (
    completion_figures,
    paired_difference,
    reproductions,
)

pytestmark = pytest.mark.usefixtures("words_as_tokens")  # for pytest_inspect_evals

LOW, HIGH = ci_keys(DIFFERENCE)


def item(
    guided: float,
    general: float,
    *,
    verbatim: tuple[int, int] = (0, 0),
    refused: tuple[int, int] = (0, 0),
    short: int = 0,
) -> dict[str, float]:
    """A score's value as the scorer writes it (the runs enter no metric)."""
    return {
        DIFFERENCE: guided - general,
        "short": short,
        "guided_rouge_l": guided,
        "guided_run": 0,
        "guided_verbatim": verbatim[0],
        "guided_refused": refused[0],
        "general_rouge_l": general,
        "general_run": 0,
        "general_verbatim": verbatim[1],
        "general_refused": refused[1],
    }


ITEMS = [
    item(1.0, 0.2, verbatim=(1, 0)),
    item(0.9, 0.1, verbatim=(1, 1)),
    item(0.0, 0.3, refused=(1, 0), short=1),
    item(0.5, 0.0, refused=(0, 1)),
]
COUNTS = {
    "completions": 4,
    "short": 1,
    "guided_verbatim": 2,
    "general_verbatim": 1,
    "both_verbatim": 1,
    "guided_refused": 1,
    "general_refused": 1,
}


def test_the_figures() -> None:
    values = run_metrics([completion_figures(), reproductions()], [[v] for v in ITEMS])
    assert values["guided_rouge_l"] == pytest.approx(2.4 / 4)
    assert values["general_rouge_l"] == pytest.approx(0.6 / 4)
    assert values[DIFFERENCE] == pytest.approx(1.8 / 4)
    assert values[LOW] < values[DIFFERENCE] < values[HIGH]
    assert {key: values[key] for key in COUNTS} == COUNTS


def test_agreeing_epochs_change_nothing() -> None:
    assert_agreeing_epochs_change_nothing([completion_figures()], ITEMS)


def test_reproductions_and_refusals_are_counted_per_completion() -> None:
    """Reproduced or refused in one epoch of two counts once, of four completions: not a half
    of an epoch mean, rounded; agreeing epochs count twice."""
    values = run_metrics(
        [reproductions()],
        [[item(0.0, 0.0, refused=(1, 1)), item(1.0, 0.0, verbatim=(1, 0))], [item(0.2, 0.1)] * 2],
    )
    assert {key: values[key] for key in COUNTS} == {
        "completions": 4,
        "short": 0,
        "guided_verbatim": 1,
        "general_verbatim": 0,
        "both_verbatim": 0,
        "guided_refused": 1,
        "general_refused": 1,
    }
    doubled = run_metrics([reproductions()], [[v, v] for v in ITEMS])
    assert {key: doubled[key] for key in COUNTS} == {key: 2 * n for key, n in COUNTS.items()}


def test_a_constant_positive_difference() -> None:
    """Every resample's mean is 0.5: the interval is that point, and no resample is at or below
    0, so p is the smallest 10,000 resamples give."""
    found, p = paired_difference(np.full(9, 0.75), np.full(9, 0.25))
    assert (found.value, found.low, found.high, found.n) == (0.5, 0.5, 0.5, 9)
    assert p == 1 / (one_bootstrap.RESAMPLES + 1)


def test_no_difference_at_all() -> None:
    found, p = paired_difference(np.full(9, 0.3), np.full(9, 0.3))
    assert (found.value, found.low, found.high, p) == (0, 0, 0, 1.0)


def test_one_item_has_no_interval_or_p() -> None:
    found, p = paired_difference(np.array([0.9]), np.array([0.1]))
    assert found.value == pytest.approx(0.8)
    assert all(math.isnan(value) for value in (found.low, found.high, p))


@pytest.mark.parametrize(("n", "shift"), [(5, 0.0), (30, 0.02), (87, 0.05), (167, -0.01)])
def test_the_paired_bootstrap_is_scipys(n: int, shift: float) -> None:
    """The interval is scipy's percentile bootstrap of the paired differences with the same
    draws, and p the share of those resampled means at or below 0 (plus one in both counts)."""
    rng = np.random.default_rng(n)
    general = rng.uniform(0, 0.5, size=n)
    guided = np.clip(general + shift + rng.normal(0, 0.1, size=n), 0, 1)
    found, p = paired_difference(guided, general)
    expected = bootstrap(
        (guided - general,),
        np.mean,
        n_resamples=one_bootstrap.RESAMPLES,
        method="percentile",
        rng=np.random.default_rng(one_bootstrap.SEED),
    )
    low, high = expected.confidence_interval
    assert (found.low, found.high) == pytest.approx((low, high), abs=1e-12)
    means = expected.bootstrap_distribution
    assert p == pytest.approx((1 + np.sum(means <= 0)) / (1 + len(means)))
