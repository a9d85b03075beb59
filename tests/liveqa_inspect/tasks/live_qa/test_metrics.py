"""The custom metrics, run as an eval runs them: per-epoch scores through the real reducer."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pytest_inspect_evals.metrics import assert_agreeing_epochs_change_nothing, run_metrics
from scipy.stats import bootstrap

from liveqa_inspect.judging.scale import LIVEQA_SCALE
from liveqa_inspect.stats import bootstrap as one_bootstrap
from liveqa_inspect.stats.bootstrap import mean_interval
from liveqa_inspect.tasks.live_qa.metrics import bootstrap_ci, level_share

pytestmark = pytest.mark.usefixtures("words_as_tokens")  # for pytest_inspect_evals

LEVELS = list(LIVEQA_SCALE.levels)

SCORES = [1.0, 0.7, 0.3, 0.0, 1.0, 0.0]


def test_custom_metrics_read_reduced_scores() -> None:
    assert_agreeing_epochs_change_nothing([bootstrap_ci(), level_share(LEVELS)], SCORES)


def test_level_share_values() -> None:
    values = run_metrics([level_share(LEVELS)], [[v] for v in SCORES])
    assert values["share_1"] == pytest.approx(2 / 6)
    assert values["share_0.7"] == pytest.approx(1 / 6)
    assert values["share_0.3"] == pytest.approx(1 / 6)
    assert values["share_0"] == pytest.approx(2 / 6)


def test_bootstrap_interval_is_seeded_and_brackets_the_mean() -> None:
    values = run_metrics([bootstrap_ci()], [[v] for v in SCORES])
    again = run_metrics([bootstrap_ci()], [[v] for v in SCORES])
    assert values == again
    assert values["ci_low"] < np.mean(SCORES) < values["ci_high"]
    low, high = mean_interval(np.array(SCORES))
    assert (low, high) == (values["ci_low"], values["ci_high"])


def test_bootstrap_interval_of_one_value_is_nan() -> None:
    low, high = mean_interval(np.array([1.0]))
    assert math.isnan(low) and math.isnan(high)


def test_epoch_means_between_levels_count_at_the_nearest_and_halfway_at_the_lower() -> None:
    # Epochs 1, 0.7 and 0.85 average to 0.85, halfway: it counts at 0.7. Epochs 0, 0 and 0.3
    # average to 0.1, nearer 0; 0.3, 0.7, 0.7 to 0.566667, nearer 0.7. The shares add up to one.
    values = run_metrics(
        [level_share(LEVELS)], [[1.0, 0.7, 0.85], [0.0, 0.0, 0.3], [0.3, 0.7, 0.7]]
    )
    assert values == {"share_0": 1 / 3, "share_0.3": 0.0, "share_0.7": 2 / 3, "share_1": 0.0}


@pytest.mark.parametrize("n", [2, 7, 104, 581])
def test_the_one_bootstrap_is_scipys_percentile_bootstrap(n: int) -> None:
    """The fast vectorised draws give exactly scipy's interval for a mean, on random data."""
    values = np.random.default_rng(n).choice(LEVELS, size=n)
    expected = bootstrap(
        (values,),
        np.mean,
        n_resamples=one_bootstrap.RESAMPLES,
        confidence_level=0.95,
        method="percentile",
        rng=np.random.default_rng(one_bootstrap.SEED),
    ).confidence_interval
    assert mean_interval(values) == pytest.approx((expected.low, expected.high), abs=1e-12)
