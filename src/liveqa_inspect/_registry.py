"""What the `inspect_ai` entry point registers: every task of the package."""

from liveqa_inspect import live_qa

__all__ = ["live_qa"]
