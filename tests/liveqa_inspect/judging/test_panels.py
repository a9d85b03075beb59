"""Judge panels: the grader role bound to several models, each juror asked independently."""

from __future__ import annotations

import math

import pytest
from inspect_ai.log import EvalLog
from inspect_ai.model import GenerateConfig, Model
from inspect_ai.scorer import Score
from pytest_inspect_evals.metrics import assert_agreeing_epochs_change_nothing, run_metrics

from liveqa_inspect.judging.reducer import judge_epochs
from liveqa_inspect.judging.scale import LIVEQA_SCALE
from liveqa_inspect.judging.verdicts import verdict_figures
from liveqa_inspect.stats.names import ALPHA
from tests.helpers import (
    between,
    figures,
    report,
    run_bound_panel,
    run_live_qa,
    scripted_model,
    verdict,
)

pytestmark = pytest.mark.usefixtures("words_as_tokens")  # for pytest_inspect_evals

LEVELS = list(LIVEQA_SCALE.levels)

# Per answer, what each of three jurors says; None is an unreadable reply (the juror abstains).
VERDICTS: dict[str, tuple[str | None, str | None, str | None]] = {
    "ANSWER-ONE": ("1", "1", "0.7"),  # mean 0.9, median 1, majority 1
    "ANSWER-SEVEN": ("1", "0.7", "0.3"),  # mean 2/3, median 0.7, no majority
    "ANSWER-THREE": ("0.3", None, "0.3"),  # one abstains: mean 0.3, majority 0.3 (2 of 3)
    "ANSWER-ZERO": ("0", None, None),  # two abstain: unscored whatever the panel
}


def juror(index: int) -> Model:
    def script(prompt: str, _: GenerateConfig) -> str:
        level = VERDICTS[between(prompt, "answer")][index]
        return "I would rather not say." if level is None else verdict(level, f"Juror {index}.")

    return scripted_model(script, f"juror{index}")


def run_panel(panel: str, jurors: list[Model] | None = None) -> EvalLog:
    """live_qa on the four scripted answers, graded by the three scripted jurors by default."""
    return run_live_qa(grader=jurors or [juror(i) for i in range(3)], limit=4, panel=panel)


def by_answer(log: EvalLog) -> dict[str, Score]:
    assert log.samples is not None
    return {s.output.completion: s.scores["live_qa_scorer"] for s in log.samples}


EXPECTED = {
    "mean": {"ANSWER-ONE": 0.9, "ANSWER-SEVEN": 2 / 3, "ANSWER-THREE": 0.3},
    "median": {"ANSWER-ONE": 1.0, "ANSWER-SEVEN": 0.7, "ANSWER-THREE": 0.3},
    "majority": {"ANSWER-ONE": 1.0, "ANSWER-SEVEN": None, "ANSWER-THREE": 0.3},
}


@pytest.mark.parametrize("panel", ["mean", "median", "majority"])
def test_a_panel_of_three_combines_levels_and_abstentions(panel: str) -> None:
    jurors = [juror(i) for i in range(3)]
    scores = by_answer(run_panel(panel, jurors))
    for answer, expected in EXPECTED[panel].items():
        value = float(scores[answer].value)
        if expected is None:
            assert math.isnan(value) and scores[answer].reason == "no_majority", answer
        else:
            assert value == pytest.approx(expected), answer
    zero = scores["ANSWER-ZERO"]
    assert math.isnan(float(zero.value)) and zero.reason == "grader_failed"
    # Every juror graded every answer; an abstaining juror was asked again, then gave up.
    assert [len(j.calls) for j in jurors] == [4, 4 + 2 * 2, 4 + 2]


def test_each_juror_is_recorded_and_explained() -> None:
    score = by_answer(run_panel("mean"))["ANSWER-THREE"]
    assert score.metadata is not None
    assert score.metadata["judge"]["models"] == [
        "mockllm/juror0",
        "mockllm/juror1",
        "mockllm/juror2",
    ]
    jurors = score.metadata["jurors"]
    assert [j["level"] for j in jurors] == [0.3, None, 0.3]
    assert [j["attempts"] for j in jurors] == [1, 3, 1]
    assert jurors[0]["reasoning"] == "Juror 0."
    assert jurors[1]["replies"] == ["I would rather not say."] * 3
    assert score.explanation is not None
    assert "mockllm/juror0: 0.3. Juror 0." in score.explanation
    assert "mockllm/juror1: no readable verdict in 3 attempts" in score.explanation


