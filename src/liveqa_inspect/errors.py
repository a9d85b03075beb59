"""The errors a user can fix, and how they reach the user whatever Inspect's display.

Every module that refuses data or an argument raises one of these, so the message alone, never a
traceback, says what went wrong and how to fix it.
"""

from __future__ import annotations

import reprlib
import sys
from collections.abc import Callable
from types import TracebackType

from inspect_ai._util.error import (  # inspect-evals-lint: ignore[private_api_imports] -- no public
    PrerequisiteError,  # export of the error Inspect's CLI prints without a traceback
)
from inspect_ai.util import display_type
from rich.markup import escape


class LiveQAError(PrerequisiteError):
    """A problem the user can fix, said in one message.

    Inspect's CLI prints a PrerequisiteError as its message alone, without a traceback; the message
    is rendered as rich markup there, so it is escaped (a path like `runs/[draft]` stays intact).
    """

    def __init__(self, message: str) -> None:
        super().__init__(f"[bold]ERROR[/bold]: {escape(message)}")
        self.args = (message,)
        # Installed when an error is made, so by then Inspect's CLI has installed its own hook.
        if not isinstance(sys.excepthook, _ReportingHook):
            sys.excepthook = _ReportingHook(sys.excepthook)


class DataError(LiveQAError, RuntimeError):
    """A data file is missing, unreachable, altered or malformed; the message says how to fix it."""


class ArgumentError(LiveQAError, ValueError):
    """A task argument has a value the task does not know; the message lists the allowed ones."""


class _ReportingHook:
    """Makes `--display none` show our errors too.

    inspect_ai 0.3.285 prints a PrerequisiteError through its rich console, which `--display none`
    silences, so the run would exit 1 with no word of why. This wraps the hook Inspect installed:
    our message goes to stderr in that case, and everything else to Inspect's hook as before.
    """

    def __init__(self, previous: Callable[..., object]) -> None:
        self.previous = previous

    def __call__(
        self, kind: type[BaseException], error: BaseException, trace: TracebackType | None
    ) -> None:
        if isinstance(error, LiveQAError) and display_type() == "none":
            print(f"\nERROR: {error}\n", file=sys.stderr, flush=True)
        else:
            self.previous(kind, error, trace)


_SHOWN = reprlib.Repr()
_SHOWN.maxstring = _SHOWN.maxother = 80


def shown(value: object) -> str:
    """A value as an error message quotes it: a 50 MB string or a deep object is cut short."""
    return _SHOWN.repr(value)
