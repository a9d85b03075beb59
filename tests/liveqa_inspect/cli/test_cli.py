"""The real command a user runs, against a local OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import inspect_cli
from tests.openai_server import OpenAIServer

pytestmark = pytest.mark.slow

JUDGE = "gpt-4o-2024-05-13"
SUBJECT = "gpt-4o-mini-2024-07-18"


def respond(messages: list[dict], model: str) -> str:
    """The subject echoes a marker of its question; the judge grades by that marker."""
    text = "\n".join(str(m.get("content", "")) for m in messages)
    if model == JUDGE:
        return "<reasoning>Matches the references.</reasoning>\n<score>0.7</score>"
    match = re.search(r"question\.\n\n(.{0,30})", text)
    return f"An answer to: {match.group(1) if match else '?'}"


def test_inspect_eval_live_qa_end_to_end(tmp_path: Path) -> None:
    with OpenAIServer(respond) as server:
        result, logs = inspect_cli(
            "eval", "liveqa_inspect/live_qa",
            "--model", f"openai/{SUBJECT}", "--model-role", f"grader=openai/{JUDGE}",
            "--display", "none", "--limit", "10",
            log_dir=tmp_path, env=server.env(), timeout=300,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        judge_calls = server.count(lambda r: r.model == JUDGE)
        subject_calls = server.count(lambda r: r.model == SUBJECT)
    [log] = logs
    # inspect eval exits 0 even when the eval failed: the log's status is what counts.
    assert log.status == "success", log.error
    assert (judge_calls, subject_calls) == (10, 10)
    judge_scores = log.results.scores[0]
    assert judge_scores.name == "live_qa_scorer"
    assert judge_scores.metrics["mean"].value == 0.7
    assert judge_scores.metrics["share_0.7"].value == 1.0
    sample = log.samples[0]
    assert sample.output.completion.startswith("An answer to: What is the relationship")
    score = sample.scores["live_qa_scorer"]
    assert score.metadata["judge_models"] == [f"openai/{JUDGE}"]
    assert score.explanation == "Matches the references."
    assert log.eval.model_roles["grader"].model == f"openai/{JUDGE}"


def test_inspect_list_tasks_finds_the_four_tasks_in_a_checkout(tmp_path: Path) -> None:
    """As the README says: Inspect lists the tasks of a folder's files, so `src` in a checkout."""
    result, _ = inspect_cli(
        "list", "tasks", "src", log_dir=tmp_path, env={}, timeout=120,
        cwd=Path(__file__).resolve().parents[3],
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    tasks = sorted(line.split("@")[1] for line in result.stdout.split())
    assert tasks == ["expert_qa", "expert_qa_claims", "live_qa", "live_qa_judge"]