def test_panel_metrics_name_each_juror_and_alpha() -> None:
    m = figures(run_panel("mean"), "verdicts")
    # Jurors' own means over every answer each gave a verdict on, the panel's unscored
    # ANSWER-ZERO (where juror 0 alone said 0) included.
    assert m["juror/mockllm/juror0/mean"] == pytest.approx((1 + 1 + 0.3 + 0) / 4)
    assert m["juror/mockllm/juror1/mean"] == pytest.approx((1 + 0.7) / 2)
    assert m["juror/mockllm/juror2/mean"] == pytest.approx((0.7 + 0.3 + 0.3) / 3)
    assert -1.0 <= m[ALPHA] < 1.0
    assert (m["scored"], m["unscored"], m["unscored/grader_failed"]) == (3, 1, 1)


def test_jurors_in_full_agreement_have_alpha_one() -> None:
    same = [scripted_model(lambda *_: verdict("0.7"), f"same{i}") for i in range(3)]
    log = run_panel("mean", same)
    assert figures(log, "verdicts")[ALPHA] == 1.0
    assert figures(log, "live_qa_scorer")["mean"] == pytest.approx(0.7)


def test_a_single_judge_reports_no_panel_figures_and_no_empty_rows() -> None:
    """A metric with no values names no row: no `panel_figures nan` for one judge, even when
    nothing was scored and Inspect asks every metric for its empty value."""
    for reply in ("1", None):
        solo = scripted_model(lambda *_, r=reply: verdict(r) if r else "?", f"solo{reply}")
        log = run_panel("mean", [solo])
        assert log.results is not None
        keys = [key for score in log.results.scores for key in score.metrics]
        assert not any(key.startswith("juror/") or key in (ALPHA, "panel_figures") for key in keys)
        scored = 4 if reply else 0
        assert figures(log, "verdicts") == {
            "scored": scored,
            "unscored": 4 - scored,
            **({} if reply else {"unscored/grader_failed": 4}),
        }


def test_live_qa_judge_measures_a_bound_panel_and_each_juror() -> None:
    """Is a jury better than its best single judge? One command answers it."""
    log = run_bound_panel("majority", ["strict", "strict2"], limit=20)
    m = {**figures(log, "judge_agreement_scorer"), **figures(log, "verdicts")}
    humans = [s.metadata["human_level"] for s in log.samples]
    share_zero = humans.count(0.0) / len(humans)
    assert m["exact_agreement"] == pytest.approx(share_zero)  # the majority says 0 throughout
    assert m["juror/mockllm/strict/exact_agreement"] == pytest.approx(share_zero)
    assert m["juror/mockllm/lenient/exact_agreement"] == pytest.approx(humans.count(1.0) / 20)
    assert "juror/mockllm/lenient/kappa_quadratic_ci_low" in m
    # Beside agreement with the humans, the jurors' own levels and agreement with each other:
    # each of the N = 20 answers gets (1, 0, 0), so alpha = 1 - D_o/D_e = 1 - (3N - 1)/(2N).
    assert (m["juror/mockllm/lenient/mean"], m["juror/mockllm/strict/mean"]) == (1.0, 0.0)
    assert m["krippendorff_alpha"] == pytest.approx(1 - 59 / 40)
    assert all(
        s.scores["judge_agreement_scorer"].metadata["judge"]["models"]
        == ["mockllm/lenient", "mockllm/strict", "mockllm/strict2"]
        for s in log.samples
    )


