"""A role no task reads (a misspelt `--model-role grade=...`) is refused before any model is
called, naming the role the tasks read (issue 36, 6): else the paid default judge grades."""

from __future__ import annotations

from pathlib import Path

from inspect_ai import eval

from liveqa_inspect import live_qa, live_qa_judge
from tests.commands import inspect_command
from tests.helpers import QUIET, judge_script, scripted_model, subject_script

REFUSED = (
    "--model-role grade: no task of liveqa_inspect reads this role. The one role read is "
    "'grader', the judge: --model-role grader=MODEL (docs/judge.md)."
)


def test_a_misspelt_role_is_refused_before_the_model_answers() -> None:
    subject, judge = scripted_model(subject_script), scripted_model(judge_script, "judge")
    [log] = eval(
        live_qa(reference_metrics=False),
        model=subject,
        model_roles={"grade": judge},
        limit=2,
        **QUIET,
    )
    assert log.status == "error" and log.error is not None
    assert REFUSED in log.error.message
    assert subject.calls == [] and judge.calls == []  # type: ignore[attr-defined]


def test_a_role_beside_the_grader_is_refused_before_the_judge_is_asked() -> None:
    """live_qa_judge calls no model before its judge: the judge's scorer refuses."""
    judge, other = scripted_model(judge_script, "judge"), scripted_model(judge_script, "other")
    [log] = eval(
        live_qa_judge(),
        model=scripted_model(judge_script, "evaluated"),
        model_roles={"grader": judge, "grade": other},
        limit=2,
        **QUIET,
    )
    assert log.status == "error" and log.error is not None
    assert REFUSED in log.error.message
    assert judge.calls == [] and other.calls == []  # type: ignore[attr-defined]


def test_the_command_refuses_a_misspelt_role_in_one_line(tmp_path: Path) -> None:
    args = "eval liveqa_inspect/live_qa --model mockllm/model --model-role grade=mockllm/judge"
    ran = inspect_command(*args.split(), "--log-dir", str(tmp_path / "logs"))
    assert ran.returncode == 1
    assert "".join(ran.output.split()) == "".join(f"ERROR: {REFUSED}".split())
    assert not (tmp_path / "logs").exists()
