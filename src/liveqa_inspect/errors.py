"""The errors a user can fix: every module that refuses data or an argument raises one, so the
message alone, never a traceback, says what went wrong and how to fix it."""

import reprlib

from inspect_ai.util import LimitExceededError
from rich.markup import escape

from liveqa_inspect._inspect_private import PrerequisiteError


class LiveQAError(PrerequisiteError):
    """Inspect's CLI prints a PrerequisiteError as its message alone, as rich markup: escaped, so
    a path like `runs/[draft]` stays intact."""

    def __init__(self, message: str) -> None:
        super().__init__(f"[bold]ERROR[/bold]: {escape(message)}")
        self.args = (message,)


class DataError(LiveQAError, RuntimeError):
    """A data file is missing, unreachable, altered or malformed."""


class StopsTheRun(LiveQAError, LimitExceededError):
    """Raised by a hook of ours as a run or a task starts: a LimitExceededError is the one error
    Inspect lets out of a hook (any other is logged as a warning, and the run goes on)."""

    def __init__(self, message: str) -> None:
        LimitExceededError.__init__(self, "custom", value=1, limit=0, message=message)
        LiveQAError.__init__(self, message)


def changed(path: object, then: str, now: str, consequence: str) -> str:
    """A file a log names by its sha256 (a `gguf/` judge's weights, an own question set or
    judgments file) differs now: continuing the log would mix what two files give."""
    return (
        f"{path} has changed since the log was written (sha256 {then} then, {now} now): "
        f"{consequence}"
    )


class ArgumentError(LiveQAError, ValueError):
    """A task argument has a value the task does not know."""


_SHOWN = reprlib.Repr()
_SHOWN.maxstring = _SHOWN.maxother = 80
shown = _SHOWN.repr
"""A value as an error message quotes it: a 50 MB string or a deep object is cut short."""
