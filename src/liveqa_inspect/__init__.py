"""Inspect AI evaluation of the TREC-2017 LiveQA Medical task, graded by a pinned judge."""

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
