"""What the `inspect_ai` entry point registers: every task of the package, and its model API."""

from liveqa_inspect import *  # noqa: F403 (every task, as the package exports them)
from liveqa_inspect import __all__ as tasks
from liveqa_inspect.providers.gguf import gguf

__all__ = [*tasks, "gguf"]
