"""The peer of live_qa for the throughput benchmark: the same dataset and solver, graded by
Inspect's stock `model_graded_qa` (grader role).

A file of its own because Inspect loads task files without registering them in `sys.modules`,
which breaks dataclasses defined beside the task (as bench_throughput.py has).
"""

from __future__ import annotations

import os
from pathlib import Path

from inspect_ai import Task, task
from inspect_ai.scorer import model_graded_qa
from inspect_ai.solver import generate, prompt_template

from liveqa_inspect.tasks.live_qa.dataset import live_qa_dataset
from liveqa_inspect.tasks.live_qa.task import SOLVER_TEMPLATE, SUBJECT_CONFIG

REPO = Path(__file__).resolve().parents[1]


def data_path(repo: Path = REPO) -> Path | None:
    """LIVEQA_DATA if set, else the shared data folder beside the repository (where the tests
    look), else None: the task's download."""
    if os.environ.get("LIVEQA_DATA"):
        return Path(os.environ["LIVEQA_DATA"])
    shared = repo.parent / "shared" / "data" / "liveqa"
    return shared if shared.exists() else None


@task
def peer_model_graded_qa() -> Task:
    """live_qa's questions and subject prompt; only the scorer differs."""
    return Task(
        dataset=live_qa_dataset("summary", data_path()),
        solver=[prompt_template(SOLVER_TEMPLATE), generate()],
        scorer=model_graded_qa(),
        config=SUBJECT_CONFIG,
    )
