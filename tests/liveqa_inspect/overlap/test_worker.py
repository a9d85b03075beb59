"""The overlap metrics run in a worker process that has them loaded before the first sample."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from liveqa_inspect.overlap import worker

REPO = Path(__file__).resolve().parents[3]


def loaded(modules: list[str]) -> list[bool]:
    """Run in the worker: which of `modules` it has imported (None: an import refused)."""
    return [sys.modules.get(name) is not None for name in modules]


def test_the_worker_is_another_process_with_the_metrics_already_imported() -> None:
    pool = worker.started()
    assert pool is worker.started()  # one worker for every scorer of a process
    # The worker's first task after start: its initializer has already imported them.
    assert pool.submit(loaded, [worker.PRELOADED, "nltk", "rapidfuzz"]).result() == [True] * 3
    assert pool.submit(os.getpid).result() != os.getpid()


def test_run_awaits_the_workers_result() -> None:
    async def both() -> list[int]:
        return list(await asyncio.gather(worker.run(os.getpid), worker.run(abs, -3)))

    pid, three = asyncio.run(both())
    assert pid != os.getpid() and three == 3


@pytest.mark.slow
def test_scoring_leaves_nltk_out_of_inspects_process() -> None:
    """A fresh interpreter builds the scorer and scores an answer: the values come back, and
    neither nltk nor the metrics module was imported there."""
    code = """
import asyncio, json, sys
from inspect_ai.model import ModelName, ModelOutput
from inspect_ai.scorer import Target
from inspect_ai.solver import TaskState
from liveqa_inspect.overlap.reference import reference_overlap

score = reference_overlap()
output = ModelOutput.from_content("mockllm/model", "the cat sat on the mat")
state = TaskState(ModelName("mockllm/model"), "q1", 1, "q1", [], output=output)
result = asyncio.run(score(state, Target(["a dog", "the cat sat on the mat"])))
here = [name in sys.modules for name in ("nltk", "liveqa_inspect.overlap.text_overlap")]
from liveqa_inspect.overlap import worker
from tests.liveqa_inspect.overlap.test_worker import loaded
there = worker.started().submit(loaded, ["nltk", *worker.UNUSED]).result()
print(json.dumps([result.value, here, there]))
"""
    result = subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
    )
    values, here, there = json.loads(result.stdout.strip().splitlines()[-1])
    assert values == dict.fromkeys(
        ["exact_match", "quasi_exact_match", "f1_score", "rouge_l", "bleu_1", "bleu_4"], 1.0
    )
    assert here == [False, False]
    # nltk's optional scipy and scikit-learn (a second of the worker's start) stay out of it.
    assert there == [True, False, False]


@pytest.mark.slow  # imports nltk here too: a second
def test_the_worker_gives_the_values_computed_here(liveqa_data_dir: Path) -> None:
    """What the worker leaves out of nltk (UNUSED) changes no value: a few live_qa references
    scored against each other there and here."""
    from liveqa_inspect.overlap.text_overlap import reference_scores
    from liveqa_inspect.tasks.live_qa.dataset import live_qa_dataset

    golds = [list(sample.target) for sample in live_qa_dataset("summary", liveqa_data_dir)[:6]]
    pairs = [(golds[n][0], golds[n - 1]) for n in range(1, len(golds))]
    there = [worker.started().submit(reference_scores, *pair).result() for pair in pairs]
    assert there == [reference_scores(*pair) for pair in pairs]
    assert any(0 < values["rouge_l"] < 1 for values in there)


@pytest.mark.parametrize(
    ("task", "bad"),
    [
        ("live_qa", {"question": "bogus"}),
        ("live_qa_judge", {"question": "bogus"}),
        ("expert_qa_claims", {"aspect": "support", "field": "Alchemy"}),
    ],
)
def test_a_refused_input_starts_no_worker(
    task: str, bad: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The data are read before the scorers are made: a run stopped by a bad argument does not
    start a process (and import nltk in it) for nothing."""
    import liveqa_inspect

    starts: list[None] = []
    monkeypatch.setattr(worker, "started", lambda: starts.append(None))
    with pytest.raises(ValueError):
        getattr(liveqa_inspect, task)(**bad)
    assert starts == []
