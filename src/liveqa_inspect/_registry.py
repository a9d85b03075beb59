"""What the `inspect_ai` entry point registers: every task of the package, and its model API."""

from liveqa_inspect import (
    expert_qa,
    expert_qa_claims,
    live_qa,
    live_qa_contamination,
    live_qa_judge,
    live_qa_judge_robustness,
)
from liveqa_inspect.providers.gguf import gguf

__all__ = [
    "expert_qa",
    "expert_qa_claims",
    "gguf",
    "live_qa",
    "live_qa_contamination",
    "live_qa_judge",
    "live_qa_judge_robustness",
]
