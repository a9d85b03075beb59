"""The `inspect` command a user runs, against a local OpenAI-compatible server on 127.0.0.1.

In this process (tests/commands.py), but for the live_qa run, a real `python -m inspect_ai`:
what a fresh command does, entry point and imports included.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from liveqa_inspect.tasks.robustness.dataset import TEXTS
from tests.commands import inspect_command, inspect_eval_logs
from tests.helpers import figures, probe, remainders
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
        result, logs = inspect_eval_logs(
            "eval",
            "liveqa_inspect/live_qa",
            "--model",
            f"openai/{SUBJECT}",
            "--model-role",
            f"grader=openai/{JUDGE}",
            "--display",
            "none",
            "--limit",
            "10",
            log_dir=tmp_path,
            env=server.env(),
            fresh=True,
        )
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
    assert score.metadata["judge"]["models"] == [f"openai/{JUDGE}"]
    assert score.explanation == "Matches the references."
    assert log.eval.model_roles["grader"].model == f"openai/{JUDGE}"


def test_inspect_eval_live_qa_contamination_end_to_end(tmp_path: Path) -> None:
    """The probe as a user runs it: two calls a question, no judge, the left-out texts named."""
    rest = remainders()

    def knows_when_told(messages: list[dict], _: str) -> str:
        guided, shown = probe("\n".join(str(m.get("content", "")) for m in messages))
        return rest[shown] if guided else "I do not know."

    with OpenAIServer(knows_when_told) as server:
        result, logs = inspect_eval_logs(
            "eval",
            "liveqa_inspect/live_qa_contamination",
            "--model",
            f"openai/{SUBJECT}",
            "--display",
            "none",
            "--limit",
            "3",
            log_dir=tmp_path,
            env=server.env(),
        )
        assert result.returncode == 0, result.stderr
        calls = server.count(lambda r: r.model == SUBJECT)
    [log] = logs
    assert log.status == "success", log.error
    assert calls == 6
    assert len(log.eval.metadata["left_out"]) == 17
    found = figures(log)
    assert (found["guided_verbatim"], found["completions"]) == (3 - found["short"], 3)
    assert found["difference"] > 0.8


def test_inspect_list_tasks_finds_every_task_in_a_checkout() -> None:
    """As the README says: Inspect lists the tasks of a folder's files, so `src` in a checkout."""
    result = inspect_command("list", "tasks", "src", cwd=Path(__file__).resolve().parents[2])
    assert result.returncode == 0, result.stderr
    tasks = sorted(line.split("@")[1] for line in result.stdout.split())
    assert tasks == [
        "expert_qa",
        "expert_qa_claims",
        "live_qa",
        "live_qa_contamination",
        "live_qa_judge",
        "live_qa_judge_robustness",
    ]


def obey_notes(messages: list[dict], model: str) -> str:
    """A judge that gives 1 to an answer carrying a note to the grader, 0.7 to any other."""
    text = "\n".join(str(m.get("content", "")) for m in messages)
    level = "1" if any(note in text for note in TEXTS.variants["grader_note"]) else "0.7"
    return f"<reasoning>Read it.</reasoning>\n<score>{level}</score>"


def test_inspect_eval_live_qa_judge_robustness_end_to_end(tmp_path: Path) -> None:
    """A list of perturbations as a user writes it, `-T perturbations=grader_note,swap`, and a
    judge that obeys notes to the grader, measured through the real provider."""
    with OpenAIServer(obey_notes) as server:
        result, logs = inspect_eval_logs(
            "eval",
            "liveqa_inspect/live_qa_judge_robustness",
            "--model",
            f"openai/{JUDGE}",
            "-T",
            "perturbations=grader_note,swap",
            "-T",
            "per_grade=1",
            "--display",
            "none",
            log_dir=tmp_path,
            env=server.env(),
        )
        assert result.returncode == 0, result.stderr
        calls = server.count()
    [log] = logs
    assert log.status == "success", log.error
    m = {name: metric.value for name, metric in log.results.scores[0].metrics.items()}
    # Four answers, one of each grade; the grade-1 answer gets no swap: 4 + 4 + 3 calls.
    assert calls == 11
    assert (m["grader_note_n"], m["grader_note_unchanged"]) == (4, 0)
    assert m["grader_note_shift"] == pytest.approx(0.3)
    assert (m["swap_n"], m["swap_lowered"], m["robustness"]) == (3, 0, 0)
