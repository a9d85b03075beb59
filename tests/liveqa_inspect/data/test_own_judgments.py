"""A team's own judgments (`-T judgments=FILE`): recorded by name and digest where NIST's file would
be, so the report tells them apart; a retry after the file changed is refused (issue 43, 4)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from inspect_ai import eval, eval_retry
from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.model import GenerateConfig

from liveqa_inspect import live_qa_judge, live_qa_judge_robustness
from liveqa_inspect.data.own_judgments import OWN_JUDGMENTS, OwnJudgments
from liveqa_inspect.data.sources import LIVEQA_JUDGMENTS, LIVEQA_QUESTIONS
from liveqa_inspect.errors import LiveQAError
from tests.helpers import QUIET, judgments_file, scripted_model, verdict

GRADES = [
    {"question_id": "TQ2", "answer": "It contains no gluten.", "grade": 4},
    {"question_id": "TQ3", "answer": "Ask your doctor.", "grade": 1},
    {"question_id": "TQ4", "answer": "Drink water and rest.", "grade": 3},
]


def own(tmp_path: Path) -> Path:
    return judgments_file(tmp_path, *(json.dumps(grade) for grade in GRADES), "")


def test_own_judgments_are_recorded_in_place_of_nist_s(tmp_path: Path) -> None:
    path = own(tmp_path)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    record = {"judgments": OWN_JUDGMENTS, "sha256": digest, "rows": 3}
    tag = f"own-judgments:judgments.jsonl#sha256={digest}"
    for task in (
        live_qa_judge(judgments=str(path)),
        live_qa_judge_robustness(judgments=str(path), per_grade=1, perturbations="padding"),
    ):
        data = task.metadata["data"]
        assert set(data) == {LIVEQA_QUESTIONS.filename, "judgments.jsonl"}
        assert data["judgments.jsonl"] == record
        assert OWN_JUDGMENTS in task.metadata["data_license"]
        assert task.tags == [tag]
        assert OwnJudgments.of_log(task.metadata) == OwnJudgments("judgments.jsonl", digest, 3)


def test_nist_s_judgments_are_recorded_by_their_url_and_no_tag() -> None:
    task = live_qa_judge()
    assert task.metadata["data"][LIVEQA_JUDGMENTS.filename] == LIVEQA_JUDGMENTS.provenance()
    assert not task.tags and OwnJudgments.of_log(task.metadata) is None


@pytest.mark.slow
def test_eval_retry_after_the_judgments_changed_is_refused(
    tmp_path: Path, words_as_tokens: None
) -> None:
    """A run that failed part way, retried after its judgments file was edited, would measure
    the judge against the old grades in the samples it keeps and the new ones in the others.
    (The retry makes its models from the log: mockllm's default replies.)"""
    path = own(tmp_path)
    logs = str(tmp_path / "logs")

    def failing(prompt: str, _: GenerateConfig) -> str:
        if "Drink water" in prompt:
            raise RuntimeError("scripted failure")
        return verdict("1")

    task = live_qa_judge(judgments=str(path))
    run = {"log_dir": logs, "max_samples": 1, **QUIET}
    [failed] = eval(task, model=scripted_model(failing), **run)
    assert failed.status == "error" and failed.samples is not None
    assert {s.id for s in failed.samples if s.error is None} == {"TQ2-L1", "TQ3-L2"}
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    original = path.read_text(encoding="utf-8")
    path.write_text(original.replace('"grade": 3', '"grade": 2'), "utf-8")
    after = hashlib.sha256(path.read_bytes()).hexdigest()

    with pytest.raises(LiveQAError) as refused:
        eval_retry(failed.location, log_dir=logs, **QUIET)

    assert refused.value.args[0] == (
        f"judgments.jsonl has changed since the log was written (sha256 {before} then, {after} "
        "now): the judge would be measured against other human grades in the samples the retry "
        "runs than in those it keeps. Restore the file and retry the log the first run wrote, or "
        "run it anew with `inspect eval`."
    )
    ended = {read_eval_log(info.name).eval.eval_id: info for info in list_eval_logs(logs)}
    assert len(ended) == 2  # the first run's and the refused retry's, which ran no sample
    path.write_text(original, "utf-8")  # restored, the first log is retried as usual
    [retried] = eval_retry(failed.location, log_dir=logs, **QUIET)
    assert retried.status == "success", retried.error
    assert retried.samples is not None and len(retried.samples) == 3
