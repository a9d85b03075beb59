"""Inspect's private APIs this package needs, in one place, each with why no public one does
(tests/liveqa_inspect/test_inspect_private.py fails on a change). `PrerequisiteError`: the CLI
prints it as its message alone, no traceback, in every mode (its exception hook; on stderr under
`--json`), and Inspect raises it for a model it cannot make (a missing key): our errors' base
(errors.py), and caught in judging/solvers.py. `set_exception_hook`: see `say_under_display_none`.
`OpenAICompatibleAPI`: the base of `gguf/`, which relies on it making its client once.
`MODEL_NONE`: the model a run without `--model` logs (a judge log measuring a bound grader),
which the report leaves unnamed as the evaluated model."""

import sys
from types import TracebackType

from inspect_ai._util.constants import MODEL_NONE
from inspect_ai._util.error import PrerequisiteError, set_exception_hook
from inspect_ai._util.registry import _registry
from inspect_ai.model import GenerateConfig, Model
from inspect_ai.model._providers.openai_compatible import OpenAICompatibleAPI
from inspect_ai.scorer._score import _scorers
from inspect_ai.util import display_type

__all__ = ["MODEL_NONE", "OpenAICompatibleAPI", "PrerequisiteError"]


def resolved_config(model: Model) -> GenerateConfig:
    """What Inspect would send with no config passed to `generate()` (the role's config, the CLI's
    flags): our judge defaults fill only what the user left unset, and no public API says what."""
    return model._resolve_config(None)


def sample_is_scored() -> bool:
    """Whether the running sample will be scored (not `--no-score`): Inspect gives a sample its
    scorers only then, and tells a task at build nothing of whether the run scores."""
    return _scorers.get(None) is not None


def register_scorers_unqualified(package: str) -> None:
    """`inspect score LOG` re-runs the scorers a log names, which name no package, among Inspect's
    own: registered there too, a log re-grades with all of its own (the judge's, `verdicts`)."""
    prefix = f"scorer:{package}/"
    for key, scorer in list(_registry.items()):
        if key.startswith(prefix):
            _registry.setdefault(f"scorer:{key.removeprefix(prefix)}", scorer)


def say_under_display_none(ours: type[BaseException]) -> None:
    """Inspect's hook prints a PrerequisiteError through rich's console, which `--display none`
    makes quiet (no public hook says it): `ours` go to stderr then, all else to Inspect's hook,
    installed here first as Inspect installs it once a process (in `eval()`, too late to wrap)."""
    set_exception_hook()
    inspects = sys.excepthook

    def said(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        if isinstance(error, ours) and display_type() == "none":
            print(f"\nERROR: {error}\n", file=sys.stderr, flush=True)
        else:
            inspects(kind, error, trace)

    sys.excepthook = said
