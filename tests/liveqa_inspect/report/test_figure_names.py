"""Figures that never overwrite each other, headed by what they measure (issue 36, 8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval

from liveqa_inspect import live_qa_judge
from tests.helpers import QUIET, report, run_live_qa, scripted_model, verdict, written


def test_two_comparisons_sharing_a_first_log_write_two_figures(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    a, b, c = (run_live_qa(limit=2, name=name).location for name in "abc")
    first = written(report(capsys, a, b, "--out", str(tmp_path)))
    second = written(report(capsys, a, c, "--out", str(tmp_path)))
    assert first != second and all(path.is_file() for path in (*first, *second))
    assert [path.name.split("-models-")[0] for path in (*first, *second)] == [Path(a).stem] * 2


def test_a_judge_run_without_a_model_is_headed_by_its_judge(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    judge = scripted_model(lambda *_: verdict("1"), "judge")
    [log] = eval(live_qa_judge(), model_roles={"grader": judge}, limit=2, **QUIET)
    assert log.status == "success", log.error
    printed = report(capsys, log.location, "--out", str(tmp_path))
    assert "none/none" not in printed
    assert printed.splitlines()[1].startswith("judge: mockllm/judge (the grader role); prompt: ")
