"""A judge bound with `batch` in its role config batches its calls (docs/eval-sets.md): our judge
defaults never override it, and through the `openai/` provider its calls go to the batch API."""

from __future__ import annotations

import pytest
from inspect_ai import eval
from inspect_ai.model import BatchConfig, GenerateConfig, get_model

from liveqa_inspect import live_qa
from tests.helpers import QUIET, judge_script, scripted_model, subject_script
from tests.openai_server import OpenAIServer

BATCH = BatchConfig(size=4, send_delay=0.1, tick=0.1)
"""Sent as soon as 4 calls wait, polled every 0.1 s: Inspect's defaults wait 15 s."""


@pytest.mark.parametrize("bound", [True, False], ids=["role-config", "eval-batch"])
def test_batch_reaches_the_judge_only_through_its_role_config(bound: bool) -> None:
    """`eval(batch=...)` (`inspect eval --batch`) batches the model under test alone: the judge
    batches only when its role says so, and then every call of every attempt does."""
    subject = scripted_model(subject_script)
    judge = scripted_model(judge_script, "judge", **({"batch": BATCH} if bound else {}))
    [log] = eval(
        live_qa(reference_metrics=False),
        model=subject,
        model_roles={"grader": judge},
        batch=None if bound else BATCH,
        limit=3,
        **QUIET,
    )
    assert log.status == "success", log.error
    judged = [config.batch for _, config in judge.calls]
    assert judged == [BATCH if bound else None] * 3
    assert [config.batch for _, config in subject.calls] == [None if bound else BATCH] * 3
    jurors = [sample.scores["live_qa_scorer"].metadata["jurors"][0] for sample in log.samples]
    assert [juror["config"].get("batch") for juror in jurors] == [
        BATCH.model_dump(exclude_none=True) if bound else None
    ] * 3


@pytest.mark.slow
def test_a_batching_judge_grades_through_the_openai_batch_api() -> None:
    """The pinned judge on a local server speaking the files and batches endpoints: every judge
    request arrives in a batch and its verdict comes back from the batch's output file."""
    with OpenAIServer(lambda *_: "<reasoning>Batched.</reasoning>\n<score>0.7</score>") as server:
        judge = get_model(
            "openai/gpt-4o-2024-05-13",
            base_url=server.base_url,
            api_key="test",
            config=GenerateConfig(batch=BATCH),
            memoize=False,
        )
        [log] = eval(
            live_qa(reference_metrics=False),
            model=scripted_model(subject_script),
            model_roles={"grader": judge},
            limit=4,
            **QUIET,
        )
        batches = list(server.batches.values())
        requests = server.count()
    assert log.status == "success", log.error
    assert [batch["request_counts"] for batch in batches] == [
        {"total": 4, "completed": 4, "failed": 0}
    ]
    assert batches[0]["endpoint"] == "/v1/chat/completions"
    assert requests == 4  # each batched request answered once, none sent on its own
    assert [sample.scores["live_qa_scorer"].value for sample in log.samples] == [0.7] * 4
    assert log.results.scores[0].metrics["mean"].value == 0.7
