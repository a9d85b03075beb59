"""What the `inspect_ai` entry point registers: every task of the package."""

from liveqa_inspect import live_qa, live_qa_judge

__all__ = ["live_qa", "live_qa_judge"]
