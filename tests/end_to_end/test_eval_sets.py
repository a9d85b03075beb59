"""An eval set over two models and every task, re-graded by another judge, reported from its
folder (docs/eval-sets.md): `eval_set()` in this process, and `inspect eval-set` as a user runs
it, its judge batching through a local server. Both run 12 evals: slow. And a set where one
model failed for good: its log is skipped, saying why."""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import pytest
from inspect_ai import eval_set, score
from inspect_ai.log import read_eval_log
from inspect_ai.model import GenerateConfig

import liveqa_inspect
from liveqa_inspect import TASKS
from liveqa_inspect.report import card, cli, main
from liveqa_inspect.report.cli import build
from liveqa_inspect.report.loaded import LoadedLog
from liveqa_inspect.report.plots import Chart
from liveqa_inspect.report.tables import Block, Table, cell
from tests.commands import inspect_command, inspect_eval_logs
from tests.helpers import QUIET, Script, scripted_model, table, verdict
from tests.openai_server import OpenAIServer

JUDGE_TASKS = {"live_qa_judge", "expert_qa_claims", "live_qa_judge_robustness"}
"""They measure the grader when one is bound, else the model under test."""


def subject(answer: str) -> Script:
    """A model under test: `answer` to a question, a verdict of 1 when asked to judge."""
    return lambda prompt, *_: verdict("1") if "<score></score>" in prompt else answer


def grader(second: str) -> Script:
    """A judge giving the second model's answer `second`, any other answer or claim 1."""
    return lambda prompt, *_: verdict(second if "ANSWER-B" in prompt else "1")


