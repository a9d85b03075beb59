"""Inspect's private APIs this package needs, in one place, each with why no public one does
(tests/liveqa_inspect/test_inspect_private.py fails on a change); none runs per sample.
`PrerequisiteError`: the CLI prints it as its message alone, no traceback, in every mode (its
exception hook; on stderr under `--json`), and Inspect raises it for a model it cannot make (a
missing key): our errors' base (errors.py), and caught by the checks before a run
(judging/preflight.py). `OpenAICompatibleAPI`: the base of `gguf/`, which relies on it making its
client once; imported when `gguf/` is (it imports openai, a third of a second). `MODEL_NONE`: the
model a run without `--model` logs (a judge log measuring a bound grader), which the report
leaves unnamed as the evaluated model."""

import sys
from collections.abc import Iterable
from contextvars import ContextVar
from functools import cache
from types import TracebackType
from typing import TYPE_CHECKING, Any
from weakref import finalize

from inspect_ai._util.constants import MODEL_NONE
from inspect_ai._util.error import PrerequisiteError, set_exception_hook
from inspect_ai._util.registry import _registry
from inspect_ai.model import GenerateConfig, Model
from inspect_ai.util import display_type

if TYPE_CHECKING:
    from inspect_ai.model._providers.openai_compatible import OpenAICompatibleAPI

__all__ = ["MODEL_NONE", "OpenAICompatibleAPI", "PrerequisiteError"]


def __getattr__(name: str) -> Any:
    if name == "OpenAICompatibleAPI":
        from inspect_ai.model._providers.openai_compatible import OpenAICompatibleAPI

        return OpenAICompatibleAPI
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_OUTSIDE_RUNS: dict[int, GenerateConfig] = {}
_RUN: ContextVar[dict[int, GenerateConfig]] = ContextVar("liveqa_resolved", default=_OUTSIDE_RUNS)
"""Each model's resolved config by its id (a Model compares equal to names: no dict key), read
once a run (`new_run`: a model passed to two runs may be given other settings by each) and once a
process outside runs (re-grading, where none are given)."""


def new_run() -> None:
    """As a run of ours starts (in its context, which its samples inherit)."""
    _RUN.set({})


def resolved_config(model: Model) -> GenerateConfig:
    """What Inspect would send with no config passed to `generate()` (the role's config, the CLI's
    flags): our judge defaults fill only what the user left unset, and no public API says what."""
    known = _RUN.get()
    if id(model) not in known:
        known[id(model)] = model._resolve_config(None)
        finalize(model, known.pop, id(model), None)
    return known[id(model)]


def run_scores() -> bool:
    """Whether the run starting scores its samples (not `--no-score`), asked by a hook as the run
    starts: Inspect keeps `eval(score=...)` a local of the coroutine that starts the run's hooks
    and tells neither a task nor a hook of it. Where none is found, a run that scores."""
    from inspect_ai._eval.eval import _eval_async_inner

    frame = sys._getframe()
    while frame is not None and frame.f_code is not _eval_async_inner.__code__:
        frame = frame.f_back
    return frame is None or bool(frame.f_locals["score"])


def score_command_log(argv: list[str]) -> str | None:
    """The log an `inspect score` command names (None for any other command), read as Inspect's
    command reads its arguments: the entry point, loaded before Inspect reads the log, is the
    one code of ours that runs before Inspect looks up the log's scorers."""
    if argv[1:2] != ["score"]:
        return None
    from inspect_ai._cli.score import score_command

    try:
        context = score_command.make_context("score", argv[2:], resilient_parsing=True)
    except Exception:  # Inspect's own parse says what is wrong, next
        return None
    return context.params.get("log_file")


def register_unqualified(scorers: Iterable[str], package: str) -> None:
    """`inspect score LOG` re-runs the scorers a log names, which name no package, among Inspect's
    own: registered there too (never replacing one), a log re-grades with all of its own."""
    for name in scorers:
        if (scorer := _registry.get(f"scorer:{package}/{name}")) is not None:
            _registry.setdefault(f"scorer:{name}", scorer)


@cache
def say_under_display_none(ours: type[BaseException]) -> None:
    """Inspect's hook prints a PrerequisiteError through rich's console, which `--display none`
    makes quiet (no public hook says it): `ours` go to stderr then, all else to Inspect's hook,
    installed here first as Inspect installs it once a process (in `eval()`, maybe later). Called
    where a run of ours starts (a task of ours built, a `gguf/` model made, a log of ours
    re-graded): the runs of other evals keep Inspect's hook alone."""
    set_exception_hook()
    inspects = sys.excepthook

    def said(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        if isinstance(error, ours) and display_type() == "none":
            print(f"\nERROR: {error}\n", file=sys.stderr, flush=True)
        else:
            inspects(kind, error, trace)

    sys.excepthook = said
