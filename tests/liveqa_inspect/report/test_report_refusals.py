"""Refusals and escapes the first report kinds lacked (issue 28, items 13-15)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from inspect_ai import eval
from inspect_ai.model import GenerateConfig

from liveqa_inspect import live_qa
from liveqa_inspect.report import main
from liveqa_inspect.report.tables import Table, render
from tests.helpers import QUIET, judge_script, run_live_qa, scripted_model


def refused(capsys: pytest.CaptureFixture[str], *paths: str) -> str:
    capsys.readouterr()  # what the runs before printed
    assert main(list(paths)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    [line] = captured.err.splitlines()
    return line


def test_a_copy_of_a_log_at_another_path_is_the_same_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = run_live_qa(limit=2)
    copy = tmp_path / "copy.eval"
    shutil.copyfile(log.location, copy)
    assert refused(capsys, log.location, str(copy)) == (
        f"error: {copy} is given twice: a log compared with itself says nothing; give each log "
        f"once ({log.location} is a copy of it, the same bytes)"
    )


def test_a_log_whose_every_sample_errored_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    def failing(prompt: str, _: GenerateConfig) -> str:
        raise RuntimeError("the subject is down")

    [log] = eval(
        live_qa(reference_metrics=False),
        model=scripted_model(failing, "down"),
        model_roles={"grader": scripted_model(judge_script, "judge")},
        limit=3,
        fail_on_error=False,
        **QUIET,
    )
    line = refused(capsys, log.location)
    assert line.startswith(f"error: {log.location}: all 3 of its samples errored, so nothing")
    assert "the subject is down" in line and "inspect eval-retry" in line


def test_a_bar_in_an_excerpt_stays_in_its_markdown_cell() -> None:
    """Excerpts (answers, completions) and group names come from the data: a `|` is escaped in
    Markdown, where it would end the cell, and kept as it is in the terminal's table."""
    table = Table("t", ["answer", "n"], [["x | y", 1]])
    assert render([table], markdown=True).splitlines()[-1] == "| x \\| y   |   1 |"
    assert render([table]).splitlines()[-1] == "x | y       1"
