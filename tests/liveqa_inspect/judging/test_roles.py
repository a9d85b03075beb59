"""A role no task reads (a misspelt `--model-role grade=...`) is refused before any model is
called, naming the role the tasks read (issue 36, 6): else the paid default judge grades."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from inspect_ai import eval, score
from inspect_ai.log import list_eval_logs

from liveqa_inspect import live_qa, live_qa_judge
from liveqa_inspect.errors import LiveQAError
from liveqa_inspect.tasks.live_qa.task import live_qa_scorer
from tests.commands import inspect_command
from tests.helpers import QUIET, judge_script, scripted_model, subject_script

REFUSED = (
    "--model-role grade: no task of liveqa_inspect reads this role. The one role read is "
    "'grader', the judge: --model-role grader=MODEL (docs/judge.md)."
)


def test_a_misspelt_role_is_refused_before_the_model_answers(tmp_path: Path) -> None:
    """As the run starts, a task built before `eval()` too: no log, no model called."""
    subject, judge = scripted_model(subject_script), scripted_model(judge_script, "judge")
    with pytest.raises(LiveQAError, match=re.escape(REFUSED)):
        eval(
            live_qa(reference_metrics=False),
            model=subject,
            model_roles={"grade": judge},
            log_dir=str(tmp_path),
            **QUIET,
        )
    assert subject.calls == [] and judge.calls == []  # type: ignore[attr-defined]
    assert not list_eval_logs(str(tmp_path))


def test_a_role_beside_the_grader_is_refused_before_the_judge_is_asked(tmp_path: Path) -> None:
    judge, other = scripted_model(judge_script, "judge"), scripted_model(judge_script, "other")
    with pytest.raises(LiveQAError, match=re.escape(REFUSED)):
        eval(
            live_qa_judge(),
            model=scripted_model(judge_script, "evaluated"),
            model_roles={"grader": judge, "grade": other},
            log_dir=str(tmp_path),
            **QUIET,
        )
    assert judge.calls == [] and other.calls == []  # type: ignore[attr-defined]


def test_a_re_grading_with_a_misspelt_role_is_refused_before_the_judge_is_asked() -> None:
    """`score()` starts no run: the judge's scorer refuses."""
    subject, judge = scripted_model(subject_script), scripted_model(judge_script, "judge")
    [answers] = eval(live_qa(reference_metrics=False), model=subject, limit=1, score=False, **QUIET)
    with pytest.raises(LiveQAError, match=re.escape(REFUSED)):
        score(answers, [live_qa_scorer()], model_roles={"grade": judge})
    assert judge.calls == []  # type: ignore[attr-defined]


def test_the_command_refuses_a_misspelt_role_in_one_line(tmp_path: Path) -> None:
    args = "eval liveqa_inspect/live_qa --model mockllm/model --model-role grade=mockllm/judge"
    ran = inspect_command(*args.split(), "--log-dir", str(tmp_path / "logs"))
    assert ran.returncode == 1
    assert "".join(ran.output.split()) == "".join(f"ERROR: {REFUSED}".split())
    assert not list_eval_logs(str(tmp_path / "logs"))
