"""One `--no-score` log graded twice by one judge is a test-retest of the judge, not two runs of
the model: the report labels its rows by the judge (and the settings it graded with where they
differ), names those settings, and gives the two gradings' exact share and quadratic kappa with
their intervals (issue 35, seam 4)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval, score
from inspect_ai.log import EvalLog, write_eval_log
from inspect_ai.model import GenerateConfig
from sklearn.metrics import cohen_kappa_score

from liveqa_inspect import live_qa
from liveqa_inspect.judging.verdicts import verdicts
from liveqa_inspect.stats.agreement import agreement_figures
from liveqa_inspect.stats.names import KAPPA
from liveqa_inspect.tasks.live_qa.task import live_qa_scorer
from tests.helpers import (
    LEVELS_BY_ANSWER,
    QUIET,
    between,
    report,
    scripted_model,
    section,
    subject_script,
    three,
    verdict,
)

LEVELS = [0.0, 0.3, 0.7, 1.0]
# TQ1-TQ5 answer ANSWER-ONE, -SEVEN, -THREE, -ZERO, -ZERO; the first grading gives 1, 0.7,
# 0.3, 0, 0 (LEVELS_BY_ANSWER), the second (a draw at temperature 1, or another draw of the
# same judge) 0.7 on ANSWER-ONE and 0.3 on ANSWER-ZERO.
FIRST = [1.0, 0.7, 0.3, 0.0, 0.0]
SECOND = [0.7, 0.7, 0.3, 0.3, 0.3]
REDRAWN = {"ANSWER-ONE": "0.7", "ANSWER-ZERO": "0.3"}


def first_draw(prompt: str, _: GenerateConfig) -> str:
    return verdict(LEVELS_BY_ANSWER.get(between(prompt, "answer"), "0"))


def second_draw(prompt: str, config: GenerateConfig) -> str:
    answer = between(prompt, "answer")
    return verdict(REDRAWN.get(answer) or LEVELS_BY_ANSWER.get(answer, "0"))


def by_temperature(prompt: str, config: GenerateConfig) -> str:
    """A judge whose levels move at temperature 1."""
    draw = second_draw if config.temperature == 1.0 else first_draw
    return draw(prompt, config)


@pytest.fixture(scope="module")
def answers() -> EvalLog:
    """Five answers generated once without a judge, for both tests."""
    [log] = eval(
        live_qa(reference_metrics=False), model=scripted_model(subject_script, "subject"),
        score=False, limit=5, **QUIET,
    )  # fmt: skip
    assert log.status == "success", log.error
    return log


def graded(log: EvalLog, judge: object, path: Path) -> str:
    """`log` graded by the grader `judge`, as `inspect score LOG` grades it, with the judge's
    cache off: another draw of the same judge must not replay the first one's replies."""
    scorers = [live_qa_scorer(cache=False), verdicts(judge="live_qa_scorer", levels=LEVELS)]
    write_eval_log(score(log, scorers, model_roles={"grader": judge}), str(path))
    return str(path)


def assert_test_retest(printed: str, labels: list[str]) -> None:
    """The rows are the judge's two gradings, never the model's; their agreement is the
    test-retest, by the figures the same-answers comparison uses."""
    assert "mockllm/subject#2" not in printed and "not comparable" not in printed
    means = section(printed, "Each judge's mean level on the same answers")
    assert [row[0] for row in means] == labels
    [row] = section(printed, f"Difference from {labels[0]}")
    figures = agreement_figures(SECOND, FIRST, LEVELS)
    kappa = cohen_kappa_score(
        [LEVELS.index(v) for v in FIRST], [LEVELS.index(v) for v in SECOND], weights="quadratic"
    )
    assert figures[KAPPA].value == pytest.approx(kappa)
    exact = figures["exact_agreement"]
    assert exact.value == pytest.approx(2 / 5)
    assert row[0] == labels[1]
    assert row[3] == f"{three(kappa)} [{three(figures[KAPPA].low)}, {three(figures[KAPPA].high)}]"
    assert row[4] == f"0.400 [{three(exact.low)}, {three(exact.high)}]"
    assert row[5] == "5"


def test_one_judge_graded_twice_at_the_same_settings_is_a_test_retest(
    answers: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = answers
    paths = [
        graded(log, scripted_model(first_draw, "judge"), tmp_path / "first.eval"),
        graded(log, scripted_model(second_draw, "judge"), tmp_path / "second.eval"),
    ]
    printed = report(capsys, *paths)
    assert_test_retest(printed, ["mockllm/judge", "mockllm/judge#2"])
    assert (
        "The same answers graded again by the same judge (mockllm/judge): mockllm/subject's "
        "(question wording: summary). A test-retest of the judge" in printed
    )
    assert "settings differ" not in printed


def test_one_judge_at_two_temperatures_names_the_setting_that_differs(
    answers: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = answers
    paths = [
        graded(log, scripted_model(by_temperature, "judge"), tmp_path / "t0.eval"),
        graded(log, scripted_model(by_temperature, "judge", temperature=1.0), tmp_path / "t1.eval"),
    ]
    printed = report(capsys, *paths)
    labels = ["mockllm/judge (temperature=0.0)", "mockllm/judge (temperature=1.0)"]
    assert_test_retest(printed, labels)
    assert "The same answers graded again by the same judge (mockllm/judge)" in printed
    assert "mockllm/judge's settings differ in temperature (t0.eval: 0.0; t1.eval: 1.0)" in printed


def test_another_judge_beside_a_test_retest_keeps_its_name_alone(
    answers: EvalLog, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hot = scripted_model(by_temperature, "judge", temperature=1.0)
    paths = [
        graded(answers, scripted_model(by_temperature, "judge"), tmp_path / "t0.eval"),
        graded(answers, scripted_model(first_draw, "other"), tmp_path / "other.eval"),
        graded(answers, hot, tmp_path / "t1.eval"),
    ]
    printed = report(capsys, *paths)
    means = section(printed, "Each judge's mean level on the same answers")
    assert [row[0] for row in means] == [
        "mockllm/judge (temperature=0.0)", "mockllm/other", "mockllm/judge (temperature=1.0)"
    ]  # fmt: skip
    assert "graded again by the same judge (mockllm/judge)" in printed
    assert "mockllm/other's settings" not in printed