def test_jurors_who_read_but_disagree_are_no_majority_not_unreadable(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two jurors read every answer, 0 against 1 on ANSWER-SEVEN: that sample has no majority,
    counted apart from ANSWER-ZERO, where one juror's verdict is unreadable."""

    def second(prompt: str, _: GenerateConfig) -> str:
        answer = between(prompt, "answer")
        return "?" if answer == "ANSWER-ZERO" else verdict("0" if answer == "ANSWER-SEVEN" else "1")

    jurors = [scripted_model(lambda *_: verdict("1"), "yes"), scripted_model(second, "split")]
    log = run_panel("majority", jurors)
    scores = by_answer(log)
    assert scores["ANSWER-SEVEN"].reason == "no_majority"
    assert scores["ANSWER-ZERO"].reason == "grader_failed"
    assert scores["ANSWER-SEVEN"].explanation.startswith("The panel gave no level (no_majority).")
    m = figures(log, "verdicts")
    assert (m["unscored/no_majority"], m["unscored/grader_failed"]) == (1, 1)
    out = report(capsys, log.location)
    [line] = [line for line in out.splitlines() if line.startswith("samples: ")]
    assert line.startswith("samples: 2 scored, 2 unscored (")
    assert "no_majority 1" in line and "grader_failed 1" in line


def test_a_sample_read_in_no_epoch_keeps_its_first_epoch_s_reason() -> None:
    """Inspect's reducers drop reasons that differ between epochs: a sample with no majority in
    one epoch and too few verdicts in the other would be counted as `no_reason_recorded`."""
    meta = {"level": None, "levels": LEVELS, "jurors": []}
    epochs = [Score(value=0.0, reason=r, metadata=meta) for r in ("no_majority", "grader_failed")]
    assert judge_epochs()(epochs).reason == "no_majority"
    values = run_metrics([verdict_figures()], [epochs], reducer=judge_epochs())
    assert (values["unscored"], values["unscored/no_majority"]) == (1, 1)
    assert "unscored/no_reason_recorded" not in values


def panel_score(levels: list[float | None], value: float) -> Score:
    """A verdicts score as the scorer writes it for one epoch of a two-juror panel."""
    jurors = [{"model": f"m{i}", "level": level} for i, level in enumerate(levels)]
    metadata = {"level": value, "levels": LEVELS, "jurors": jurors}
    return Score(value=1.0, metadata=metadata)


def test_panel_figures_through_the_epoch_reducer() -> None:
    scores = [panel_score([1.0, 0.7], 0.85), panel_score([0.3, 0.3], 0.3)]
    assert_agreeing_epochs_change_nothing([verdict_figures()], scores)
    values = run_metrics([verdict_figures()], [[s] for s in scores], reducer=judge_epochs())
    assert values["juror/m0/mean"] == pytest.approx(0.65)
    assert values["juror/m1/mean"] == pytest.approx(0.5)


def test_juror_agreement_through_the_epoch_reducer() -> None:
    scores = [panel_score([1.0, 0.0], 0.5), panel_score([0.0, 0.0], 0.0)]
    meta = [{"human_level": 1.0}, {"human_level": 0.0}]
    assert_agreeing_epochs_change_nothing([verdict_figures()], scores, metadata=meta)
    values = run_metrics(
        [verdict_figures()], [[s] for s in scores], metadata=meta, reducer=judge_epochs()
    )
    assert values["juror/m0/exact_agreement"] == 1.0
    assert values["juror/m1/exact_agreement"] == 0.5


def test_a_model_listed_twice_gives_two_draws_and_replays_both_from_the_cache() -> None:
    """A self-consistency panel: one model twice, above temperature 0. Each juror has its own
    seed and cache entry, so the second is not the first's reply copied, and a re-run replays
    both without a call."""

    def by_seed(_: str, config: GenerateConfig) -> str:
        return verdict("1" if config.seed == 42 else "0.3")

    twice = scripted_model(by_seed, "sampled", temperature=0.7)
    logs = [run_panel("mean", [twice, twice]) for _ in range(2)]
    first_run = twice.calls[: 2 * 4]
    assert sorted(config.seed for _, config in first_run) == [42] * 4 + [10_042] * 4
    assert len(twice.calls) == 2 * 4  # the second run was served from the cache
    for log in logs:
        for score in by_answer(log).values():
            assert [juror["level"] for juror in score.metadata["jurors"]] == [1.0, 0.3]
            assert score.value == 0.65
