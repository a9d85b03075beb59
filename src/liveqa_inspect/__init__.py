"""Inspect AI evaluation of the TREC-2017 LiveQA Medical task, graded by a pinned judge.

The tasks load on first use (PEP 562): the package is also the parent of modules run on their
own, such as the llama.cpp server's wrapper, which would otherwise import Inspect and every
task (2-3 s of CPU) before starting.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from liveqa_inspect.tasks.expert_qa import expert_qa
    from liveqa_inspect.tasks.expert_qa_claims import expert_qa_claims
    from liveqa_inspect.tasks.live_qa import live_qa
    from liveqa_inspect.tasks.live_qa_contamination import live_qa_contamination
    from liveqa_inspect.tasks.live_qa_judge import live_qa_judge
    from liveqa_inspect.tasks.live_qa_judge_robustness import live_qa_judge_robustness

__all__ = [
    "expert_qa",
    "expert_qa_claims",
    "live_qa",
    "live_qa_contamination",
    "live_qa_judge",
    "live_qa_judge_robustness",
]


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    task = getattr(importlib.import_module(f"{__name__}.tasks.{name}"), name)
    globals()[name] = task
    return task
