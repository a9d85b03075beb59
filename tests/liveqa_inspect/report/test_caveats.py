"""What a run warns of, its report says too, in the same words (issue 36, 7): a model grading its
own answers, a model served from SmolLM2-135M's file."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from liveqa_inspect.caveats import grades_itself, too_small
from liveqa_inspect.providers.gguf import MODEL_FILE
from tests.helpers import judge_script, report, run_live_qa, scripted_model
from tests.liveqa_inspect.providers.local import SMOLLM2


def warned(printed: str) -> list[str]:
    return [line.rstrip() for line in printed.splitlines() if line.startswith("WARNING")]


def test_a_model_grading_its_own_answers_is_said_in_the_report(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    with caplog.at_level(logging.WARNING):
        log = run_live_qa(limit=2, judge_name="model")
    said = grades_itself("mockllm/model")
    assert said in caplog.text
    for markdown in ([], ["--markdown"]):
        printed = report(capsys, log.location, "--out", str(tmp_path), *markdown)
        assert warned(printed) == [f"WARNING: {Path(log.location).name}: {said}"]


def test_a_judge_served_from_smollm2_135m_is_said_in_the_report(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A judge whose replies name the 135M file, as gguf/'s replies do (the real run: the slow
    test_local_runs)."""

    judge = scripted_model(judge_script, "small", metadata={MODEL_FILE: SMOLLM2})
    log = run_live_qa(grader=judge, limit=2)
    printed = report(capsys, log.location, "--out", str(tmp_path))
    assert warned(printed) == [f"WARNING: {Path(log.location).name}: {too_small('mockllm/small')}"]
