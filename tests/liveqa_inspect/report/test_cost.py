"""The cost table every report ends with: the tokens and dollars of the calls a log holds."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from inspect_ai import eval, score
from inspect_ai.log import read_eval_log, write_eval_log
from inspect_ai.model import GenerateConfig, ModelCost, ModelInfo, set_model_info

from liveqa_inspect import live_qa
from liveqa_inspect.report.cli import SECTIONS
from liveqa_inspect.report.cost import HOW_TO_PRICE, PRICES, graded, judge_spend, read_prices
from liveqa_inspect.report.loading import load
from liveqa_inspect.report.tables import cell
from liveqa_inspect.tasks.live_qa.task import live_qa_scorer
from tests.helpers import (
    QUIET,
    Printed,
    judge_script,
    report,
    run_judge,
    run_live_qa,
    scripted_model,
    section,
    subject_script,
    table,
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


def prices_file(folder: Path, *models: str) -> str:
    """`--model-cost-config` at $100 per million input and output tokens: 2 tokens a call."""
    rates = {"input": 100, "output": 100, "input_cache_write": 0, "input_cache_read": 0}
    (path := folder / "prices.yaml").write_text(yaml.safe_dump(dict.fromkeys(models, rates)))
    return str(path)


def cost_rows(printed: Printed) -> dict[str, list[str]]:
    """Each `used by` row's input, output, cost and per scored answer."""
    return {row[1]: [*row[2:4], *row[6:]] for row in section(printed, TITLE)}


def test_judge_replies_read_from_the_cache_are_counted_and_said(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Seam 2 of issue 35: a re-run's cached judge replies cost what they would uncached."""
    prices = prices_file(tmp_path, "mockllm/cached-judge", "mockllm/cached-subject")
    runs = [
        run_live_qa(judge_name="cached-judge", name="cached-subject", limit=limit)
        for limit in (2, 2, 4)  # the judge's cache: empty, then full, then half full
    ]
    cached, half = (report(capsys, log.location, "--model-cost-config", prices) for log in runs[1:])
    # What the first run shows (test_a_limited_run_...): 2 tokens at $100/M a call, $0.0002.
    assert cost_rows(cached) == {
        "role grader": ["2", "2", "0.0004", "0.000200"],
        "model mockllm/cached-subject": ["2", "2", "0.0004", "0.000200"],
        "model mockllm/cached-judge": ["2", "2", "0.0004", "0.000200"],
    }
    assert cost_rows(half)["role grader"] == ["4", "4", "0.0008", "0.000200"]
    note = "judge replies read from the cache; their tokens are counted at what they would cost"
    assert f"mockllm/cached-subject: 2 of 2 {note}" in cached
    assert f"mockllm/cached-subject: 2 of 4 {note}" in half
    projected = "mockllm/cached-subject: all 104 samples would cost about $0.04"
    assert projected in cached and projected in half
    priced = PRICES.set(read_prices(Path(prices)))
    try:
        loaded = load(runs[2].location, SECTIONS)
        spend = judge_spend(loaded)
    finally:
        PRICES.reset(priced)
    assert spend is not None
    assert (spend.calls, spend.cached, graded(loaded)) == (4, 2, 4)
    assert (spend.usage.input_tokens, spend.usage.output_tokens) == (4, 4)
    assert spend.cost == pytest.approx(0.0008)


def answers_and_judges(prompt: str, config: GenerateConfig) -> str:
    """A model that answers the questions and grades the answers (the quick start's shape)."""
    judging = "<answer>" in prompt
    return judge_script(prompt, config) if judging else subject_script(prompt, config)


def test_a_model_judging_its_own_answers_is_charged_each_role_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Seam 3 of issue 35: `--model X --model-role grader=X`, then re-graded by another judge."""
    prices = prices_file(tmp_path, "mockllm/both", "mockllm/other-judge")
    both = scripted_model(answers_and_judges, "both")
    [log] = eval(
        live_qa(reference_metrics=False),
        model=both,
        model_roles={"grader": both},
        limit=2,
        log_dir=str(tmp_path),
        **QUIET,
    )
    assert log.status == "success", log.error
    printed = report(capsys, log.location, "--model-cost-config", prices)
    assert cost_rows(printed) == {
        "role grader": ["2", "2", "0.0004", "0.000200"],  # its 2 verdicts, not its answers
        "model mockllm/both": ["4", "4", "0.0008", "0.000400"],  # 2 answers and 2 verdicts
    }
    assert "mockllm/both: all 104 samples would cost about $0.04" in printed
    judge = {"grader": scripted_model(judge_script, "other-judge")}
    again = score(
        read_eval_log(log.location), live_qa_scorer(), model_roles=judge, action="overwrite"
    )
    write_eval_log(again, path := str(tmp_path / "regraded.eval"))
    printed = report(capsys, path, "--model-cost-config", prices)
    assert cost_rows(printed) == {
        "role grader": ["2", "2", "0.0004", "0.000200"],
        "model mockllm/both": ["2", "2", "0.0004", "0.000200"],  # its answers alone
        "model mockllm/other-judge": ["2", "2", "0.0004", "0.000200"],
    }
    assert "mockllm/both: all 104 samples would cost about $0.04" in printed


def test_the_cost_per_scored_answer_counts_each_epoch_s_answer(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Seam 5 of issue 35: 3 epochs grade each question's answer three times."""
    prices = prices_file(tmp_path, "mockllm/epochs-judge", "mockllm/epochs-subject")
    log = run_live_qa(judge_name="epochs-judge", name="epochs-subject", limit=2, epochs=3)
    printed = report(capsys, log.location, "--model-cost-config", prices)
    assert cost_rows(printed)["role grader"] == ["6", "6", "0.0012", "0.000200"]
    assert graded(load(log.location, SECTIONS)) == 6


def test_a_judge_whose_replies_were_cached_keeps_its_cost_beside_its_agreement(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Seam 2 of issue 35 in the judges table: a judge re-run from the cache is not free."""
    prices = prices_file(tmp_path, "mockllm/judge-again", "mockllm/judge-once")
    again = [run_judge(lambda *_: verdict("0.3"), "judge-again", limit=2) for _ in range(2)]
    once = run_judge(lambda *_: verdict("0.7"), "judge-once", limit=2)
    printed = report(capsys, again[1].location, once.location, "--model-cost-config", prices)
    judges = table(printed.tables, "Judges")
    assert {row[0]: cell(row[-3]) for row in judges.rows} == {
        "mockllm/judge-again": "0.0004",  # 2 replies, both from the cache
        "mockllm/judge-once": "0.0004",
    }
    assert judges.notes == [
        "mockllm/judge-again: 2 of 2 judge replies read from the cache; their tokens are counted "
        "at what they would cost uncached"
    ]
