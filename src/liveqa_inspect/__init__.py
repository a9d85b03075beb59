"""Inspect AI evaluation of the TREC-2017 LiveQA Medical task, graded by a pinned judge."""

from liveqa_inspect.tasks import (
    expert_qa,
    expert_qa_claims,
    live_qa,
    live_qa_contamination,
    live_qa_judge,
    live_qa_judge_robustness,
)

__all__ = [
    "expert_qa",
    "expert_qa_claims",
    "live_qa",
    "live_qa_contamination",
    "live_qa_judge",
    "live_qa_judge_robustness",
]
