"""Judges that fail: caught before any answer is generated, or ended with the judge named."""

from __future__ import annotations

import pytest
from inspect_ai import eval

from liveqa_inspect import live_qa
from tests.helpers import scripted_model, subject_script


def test_judges_ready_stops_a_run_whose_judge_has_no_key_before_any_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    subject = scripted_model(subject_script)
    task = live_qa(reference_metrics=False)
    assert task.setup is not None and "judges_ready" in str(task.setup)
    [log] = eval(task, model=subject, limit=4, display="none")
    assert log.status == "error"
    assert "OPENAI_API_KEY" in str(log.error)
    assert subject.calls == []  # no answer generated, none paid for

