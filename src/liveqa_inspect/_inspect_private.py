"""Inspect's private APIs this package needs, in one place, each with why no public one does
(tests/liveqa_inspect/test_inspect_private.py fails on a change). `PrerequisiteError`: the CLI
prints it as its message alone (errors.py). `set_exception_hook`: installed once a process, in
`eval()` after the entry points load, so run first (_registry.py) it cannot wrap ours.
`OpenAICompatibleAPI`: the base of `gguf/`, which relies on it making its client once.
`MODEL_NONE`: the model a run without `--model` logs (a judge log measuring a bound grader),
which the report leaves unnamed as the evaluated model."""

from __future__ import annotations

from inspect_ai._util.constants import MODEL_NONE
from inspect_ai._util.error import PrerequisiteError, set_exception_hook
from inspect_ai._util.registry import _registry
from inspect_ai.model import GenerateConfig, Model
from inspect_ai.model._providers.openai_compatible import OpenAICompatibleAPI
from inspect_ai.scorer._score import _scorers

__all__ = ["MODEL_NONE", "OpenAICompatibleAPI", "PrerequisiteError", "set_exception_hook"]


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
