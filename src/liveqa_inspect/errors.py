"""The errors a user can fix: every module that refuses data or an argument raises one, so the
message alone, never a traceback, says what went wrong and how to fix it."""

import reprlib

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


class ChangedFileError(LiveQAError):
    """A file a log names by its sha256 (a `gguf/` judge's weights, an own question set) differs
    now: continuing the log would mix what two files give."""

    def __init__(self, path: object, then: str, now: str, consequence: str) -> None:
        super().__init__(
            f"{path} has changed since the log was written (sha256 {then} then, {now} now): "
            f"{consequence}"
        )


class ArgumentError(LiveQAError, ValueError):
    """A task argument has a value the task does not know."""


_SHOWN = reprlib.Repr()
_SHOWN.maxstring = _SHOWN.maxother = 80
shown = _SHOWN.repr
"""A value as an error message quotes it: a 50 MB string or a deep object is cut short."""
