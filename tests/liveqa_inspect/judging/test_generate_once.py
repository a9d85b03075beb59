"""Generate once, judge many: a `--no-score` run needs no judge and no key, and a re-grading of
it by `score()` (the log's scorers, a panel bound to the grader role) is a complete graded log
whose judge the report prices from the scoring's model events (docs/judge-cost.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval, score
from inspect_ai.event import ModelEvent
from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log, write_eval_log
from inspect_ai.model import ModelCost, ModelInfo, set_model_info

from liveqa_inspect import live_qa
from liveqa_inspect.default_judge import DEFAULT_JUDGE
from liveqa_inspect.errors import LiveQAError
from liveqa_inspect.judging.verdicts import verdicts
from liveqa_inspect.tasks.live_qa.task import live_qa_scorer
from tests.commands import inspect_eval_logs
from tests.helpers import (
    QUIET,
    judge_script,
    report,
    scripted_model,
    section,
    subject_script,
    verdict,
)
from tests.openai_server import OpenAIServer

COST = "Tokens and cost"


@pytest.fixture
def no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)


def generate(limit: int = 3, **args: object) -> EvalLog:
    [log] = eval(
        live_qa(reference_metrics=False),
        model=scripted_model(subject_script, "answers"),
        limit=limit,
        score=False,
        **QUIET,
        **args,  # type: ignore[arg-type]
    )
    return log


@pytest.mark.usefixtures("no_key")
def test_a_no_score_run_needs_no_judge_and_no_key() -> None:
    log = generate()
    assert log.status == "success", log.error
    assert log.samples is not None and len(log.samples) == 3
    answers = {s.output.completion for s in log.samples}
    assert answers == {"ANSWER-ONE", "ANSWER-SEVEN", "ANSWER-THREE"}
    assert set(log.stats.model_usage) == {"mockllm/answers"}  # no judge made, none called
    assert log.results is None or not log.results.scores


@pytest.mark.usefixtures("no_key")
def test_a_scored_run_without_the_default_judge_s_key_is_refused_before_it_starts(
    tmp_path: Path,
) -> None:
    """As a task that cannot be built is: `eval()` raises, no log, nothing answered or paid."""
    subject = scripted_model(subject_script)
    with pytest.raises(LiveQAError) as refused:
        eval(live_qa(reference_metrics=False), model=subject, log_dir=str(tmp_path), **QUIET)
    said = refused.value.args[0]
    assert said.startswith(f"The default judge {DEFAULT_JUDGE} cannot be made (")
    assert "No OPENAI_API_KEY" in said and "\n" not in said
    assert "--model-role grader=MODEL" in said and "--no-score" in said
    assert subject.calls == [] and not list_eval_logs(str(tmp_path))


def price(dollars: float) -> ModelCost:
    """$ per million tokens, in and out; a scripted call is 1 input and 1 output token."""
    return ModelCost(input=dollars, output=dollars, input_cache_write=0, input_cache_read=0)


def regrade(log: EvalLog, jurors: list) -> EvalLog:  # type: ignore[type-arg]
    """The log's own scorers, as `inspect score LOG` runs them (the judge's, then `verdicts`)."""
    scorers = [live_qa_scorer(), verdicts(judge="live_qa_scorer", levels=[0.0, 0.3, 0.7, 1.0])]
    return score(log, scorers, model_roles={"grader": jurors}, action="overwrite")


@pytest.mark.usefixtures("no_key")
def test_a_re_graded_panel_is_a_complete_log_and_its_judge_is_priced_from_its_events(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    set_model_info("mockllm/regrade-priced", ModelInfo(cost=price(1_000_000)))
    jurors = [
        scripted_model(judge_script, "regrade-priced"),
        scripted_model(lambda *_: verdict("1"), "regrade-free"),
    ]
    answers = generate()
    graded = regrade(answers, jurors)
    assert graded.status == "success", graded.error
    assert graded.results is not None
    found = {s.name: {k: m.value for k, m in s.metrics.items()} for s in graded.results.scores}
    assert found["live_qa_scorer"]["mean"] == pytest.approx((1.0 + 0.85 + 0.65) / 3)
    assert found["verdicts"] == pytest.approx(
        {
            "scored": 3,
            "unscored": 0,
            "juror/mockllm/regrade-priced/mean": (1.0 + 0.7 + 0.3) / 3,
            "juror/mockllm/regrade-free/mean": 1.0,
            "krippendorff_alpha": found["verdicts"]["krippendorff_alpha"],
        }
    )
    assert graded.samples is not None
    for sample in graded.samples:
        meta = sample.scores["live_qa_scorer"].metadata
        assert meta["judge"]["models"] == ["mockllm/regrade-priced", "mockllm/regrade-free"]
        assert meta["prompt"] == answers.eval.metadata["judge_prompt"]  # as a direct run has it
        events = [e for e in sample.events if isinstance(e, ModelEvent) and e.role == "grader"]
        assert sorted(e.model for e in events) == ["mockllm/regrade-free", "mockllm/regrade-priced"]
    # Inspect leaves the stats as the generation made them: the judges are not in them.
    assert set(graded.stats.model_usage) == {"mockllm/answers"}

    path = tmp_path / "graded.eval"
    write_eval_log(graded, str(path))
    rows = {row[1]: row[2:] for row in section(report(capsys, str(path)), COST)}
    assert rows == {
        "role grader": ["6", "6", "", "", "no price", "no price"],
        "model mockllm/answers": ["3", "3", "", "", "no price", "no price"],
        "model mockllm/regrade-priced": ["3", "3", "", "", "6.0000", "2.000000"],
        "model mockllm/regrade-free": ["3", "3", "", "", "no price", "no price"],
    }

    prices = tmp_path / "prices.yaml"
    prices.write_text(
        "mockllm/regrade-free:\n  input: 2000000\n  output: 0\n"
        "  input_cache_write: 0\n  input_cache_read: 0\n"
    )
    printed = report(capsys, str(path), "--model-cost-config", str(prices))
    rows = {row[1]: row[2:] for row in section(printed, COST)}
    assert rows["role grader"] == ["6", "6", "", "", "12.0000", "4.000000"]
    assert rows["model mockllm/regrade-free"] == ["3", "3", "", "", "6.0000", "2.000000"]


def test_a_prices_file_that_cannot_be_read_is_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from liveqa_inspect.report import main

    prices = tmp_path / "prices.yaml"
    prices.write_text("mockllm/model: {input: 1}\n")
    assert main([str(tmp_path), "--model-cost-config", str(prices)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: cannot read the prices in {prices}:")


# -- through the commands (in this process, tests/commands.py) against the local server --------


def answer_or_grade(messages: list[dict], model: str) -> str:
    """Each judge its own level (`judge-a` 1, `judge-b` 0.3); the model under test an answer."""
    prompt = "\n".join(str(m.get("content", "")) for m in messages)
    if "<answer>" not in prompt:
        return "An answer."
    return verdict("1" if model == "judge-a" else "0.3")


@pytest.mark.slow
def test_generate_with_no_key_then_grade_with_a_panel_through_inspect_score(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """No `--scorer`: `inspect score LOG` re-runs every scorer the log names, `verdicts` too
    (which Inspect looks up by the names the log records, without the package)."""
    panel = "grader=openai-api/local/judge-a,openai-api/local/judge-b"
    with OpenAIServer(answer_or_grade) as server:
        env = {**server.env(), "OPENAI_API_KEY": None}
        _, [answers] = inspect_eval_logs(
            "eval",
            "liveqa_inspect/live_qa",
            "--model",
            "openai-api/local/subject",
            "-T",
            "reference_metrics=false",
            "--limit",
            "3",
            "--no-score",
            "--display",
            "none",
            log_dir=tmp_path / "logs",
            env=env,
        )
        assert answers.status == "success", answers.error
        assert {r.model for r in server.requests} == {"subject"}
        graded = tmp_path / "graded.eval"
        ran, _ = inspect_eval_logs(  # a fresh process: the scorers are looked up as it starts
            "score",
            answers.location,
            "--model-role",
            panel,
            "--output-file",
            str(graded),
            "--display",
            "none",
            log_dir=tmp_path / "logs",
            env=env,
            fresh=True,
        )
        assert ran.returncode == 0, ran.output[-3000:]
        asked = sorted(r.model for r in server.requests if r.model != "subject")
    assert asked == ["judge-a"] * 3 + ["judge-b"] * 3
    log = read_eval_log(str(graded))
    assert log.status == "success" and log.results is not None
    found = {s.name: {k: m.value for k, m in s.metrics.items()} for s in log.results.scores}
    assert found["live_qa_scorer"]["mean"] == pytest.approx(0.65)
    assert found["verdicts"]["scored"] == 3 and found["verdicts"]["unscored"] == 0
    assert found["verdicts"]["juror/openai-api/local/judge-b/mean"] == pytest.approx(0.3)
    rows = {row[1]: row[2:] for row in section(report(capsys, str(graded)), COST)}
    assert set(rows) == {
        "role grader",
        "model openai-api/local/subject",
        "model openai-api/local/judge-a",
        "model openai-api/local/judge-b",
    }
    assert rows["role grader"][-2:] == ["no price", "no price"]
