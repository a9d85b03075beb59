"""Inspect's floor for live_qa's shape, for bench_live_qa.py: no code of the package runs.

The same samples (a JSONL file bench_live_qa.py writes from live_qa's dataset), the same subject
prompt and settings, `generate()`, then Inspect's own `model_graded_qa` (the grader role: one
judge request a sample, as live_qa's), beside constant scorers so that the task has as many
scorers as live_qa (Inspect's own cost of each scorer: its events, summaries and metrics). Run
through `FLOOR_MAIN`, which marks Inspect's entry points loaded, so that not even the package's
entry point (which every `inspect` process of an environment holding the package loads) is
imported.
"""

from __future__ import annotations

import atexit
import gc

from inspect_ai import Task, task
from inspect_ai.dataset import json_dataset
from inspect_ai.model import GenerateConfig
from inspect_ai.scorer import Score, Scorer, Target, mean, model_graded_qa, scorer
from inspect_ai.solver import TaskState, generate, prompt_template

FLOOR_MAIN = (
    "import inspect_ai._util.entrypoints as points; "
    "assert hasattr(points, '_inspect_ai_eps_loaded_all'), 'Inspect renamed its flag'; "
    "points._inspect_ai_eps_loaded_all = True; from inspect_ai._cli.main import main; main()"
)
"""`python -c FLOOR_MAIN eval ...`: Inspect's CLI without loading any package's entry point
(Inspect's private flag of entry points loaded, checked first: renamed, it would load them)."""


def constant(name: str) -> Scorer:
    """A trivial scorer of its own name (Inspect refuses two scorers of one name in a task)."""

    @scorer(metrics=[mean()], name=name)
    def make() -> Scorer:
        async def score(state: TaskState, target: Target) -> Score:
            return Score(value=1.0)

        return score

    return make()


@task
def inspect_floor(samples: str, template: str, scorers: int = 3, freeze: bool = False) -> Task:
    """`samples`: the JSONL file; `template`: live_qa's subject prompt; `scorers`: live_qa's.
    `freeze`: what the package's `runtime.settle` does when a task is built, done here (the
    garbage collector kept off what lives then, and off everything at exit), so that the floor
    compares with the package's code alone."""
    if freeze:
        gc.freeze()
        atexit.register(gc.freeze)
    return Task(
        dataset=json_dataset(samples),
        solver=[prompt_template(template), generate()],
        scorer=[model_graded_qa(), *(constant(f"constant_{n}") for n in range(1, scorers))],
        config=GenerateConfig(temperature=0.0, max_tokens=512),
    )