def report_by_task(
    capsys: pytest.CaptureFixture[str], folder: Path
) -> tuple[str, dict[str, list[Table]]]:
    """`liveqa-report FOLDER`'s output and the tables it built for each task."""
    built: dict[str, list[Table]] = {}

    def keeping(
        logs: Sequence[LoadedLog], everything: Sequence[LoadedLog] = ()
    ) -> tuple[list[Block], list[Chart]]:
        blocks, charts = build(logs, everything)
        built[logs[0].task] = [block for block in blocks if isinstance(block, Table)]
        return blocks, charts

    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(cli, "build", keeping)
        assert main([str(folder)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out, built


def column(tables: list[Table], title: str, index: int = 0) -> list[str]:
    return [cell(row[index]) for row in table(tables, title).rows]


def means(tables: list[Table]) -> dict[str, str]:
    """Each model's mean level, as a live_qa report of several models prints it."""
    title = "The judge's mean"
    return dict(zip(column(tables, title), column(tables, title, 2), strict=True))


def assert_reported_task_by_task(
    capsys: pytest.CaptureFixture[str], folder: Path, models: list[str], judge: str
) -> dict[str, list[Table]]:
    """Every task under its heading with both models' logs; the judge tasks' logs are the
    judge's, once for each model."""
    printed, built = report_by_task(capsys, folder)
    assert "skipped" not in printed
    assert set(built) == set(TASKS)
    for block in printed.split("== ")[1:]:
        task = block.split(":", 1)[0]
        if task == card.TITLE:  # the judge card, before the tasks (tests/.../test_judge_card.py)
            continue
        assert block.startswith(f"{task}: 2 log(s) ==")
        listed = re.findall(r"^\d\. \S+ \(([^;)]+)", block, re.MULTILINE)
        # One judge measured twice: the second log is its `#2`.
        assert sorted(listed) == ([judge, f"{judge}#2"] if task in JUDGE_TASKS else models), task
        assert set(column(built[task], "Tokens")) == set(listed), task
    return built


@pytest.mark.slow  # an eval set of two runs and a retry: the fast set stays under 60 s
def test_a_model_that_failed_for_good_is_skipped_saying_why(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    def down(*_: object) -> str:
        raise RuntimeError("the API is down")

    done, _ = eval_set(
        liveqa_inspect.live_qa(reference_metrics=False),
        log_dir=str(tmp_path),
        model=[scripted_model(subject("ANSWER-A"), "first"), scripted_model(down, "second")],
        model_roles={"grader": scripted_model(grader("0.7"), "judge")},
        limit=2,
        retry_attempts=0,
        **QUIET,
    )
    assert not done
    printed, built = report_by_task(capsys, tmp_path)
    [skipped] = [line for line in printed.splitlines() if line.startswith("skipped")]
    assert "has status 'error', not 'success'" in skipped
    assert "== live_qa: 1 log(s) ==" in printed
    assert means(built["live_qa"]) == {"mockllm/first": "1.000"}


@pytest.mark.slow
def test_an_eval_set_of_every_task_over_two_models_is_reported_and_regraded(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    models = [
        scripted_model(subject("ANSWER-A"), "first"),
        scripted_model(subject("ANSWER-B"), "second"),
    ]
    args = {"live_qa": {"reference_metrics": False}}
    tasks = [getattr(liveqa_inspect, name)(**args.get(name, {})) for name in TASKS]
    done, logs = eval_set(
        tasks,
        log_dir=str(tmp_path / "set"),
        model=models,
        model_roles={"grader": scripted_model(grader("0.7"), "judge")},
        limit=2,
        **QUIET,
    )
    assert done and len(logs) == 12
    names = ["mockllm/first", "mockllm/second"]
    built = assert_reported_task_by_task(capsys, tmp_path / "set", names, "mockllm/judge")
    for task in ("live_qa", "expert_qa"):
        assert means(built[task]) == {"mockllm/first": "1.000", "mockllm/second": "0.700"}

    other = scripted_model(grader("0.3"), "other")
    for log in (read_eval_log(log.location) for log in logs):  # eval_set gives headers only
        task = getattr(liveqa_inspect, log.eval.task.split("/")[1])(**log.eval.task_args)
        regraded = score(log, task.scorer, model_roles={"grader": other}, action="overwrite")
        assert regraded.status == "success"
        scores = [sample.scores[log.eval.scorers[0].name] for sample in regraded.samples]
        if not log.eval.task.endswith("contamination"):  # the one task without a judge
            assert {tuple(s.metadata["judge"]["models"]) for s in scores} == {("mockllm/other",)}
        if log.eval.task.endswith("/live_qa"):
            assert regraded.results.scores[0].metrics["mean"].value == (
                1.0 if log.eval.model == "mockllm/first" else 0.3
            )


JUDGE = "gpt-4o-2024-05-13"
BATCHING_JUDGE = f"grader={{model: openai/{JUDGE}, batch: {{size: 2, send_delay: 0.1, tick: 0.1}}}}"
"""A judge that batches, as `--model-role` takes one (its config's fields beside `model`)."""


def respond(messages: list[dict], model: str) -> str:
    prompt = "\n".join(str(message.get("content", "")) for message in messages)
    if model in ("first", "second"):
        return subject("ANSWER-A" if model == "first" else "ANSWER-B")(prompt, GenerateConfig())
    return grader("0.7" if model == JUDGE else "0.3")(prompt, GenerateConfig())


@pytest.mark.slow
def test_inspect_eval_set_of_every_task_with_a_batching_judge_then_inspect_score(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """As a user runs it (a fresh `python -m inspect_ai`): the judge's every request arrives in a
    batch; then each log is re-graded by another judge with `inspect score`."""
    folder = tmp_path / "set"
    with OpenAIServer(respond) as server:
        ran, logs = inspect_eval_logs(
            "eval-set",
            *(f"liveqa_inspect/{task}" for task in TASKS),
            "--model",
            "openai-api/local/first,openai-api/local/second",
            "--model-role",
            BATCHING_JUDGE,
            "-T",
            "reference_metrics=false",
            "--limit",
            "2",
            "--display",
            "none",
            "--log-dir",
            str(folder),
            log_dir=folder,
            env=server.env(),
            fresh=True,
        )
        assert ran.returncode == 0, ran.stderr
        judged = server.count(lambda r: r.model == JUDGE)
        batched = sum(batch["request_counts"]["total"] for batch in server.batches.values())
        assert [log.status for log in logs] == ["success"] * 12
        assert judged == batched > 0

        regraded = tmp_path / "regraded"
        shutil.copytree(folder, regraded)
        for log in logs:
            # No --scorer: every scorer the log names runs again, `verdicts` too.
            scored = inspect_command(
                "score",
                str(regraded / Path(log.location).name),
                "--model-role",
                "grader=openai-api/local/other",
                "--action",
                "overwrite",
                "--overwrite",
                "--display",
                "none",
                env=server.env(),
            )
            assert scored.returncode == 0, scored.output
            again = read_eval_log(str(regraded / Path(log.location).name), header_only=True)
            assert again.results is not None
            assert log.results is not None
            assert [s.name for s in again.results.scores] == [s.name for s in log.results.scores]
    first, second = models = ["openai-api/local/first", "openai-api/local/second"]
    built = assert_reported_task_by_task(capsys, folder, models, f"openai/{JUDGE}")
    assert means(built["live_qa"]) == {first: "1.000", second: "0.700"}
    built = assert_reported_task_by_task(capsys, regraded, models, "openai-api/local/other")
    assert means(built["live_qa"]) == {first: "1.000", second: "0.300"}
