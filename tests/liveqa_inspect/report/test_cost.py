"""The cost table every report ends with: tokens and dollars as Inspect recorded them."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.model import ModelCost, ModelInfo, set_model_info

from liveqa_inspect import live_qa
from liveqa_inspect.report.cost import HOW_TO_PRICE
from tests.helpers import (
    QUIET,
    judge_script,
    report,
    run_judge,
    scripted_model,
    section,
    subject_script,
    verdict,
)

TITLE = "Tokens and cost"


def price(input: float, output: float) -> ModelCost:
    """$ per million tokens; scripted replies use 1 input and 1 output token a call."""
    return ModelCost(input=input, output=output, input_cache_write=0, input_cache_read=0)


def test_a_limited_run_shows_each_role_and_model_its_cost_and_the_whole_set_s(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    set_model_info("mockllm/cost-subject", ModelInfo(cost=price(1000, 2000)))
    set_model_info("mockllm/cost-judge", ModelInfo(cost=price(3000, 5000)))
    [log] = eval(
        live_qa(reference_metrics=False),
        model=scripted_model(subject_script, "cost-subject"),
        model_roles={"grader": scripted_model(judge_script, "cost-judge")},
        limit=3,
        log_dir=str(tmp_path),
        **QUIET,
    )
    assert log.status == "success", log.error
    judge, subject = log.stats.model_usage["mockllm/cost-judge"], log.stats.role_usage["grader"]
    assert judge.total_cost == subject.total_cost == pytest.approx(3 * 0.008)  # 3 judge calls
    printed = report(capsys, log.location)
    assert [row[1:] for row in section(printed, TITLE)] == [
        ["role grader", "3", "3", "", "", "0.0240", "0.008000"],
        ["model mockllm/cost-subject", "3", "3", "", "", "0.0090", "0.003000"],
        ["model mockllm/cost-judge", "3", "3", "", "", "0.0240", "0.008000"],
    ]
    assert "mockllm/cost-subject: all 104 samples would cost about $1.14" in printed
    assert HOW_TO_PRICE not in printed


def test_a_panel_shows_each_juror_and_an_unpriced_one_has_no_price_never_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    set_model_info("mockllm/cost-juror", ModelInfo(cost=price(1_000_000, 1_000_000)))
    jurors = [scripted_model(lambda *_: verdict("1"), name) for name in ("cost-juror", "free")]
    log = run_judge(lambda *_: verdict("0"), "evaluated", limit=2, grader=jurors)
    assert log.stats.model_usage["mockllm/cost-juror"].total_cost == pytest.approx(4.0)
    printed = report(capsys, log.location)
    rows = {row[1]: row[2:] for row in section(printed, TITLE)}
    assert rows == {
        "role grader": ["4", "4", "", "", "no price", "no price"],  # both jurors
        "model mockllm/cost-juror": ["2", "2", "", "", "4.0000", "2.000000"],
        "model mockllm/free": ["2", "2", "", "", "no price", "no price"],
    }
    assert HOW_TO_PRICE in printed
