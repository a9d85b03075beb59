"""Judges compared as judges: one run's answers graded by each (`--no-score`, then `inspect
score` per judge), and live_qa_judge logs of several judges, each with its cost (issue 29)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from inspect_ai import eval, score
from inspect_ai.log import read_eval_log, write_eval_log
from inspect_ai.model import ModelInfo, set_model_info
from sklearn.metrics import cohen_kappa_score

from liveqa_inspect import live_qa, live_qa_judge
from liveqa_inspect.report.cost import COST_NOTE, NOT_RECORDED
from liveqa_inspect.stats.bootstrap import mean_estimate
from liveqa_inspect.tasks.live_qa.task import live_qa_scorer
from tests.helpers import (
    QUIET,
    between,
    judge_script,
    length_judge,
    report,
    run_judge,
    scripted_model,
    section,
    subject_script,
    three,
    verdict,
)
from tests.liveqa_inspect.report.test_cost import price


def strict_judge(prompt: str, _: object) -> str:
    """Lower than `judge_script` on ANSWER-ONE, no verdict on ANSWER-SEVEN, 0 for the rest."""
    answer = between(prompt, "answer")
    return {"ANSWER-ONE": verdict("0.7"), "ANSWER-SEVEN": "I cannot decide."}.get(
        answer, verdict("0")
    )


def regraded(tmp_path: Path) -> list[str]:
    """Five answers generated once without a judge, then graded by judge_script and strict."""
    [answers] = eval(
        live_qa(reference_metrics=False),
        model=scripted_model(subject_script, "subject"),
        score=False,  # no judge is made: none is bound, and the default needs a key
        limit=5,
        log_dir=str(tmp_path / "answers"),
        **QUIET,
    )
    assert answers.status == "success", answers.error
    paths = []
    for name, script in (("lenient", judge_script), ("strict", strict_judge)):
        judge = {"grader": scripted_model(script, name)}
        graded = score(read_eval_log(answers.location), live_qa_scorer(), model_roles=judge)
        write_eval_log(graded, path := str(tmp_path / f"{name}.eval"))
        paths.append(path)
    return paths


def test_answers_graded_by_two_judges_are_compared_as_judges(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = regraded(tmp_path)
    markdown = report(capsys, *paths, "--markdown")
    assert "**Each judge's mean level on the same answers" in markdown
    out = report(capsys, *paths)
    assert "not comparable" not in out and "#2" not in out
    assert "Judges on the same answers: mockllm/subject's (question wording: summary)" in out
    # TQ1-TQ5 answered ANSWER-ONE, -SEVEN, -THREE and two others: lenient 1, 0.7, 0.3, 0, 0;
    # strict 0.7, unreadable, 0, 0, 0.
    lenient, strict = np.array([1, 0.7, 0.3, 0, 0]), np.array([0.7, 0, 0, 0])
    means = [mean_estimate(lenient), mean_estimate(strict)]
    assert [m.value for m in means] == pytest.approx([0.4, 0.175])
    # Each judge's cost is its grader role's in the cost table, from the scoring's events.
    rows = section(out, "Tokens and cost")
    costs = {row[0]: row[6] for row in rows if row[1] == "role grader"}
    cost = [costs[judge] for judge in ("mockllm/lenient", "mockllm/strict")]
    assert NOT_RECORDED not in cost
    shown = [(three(m.value), f"[{three(m.low)}, {three(m.high)}]") for m in means]
    assert section(out, "Each judge's mean level on the same answers") == [
        ["mockllm/lenient", *shown[0], cost[0], "5", "0"],
        ["mockllm/strict", *shown[1], cost[1], "4", "1"],  # the unreadable verdict
    ]
    assert (COST_NOTE in out) == (NOT_RECORDED in cost)
    # Paired over the four answers both scored: strict - lenient = -0.3, -0.3, 0, 0.
    both = lenient[[0, 2, 3, 4]]
    difference = mean_estimate(strict - both)
    assert difference.value == pytest.approx(-0.15)
    [row] = section(out, "Difference from mockllm/lenient")
    levels = [0, 0.3, 0.7, 1]
    kappa = cohen_kappa_score(
        [levels.index(v) for v in both], [levels.index(v) for v in strict], weights="quadratic"
    )
    assert row[:3] == [
        "mockllm/strict",
        "-0.150",
        f"[{three(difference.low)}, {three(difference.high)}]",
    ]
    assert row[3].startswith(f"{three(kappa)} [") and row[4].startswith("0.500 [")
    assert row[5] == "4"


def test_judge_logs_show_each_judge_s_agreement_and_cost_side_by_side(
    capsys: pytest.CaptureFixture[str],
) -> None:
    set_model_info("mockllm/judge-cheap", ModelInfo(cost=price(1000, 1000)))
    set_model_info("mockllm/judge-dear", ModelInfo(cost=price(10_000, 30_000)))
    cheap = run_judge(lambda *_: verdict("0.3"), "judge-cheap", limit=3)
    dear = run_judge(lambda *_: verdict("0.7"), "judge-dear", limit=3)
    out = report(capsys, cheap.location, dear.location)
    rows = {row[0]: row[7:] for row in section(out, "Judges")}
    assert rows == {  # 3 calls of 1 input and 1 output token each
        "mockllm/judge-cheap": ["0.0060", "3", "0"],
        "mockllm/judge-dear": ["0.1200", "3", "0"],
    }


def test_a_model_re_grading_its_own_answers_shows_its_judge_usage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The judge is the model that answered: `log.stats` holds its answering, not its judging."""
    [answers] = eval(
        live_qa(reference_metrics=False),
        model=scripted_model(subject_script, "self"),
        score=False,
        limit=3,
        log_dir=str(tmp_path),
        **QUIET,
    )
    judge = {"grader": scripted_model(judge_script, "self")}
    graded = score(read_eval_log(answers.location), live_qa_scorer(), model_roles=judge)
    write_eval_log(graded, path := str(tmp_path / "self.eval"))
    rows = section(report(capsys, path), "Tokens and cost")
    used = {row[1]: row[2:4] for row in rows}
    # A scripted reply counts 1 input and 1 output token: 3 verdicts; 3 answers and 3 verdicts.
    assert used == {"role grader": ["3", "3"], "model mockllm/self": ["6", "6"]}


def test_one_judge_at_two_temperatures_is_compared_at_its_settings(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """live_qa_judge logs of one model at two temperatures: the rows are named by the setting
    (as on the judge card), and the temperature is what they compare, said as such: no warning
    that the scores are not comparable, no `#2` as for a repeat."""
    cool, warm = (
        eval(
            live_qa_judge(),
            model=scripted_model(length_judge, "judge"),
            limit=3,
            temperature=temperature,
            log_dir=str(tmp_path),
            **QUIET,
        )[0]
        for temperature in (0.0, 1.0)
    )
    assert cool.status == warm.status == "success"
    printed = report(capsys, cool.location, warm.location)
    rows = section(printed, "Judges")
    assert [row[0] for row in rows] == [
        "mockllm/judge (temperature=0.0)",
        "mockllm/judge (temperature=1.0)",
    ]
    assert "not comparable" not in printed
    assert "#2" not in printed
    assert "mockllm/judge's settings differ in temperature" in printed
