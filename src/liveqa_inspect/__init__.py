"""Inspect AI evaluation of the TREC-2017 LiveQA Medical task, graded by a pinned judge. A task is
a folder under `tasks/`, a line of `TASKS` (tasks/__init__.py) and its arguments in
liveqa_inspect.py, loaded on first use (PEP 562): else a module run on its own (the llama.cpp
server's wrapper) would import Inspect."""

import importlib
from typing import TYPE_CHECKING

from liveqa_inspect.tasks import TASKS

if TYPE_CHECKING:
    from liveqa_inspect.liveqa_inspect import (
        expert_qa as expert_qa,
    )
    from liveqa_inspect.liveqa_inspect import (
        expert_qa_claims as expert_qa_claims,
    )
    from liveqa_inspect.liveqa_inspect import (
        live_qa as live_qa,
    )
    from liveqa_inspect.liveqa_inspect import (
        live_qa_contamination as live_qa_contamination,
    )
    from liveqa_inspect.liveqa_inspect import (
        live_qa_judge as live_qa_judge,
    )
    from liveqa_inspect.liveqa_inspect import (
        live_qa_judge_robustness as live_qa_judge_robustness,
    )

__all__ = list(TASKS)


def __getattr__(name: str) -> object:
    if name not in TASKS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    task = getattr(importlib.import_module(f"{__name__}.liveqa_inspect"), name)
    globals()[name] = task
    return task
