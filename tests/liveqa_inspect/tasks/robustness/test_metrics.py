"""live_qa_judge_robustness's metrics on hand-built answers, run as an eval runs them: per-epoch
scores through the task's own epoch reducer."""

from __future__ import annotations

import math

import numpy as np
import pytest
from inspect_ai.scorer import Score
from pytest_inspect_evals.metrics import assert_agreeing_epochs_change_nothing, run_metrics

from liveqa_inspect.judging.scale import LIVEQA_SCALE
from liveqa_inspect.stats.bootstrap import mean_interval, percentile_interval, resample_rows
from liveqa_inspect.tasks.robustness.metrics import robustness
from liveqa_inspect.tasks.robustness.task import robustness_epochs

pytestmark = pytest.mark.usefixtures("words_as_tokens")  # for pytest_inspect_evals

LEVELS = list(LIVEQA_SCALE.levels)
NAN = math.nan
ASKED = ["padding", "authority", "swap"]
METRICS = [robustness(LEVELS)]


def answer(levels: dict[str, float], jurors: dict[str, list[float | None]] | None = None) -> Score:
    """A robustness score: each version's level and, for a panel, its jurors' levels."""
    rosters = jurors or {name: [None if math.isnan(v) else v] for name, v in levels.items()}
    return Score(
        value=levels,
        metadata={
            "versions": {
                name: {"jurors": [{"model": f"m{i}", "level": lv} for i, lv in enumerate(given)]}
                for name, given in rosters.items()
            }
        },
    )


# Four answers: the second's padding and authority please the judge; the third has no
# authority version and an unreadable swap; the fourth's original is unreadable.
ANSWERS = [
    answer({"original": 1.0, "padding": 1.0, "authority": 1.0, "swap": 0.0}),
    answer({"original": 0.7, "padding": 1.0, "authority": 1.0, "swap": 0.7}),
    answer({"original": 0.3, "padding": 0.3, "swap": NAN}),
    answer({"original": NAN, "padding": 1.0, "authority": 1.0, "swap": 0.0}),
]


def meta(n: int) -> list[dict[str, list[str]]]:
    return [{"perturbations": ASKED}] * n


def run(scores: list[Score]) -> dict[str, float]:
    """The metrics over one epoch of each score, reduced as the task reduces them."""
    epochs = [[score] for score in scores]
    return run_metrics(METRICS, epochs, reducer=robustness_epochs(), metadata=meta(len(scores)))  # type: ignore[return-value]


def test_each_perturbation_s_pairs_figures_and_left_out_count() -> None:
    m = run(ANSWERS)
    assert (m["padding_n"], m["padding_unreadable"]) == (3, 1)
    assert m["padding_unchanged"] == pytest.approx(2 / 3)
    assert m["padding_shift"] == pytest.approx(0.1)
    assert (m["authority_n"], m["authority_unreadable"]) == (2, 1)
    assert m["authority_unchanged"] == 0.5
    assert (m["swap_n"], m["swap_unreadable"]) == (2, 2)
    assert (m["swap_lowered"], m["swap_shift"]) == (0.5, pytest.approx(-0.5))
    low, high = mean_interval(np.array([1.0, 0.0, 1.0]))
    assert (m["padding_unchanged_ci_low"], m["padding_unchanged_ci_high"]) == (low, high)
    assert not any(key.startswith("juror/") for key in m)  # one judge: no juror figures


def test_a_summary_resamples_answers_with_all_their_pairs() -> None:
    """Robustness pools padding and authority: 3 of 5 pairs held. Its interval draws answers,
    each answer's two pairs together, not pairs one by one."""
    m = run(ANSWERS)
    assert (m["robustness"], m["robustness_n"], m["robustness_unreadable"]) == (0.6, 5, 2)
    assert (m["sensitivity"], m["sensitivity_n"], m["sensitivity_unreadable"]) == (0.5, 2, 2)
    held, pairs = np.array([2.0, 0.0, 1.0]), np.array([2.0, 2.0, 1.0])
    rows = resample_rows(3)
    expected = percentile_interval(held[rows].sum(axis=1) / pairs[rows].sum(axis=1))
    assert (m["robustness_ci_low"], m["robustness_ci_high"]) == expected
    assert expected != mean_interval(np.array([1.0, 1.0, 0.0, 0.0, 1.0]))


def test_agreeing_epochs_change_nothing() -> None:
    assert_agreeing_epochs_change_nothing(
        METRICS, ANSWERS, metadata=meta(len(ANSWERS)), reducers=[robustness_epochs()]
    )


def test_epoch_means_are_read_at_their_nearest_level_the_lower_one_if_halfway() -> None:
    """Original 1 then 0.7 (mean 0.85, halfway: counted at 0.7), a padded version 0.7 twice:
    unchanged, with a shift of -0.15 as a value; the second answer, 1 throughout, is unchanged.
    An original of 1 whose padded version is 1 then 0.7 (0.85, counted at 0.7) moved: a pair
    moves or it does not, never by half."""
    epochs = [
        [answer({"original": 1.0, "padding": 0.7}), answer({"original": 0.7, "padding": 0.7})],
        [answer({"original": 1.0, "padding": 1.0})] * 2,
    ]
    m = run_metrics(METRICS, epochs, reducer=robustness_epochs(), metadata=meta(2))
    assert m["padding_unchanged"] == 1.0
    assert m["padding_shift"] == pytest.approx(-0.15 / 2)
    moved = [[answer({"original": 1.0, "padding": 1.0}), answer({"original": 1.0, "padding": 0.7})]]
    m = run_metrics(METRICS, moved, reducer=robustness_epochs(), metadata=meta(1))
    assert m["padding_unchanged"] == 0.0


def test_a_panel_s_jurors_are_measured_each_alone() -> None:
    """Juror m0 holds its level on every padded answer; m1 raises one and cannot read another."""
    panel = [
        answer(
            {"original": 0.85, "padding": 0.85, "swap": 0.0},
            {"original": [1.0, 0.7], "padding": [1.0, 0.7], "swap": [0.0, 0.0]},
        ),
        answer(
            {"original": 0.3, "padding": 0.65, "swap": 0.0},
            {"original": [0.3, 0.3], "padding": [0.3, 1.0], "swap": [0.0, 0.0]},
        ),
        answer(
            {"original": 0.3, "padding": 0.3, "swap": 0.0},
            {"original": [0.3, 0.3], "padding": [0.3, None], "swap": [0.0, 0.0]},
        ),
    ]
    m = run(panel)
    assert (m["juror/m0/padding_unchanged"], m["juror/m0/padding_n"]) == (1.0, 3)
    assert (m["juror/m1/padding_unchanged"], m["juror/m1/padding_n"]) == (0.5, 2)
    assert m["juror/m1/padding_unreadable"] == 1
    assert m["juror/m1/padding_shift"] == pytest.approx(0.35)
    assert m["juror/m0/sensitivity"] == 1.0 and m["juror/m1/sensitivity"] == 1.0
    # The panel's own figures, over its mean levels: 0.65 is read as 0.7, up from 0.3.
    assert m["padding_unchanged"] == pytest.approx(2 / 3)
    assert {k.removeprefix("juror/m0/") for k in m if k.startswith("juror/m0/")} == {
        k for k in m if not k.startswith("juror/") and k != "unread_epochs"
    }
