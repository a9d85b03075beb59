"""Inspect AI evaluation of the TREC-2017 LiveQA Medical task, graded by a pinned judge."""

from liveqa_inspect.tasks import live_qa, live_qa_judge

__all__ = ["live_qa", "live_qa_judge"]
