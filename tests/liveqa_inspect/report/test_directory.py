"""`liveqa-report DIR`: every log of a folder, task by task, saying what it skipped and why."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from inspect_ai import Task, eval, eval_set
from inspect_ai.dataset import Sample

from liveqa_inspect import live_qa, live_qa_judge
from liveqa_inspect.data.own_set import OWN_SET
from liveqa_inspect.report import main
from tests.helpers import (
    QUIET,
    judge_script,
    report,
    run_live_qa,
    scripted_model,
    section,
    subject_script,
    verdict,
)


def test_a_folder_is_reported_task_by_task_with_what_was_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    judge = scripted_model(judge_script, "judge")
    runs = [
        (live_qa(reference_metrics=False), scripted_model(subject_script), {"grader": judge}),
        (live_qa_judge(), scripted_model(lambda *_: verdict("1"), "judged"), None),
        (Task(dataset=[Sample(input="x", target="y")]), scripted_model(lambda *_: "y"), None),
    ]
    for task, model, roles in runs:
        [log] = eval(task, model=model, model_roles=roles, limit=2, log_dir=str(tmp_path), **QUIET)
        assert log.status == "success", log.error
    (tmp_path / "notes.txt").write_text("not a log")
    printed = report(capsys, str(tmp_path))
    assert "== live_qa: 1 log(s) ==" in printed
    assert "== live_qa_judge: 1 log(s) ==" in printed
    [skipped] = [line for line in printed.splitlines() if line.startswith("skipped")]
    assert "is a log of task 'task': this report reads only live_qa" in skipped
    costs = [table for table in printed.tables if table.title.startswith("Tokens")]
    assert [table.rows[0][:2] for table in costs] == [
        ["mockllm/model", "role grader"],
        ["mockllm/judged", "model mockllm/judged"],
    ]


def test_an_eval_set_over_two_models_is_reported_from_its_folder(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    models = [
        scripted_model(lambda *_, said=answer: said, name)
        for name, answer in (("first", "ANSWER-A"), ("second", "ANSWER-B"))
    ]
    done, logs = eval_set(
        live_qa(reference_metrics=False),
        log_dir=str(tmp_path),
        model=models,
        model_roles={"grader": scripted_model(judge_script, "judge")},
        limit=3,
        **QUIET,
    )
    assert done and len(logs) == 2
    printed = report(capsys, str(tmp_path))
    assert "== live_qa: 2 log(s) ==" in printed
    assert "skipped" not in printed
    assert {row[0] for row in section(printed, "Tokens")} == {"mockllm/first", "mockllm/second"}


def test_a_folder_without_a_reportable_log_is_refused_saying_why(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    [log] = eval(
        Task(dataset=[Sample(input="x", target="y")]),
        model=scripted_model(lambda *_: "y"),
        log_dir=str(tmp_path),
        **QUIET,
    )
    assert log.status == "success"
    assert main([str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"error: no log in {tmp_path} can be reported: ")
    assert "is a log of task 'task'" in error


def test_a_copy_or_another_question_set_costs_no_log_its_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 36 (4): a backup copy skipped every live_qa log; LiveQA beside an own set, both."""
    ours = tmp_path / "ours.jsonl"
    question = {"id": "q1", "question": "Is a fever dangerous?", "references": ["Not often."]}
    ours.write_text(json.dumps(question) + "\n", encoding="utf-8")
    liveqa = Path(run_live_qa(limit=2).location)
    run_live_qa(limit=2, data=str(ours))
    backup = liveqa.parent / "backup"
    backup.mkdir()
    shutil.copy(liveqa, backup)

    printed = report(capsys, str(liveqa.parent), "--out", str(tmp_path))
    sha = hashlib.sha256(ours.read_bytes()).hexdigest()[:12]
    assert "== live_qa: 1 log(s) ==" in printed
    assert f"== live_qa on ours.jsonl: {OWN_SET}, sha256 {sha}: 1 log(s) ==" in printed
    assert [line for line in printed.splitlines() if line.startswith(("read", "skipped"))] == [
        f"read once: {backup / liveqa.name} is a copy of {liveqa} (the same bytes)"
    ]
    assert len([table for table in printed.tables if table.title.startswith("Tokens")]) == 2


def test_an_empty_folder_is_said_to_hold_no_logs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main([str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"error: no Inspect logs found in {tmp_path}\n"
