"""The `inspect_ai` entry point: every task and the model API. Inspect loads it once, before any
task is built: the place to install the hook that says our errors under `--display none` too."""

import sys
from types import TracebackType

from inspect_ai.util import display_type

from liveqa_inspect import *  # noqa: F403 (every task, as the package exports them)
from liveqa_inspect._inspect_private import register_scorers_unqualified, set_exception_hook
from liveqa_inspect.errors import LiveQAError
from liveqa_inspect.providers.gguf import gguf  # noqa: F401 (registered as it is imported)

register_scorers_unqualified(__package__)
set_exception_hook()  # installed first, Inspect's hook cannot wrap ours later
_inspects = sys.excepthook


def _said(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
    """Inspect's hook prints our errors through rich's console, which `--display none` makes
    quiet: the run would exit 1 without a word. Ours go to stderr then; all else to Inspect's."""
    if isinstance(error, LiveQAError) and display_type() == "none":
        print(f"\nERROR: {error}\n", file=sys.stderr, flush=True)
    else:
        _inspects(kind, error, trace)


sys.excepthook = _said
