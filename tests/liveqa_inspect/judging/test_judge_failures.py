"""Judges that fail: caught before any answer is generated, or ended with the judge named."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.log import EvalLog

from liveqa_inspect.default_judge import DEFAULT_JUDGE
from tests.commands import Ran, inspect_eval_logs
from tests.openai_server import Faults, OpenAIServer

pytestmark = pytest.mark.slow


# -- through `inspect eval` (in this process, tests/commands.py) against the local server ------

SUBJECT = "gpt-4o-mini-2024-07-18"
JUDGE = "gpt-4o-2024-05-13"


def answer_everything(messages: list[dict], model: str) -> str:
    return "<reasoning>Fine.</reasoning><score>1</score>" if model == JUDGE else "An answer."


def inspect_eval(
    server: OpenAIServer, tmp_path: Path, *args: str, subject: str = f"openai/{SUBJECT}"
) -> tuple[Ran, EvalLog | None]:
    env: dict[str, str | None] = {**server.env(), "OTHER_API_KEY": None}
    if not subject.startswith("openai/"):
        env["OPENAI_API_KEY"] = None  # the pinned default judge then has no key
    result, logs = inspect_eval_logs(
        "eval",
        "liveqa_inspect/live_qa",
        "--model",
        subject,
        "-T",
        "reference_metrics=false",
        "--limit",
        "4",
        "--display",
        "plain",
        *args,
        log_dir=tmp_path / "logs",
        env=env,
    )
    return result, logs[0] if logs else None


def test_the_default_judge_without_a_key_stops_the_run_before_any_answer_saying_how_to_fix_it(
    tmp_path: Path,
) -> None:
    """No grader bound: the pinned default (openai/...) is made as the run starts (a `--no-score`
    run makes none), so the missing key stops the command with one message, exit 1, no log, and
    nothing paid for."""
    with OpenAIServer(answer_everything) as server:
        result, log = inspect_eval(server, tmp_path, subject="openai-api/local/subject")
        subject_calls = server.count()
    assert subject_calls == 0 and log is None
    assert result.returncode == 1 and "Traceback" not in result.output
    said = f"The default judge {DEFAULT_JUDGE} cannot be made (Unable to initialise OpenAI client"
    shown = " ".join(result.output.split())
    assert shown.startswith(f"ERROR: {said}")
    assert "or bind another judge with --model-role grader=MODEL" in shown


def test_a_bound_judge_without_a_key_is_refused_by_inspect_in_one_line(tmp_path: Path) -> None:
    with OpenAIServer(answer_everything) as server:
        result, log = inspect_eval(
            server, tmp_path, "--model-role", "grader=openai-api/other/judge-model"
        )
        assert server.count() == 0
    assert log is None  # refused before the eval starts
    output = result.stdout + result.stderr
    assert "No OTHER_API_KEY defined in the environment." in output
    assert "Traceback" not in output


def test_a_judge_that_always_fails_ends_the_run_naming_judge_and_status(tmp_path: Path) -> None:
    """The default budget (5 Inspect retries) ends such a run in about two minutes; here the
    role's own `max_retries: 1` shows the same ending in seconds, and that it is the user's to
    set."""
    faults = Faults(always={JUDGE: 500}, retry_after_ms=10)
    with OpenAIServer(answer_everything, faults=faults) as server:
        _, log = inspect_eval(
            server, tmp_path, "--model-role", f"grader={{model: openai/{JUDGE}, max_retries: 1}}"
        )
        judge_statuses = {r.status for r in server.requests if r.model == JUDGE}
        subject_ok = server.count(lambda r: r.model == SUBJECT and r.status == 200)
    assert log is not None and log.status == "error"
    assert f"The judge openai/{JUDGE} failed" in str(log.error)
    assert "500" in str(log.error)
    assert judge_statuses == {500}
    assert subject_ok >= 1  # the subject answered; only the judge failed
